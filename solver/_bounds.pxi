# Bounds: tricks a set of seats is sure of, without searching (included by
# _engine.pyx).  Each is sound for any side split, count mask and nil seat
# where it is used (docs/ENGINE.md lists where); each reports its relevant
# cards: the smallest set of ranks that backs the value it claims.


cdef inline int _nil_low_suits(const uint64_t* hand, int nil, int* lead,
                               uint64_t* rw) noexcept nogil:
    """The nil hand's *low* suits (bit s): side suits it holds in which its
    highest card is under the other hands' lowest, or nobody else holds
    any.  ``lead``: 1 when another hand holds one of them too (the nil
    hand, on lead, can lead it and be beaten); ``rw``: the other hands'
    lowest card in each low suit they hold (every card below it is the nil
    hand's: the pattern down to it and the shape fix the test)."""
    cdef uint64_t nh = hand[nil], ns, os
    cdef int q, s, low = 0
    lead[0] = 0
    rw[0] = 0
    for s in range(1, 4):
        ns = _suit(nh, s)
        if ns == 0:
            continue
        os = 0
        for q in range(4):
            if q != nil:
                os |= _suit(hand[q], s)
        if os == 0:
            low |= 1 << s
        elif ds_hib(ns) < ds_ctz(os):
            low |= 1 << s
            lead[0] = 1
            rw[0] |= DS_ONE << (13 * s + ds_ctz(os))
    return low


cdef inline int _nil_covered(const uint64_t* hand, int nil, int side, int leader, int spades_led,
                             int low, int low_lead, uint64_t low_rw, uint64_t* rw) noexcept nogil:
    """Can the nil hand surely lose every trick from this trick start on?
    Sufficient: with one partner, every suit the nil hand holds is

    * *low*: not spades, and the nil hand's highest card is below the other
      hands' lowest (or nobody else holds the suit), or
    * *covered*: the i-th highest of the nil hand's cards in the suit is
      below the partner's i-th highest (spades must be covered), or
    * *matched*: not spades, and the j-th lowest card of the other three
      hands together (the partner's cards among them) is above the nil
      hand's j-th lowest, for every j both have,

    and, when the nil hand is on lead, it can lead a covered suit (spades
    only when ``spades_led``: the rules allow it to lead them) or a low
    suit another hand holds.  (A nil hand that may not lead its covered
    spades must lead another suit: with a matched suit only, it leads a
    card the others may all be above and then the suit can be left
    unmatched, or, holding a low suit nobody else holds, a card nobody
    can beat.)  The strategy (fixed in advance, whatever the
    opponents play) keeps every suit low, covered or matched:

    * the suit led is low for the nil hand: it follows below the card led
      (whoever led it); the partner follows or discards a *free* card (one
      no cover needs: of a suit not covered, or the lowest of a covered suit
      where it holds more cards than the nil hand) — it has one, since the
      nil hand's cards are not all in covered suits;
    * the suit led is matched, led by any hand but the nil hand (the
      partner included) with card x: the nil hand plays its highest card
      below x.  It has one: x is one of the other hands' cards, so x is at
      least their lowest, which is above the nil hand's lowest.  Afterwards
      the suit is still matched.  Write o_1 < o_2 < ... for the other
      hands' cards of the suit, a_1 < a_2 < ... for the nil hand's, x = o_m
      and a_k the card played, so a_k < x < a_(k+1).  Then m <= k: else
      o_(k+1) <= o_m = x < a_(k+1), against o_(k+1) > a_(k+1).  With x and
      a_k gone, the j-th lowest of the nil hand is a_j below k and a_(j+1)
      from k on; that of the others is o_j below m and o_(j+1) from m on;
      so for j < m it compares o_j > a_j, for m <= j < k o_(j+1) > a_(j+1)
      > a_j, and for j >= k o_(j+1) > a_(j+1).  The other cards played to
      the trick (the partner follows with any card of the suit, or as for
      a low suit) only raise the others' j-th lowest.  The nil hand never
      leads a matched suit (it is on lead at most now, and leads a covered
      or low suit), so every trick in it is of this kind;
    * the suit led is covered: both follow, the partner with its highest,
      the nil hand with its highest, below it;
    * the nil hand is void in the suit led: it discards a side-suit card (its
      highest of a covered or matched suit, or any low-suit card), never a spade (which
      could ruff and win); the partner follows, or when void discards a free
      card, or, holding only covers (then so does the nil hand), its lowest
      card of the suit the nil hand discards from;
    * the nil hand holds only spades and is void in the suit led: then the
      partner (covering every spade, equal hand sizes) holds only spades
      too and ruffs with its highest, above the nil hand's.

    So the nil hand never plays the winning card and never gets the lead.
    The partner may lead anything: a low suit's card, its highest of a
    covered suit, any card of a matched suit (above), or a suit the nil
    hand does not hold (it discards).  A partner's card below the nil
    hand's lowest of a matched suit spoils the suit: led, it may leave the
    nil hand to win the trick with its lowest when the opponents hold none.
    With no covered suit needed this holds for any partner (see
    _nil_lowest).  ``low``, ``low_lead``, ``low_rw``: from _nil_low_suits.
    ``rw`` gets the nil hand's lowest card of each covered or matched suit
    and the other hands' lowest card of each low suit (the pattern down to
    those cards and the shape fix the test; in a matched suit no card is
    below the nil hand's lowest)."""
    cdef uint64_t nh = hand[nil], ns, ps, m, a, out
    cdef int q, s, i, c, ok, cover, lead_ok
    for q in range(4):
        if q == nil or not (side >> q) & 1:
            continue
        ok = 1
        lead_ok = nil != leader or low_lead
        out = low_rw
        for s in range(4):
            ns = _suit(nh, s)
            if ns == 0 or (low >> s) & 1:
                continue
            ps = _suit(hand[q], s)
            m = ns
            i = 0
            cover = 1
            while m:
                c = ds_hib(m)
                m &= ~(DS_ONE << c)
                i += 1
                if ds_pop(ps >> (c + 1)) < i:
                    cover = 0
                    break
            if cover:
                if s or spades_led:
                    lead_ok = 1
                out |= DS_ONE << (13 * s + ds_ctz(ns))
                continue
            # matched: a side suit whose j-th lowest card of the other three
            # hands (the partner's among them) is above the nil hand's j-th
            # lowest
            if s == 0:
                ok = 0
                break
            m = 0
            for c in range(4):
                if c != nil:
                    m |= _suit(hand[c], s)
            a = ns
            while a and m:
                if ds_ctz(a) > ds_ctz(m):
                    ok = 0
                    break
                a &= a - 1
                m &= m - 1
            if not ok:
                break
            out |= DS_ONE << (13 * s + ds_ctz(ns))
        if ok and lead_ok:
            rw[0] = out
            return 1
    return 0


