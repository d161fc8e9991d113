# Move ordering: the legal moves (one per group of equivalent cards) and
# their order, likely best first (included by _engine.pyx).

cdef enum:
    CUT_SIZE = 1 << 16      # entries of the cutoff-card cache (8 bytes each)
    CUT_FIRST = 1 << 20     # the ordering score of the cached card


# ---------------------------------------------------------------------------
# the cutoff-card cache: a card that proved a result in a like position is
# tried first.  The key is the seat's place in the trick and: on lead, its
# hand; following suit, the live cards of the suit led and the winning card;
# void, its hand and the winning card; and the question (side, count, nil
# seat, breaking) and, on lead under the breaking rule, whether spades are
# broken.  Only a hint: any card it names is legal and tried like the others.
# ---------------------------------------------------------------------------

cdef int cutoff_alloc(Search* ctx) noexcept nogil:
    ctx.cut = <CutoffEntry*>calloc(CUT_SIZE, sizeof(CutoffEntry))
    return ctx.cut != NULL


cdef void cutoff_reset(Search* ctx) noexcept nogil:
    if ctx.cut != NULL:
        memset(ctx.cut, 0, CUT_SIZE * sizeof(CutoffEntry))


cdef void cutoff_free(Search* ctx) noexcept nogil:
    free(ctx.cut)
    ctx.cut = NULL


cdef inline uint64_t cutoff_hash(const Search* ctx, int seat) noexcept nogil:
    cdef int tlen = ctx.st.tlen
    cdef uint64_t k, extra, h, sm
    extra = <uint64_t>tlen | (<uint64_t>ctx.q.meta << 8)
    if tlen == 0:
        k = ctx.st.hand[seat]
        if ctx.q.breaking and ctx.st.broken:
            extra |= 4
    else:
        sm = DS_SUIT << (13 * SUIT_OF[ctx.st.tcard[0]])
        if ctx.st.hand[seat] & sm:
            k = ctx.st.alive & sm
        else:
            k = ctx.st.hand[seat]
        extra |= <uint64_t>(ctx.st.tcard[ctx.st.twin] + 1) << 24
    h = k * <uint64_t>0x9E3779B97F4A7C15
    h ^= (extra + 1) * <uint64_t>0xC2B2AE3D27D4EB4F
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 32
    return h


cdef inline int cutoff_move(const Search* ctx, uint64_t h, int seat) noexcept nogil:
    """The move of the cached card: the card gen_moves gives for its group
    (the highest of the hand's cards equivalent to it), or -1 when the key
    has no card for ``seat`` or the card is not a legal play here."""
    cdef const CutoffEntry* e = &ctx.cut[h & (CUT_SIZE - 1)]
    cdef int c
    cdef uint64_t hand = ctx.st.hand[seat], sm, o
    if e.check != <uint32_t>((h >> 32) | 1):
        return -1
    c = e.card[seat]
    if c < 0 or not (hand >> c) & 1:
        return -1
    if ctx.st.tlen:
        sm = DS_SUIT << (13 * SUIT_OF[ctx.st.tcard[0]])
        if (hand & sm) and not (sm >> c) & 1:
            return -1
    elif c < 13 and not _may_lead_spades(ctx.q.breaking, ctx.st.broken, hand):
        return -1
    # the run of the hand's cards up from c, to the next live card of
    # another hand (cards out of play do not separate)
    sm = DS_SUIT << (13 * SUIT_OF[c])
    o = ctx.st.alive & ~hand & sm & ~((DS_ONE << (c + 1)) - 1)
    if o:
        sm &= (DS_ONE << ds_ctz(o)) - 1
    return ds_hib(hand & sm)


cdef inline void cutoff_save(Search* ctx, uint64_t h, int seat, int card) noexcept nogil:
    cdef CutoffEntry* e = &ctx.cut[h & (CUT_SIZE - 1)]
    cdef uint32_t check = <uint32_t>((h >> 32) | 1)
    if e.check != check:
        e.check = check
        e.card[0] = -1
        e.card[1] = -1
        e.card[2] = -1
        e.card[3] = -1
    e.card[seat] = <int8_t>card


