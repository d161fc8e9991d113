# The search: fail-soft null-window alpha-beta, one node per card, with the
# table and the bounds at trick starts (included by _engine.pyx).

cdef extern from "Python.h":
    int PyErr_CheckSignals()

cdef enum:
    TT_MIN_REM = 1          # no table for positions with this many tricks left or fewer
    POLL_MASK = (1 << 16) - 1   # look for pending signals every 65536 nodes


cdef void poll_signals(Search* ctx) noexcept nogil:
    """Run the pending signal handlers (briefly taking the GIL); when one
    raises (KeyboardInterrupt on Ctrl-C, whatever a SIGTERM handler raises)
    the search stops: every level returns at once and nothing more is
    stored, so the table keeps only finished results.  The exception stays
    set for the question method to raise."""
    with gil:
        if PyErr_CheckSignals() != 0:
            ctx.stop = 1

cdef uint16_t NIL_META = 0x3800     # the nil seat's bits in Query.meta (see Core._load)


cdef void start_trick(State* st) noexcept nogil:
    """The live cards and the shape of the trick start (the trick in
    progress counts as still in the hands); the relative holdings follow
    when the table needs them (fresh_relative)."""
    cdef uint64_t h[4]
    cdef int p, s
    for p in range(4):
        h[p] = st.hand[p]
    for p in range(st.tlen):
        h[(st.tleader + p) & 3] |= DS_ONE << st.tcard[p]
    st.alive = h[0] | h[1] | h[2] | h[3]
    st.shape = 0
    for p in range(4):
        for s in range(4):
            st.shape |= (<uint64_t>ds_pop(_suit(h[p], s))) << (4 * (4 * p + s))
    st.stale = 15