cdef inline int _nil_lowest(uint64_t nh, int low, int on_lead, int low_lead) noexcept nogil:
    """Is the nil hand (cards ``nh``), holding no spade, low in every suit
    it holds (``low``, ``low_lead``: from _nil_low_suits)?  Then, unless it
    is on lead holding only suits nobody else has, it never wins a trick:
    a trick led by another hand is led in a suit the nil hand follows below
    the card led or discards on (it cannot ruff), so it never gets the lead
    back; on lead it leads a suit some other hand holds and must follow
    with a higher card.  Removing cards keeps the condition, and the
    opponents' play cannot change it, so no partner is needed (the low
    suits' ``rw`` backs it)."""
    cdef int s
    if nh & DS_SPADES:
        return 0
    for s in range(1, 4):
        if _suit(nh, s) and not (low >> s) & 1:
            return 0
    return low_lead or not on_lead


cdef inline int _leaves_nil_winning(const uint64_t* hand, int q, int side, int s,
                                    int low) noexcept nogil:
    """Does seat ``q`` (not the nil hand), playing to a trick in suit ``s``
    that the nil hand wins with its card of rank ``low`` or higher, leave
    it the winner, its opponents playing to make it win?  A partner (a seat
    of ``side``) cannot beat it: no card of ``s`` above it and, ``s`` a
    side suit, no spade while void in ``s``; an opponent has a card that
    does not: one of ``s`` below it, or void, one that is not a spade (or
    ``s`` is spades)."""
    cdef uint64_t qs = _suit(hand[q], s)
    if (side >> q) & 1:
        if qs:
            return ds_hib(qs) < low
        return s == 0 or not (hand[q] & DS_SPADES)
    if qs:
        return ds_ctz(qs) < low
    return s == 0 or (hand[q] & DS_NOT_SPADES) != 0


cdef int nil_wins_trick(const uint64_t* hand, int nil, int side, int leader, int spades_led,
                        uint64_t* rw) noexcept nogil:
    """Must the nil hand win the trick ``leader`` is about to lead, its
    opponents (the seats outside ``side``) playing to make it win?  In a
    suit ``s`` the nil hand holds, with ``L`` its lowest card there, a
    trick led in ``s`` below ``L`` is the nil hand's when

    * no partner (a seat of ``side``) can beat ``L``: it holds no card of
      ``s`` above ``L`` and, ``s`` a side suit, does not hold a spade while
      void in ``s`` (a ruff);
    * every opponent has a card that does not beat ``L``: a card of ``s``
      below it, or, void in ``s``, a card that is not a spade (or ``s`` is
      spades): they all play one.

    The nil hand must follow with ``L`` or higher, and nothing played to
    the trick beats it.  An opponent on lead needs one such suit where it
    holds a card below ``L`` (it leads it; spades only when ``spades_led``:
    the rules allow the leader to lead them); the nil hand on lead needs
    every suit it may lead to be one (it leads ``L`` or higher; no card of
    ``s`` beats it).  A partner on lead is not considered.

    ``rw``: ``L`` of each suit used (the pattern down to it fixes the nil
    hand's cards of the suit and who holds the cards above ``L``; with the
    suit lengths, which seats hold a card below it; the voids and spade
    holdings are in the shape)."""
    cdef uint64_t ns, out = 0
    cdef int s, q, low, ok
    cdef int on_lead = leader == nil
    if not on_lead and (side >> leader) & 1:
        return 0
    for s in range(4):
        if s == 0 and not spades_led:
            continue
        ns = _suit(hand[nil], s)
        if ns == 0 or (not on_lead and _suit(hand[leader], s) == 0):
            continue
        low = ds_ctz(ns)
        ok = 1
        for q in range(4):
            if q != nil and not _leaves_nil_winning(hand, q, side, s, low):
                ok = 0
                break
        if on_lead:
            if not ok:
                return 0
            out |= DS_ONE << (13 * s + low)
        elif ok:
            rw[0] = DS_ONE << (13 * s + low)
            return 1
    if out == 0:
        return 0
    rw[0] = out
    return 1


cdef int nil_must_follow_over(const Search* ctx, uint64_t* rw) noexcept nogil:
    """In the trick in progress, with the nil hand still to play: must it
    win, its opponents playing to make it win?  As in nil_wins_trick, for
    the suit led: the nil hand holds it and its lowest card ``L`` there
    beats the card now winning (of the suit led: no ruff yet), no partner
    still to play can beat ``L`` and every opponent still to play has a
    card that does not beat it.  ``rw``: ``L`` (the trick's cards below it
    may be any of their players' cards below it)."""
    cdef int leader = ctx.st.tleader
    cdef int nil = ctx.q.nil
    cdef int ls = SUIT_OF[ctx.st.tcard[0]]
    cdef int wc = ctx.st.tcard[ctx.st.twin]
    cdef int k, q, low, later = 0
    cdef uint64_t ns
    for k in range(ctx.st.tlen, 4):
        if ((leader + k) & 3) == nil:
            later = 1
    ns = _suit(ctx.st.hand[nil], ls)
    if not later or ns == 0 or SUIT_OF[wc] != ls:
        return 0
    low = ds_ctz(ns)
    if 13 * ls + low < wc:
        return 0
    for k in range(ctx.st.tlen, 4):
        q = (leader + k) & 3
        if q != nil and not _leaves_nil_winning(ctx.st.hand, q, ctx.q.side, ls, low):
            return 0
    rw[0] = DS_ONE << (13 * ls + low)
    return 1