cdef inline void _sort_moves(Move* mv, int n) noexcept nogil:
    cdef int i, j
    cdef Move m
    for i in range(1, n):
        m = mv[i]
        j = i - 1
        while j >= 0 and mv[j].score < m.score:
            mv[j + 1] = mv[j]
            j -= 1
        mv[j + 1] = m


cdef inline int gen_moves(const Search* ctx, int seat, Move* out) noexcept nogil:
    """Legal moves of ``seat``: one card per group of equivalent cards."""
    cdef uint64_t h = ctx.st.hand[seat]
    cdef uint64_t legal, g, d, reps
    cdef uint64_t tops = (DS_ONE << 12) | (DS_ONE << 25) | (DS_ONE << 38) | (DS_ONE << 51)
    cdef int n = 0
    if ctx.st.tlen:
        legal = h & (DS_SUIT << (13 * SUIT_OF[ctx.st.tcard[0]]))
        if legal == 0:
            legal = h
    else:
        legal = h
        if not _may_lead_spades(ctx.q.breaking, ctx.st.broken, h):
            legal = h & DS_NOT_SPADES
    # the top card of each run of the hand's cards with no other live card
    # between them (cards out of play do not separate): a card whose next
    # live card up its suit is another hand's, or that has none.  All suits
    # at once: ``g``, the cards whose next card up is another hand's live
    # card or the top of their suit, spread down over the cards whose next
    # card up is out of play (``d``, never the top of a suit, so nothing
    # crosses into another suit) in four doubling steps
    g = (((ctx.st.alive & ~h) >> 1) & ~tops) | tops
    d = (~ctx.st.alive >> 1) & ~tops
    g |= d & (g >> 1)
    d &= d >> 1
    g |= d & (g >> 2)
    d &= d >> 2
    g |= d & (g >> 4)
    d &= d >> 4
    g |= d & (g >> 8)
    reps = legal & g
    while reps:
        out[n].card = ds_ctz(reps)
        out[n].score = 0
        n += 1
        reps &= reps - 1
    return n


cdef int ordered_moves(const Search* ctx, int seat, Move* mv, int first) noexcept nogil:
    """The legal moves of ``seat`` (gen_moves) in search order: scored
    (order_moves), the move ``first`` (a card of the list, or -1 for
    none) ahead of the others, sorted; returns their number."""
    cdef int i
    cdef int n = gen_moves(ctx, seat, mv)
    if n > 1:
        order_moves(ctx, seat, mv, n)
        if first >= 0:
            for i in range(n):
                if mv[i].card == first:
                    mv[i].score = CUT_FIRST
                    break
        _sort_moves(mv, n)
    return n


cdef void order_moves(const Search* ctx, int seat, Move* mv, int n) noexcept nogil:
    """Score the moves for the search order."""
    cdef int me = (ctx.q.side >> seat) & 1
    if ctx.st.tlen:
        _order_follow(ctx, seat, mv, n)
    elif ctx.q.nil >= 0 and (seat == ctx.q.nil or not me):
        _order_lead_nil(ctx, seat, mv, n)
    else:
        _order_lead(ctx, seat, mv, n)


cdef void _order_lead_nil(const Search* ctx, int seat, Move* mv, int n) noexcept nogil:
    """Leads in a nil query.  The nil hand leads the cards with the most
    cards of other hands above them.  Its opponents lead in the suits
    where the nil hand's lowest card is high, its partners hold few cards
    above it and they hold many below it (the nil hand may be forced to
    win), their highest card under it first (the lower ones stay to lead
    under it again)."""
    cdef int nil = ctx.q.nil
    cdef int i, c, s, r, lo, q
    cdef uint64_t ns, ms, ps, os
    for i in range(n):
        c = mv[i].card
        s = SUIT_OF[c]
        r = RANK_OF[c]
        if seat == nil:
            os = _suit(ctx.st.hand[0] | ctx.st.hand[1] | ctx.st.hand[2] | ctx.st.hand[3], s) \
                & ~_suit(ctx.st.hand[nil], s)
            mv[i].score = 20 * ds_pop(os >> (r + 1)) - r
            continue
        ns = _suit(ctx.st.hand[nil], s)
        ms = _suit(ctx.st.hand[seat], s)
        if ns == 0:
            mv[i].score = -20 - r
            continue
        lo = ds_ctz(ns)
        ps = 0
        for q in range(4):
            if q != nil and (ctx.q.side >> q) & 1:
                ps |= _suit(ctx.st.hand[q], s)
        mv[i].score = 100 + 4 * lo - 20 * ds_pop(ps >> lo) + 20 * ds_pop(ms & ((DS_ONE << lo) - 1)) + r
        if r > lo:
            mv[i].score -= 60