# Per seat and card: one in the shape's field of that seat's length of the
# card's suit (4 bits per seat and suit).
cdef uint64_t SHAPE_UNIT[4][64]
for _p in range(4):
    for _c in range(52):
        SHAPE_UNIT[_p][_c] = DS_ONE << (16 * _p + 4 * (_c // 13))
# Per card: the bit of its suit.
cdef uint8_t SUIT_BIT[52]
SUIT_BIT[:] = [1 << (c // 13) for c in range(52)]


cdef inline void finish_trick(State* st, int winner) noexcept nogil:
    """The four cards of the trick are played (out of the hands): the
    winner leads next; the live cards and the shape follow, and the
    relative holdings of the suits played are out of date."""
    cdef int k
    cdef uint64_t alive = st.hand[0] | st.hand[1] | st.hand[2] | st.hand[3]
    cdef uint64_t played = st.alive & ~alive
    for k in range(4):
        st.shape -= SHAPE_UNIT[(st.tleader + k) & 3][st.tcard[k]]
        st.stale |= SUIT_BIT[st.tcard[k]]
    if played & DS_SPADES:
        st.broken = 1
    st.tleader = winner
    st.tlen = 0
    st.twin = 0
    st.alive = alive


cdef inline void fresh_relative(State* st) noexcept nogil:
    """Bring the relative holdings of the suits played since they were last
    computed up to date (at a trick start: only the table reads them)."""
    cdef int s, p
    cdef uint64_t a, m
    while st.stale:
        s = ds_ctz(st.stale)
        st.stale &= st.stale - 1
        a = _suit(st.alive, s)
        m = ~(DS_SUIT << (13 * s))
        for p in range(3):
            st.rel[p] = (st.rel[p] & m) | (_relative(_suit(st.hand[p], s), a) << (13 * s))


cdef inline int search(Search* ctx, int target, uint64_t* rw) noexcept nogil:
    """Null-window test of "at least ``target`` counted tricks from here on".

    Fail-soft: a result ``v >= target`` is a lower bound of the value,
    ``v < target`` an upper bound (values are -1 for a lost nil, else the
    counted tricks).  ``rw`` receives the relevant cards of the bound.
    """
    cdef int res
    ctx.nodes += 1
    if (ctx.nodes & POLL_MASK) == 0:
        poll_signals(ctx)
    if ctx.stop:
        rw[0] = 0
        return 0
    if ctx.st.tlen == 0:
        ctx.trick_nodes += 1
        return trick_start(ctx, target, rw)
    if ctx.st.tlen < 3:
        res = trick_bounds(ctx, target, rw)
        if res != NO_BOUND:
            return res
    return expand(ctx, target, rw)


cdef int last_trick(const Search* ctx, int target, uint64_t* rw) noexcept nogil:
    cdef int leader = ctx.st.tleader
    cdef int w = leader, i, p, c
    cdef int cards[4]
    cdef int wc = ds_ctz(ctx.st.hand[leader])
    cards[0] = wc
    for i in range(1, 4):
        p = (leader + i) & 3
        c = ds_ctz(ctx.st.hand[p])
        cards[i] = c
        if _beats(c, wc):
            wc = c
            w = p
    rw[0] = 0
    for i in range(4):
        if cards[i] != wc and SUIT_OF[cards[i]] == SUIT_OF[wc]:
            rw[0] = DS_ONE << wc
            break
    if w == ctx.q.nil:
        return -1
    return (ctx.q.count >> w) & 1


cdef int trick_start(Search* ctx, int target, uint64_t* rw) noexcept nogil:
    cdef int leader = ctx.st.tleader
    cdef uint64_t alive = ctx.st.alive
    cdef int rem = ds_pop(ctx.st.hand[leader])
    cdef int s, p, j, res, use_tt, low, low_lead
    cdef uint64_t shape, crw
    cdef const uint64_t* rel = ctx.st.rel
    cdef uint16_t meta
    rw[0] = 0
    if ctx.q.nil < 0 and target <= 0:
        return 0
    if target > rem or rem == 0:
        return rem
    if rem == 1:
        return last_trick(ctx, target, rw)

    if ctx.q.nil >= 0 and (ctx.features & FEATURE_SURE) and target > 0 and ctx.ply == 0:
        low = _nil_low_suits(ctx.st.hand, ctx.q.nil, &low_lead, &crw)
        if _nil_lowest(ctx.st.hand[ctx.q.nil], low, ctx.q.nil == leader, low_lead):
            # the nil hand can no longer win a trick, whatever anyone
            # plays: at the root of a query for tricks the rest is the
            # plain game (deeper, switching games costs more than it saves)
            j = ctx.q.nil
            meta = ctx.q.meta
            ctx.q.nil = -1
            ctx.q.meta = meta & ~NIL_META
            res = trick_start(ctx, target, rw)
            ctx.q.nil = j
            ctx.q.meta = meta
            rw[0] |= crw
            return res
    res = start_bounds(ctx, target, rem, rw)
    if res != NO_BOUND:
        return res

    # transposition table (not for the last tricks: searching them is cheaper)
    use_tt = (ctx.features & FEATURE_TT) and rem > TT_MIN_REM
    shape = ctx.st.shape
    if use_tt:
        fresh_relative(&ctx.st)
        meta = ctx.q.meta | <uint16_t>leader
        if ctx.q.breaking and ctx.st.broken:
            meta |= 4
        res = tt_probe(&ctx.tt, shape, meta, rel, target, alive, rw)
        if res != NO_HIT:
            return res

    res = leader_bounds(ctx, target, rem, rw)
    if res != NO_BOUND:
        return res

    res = expand(ctx, target, &crw)
    if ctx.stop:
        return res
    if use_tt:
        tt_store(&ctx.tt, ctx.st.hand, shape, meta, rel, alive, crw, target, res, rem)
    rw[0] = crw
    return res


cdef inline uint64_t extend_rw(const Search* ctx, uint64_t rw, int seat) noexcept nogil:
    """Relevant cards as seen by an ancestor: when the lowest relevant
    card of a suit is in ``seat``'s hand, the cards of that hand
    equivalent to it here (one move in this node's search, though perhaps
    not equivalent at an ancestor) are relevant too."""
    cdef uint64_t m = rw & ctx.st.hand[seat]
    cdef int s, low
    while m:
        # (only the suits where the hand holds a relevant card)
        s = ds_ctz(m) // 13
        m &= ~(DS_SUIT << (13 * s))
        low = ds_ctz(_suit(rw, s))
        low = _equivalent_low(_suit(ctx.st.hand[seat], s), low, _suit(ctx.st.alive, s))
        rw |= DS_ONE << (13 * s + low)
    return rw


cdef int expand(Search* ctx, int target, uint64_t* rw) noexcept nogil:
    """Try the moves of the seat to play, likely best first, until one
    proves the result.  A card the cutoff cache names for this position
    is tried before the moves are generated: when it proves the result
    (most nodes), generating and ordering the others is saved; else the
    others follow in their order, as if it had been first in the list.
    A seat following with one legal card plays it (no order, no cache)."""
    cdef int tlen = ctx.st.tlen
    cdef int leader = ctx.st.tleader
    cdef int seat = (leader + tlen) & 3
    cdef int ply = ctx.ply
    cdef Move* mv = &ctx.moves[ply][0]
    cdef int maxnode = (ctx.q.side >> seat) & 1
    cdef int old_twin = ctx.st.twin
    cdef int i, n, k, c, res, wpos, wcard, wseat, nt, low, lwset, best, won, listed
    cdef State saved
    cdef int lw[4]
    cdef uint64_t cb, crw, cw, acc = 0, r, ch = 0
    cdef int cached = -1
    cdef uint64_t legal = 0
    if tlen:
        legal = ctx.st.hand[seat] & (DS_SUIT << (13 * SUIT_OF[ctx.st.tcard[0]]))
        if legal == 0:
            legal = ctx.st.hand[seat]
        if legal & (legal - 1):
            legal = 0
    if legal:
        # one legal card: nothing to order, nothing for the cache to learn
        mv[0].card = ds_ctz(legal)
        n = 1
        listed = 1
    else:
        if ctx.features & FEATURE_CUTOFF:
            ch = cutoff_hash(ctx, seat)
            cached = cutoff_move(ctx, ch, seat)
        if cached >= 0:
            mv[0].card = cached
            n = 1
            listed = 0
        else:
            n = ordered_moves(ctx, seat, mv, -1)
            listed = 1
            if n == 1:
                ch = 0      # (a forced move teaches the cache nothing)
    best = -2 if maxnode else 99
    lw[0] = 0
    lw[1] = 13
    lw[2] = 26
    lw[3] = 39
    lwset = 0
    i = 0
    while True:
        if i == n:
            if listed:
                break
            # the cached move did not prove the result: the others
            n = ordered_moves(ctx, seat, mv, cached)
            listed = 1
            continue
        c = mv[i].card
        i += 1
        if c < lw[SUIT_OF[c]]:
            # a small card like one tried before: below every rank that
            # mattered to that card's result, so it gives the same result
            continue
        cb = DS_ONE << c
        ctx.st.hand[seat] ^= cb
        ctx.st.tcard[tlen] = c
        if tlen == 0 or _beats(c, ctx.st.tcard[old_twin]):
            ctx.st.twin = tlen
        ctx.ply = ply + 1
        if tlen < 3:
            ctx.st.tlen = tlen + 1
            res = search(ctx, target, &crw)
            ctx.st.tlen = tlen
        else:
            wpos = ctx.st.twin
            wcard = ctx.st.tcard[wpos]
            wseat = (leader + wpos) & 3
            cw = 0
            for k in range(4):
                if k != wpos and SUIT_OF[ctx.st.tcard[k]] == SUIT_OF[wcard]:
                    cw = DS_ONE << wcard
                    break
            if wseat == ctx.q.nil:
                res = -1
                crw = cw
            else:
                won = (ctx.q.count >> wseat) & 1
                nt = target - won
                if ctx.q.nil >= 0 and nt < 0:
                    nt = 0
                saved = ctx.st
                finish_trick(&ctx.st, wseat)
                res = search(ctx, nt, &crw)
                if res >= 0:
                    res += won
                crw |= cw
                ctx.st = saved
        ctx.st.twin = old_twin
        ctx.ply = ply
        ctx.st.hand[seat] ^= cb
        if ctx.stop:
            return res
        if (res >= target) == maxnode:
            # cutoff: this move proves the result
            if ch and c != cached:
                cutoff_save(ctx, ch, seat, c)
            rw[0] = extend_rw(ctx, crw, seat)
            return res
        if maxnode:
            if res > best:
                best = res
        elif res < best:
            best = res
        acc |= crw
        k = SUIT_OF[c]
        if not (lwset >> k) & 1:
            lwset |= 1 << k
            r = _suit(acc, k)
            if r:
                low = 13 * k + _extended_low(ctx.st.hand, r, k, _suit(ctx.st.alive, k))
            else:
                low = 13 * k + 13
            if c < low:
                lw[k] = low
    rw[0] = extend_rw(ctx, acc, seat)
    return best