cdef int trick_secure(const Search* ctx, int team, int current_only, uint64_t* rw) noexcept nogil:
    """Is the trick in progress sure to be won by a seat of ``team`` (a
    seat mask), whatever the seats still to play do?  (``current_only``:
    only by the card now winning, against every seat still to play.)"""
    cdef int leader = ctx.st.tleader
    cdef int ls = SUIT_OF[ctx.st.tcard[0]]
    cdef int wc = ctx.st.tcard[ctx.st.twin]
    cdef int ws = (leader + ctx.st.twin) & 3
    cdef int k, q, alone, opp_ruff = 0, mate_ruff = 0
    cdef uint64_t opp_suit = 0, opp_trumps = 0, mate_suit = 0, qs
    for k in range(ctx.st.tlen, 4):
        q = (leader + k) & 3
        qs = _suit(ctx.st.hand[q], ls)
        if (team >> q) & 1 and not current_only:
            mate_suit |= qs
            if qs == 0 and ls != 0 and (ctx.st.hand[q] & DS_SPADES):
                mate_ruff = 1
        else:
            opp_suit |= qs
            if qs == 0 and ls != 0 and (ctx.st.hand[q] & DS_SPADES):
                opp_ruff = 1
                opp_trumps |= ctx.st.hand[q] & DS_SPADES
    rw[0] = 0
    if (team >> ws) & 1:
        # the card now winning: its rank beat the cards already played
        # and must beat those still to come (no rank matters when no
        # other card of its suit is in the trick or still to come)
        alone = 1
        for k in range(ctx.st.tlen):
            if k != ctx.st.twin and SUIT_OF[ctx.st.tcard[k]] == SUIT_OF[wc]:
                alone = 0
        if SUIT_OF[wc] == ls:
            if not opp_ruff and (opp_suit == 0 or wc > 13 * ls + ds_hib(opp_suit)):
                if not (alone and opp_suit == 0):
                    rw[0] = DS_ONE << wc
                return 1
        elif opp_trumps == 0 or wc > ds_hib(opp_trumps):
            if not (alone and opp_trumps == 0):
                rw[0] = DS_ONE << wc
            return 1
    if current_only or SUIT_OF[wc] != ls or opp_ruff:
        return 0
    if mate_suit and 13 * ls + ds_hib(mate_suit) > wc and \
            (opp_suit == 0 or ds_hib(mate_suit) > ds_hib(opp_suit)):
        rw[0] = DS_ONE << (13 * ls + ds_hib(mate_suit))
        return 1
    if mate_ruff:
        return 1
    return 0


cdef inline int trump_sure_tricks(const uint64_t* hand, int team, int need, uint64_t* rw) noexcept nogil:
    """Tricks the seats of ``team`` (a seat mask) win with trumps whatever
    anyone plays, when they are at least ``need``; a smaller count only
    says so (callers compare the count with ``need``).  Every card is
    played in the end and one hand's trumps fall in different tricks; a
    trump of hand q is beaten only by a higher trump of a seat outside the
    team in the same trick, and each such trump beats at most one of q's.
    So if q's i-th highest trump has fewer than i higher trumps outside the
    team, at least i minus that many of q's tricks are the team's (a Hall
    deficiency; it covers "longest trump hand minus the opponents' trumps"
    and "top trumps").  The first hand and i reaching ``need`` (smallest
    relevant set: the ranks down to that i-th trump; i >= need, so the
    search starts at the need-th trump of hands that long).  A count that
    the lengths alone give (a hand's trumps minus all the trumps outside
    the team) has no relevant cards: the suit lengths are in the table's
    key."""
    cdef uint64_t opp = 0, mine
    cdef int q, c, i, d, n, n_opp, longest = 0
    for q in range(4):
        mine = hand[q] & DS_SPADES
        if (team >> q) & 1:
            n = ds_pop(mine)
            if n > longest:
                longest = n
        else:
            opp |= mine
    n_opp = ds_pop(opp)
    rw[0] = 0
    d = longest - n_opp if longest > n_opp else 0
    if d >= need or longest < need:
        return d
    for q in range(4):
        if not (team >> q) & 1:
            continue
        mine = hand[q] & DS_SPADES
        if ds_pop(mine) < need:
            continue
        for i in range(1, need):
            mine &= ~(DS_ONE << ds_hib(mine))
        i = need - 1
        while mine:
            c = ds_hib(mine)
            mine &= ~(DS_ONE << c)
            i += 1
            d = i - ds_pop(opp >> (c + 1))
            if d >= need:
                rw[0] = DS_ONE << c
                return d
    return 0


cdef inline int _top_two_trumps(const uint64_t* hand, int* top_seat, int* sec_seat) noexcept nogil:
    """The second-highest trump (-1 when fewer than two are left), with the
    seats holding it (``sec_seat``) and the highest (``top_seat``)."""
    cdef uint64_t sp = (hand[0] | hand[1] | hand[2] | hand[3]) & DS_SPADES
    cdef int q, top, sec
    if ds_pop(sp) < 2:
        return -1
    top = ds_hib(sp)
    sec = ds_hib(sp & ~(DS_ONE << top))
    for q in range(4):
        if (hand[q] >> top) & 1:
            top_seat[0] = q
        if (hand[q] >> sec) & 1:
            sec_seat[0] = q
    return sec


cdef int trump_over_top(const uint64_t* hand, int team, int actors, int leader,
                        uint64_t* rw) noexcept nogil:
    """Does the set ``team`` (a seat mask) win at least one trick from this
    trick start on with a guarded second trump sitting over the top trump?
    The top trump is held by a seat ``a`` outside the set, the second by
    a seat ``k`` of the set that plays for it (in ``actors``) holding two
    trumps or more, and every seat between them (after ``a``, before
    ``k``) is in the set.

    ``k``'s strategy, until the set has won a trick: in a trick where
    ``a`` played the top trump it keeps the second (it has another card to
    play: another trump when trumps are led); where ``a`` played another
    card it plays the second trump whenever the rules allow (trumps led,
    or void in the suit led), and wins the trick with it (nobody else holds
    a higher trump).  So it plays a low trump only after the top trump is
    gone, and then its second trump is the highest left and wins a trick
    of its own.  A later trick is led by the winner of the one before: a
    seat of the set (a trick won), or one from ``k`` round to ``a``, in
    whose tricks ``a`` plays before ``k``.

    In this trick ``k`` may play before ``a`` (the leader is ``k`` or sits
    between them): then ``k`` plays a low card, keeping the second trump and
    another trump for later, which needs three trumps, or, on lead, a card
    of another suit.  ``rw``: the second trump (the pattern down to it
    fixes both holders; ``k``'s suit lengths are in the shape).
    """
    cdef int a = -1, k = -1, q, early
    cdef int sec = _top_two_trumps(hand, &a, &k)
    if sec < 0:
        return 0
    if (team >> a) & 1 or not (team >> k) & 1 or not (actors >> k) & 1:
        return 0
    if ds_pop(hand[k] & DS_SPADES) < 2:
        return 0
    early = leader == k
    q = (a + 1) & 3
    while q != k:
        if not (team >> q) & 1:
            return 0
        if q == leader:
            early = 1
        q = (q + 1) & 3
    if early and ds_pop(hand[k] & DS_SPADES) < 3 and \
            not (leader == k and (hand[k] & DS_NOT_SPADES)):
        return 0
    rw[0] = DS_ONE << sec
    return 1