cdef void _order_lead(const Search* ctx, int seat, Move* mv, int n) noexcept nogil:
    """Order the leads by suit categories (in the spirit of well-tuned
    bridge solvers): give partner a ruff, finesse through the left-hand
    opponent, lead from strength, plain leads, suits with a void, free
    finesses for the right-hand opponent, trumps; a suit an opponent can
    ruff comes last.  In one category, the suits where the leader's side
    holds the top card come first, then those where the other side holds
    fewer cards (a void counting as more than any length, as in DDS's lead
    weights).  In each suit the top and bottom cards come first."""
    cdef uint64_t alive = ctx.st.alive     # (on lead: the hands)
    cdef int team = (ctx.q.side >> seat) & 1
    cdef int lho = (seat + 1) & 3, pd = (seat + 2) & 3, rho = (seat + 3) & 3
    cdef int std = (((ctx.q.side >> pd) & 1) == team and ((ctx.q.side >> lho) & 1) != team
                    and ((ctx.q.side >> rho) & 1) != team)
    cdef int i, q, s, k, cat, top, bottom, my_tr, opp_ruff, opp_void, pd_ruff, any_void, n_other
    cdef int rem = ds_pop(ctx.st.hand[seat])
    cdef int cats[4]
    cdef int key[4]
    cdef int tops[4]
    cdef int bottoms[4]
    cdef uint64_t ms, ps, ls, rs, ours, suit_alive, A, K, Q, J, T, rest
    cdef uint64_t side_cards = 0
    my_tr = ds_pop(ctx.st.hand[seat] & DS_SPADES)
    for q in range(4):
        if ((ctx.q.side >> q) & 1) == team:
            side_cards |= ctx.st.hand[q]
    for s in range(4):
        cats[s] = -1
        tops[s] = -1
        bottoms[s] = 99
    for i in range(n):
        s = SUIT_OF[mv[i].card]
        if mv[i].card > tops[s]:
            tops[s] = mv[i].card
        if mv[i].card < bottoms[s]:
            bottoms[s] = mv[i].card
    for s in range(4):
        if tops[s] < 0:
            continue
        if s == 0:
            cats[s] = 50
            continue
        ms = _suit(ctx.st.hand[seat], s)
        ps = 0
        opp_ruff = 0
        opp_void = 0
        pd_ruff = 0
        any_void = 0
        for q in range(4):
            if q == seat:
                continue
            if ((ctx.q.side >> q) & 1) == team:
                ps |= _suit(ctx.st.hand[q], s)
                if _suit(ctx.st.hand[q], s) == 0:
                    any_void = 1
                    if (ctx.st.hand[q] & DS_SPADES) and ds_pop(ctx.st.hand[q] & DS_SPADES) <= my_tr:
                        pd_ruff = 1
            elif _suit(ctx.st.hand[q], s) == 0:
                opp_void = 1
                any_void = 1
                if ctx.st.hand[q] & DS_SPADES:
                    opp_ruff = 1
        if opp_ruff:
            cats[s] = 0
            continue
        suit_alive = _suit(alive, s)
        rest = suit_alive
        A = (DS_ONE << ds_hib(rest)) if rest else 0
        rest &= ~A
        K = (DS_ONE << ds_hib(rest)) if rest else 0
        rest &= ~K
        Q = (DS_ONE << ds_hib(rest)) if rest else 0
        rest &= ~Q
        J = (DS_ONE << ds_hib(rest)) if rest else 0
        rest &= ~J
        T = (DS_ONE << ds_hib(rest)) if rest else 0
        ours = ms | ps
        cat = 300
        if std:
            ps = _suit(ctx.st.hand[pd], s)
            ls = _suit(ctx.st.hand[lho], s)
            rs = _suit(ctx.st.hand[rho], s)
            if ds_pop(ps) >= 2 and ds_pop(ls) >= 2 and (
                    ((ps & K) and (ls & A))
                    or ((ps & A) and (ls & K) and ((ps & Q) or (Q and J and (ours & (Q | J)) == (Q | J))))
                    or ((ps & K) and (ls & Q) and ((ps & J) or (J and T and (ours & (J | T)) == (J | T))))):
                cats[s] = 500
                continue
            if ds_pop(ms) >= 2 and ds_pop(rs) >= 2 and (
                    ((ms & A) and (rs & K)) or ((ms & K) and (rs & A) and not (ours & Q))):
                cats[s] = 100
                continue
        if not opp_void and ds_pop(ours & (A | K | Q)) >= 2:
            cat = 400
        elif pd_ruff and not opp_void and not (ms == A):
            cat = 600
        elif any_void:
            cat = 200
        cats[s] = cat
    for s in range(4):
        if tops[s] < 0:
            continue
        # in one category: the side's top card, then the other side's
        # lengths (a void as more than any length), as DDS weighs them
        n_other = 0
        for q in range(4):
            if ((ctx.q.side >> q) & 1) != team:
                k = ds_pop(_suit(ctx.st.hand[q], s))
                n_other += k if k else rem + 1
        key[s] = 1000 * cats[s] - (n_other * 128) // 13
        if (side_cards >> (13 * s + ds_hib(_suit(alive, s)))) & 1:
            key[s] += 20
    for i in range(n):
        s = SUIT_OF[mv[i].card]
        if cats[s] == 600:
            mv[i].score = key[s] + 8 if mv[i].card == bottoms[s] else -10000
        elif mv[i].card == tops[s]:
            mv[i].score = key[s] + 2
        elif mv[i].card == bottoms[s]:
            mv[i].score = key[s] + 1
        else:
            mv[i].score = -10000