cdef int cash_tricks(const Search* ctx, const uint64_t* h, int leader, int broken, int need, uint64_t* rw) noexcept nogil:
    """Tricks ``leader`` can cash from the top of its suits, keeping the
    lead, in the position ``h`` (hands).

    Sound for any side: the tricks are won by the leader itself (its
    cards above every other hand's); spades first, drawing trumps; an
    opponent still holding trumps limits a suit to its length there; a
    partner is never forced to ruff (capped by its side-suit cards while
    it holds trumps).  When the top cards outlast every other hand's
    cards of the suit, the leader's small cards there win too.
    """
    cdef uint64_t alive = h[0] | h[1] | h[2] | h[3]
    cdef uint64_t mine = h[leader]
    cdef int team = (ctx.q.side >> leader) & 1
    cdef int q, s, lim, t_sp, total, cap, n, run, longest, used
    cdef int t[4]
    cdef int k[4]
    cdef uint64_t out = 0, a
    t[0] = 0
    k[0] = 0
    if _may_lead_spades(ctx.q.breaking, broken, mine):
        a = alive & DS_SPADES
        run = _top_run(mine & DS_SPADES, a)
        t[0] = run
        k[0] = run
        if run:
            longest = 0
            for q in range(4):
                if q != leader and ds_pop(h[q] & DS_SPADES) > longest:
                    longest = ds_pop(h[q] & DS_SPADES)
            if run >= longest:
                t[0] = ds_pop(mine & DS_SPADES)
    t_sp = t[0]
    total = 0
    for s in range(1, 4):
        a = _suit(alive, s)
        run = _top_run(_suit(mine, s), a)
        k[s] = run
        lim = run
        if run:
            longest = 0
            for q in range(4):
                if q != leader and ds_pop(_suit(h[q], s)) > longest:
                    longest = ds_pop(_suit(h[q], s))
            if run >= longest:
                lim = ds_pop(_suit(mine, s))
            for q in range(4):
                if q == leader or ((ctx.q.side >> q) & 1) == team:
                    continue
                if ds_pop(h[q] & DS_SPADES) > t_sp:
                    n = ds_pop(_suit(h[q], s))
                    if n < lim:
                        lim = n
            if lim < k[s]:
                k[s] = lim
        t[s] = lim
        total += lim
    if total:
        for q in range(4):
            if q == leader or ((ctx.q.side >> q) & 1) != team:
                continue
            if ds_pop(h[q] & DS_SPADES) > t_sp:
                cap = ds_pop(h[q] & DS_NOT_SPADES)
                if cap < total:
                    total = cap
    if total == 0:
        for s in range(1, 4):
            k[s] = 0
    elif t_sp + total > need and total == t[1] + t[2] + t[3]:
        # enough without some side suits: keep the relevant set small
        # (largest suits first; spades stay, they drew trumps)
        n = t_sp
        used = 0
        while n < need:
            lim = 0
            for s in range(1, 4):
                if not (used >> s) & 1 and t[s] > lim:
                    lim = t[s]
                    q = s
            if lim == 0:
                break
            used |= 1 << q
            n += lim
        if n >= need:
            # (the value claimed must be the one the relevant set backs)
            for s in range(1, 4):
                if not (used >> s) & 1:
                    k[s] = 0
            total = n - t_sp
    for s in range(4):
        if k[s]:
            out |= _kth_highest(_suit(alive, s), k[s]) << (13 * s)
    rw[0] = out
    return t_sp + total


cdef int quick_tricks(const Search* ctx, int leader, int need, uint64_t* rw) noexcept nogil:
    """Quick tricks of the leader's side: the leader's own (``cash_tricks``), or
    a trick crossing to its partner's top card in a suit followed by the
    partner's own quick tricks.  The crossing needs a team of two seats that count alike.
    Stops at the first count reaching ``need`` (smallest relevant set)."""
    cdef int qt = cash_tricks(ctx, ctx.st.hand, leader, ctx.st.broken, need, rw)
    cdef int team = (ctx.q.side >> leader) & 1
    cdef int pd = -1, q, s, top, v, o
    cdef uint64_t h2[4]
    cdef uint64_t a, ls, ps, os, crw
    if qt >= need:
        return qt
    for q in range(4):
        if q != leader and ((ctx.q.side >> q) & 1) == team:
            if pd >= 0:
                return qt          # three seats on the team
            pd = q
    if pd < 0 or ((ctx.q.count >> pd) & 1) != ((ctx.q.count >> leader) & 1):
        return qt
    for s in range(4):
        if qt >= need or qt >= ds_pop(ctx.st.hand[leader]):
            break
        if s == 0 and not _may_lead_spades(ctx.q.breaking, ctx.st.broken, ctx.st.hand[leader]):
            continue
        ls = _suit(ctx.st.hand[leader], s)
        ps = _suit(ctx.st.hand[pd], s)
        if ls == 0 or ps == 0:
            continue
        a = _suit(ctx.st.hand[0] | ctx.st.hand[1] | ctx.st.hand[2] | ctx.st.hand[3], s)
        top = ds_hib(a)
        if not (ps >> top) & 1:
            continue
        for q in range(4):
            h2[q] = ctx.st.hand[q]
        o = 1
        for q in range(4):
            if q == leader or q == pd:
                continue
            os = _suit(ctx.st.hand[q], s)
            if os:
                h2[q] &= ~(DS_ONE << (13 * s + ds_ctz(os)))
            elif s and (ctx.st.hand[q] & DS_SPADES):
                o = 0          # an opponent could ruff
        if not o:
            continue
        h2[leader] &= ~(DS_ONE << (13 * s + ds_ctz(ls)))
        h2[pd] &= ~(DS_ONE << (13 * s + top))
        v = 1 + cash_tricks(ctx, h2, pd, ctx.st.broken or s == 0, need - 1, &crw)
        if v > qt:
            qt = v
            rw[0] = crw | (DS_ONE << (13 * s + top))
    return qt


# ---------------------------------------------------------------------------
# the leader's side's quick tricks through its partner (switch ``side``): a
# line of play the leader and its partner follow whatever the others do,
# simulated trick by trick on *model hands*
# ---------------------------------------------------------------------------
#
# The side is the leader ``L`` and its partner ``P`` (the seat opposite);
# the two other seats are the opponents, whatever they play for.  The model
# hands ``h`` hold the side's cards exactly as the line leaves them.  An
# opponent's model hand stands for its real hand R (unknown: it chose its
# cards) under an invariant kept from trick to trick:
#
# * (domination) per suit, R has at most as many cards as the model, and
#   R's i-th highest card is at most the model's i-th highest;
# * (lengths) an opponent holding a spade in the model has exactly the
#   model's suit lengths, so R holds a spade and a card of a suit exactly
#   when the model does; one without a spade in the model has none in R.
#
# Following suit, an opponent's model plays its lowest card of the suit
# (if the model holds none there, R holds none either and discards: the
# model keeps its cards); R plays any card of that suit, and the invariant
# holds afterwards (the i-th highest left of R is R's i-th or (i+1)-th,
# under the model's i-th).  Only a round where every opponent holding a
# spade holds the suit led is played, so an opponent with a spade never
# discards, and a spadeless one never ruffs.
#
# A round led by seat X with its highest card c of suit s is sure to be the
# side's, X keeping the lead, when (checked on the model) c is higher than
# every other model card of s (then higher than every real card of the
# opponents: domination), no opponent can ruff (s is spades, or every
# opponent holding a spade holds s), and X's partner plays its lowest card
# of s, or, void, a card that is not a spade (it would be a ruff, taking
# the lead), of a suit where it holds no top card if it can (else the
# lowest of a suit where it holds two cards or more).  X may lead spades
# when the rules allow it in the model (spades broken in the model are
# broken in the real play).

cdef enum:
    SIDE_MOST = 4           # the side's quick tricks are counted for a need of 2 to SIDE_MOST tricks


cdef inline uint64_t _low_bit(uint64_t x) noexcept nogil:
    return x & (~x + 1)


cdef inline uint64_t _side_discard(const uint64_t* h, int mate) noexcept nogil:
    """The card ``mate`` (void in the suit led) throws: the lowest card of its
    longest side suit where it holds no top card, else the lowest of its
    longest side suit of two cards or more; 0 when it has neither (it would
    have to ruff or throw a lone top card)."""
    cdef uint64_t alive = h[0] | h[1] | h[2] | h[3]
    cdef uint64_t ms, spare = 0, kept = 0
    cdef int t, n, n_spare = 0, n_kept = 0
    for t in range(1, 4):
        ms = h[mate] & (DS_SUIT << (13 * t))
        if ms == 0:
            continue
        n = ds_pop(ms)
        if not (ms >> ds_hib(alive & (DS_SUIT << (13 * t)))) & 1:
            if n > n_spare:
                n_spare = n
                spare = ms
        elif n >= 2 and n > n_kept:
            n_kept = n
            kept = ms
    if spare:
        return _low_bit(spare)
    return _low_bit(kept)


cdef inline int _side_ruffable(const uint64_t* h, int x, int mate) noexcept nogil:
    """The side suits (bit s) where an opponent of ``x`` and ``mate``
    holding a spade is void: it could ruff them."""
    cdef int q, s, out = 0
    for q in range(4):
        if q != x and q != mate and (h[q] & DS_SPADES):
            for s in range(1, 4):
                if not (h[q] & (DS_SUIT << (13 * s))):
                    out |= 1 << s
    return out


cdef int _side_round(uint64_t* h, int x, int mate, int s, uint64_t alive, int ruffable,
                     uint64_t* rw) noexcept nogil:
    """One round of the line: ``x`` leads its highest card of suit ``s``
    (``alive``: the model's cards, ``ruffable``: _side_ruffable).  When
    the side surely wins it with that card (the conditions above), play
    the round on the model hands, add the card to ``rw`` when another card
    of the suit was in play (else its rank did not matter), and return 1;
    else 0, the hands untouched."""
    cdef uint64_t sm = DS_SUIT << (13 * s)
    cdef uint64_t mine = h[x] & sm
    cdef uint64_t others, c, d
    cdef int q
    if mine == 0 or (ruffable >> s) & 1:
        return 0
    c = DS_ONE << ds_hib(mine)
    others = alive & sm & ~h[x]
    if others > c:
        return 0            # (one suit's bits: a higher card is a larger mask)
    d = h[mate] & sm
    if d:
        d = _low_bit(d)
    else:
        d = _side_discard(h, mate)
        if d == 0:
            return 0
    if others:
        rw[0] |= c
    h[x] &= ~c
    h[mate] &= ~d
    for q in range(4):
        if q != x and q != mate and (h[q] & sm):
            h[q] &= ~_low_bit(h[q] & sm)
    return 1


cdef int _side_cash(uint64_t* h, int x, int mate, int breaking, int* broken, int n, int need,
                    uint64_t* rw) noexcept nogil:
    """Rounds ``x`` wins keeping the lead (spades first while they win),
    added to ``n`` until it reaches ``need``."""
    cdef int s, won, ruffable
    cdef uint64_t alive
    while n < need:
        won = 0
        alive = h[0] | h[1] | h[2] | h[3]
        ruffable = _side_ruffable(h, x, mate)
        for s in range(4):
            if s == 0 and not _may_lead_spades(breaking, broken[0], h[x]):
                continue
            if _side_round(h, x, mate, s, alive, ruffable, rw):
                if s == 0:
                    broken[0] = 1
                won = 1
                break
        if not won:
            break
        n += 1
    return n