cdef void _order_follow(const Search* ctx, int seat, Move* mv, int n) noexcept nogil:
    """Order the plays to a trick: duck when partner's card holds or we
    cannot win, win as cheaply as is safe, ruff low, discard from long
    suits."""
    cdef int leader = ctx.st.tleader
    cdef int pos = ctx.st.tlen
    cdef int ls = SUIT_OF[ctx.st.tcard[0]]
    cdef int wc = ctx.st.tcard[ctx.st.twin]
    cdef int wseat = (leader + ctx.st.twin) & 3
    cdef int team = (ctx.q.side >> seat) & 1
    # ``good``: the seats whose winning the trick helps this seat's side
    # (the counted seats for a maximiser, the others for a minimiser; in
    # a nil query every seat but the nil hand, or the nil hand alone)
    cdef int good
    cdef int pw
    cdef int i, k, q, c, s, r, my_top, my_low_win, later_top, later_void, later_ruff
    cdef int pd_later_top, safe, discard, under
    cdef uint64_t lat = 0, pd_lat = 0, mine, hi
    cdef int prev, low
    if ctx.q.nil >= 0:
        good = (15 & ~(1 << ctx.q.nil)) if team else (1 << ctx.q.nil)
    else:
        good = ctx.q.count if team else (~ctx.q.count) & 15
    pw = (good >> wseat) & 1
    if ctx.q.nil >= 0 and not team and not (pos > ((ctx.q.nil - leader) & 3) and wseat == ctx.q.nil):
        # an opponent of the nil hand: under it when it is still to
        # play (it may be forced to win); when it has lost the trick,
        # win cheaply (the lead), else high, keeping the cards under its
        # lowest of the suit (to lead under it later); void, shed high
        k = pos > ((ctx.q.nil - leader) & 3)
        discard = _suit(ctx.st.hand[seat], ls) == 0
        under = ds_ctz(_suit(ctx.st.hand[ctx.q.nil], ls) | (DS_ONE << 13))
        for i in range(n):
            c = mv[i].card
            if k and _beats(c, wc):
                mv[i].score = 200 - RANK_OF[c]
            elif k and not discard:
                r = RANK_OF[c]
                mv[i].score = 50 - r if r < under else 100 + r
            elif discard:
                # discard high, first the cards above the nil hand's
                # lowest of their suit; keep those under it (to lead
                # under it later) and those of suits it does not hold
                s = SUIT_OF[c]
                r = RANK_OF[c]
                mv[i].score = (50 if r < ds_ctz(_suit(ctx.st.hand[ctx.q.nil], s) | (DS_ONE << 13))
                               else 100) + r
            else:
                mv[i].score = 100 - RANK_OF[c]
        return
    if not (good >> seat) & 1:
        # this seat winning the trick does not help: lose it, shedding
        # the highest cards that lose (and when it must win, cheaply)
        _order_shed(ctx, seat, mv, n)
        return
    later_void = 0
    later_ruff = 0
    for k in range(pos + 1, 4):
        q = (leader + k) & 3
        if ((ctx.q.side >> q) & 1) == team:
            if (good >> q) & 1:
                pd_lat |= _suit(ctx.st.hand[q], ls)
            continue
        if _suit(ctx.st.hand[q], ls) == 0:
            later_void = 1
            if ctx.st.hand[q] & DS_SPADES:
                later_ruff = 1
        lat |= _suit(ctx.st.hand[q], ls)
    later_top = 13 * ls + ds_hib(lat) if lat else -1
    pd_later_top = 13 * ls + ds_hib(pd_lat) if pd_lat else -1
    mine = _suit(ctx.st.hand[seat], ls)
    if mine:
        my_top = 13 * ls + ds_hib(mine)
        # is partner's winning card safe from the opponents still to play?
        if SUIT_OF[wc] == ls:
            safe = (not later_ruff) and wc > later_top
        else:
            safe = 1
        if pos == 3:
            safe = 1
        if pw and SUIT_OF[wc] == ls and my_top > wc and not later_ruff and \
                lat & ((DS_ONE << (my_top - 13 * ls + 1)) - (DS_ONE << (wc - 13 * ls + 1))) == 0:
            # partner wins with a card of the suit led and no opponent
            # still to play holds a card between it and ours: overtaking
            # gains nothing (an opponent's card that beats partner's beats
            # ours too)
            safe = 1
        if not _beats(my_top, wc) or (pw and safe):
            for i in range(n):
                mv[i].score = 100 + 13 * ls - mv[i].card
            return
        if pos == 1 and not pw and pd_later_top > wc and (not lat or pd_later_top > later_top):
            # partner, still to play, can beat the trick: second hand low
            for i in range(n):
                mv[i].score = 100 + 13 * ls - mv[i].card
            return
        hi = mine & ~((DS_ONE << (wc - 13 * ls + 1)) - 1) if SUIT_OF[wc] == ls else mine
        my_low_win = 13 * ls + ds_ctz(hi)
        for i in range(n):
            c = mv[i].card
            r = c - 13 * ls
            if _beats(c, wc):
                if pos == 3 or not lat or (my_low_win > later_top and not later_ruff):
                    mv[i].score = 200 - r
                else:
                    mv[i].score = 200 + r
            else:
                mv[i].score = 100 - r
        return
    # void in the suit led: ruff or discard
    safe = pos == 3 or (lat and wc > later_top and not later_ruff) or (SUIT_OF[wc] == 0 and not later_ruff)
    prev = -1
    for i in range(n):
        c = mv[i].card
        s = SUIT_OF[c]
        r = c - 13 * s
        # the lowest move of its suit (the moves come suit by suit, up)
        low = s != prev
        prev = s
        if s == 0:
            if pw and safe:
                mv[i].score = 10 - r
            elif SUIT_OF[wc] == 0:
                if not pw and c > wc:
                    mv[i].score = 300 - r
                else:
                    mv[i].score = 10 - r
            elif pos == 3 or lat or not later_ruff:
                mv[i].score = 300 - r if low else 20 - r
            else:
                mv[i].score = 250 + r
        elif low:
            mv[i].score = 100 + ds_pop(_suit(ctx.st.hand[seat], s))
        else:
            mv[i].score = 30 - r


cdef void _order_shed(const Search* ctx, int seat, Move* mv, int n) noexcept nogil:
    """Order the plays of a seat that should not win the trick (the nil
    hand, a maximiser whose tricks do not count, a counted minimiser):
    the highest cards that lose now first, then the cheapest winners."""
    cdef int wc = ctx.st.tcard[ctx.st.twin]
    cdef int i, c
    for i in range(n):
        c = mv[i].card
        if _beats(c, wc):
            mv[i].score = 50 - RANK_OF[c] - (13 if c < 13 else 0)
        elif c < 13:
            mv[i].score = 150 + RANK_OF[c]      # a spade under a higher spade
        else:
            mv[i].score = 100 + RANK_OF[c]