cdef inline int _side_ceiling(const uint64_t* h, int x) noexcept nogil:
    """At most this many rounds for ``_side_cash`` from ``x``: a round is
    won in a suit where ``x`` holds the top card, and the others' top cards
    stay (the model plays their lowest cards), so ``x``'s cards of the
    suits it tops."""
    cdef uint64_t alive = h[0] | h[1] | h[2] | h[3]
    cdef uint64_t a
    cdef int s, n = 0
    for s in range(4):
        a = _suit(alive, s)
        if a and (_suit(h[x], s) >> ds_hib(a)) & 1:
            n += ds_pop(_suit(h[x], s))
    return n


cdef int side_quick_tricks(const Search* ctx, int leader, int need, uint64_t* rw) noexcept nogil:
    """Tricks the leader ``L`` and its partner ``P`` (the seat opposite) win
    whatever the opponents do, counted along one line (stopping once the
    count reaches ``need``): L cashes its sure rounds (``_side_cash``);
    then, for a suit B that L holds and may lead, where P holds the top
    card and no opponent can ruff, L leads its lowest card of B to P's
    top card (a sure trick: the top card, no ruff, by the invariant), and
    P cashes its own sure rounds; or, with P holding the highest and the
    third-highest card of B, the seat after L (which plays before P) the
    second-highest, and every opponent holding a spade two cards of B or
    more, two tricks: P wins the first whatever that seat plays (its
    highest card if that seat plays the second-highest, else its
    third-highest, above everything the seat after P holds) and then
    holds the highest card left, which wins the second.  The line's count
    is a sure count for the side: each round counted is won by it.
    ``rw``: the winning cards whose rank mattered, P's top card of B (and
    its third-highest card for the finesse): a position with the same
    holders down to them and the same suit lengths lets the same line win
    the same rounds."""
    cdef int mate = (leader + 2) & 3
    cdef int lho = (leader + 1) & 3
    cdef int breaking = ctx.q.breaking
    cdef int broken = ctx.st.broken, b2
    cdef int n1, n, best, q, B, ok
    cdef uint64_t h[4]
    cdef uint64_t h2[4]
    cdef uint64_t r1 = 0, rr, best_rw, sm, ls, a, top, sec, third
    cdef uint64_t side_cards = ctx.st.hand[leader] | ctx.st.hand[mate]
    # every round is played in a suit whose top card the side holds (a
    # suit topped by an opponent keeps its top card: the model plays an
    # opponent's lowest cards), and each round in a suit takes a card of
    # it from each of L and P that hold one: at most the longer holding
    n = 0
    for B in range(4):
        a = _suit(ctx.st.alive, B)
        if a and (_suit(side_cards, B) >> ds_hib(a)) & 1:
            n1 = ds_pop(_suit(ctx.st.hand[leader], B))
            b2 = ds_pop(_suit(ctx.st.hand[mate], B))
            n += n1 if n1 > b2 else b2
    if n < need:
        rw[0] = 0
        return 0
    for q in range(4):
        h[q] = ctx.st.hand[q]
    n1 = _side_cash(h, leader, mate, breaking, &broken, 0, need, &r1)
    best = n1
    best_rw = r1
    for B in range(4):
        if best >= need:
            break
        sm = DS_SUIT << (13 * B)
        ls = h[leader] & sm
        if ls == 0 or (h[mate] & sm) == 0:
            continue
        if B == 0 and not _may_lead_spades(breaking, broken, h[leader]):
            continue
        a = (h[0] | h[1] | h[2] | h[3]) & sm
        top = DS_ONE << ds_hib(a)
        if not (h[mate] & top):
            continue
        ok = 1
        if B:
            for q in range(4):
                if q != leader and q != mate and (h[q] & DS_SPADES) and not (h[q] & sm):
                    ok = 0
        if not ok:
            continue
        # the finesse: P holds the highest and the third-highest, the seat
        # after L the second-highest; two rounds without a ruff
        a &= ~top
        sec = DS_ONE << ds_hib(a) if a else 0
        a &= ~sec
        third = DS_ONE << ds_hib(a) if a else 0
        if n1 + 2 > best and third and (h[mate] & third) and (h[lho] & sec):
            for q in range(4):
                if q != leader and q != mate and (h[q] & DS_SPADES) and B \
                        and ds_pop(h[q] & sm) < 2:
                    ok = 0
            if ok:
                best = n1 + 2
                best_rw = r1 | third
                if best >= need:
                    break
        # the crossing to P's top card, then P's own rounds
        for q in range(4):
            h2[q] = h[q]
        h2[leader] &= ~_low_bit(ls)
        h2[mate] &= ~top
        for q in range(4):
            if q != leader and q != mate and (h2[q] & sm):
                h2[q] &= ~_low_bit(h2[q] & sm)
        if n1 + 1 + _side_ceiling(h2, mate) < need:
            continue
        b2 = broken or B == 0
        rr = r1 | top
        n = _side_cash(h2, mate, leader, breaking, &b2, n1 + 1, need, &rr)
        if n > best:
            best = n
            best_rw = rr
    rw[0] = best_rw
    return best


cdef inline int side_bounds(const Search* ctx, int target, int rem, uint64_t* rw) noexcept nogil:
    """The leader's side's quick tricks (``side_quick_tricks``) as a bound,
    in queries where the maximisers are the seats that count (not split
    sides: there it costs more than it saves) and the leader's partner (the
    seat opposite) plays for the same set: a lower bound when the two
    maximise, an upper bound when they minimise.  Off for nil queries."""
    cdef int leader = ctx.st.tleader
    cdef int mate = (leader + 2) & 3
    cdef int qt, maxi, counted
    cdef uint64_t crw
    if not (ctx.features & FEATURE_SIDE) or ctx.q.nil >= 0 or ctx.q.side != ctx.q.count:
        return NO_BOUND
    maxi = (ctx.q.side >> leader) & 1
    counted = (ctx.q.count >> leader) & 1
    if ((ctx.q.side >> mate) & 1) != maxi or ((ctx.q.count >> mate) & 1) != counted:
        return NO_BOUND
    if maxi and counted:
        if target < 2 or target > SIDE_MOST:
            return NO_BOUND
        qt = side_quick_tricks(ctx, leader, target, &crw)
        if qt >= target:
            rw[0] = crw
            return qt
    elif not maxi and not counted:
        if rem - target + 1 < 2 or rem - target + 1 > SIDE_MOST:
            return NO_BOUND
        qt = side_quick_tricks(ctx, leader, rem - target + 1, &crw)
        if rem - qt < target:
            rw[0] = crw
            return rem - qt
    return NO_BOUND


cdef int trump_tops_apart(const uint64_t* hand, int players, uint64_t* rw) noexcept nogil:
    """Do the seats ``players`` (a seat mask of seats playing for one set)
    win two tricks with the two highest trumps, held by two of them, one of
    the two holding another trump?  Each hand's own count (trump_sure_tricks)
    gives one trick each way, and the two could fall in the same trick.

    Say ``a`` holds the top trump and ``b`` the second, and ``a`` holds two
    trumps or more (the other case is the same with the roles swapped).
    Until one of the two top trumps has been played, ``b`` plays the second
    only when it must (its only legal card), and ``a`` plays the top trump
    the first time it plays a trump, unless ``b`` must play the second in
    that trick: then it plays a lower trump (it still holds two or more).
    So the first trick with one of the two in it has only one of them,
    which wins it (nothing else beats it), and the other is then the
    highest trump left and wins a trick of its own.  ``rw``: the second
    trump (the pattern down to it fixes both holders)."""
    cdef int a = -1, b = -1
    cdef int sec = _top_two_trumps(hand, &a, &b)
    if sec < 0:
        return 0
    if a == b or not (players >> a) & 1 or not (players >> b) & 1:
        return 0
    if ds_pop(hand[a] & DS_SPADES) < 2 and ds_pop(hand[b] & DS_SPADES) < 2:
        return 0
    rw[0] = DS_ONE << sec
    return 1


cdef int trick_at_lead(const uint64_t* hand, int team, int actors, int leader, int spades_led,
                       uint64_t* rw) noexcept nogil:
    """Does the set ``team`` (a seat mask) win the trick ``leader`` is about
    to lead, whatever the other seats play?  Its seats that play for it
    (``team & actors``, the *players*) win a trick led in suit ``s`` when

    * a player holds the top card of ``s`` and, ``s`` a side suit, no other
      seat void in it holds a spade (the player plays the top card when its
      turn comes: nothing beats it), or
    * ``s`` a side suit, a player void in it holds a spade higher than every
      spade of the other seats void in it (it ruffs with its highest: only
      seats void in ``s`` may play a spade to the trick).

    Every other seat, the set's seats that do not play for it included, is
    treated as playing against it (a trick one of them wins for the set is
    a bonus).  The leader leads a suit it holds, a spade only when
    ``spades_led`` (the rules allow it): a player on lead needs one suit the
    set wins, any other leader every suit it may lead.

    ``rw``: the top card of each suit won by it, the highest spade of each
    ruff that must beat another seat's spades (the pattern down to them
    fixes their holders; voids and spade counts are in the shape)."""
    cdef uint64_t lh = hand[leader], void_sp, sp, best_sp, out = 0, top_bit
    cdef int players = team & actors, on_lead = (players >> leader) & 1
    cdef int s, q, top, won, ruffer
    cdef uint64_t alive = hand[0] | hand[1] | hand[2] | hand[3]
    for s in range(4):
        if _suit(lh, s) == 0 or (s == 0 and not spades_led):
            continue
        won = 0
        top = 13 * s + ds_hib(_suit(alive, s))
        top_bit = DS_ONE << top
        if s == 0:
            for q in range(4):
                if (players >> q) & 1 and hand[q] & top_bit:
                    won = 1
                    out |= top_bit
        else:
            void_sp = 0
            best_sp = 0
            ruffer = 0
            for q in range(4):
                if _suit(hand[q], s):
                    continue
                sp = hand[q] & DS_SPADES
                if (players >> q) & 1:
                    if sp:
                        ruffer = 1
                        if sp > best_sp:
                            best_sp = sp
                else:
                    void_sp |= sp
            if ruffer and (void_sp == 0 or ds_hib(best_sp) > ds_hib(void_sp)):
                won = 1
                if void_sp:
                    out |= DS_ONE << ds_hib(best_sp)
            elif void_sp == 0:
                for q in range(4):
                    if (players >> q) & 1 and hand[q] & top_bit:
                        won = 1
                        out |= top_bit
        if won and on_lead:
            rw[0] = out
            return 1
        if not won and not on_lead:
            return 0
    if on_lead:
        return 0
    rw[0] = out
    return 1


cdef inline int later_trick(const Search* ctx, int team, int actors, uint64_t* rw) noexcept nogil:
    """Does ``team`` win at least one of the tricks left, its seats in
    ``actors`` playing for it?  A guarded second trump over the top trump."""
    return trump_over_top(ctx.st.hand, team, actors, ctx.st.tleader, rw)


# ---------------------------------------------------------------------------
# the bounds as the search uses them: each returns a fail-soft result that
# decides ``target`` (and its relevant cards in ``rw``), or NO_BOUND
# ---------------------------------------------------------------------------

cdef enum:
    NO_BOUND = -100         # no bound decides the target


cdef inline int trick_bounds(const Search* ctx, int target, uint64_t* rw) noexcept nogil:
    """The trick in progress (one to three cards played): who is sure to
    win it?"""
    cdef int rem, tm
    if not (ctx.features & FEATURE_SURE):
        return NO_BOUND
    rem = ds_pop(ctx.st.hand[ctx.st.tleader]) + 1
    if ctx.q.nil >= 0 and trick_secure(ctx, 1 << ctx.q.nil, 1, rw):
        return -1
    if ctx.q.nil >= 0 and (ctx.features & FEATURE_FORCED) and nil_must_follow_over(ctx, rw):
        return -1
    # a team that can take the trick takes it if it helps: the
    # maximisers that count (the other maximisers play against them
    # in trick_secure), or the minimisers that do not count
    if target <= 1 and ctx.q.nil < 0:
        tm = ctx.q.side & ctx.q.count
        if tm and trick_secure(ctx, tm, 0, rw):
            return 1
    if target >= rem:
        tm = (~ctx.q.side) & (~ctx.q.count) & 15
        if tm and trick_secure(ctx, tm, 0, rw):
            return rem - 1
    return NO_BOUND


cdef inline int start_bounds(const Search* ctx, int target, int rem, uint64_t* rw) noexcept nogil:
    """A trick start with ``rem`` >= 2 tricks left, before the table: the
    counted seats, the nil rules and the trump sure tricks (won whoever
    leads: see trump_sure_tricks)."""
    cdef int leader = ctx.st.tleader
    cdef int j, low, low_lead
    cdef uint64_t crw
    if not (ctx.features & FEATURE_SURE):
        return NO_BOUND
    if ctx.q.nil < 0:
        # nobody's tricks count, or everybody's
        if ctx.q.count == 0:
            return 0
        if ctx.q.count == 15:
            return rem
    elif target <= 0:
        low = _nil_low_suits(ctx.st.hand, ctx.q.nil, &low_lead, &crw)
        if _nil_lowest(ctx.st.hand[ctx.q.nil], low, ctx.q.nil == leader, low_lead):
            # the nil hand can no longer win a trick, whatever anyone plays
            rw[0] = crw
            return 0
        j = _may_lead_spades(ctx.q.breaking, ctx.st.broken, ctx.st.hand[leader])
        if _nil_covered(ctx.st.hand, ctx.q.nil, ctx.q.side, leader, j, low, low_lead, crw, rw):
            return 0
    if ctx.q.nil >= 0 and (ctx.features & FEATURE_FORCED):
        # the opponents lead under the nil hand, or it must lead a winner
        j = _may_lead_spades(ctx.q.breaking, ctx.st.broken, ctx.st.hand[leader])
        if nil_wins_trick(ctx.st.hand, ctx.q.nil, ctx.q.side, leader, j, &crw):
            rw[0] = crw
            return -1
    if ctx.st.alive & DS_SPADES:      # (at a trick start: the hands' cards)
        if ctx.q.nil >= 0:
            if trump_sure_tricks(ctx.st.hand, 1 << ctx.q.nil, 1, &crw) >= 1:
                # the nil hand must win a trick with a spade
                rw[0] = crw
                return -1
        # trump tricks the counted seats win whatever anyone plays (a
        # lower bound), and those the other seats win (an upper bound)
        if ctx.q.nil < 0:
            j = trump_sure_tricks(ctx.st.hand, ctx.q.count, target, &crw)
            if j >= target:
                rw[0] = crw
                return j
        j = trump_sure_tricks(ctx.st.hand, (~ctx.q.count) & 15, rem - target + 1, &crw)
        if rem - j < target:
            rw[0] = crw
            return rem - j
        if ctx.q.nil < 0 and (ctx.features & FEATURE_LATER):
            # one trick for a set that needs one: the counted seats that
            # maximise (a lower bound of 1), the seats that do not count
            # where the maximisers need every trick (an upper bound)
            if target == 1 and later_trick(ctx, ctx.q.count, ctx.q.side, &crw):
                rw[0] = crw
                return 1
            if target == rem and later_trick(ctx, (~ctx.q.count) & 15, (~ctx.q.side) & 15, &crw):
                rw[0] = crw
                return rem - 1
    if ctx.q.nil < 0 and (ctx.features & FEATURE_APART) and (target == 2 or target == rem - 1) \
            and ctx.st.alive & DS_SPADES:
        # two tricks for a set that needs two: the counted seats that
        # maximise, the seats that do not count when the maximisers need
        # all but one of the tricks left
        if target == 2 and trump_tops_apart(ctx.st.hand, ctx.q.count & ctx.q.side, &crw):
            rw[0] = crw
            return 2
        if target == rem - 1 and trump_tops_apart(ctx.st.hand, (~ctx.q.count) & (~ctx.q.side) & 15, &crw):
            rw[0] = crw
            return rem - 2
    if ctx.q.nil < 0 and (ctx.features & FEATURE_LEAD) and (target == 1 or target == rem):
        # the same sets win the trick about to be led
        j = _may_lead_spades(ctx.q.breaking, ctx.st.broken, ctx.st.hand[leader])
        if target == 1 and trick_at_lead(ctx.st.hand, ctx.q.count, ctx.q.side, leader, j, &crw):
            rw[0] = crw
            return 1
        if target == rem and trick_at_lead(ctx.st.hand, (~ctx.q.count) & 15, (~ctx.q.side) & 15,
                                           leader, j, &crw):
            rw[0] = crw
            return rem - 1
    return NO_BOUND


cdef inline int leader_bounds(const Search* ctx, int target, int rem, uint64_t* rw) noexcept nogil:
    """A trick start with ``rem`` >= 2 tricks left, after the table: the
    quick tricks of the leader (cashing top cards, keeping the lead)."""
    cdef int leader = ctx.st.tleader
    cdef int qt
    cdef uint64_t crw
    qt = side_bounds(ctx, target, rem, rw)
    if qt != NO_BOUND or not (ctx.features & FEATURE_QUICK):
        return qt
    if (ctx.q.side >> leader) & 1:
        if ctx.q.nil < 0 and (ctx.q.count >> leader) & 1:
            qt = quick_tricks(ctx, leader, target, &crw)
            if qt >= target:
                rw[0] = crw
                return qt
    elif not (ctx.q.count >> leader) & 1:
        qt = quick_tricks(ctx, leader, rem - target + 1, &crw)
        if rem - qt < target:
            rw[0] = crw
            return rem - qt
    return NO_BOUND


def _probe_bounds(pos, int side, int count, int nil_seat, int target, features=None):
    """A test hook: the bounds' verdict at ``pos`` for ``target`` as the
    search uses them, without a table (``features``: FEATURE_* bits, default
    all): ``(result, relevant cards)`` or None when no bound decides.  The
    result is fail-soft: ``result >= target`` claims the value is at least
    ``result``, ``result < target`` that it is at most ``result``, for every
    position with the same suit lengths, leader, broken bit and holders of
    the ranks down to the lowest relevant card of each suit."""
    cdef Core solver = Core(0.01)
    cdef Search* ctx = &solver.s
    cdef int res = NO_BOUND, rem
    cdef uint64_t rw = 0
    solver._load(pos, side, count, nil_seat)
    if features is not None:
        ctx.features = features
    rem = ds_pop(ctx.st.hand[ctx.st.tleader])
    if ctx.st.tlen == 0 and rem >= 2:
        res = start_bounds(ctx, target, rem, &rw)
        if res == NO_BOUND:
            res = leader_bounds(ctx, target, rem, &rw)
    elif 0 < ctx.st.tlen < 3:
        res = trick_bounds(ctx, target, &rw)
    if res == NO_BOUND:
        return None
    return res, rw
