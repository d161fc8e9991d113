# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, overflowcheck=False
# cython: infer_types=False, profile=False
"""The compiled double-dummy core of dummy-spades.

Reached through :mod:`solver.engine` (the Python facade); the interface and
its semantics are those of :mod:`solver.reference`.  docs/ENGINE.md
describes the design.  The core is one module made of units, in the manner
of scikit-learn's tree code: types in ``_engine.pxd``, and

* ``_bits.pxi``: bit and card helpers (C intrinsics);
* ``_table.pxi``: storage, the transposition table;
* ``_bounds.pxi``: sure and quick tricks, the nil rules;
* ``_order.pxi``: move generation and ordering;
* ``_search.pxi``: the null-window alpha-beta search;
* this file: the drivers (MTD(f), playing root moves) and :class:`Core`,
  with one method per question.

The search works on one :c:type:`Search` struct (position, question, table,
statistics) and runs on C data without the GIL.
"""
from libc.stdint cimport int8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from cpython.exc cimport PyErr_Occurred

include "_bits.pxi"
include "_table.pxi"
include "_bounds.pxi"
include "_order.pxi"
include "_search.pxi"

if not ds_cpu_ok():
    raise ImportError("this CPU lacks POPCNT, which the engine was compiled for (x86-64-v2); "
                      "build it for the oldest x86-64 with DUMMY_SPADES_ARCH=x86-64 "
                      "(pip install --no-binary dummy-spades ...)")
ds_init_tables()

MAX_TT_MB = 1048576.0       # 1 TiB: a bound on the table's size arithmetic, not a recommendation

FEATURES = {"tt": FEATURE_TT, "quick": FEATURE_QUICK, "sure": FEATURE_SURE,
            "cutoff": FEATURE_CUTOFF, "later": FEATURE_LATER, "lead": FEATURE_LEAD,
            "apart": FEATURE_APART, "forced": FEATURE_FORCED, "side": FEATURE_SIDE}
# Every technique but the leader's quick tricks (FEATURE_QUICK): with the
# table and the trick-start bounds in front of it, that bound takes no nodes
# off and costs its CPU (docs/BENCHMARKS.md, "Techniques"); set_features(quick=True)
# switches it on.
cdef int default_features = (FEATURE_TT | FEATURE_SURE | FEATURE_CUTOFF
                             | FEATURE_LATER | FEATURE_LEAD | FEATURE_APART | FEATURE_FORCED
                             | FEATURE_SIDE)


def set_features(**switches):
    """Switch techniques on or off (``tt=False``, ...; names in FEATURES) for
    the cores created from now on; returns the previous switches.  A
    measuring aid: answers never change, only the work done."""
    global default_features
    old = features()
    for name, on in switches.items():
        if name not in FEATURES:
            raise ValueError(f"unknown feature {name!r}; known: {', '.join(FEATURES)}")
        if on:
            default_features |= FEATURES[name]
        else:
            default_features &= ~FEATURES[name]
    return old


def features():
    """The switches new cores get: {name: on}."""
    return {name: bool(default_features & bit) for name, bit in FEATURES.items()}


# ---------------------------------------------------------------------------
# drivers
# ---------------------------------------------------------------------------

cdef inline int tricks_left(const Search* ctx) noexcept nogil:
    return ds_pop(ctx.st.hand[ctx.st.tleader]) + (1 if ctx.st.tlen else 0)


cdef int mtd_value(Search* ctx, int lo, int hi, int guess) noexcept nogil:
    """The exact value in [lo, hi] by null-window searches (MTD(f)):
    each fail-soft result moves a bound, and the next test starts there."""
    cdef int t, v
    cdef uint64_t rw
    t = guess
    while lo < hi and not ctx.stop:
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        ctx.ply = 0
        v = search(ctx, t, &rw)
        if v >= t:
            lo = v
            t = v + 1
        else:
            hi = v
            t = v
    return lo


cdef int first_guess(const Search* ctx) noexcept nogil:
    """A first guess of the value for the MTD driver.  For two partners
    against two (the tricks of the side counted, no nil) a linear fit of
    double-dummy results on high cards, trump lengths and shortness;
    else the top (the fail-soft searches come down quickly)."""
    cdef int rem = tricks_left(ctx)
    cdef int q, s, n, hcp = 0, tr = 0, mx = 0, omx = 0, short = 0, top = 0
    cdef uint64_t sp
    cdef double est
    if ctx.q.nil >= 0 or ctx.q.count != ctx.q.side or ds_pop(ctx.q.side) != 2 or ctx.st.tlen:
        return rem
    sp = 0
    for q in range(4):
        n = ds_pop(ctx.st.hand[q] & DS_SPADES)
        if (ctx.q.side >> q) & 1:
            sp |= ctx.st.hand[q]
            tr += n
            if n > mx:
                mx = n
            for s in range(4):
                hcp += 4 * ((ctx.st.hand[q] >> (13 * s + 12)) & 1) + 3 * ((ctx.st.hand[q] >> (13 * s + 11)) & 1) \
                    + 2 * ((ctx.st.hand[q] >> (13 * s + 10)) & 1) + ((ctx.st.hand[q] >> (13 * s + 9)) & 1)
            if n:
                for s in range(1, 4):
                    n = ds_pop(_suit(ctx.st.hand[q], s))
                    if n < 3:
                        short += 3 - n
        elif n > omx:
            omx = n
    top = ((sp >> 12) & 1) + ((sp >> 11) & 1) + ((sp >> 10) & 1)
    est = (0.387 * hcp + 0.571 * tr + 0.416 * mx - 0.317 * omx + 0.093 * short
           + 0.151 * top - 5.986) * rem / 13.0
    n = <int>(est + 1.0)        # the first test: at least the fit rounded up
    if n < 0:
        n = 0
    if n > rem:
        n = rem
    return n


cdef int root_value(Search* ctx) noexcept nogil:
    cdef int rem = tricks_left(ctx)
    cdef int lo = -1 if ctx.q.nil >= 0 else 0
    if rem == 0:
        return 0
    return mtd_value(ctx, lo, rem, first_guess(ctx))


cdef int play_card(Search* ctx, int card) noexcept nogil:
    """Play ``card`` at the root; return the trick's winner if it completes one, else -1."""
    cdef int seat = (ctx.st.tleader + ctx.st.tlen) & 3
    cdef int w
    ctx.st.hand[seat] &= ~(DS_ONE << card)
    ctx.st.tcard[ctx.st.tlen] = card
    if ctx.st.tlen == 0 or _beats(card, ctx.st.tcard[ctx.st.twin]):
        ctx.st.twin = ctx.st.tlen
    ctx.st.tlen += 1
    if ctx.st.tlen < 4:
        return -1
    w = (ctx.st.tleader + ctx.st.twin) & 3
    finish_trick(&ctx.st, w)
    return w


cdef class Core:
    """One search context: a bounded transposition table and search state.

    ``tt_mb`` caps the table's memory; the table starts small and doubles
    while it fills, up to the cap, and then replaces its least recently used
    entries.  Not thread-safe: use one Core per thread or process.
    """

    def __cinit__(self, double tt_mb):
        if not 0 < tt_mb <= MAX_TT_MB:
            raise ValueError(f"tt_mb must be a number of megabytes above 0 and at most "
                             f"{MAX_TT_MB:.0f}, not {tt_mb!r}")
        self.tt_mb = tt_mb
        tt_init(&self.s.tt, tt_mb)
        if self.s.tt.bucket == NULL or not cutoff_alloc(&self.s):
            raise MemoryError()
        self.s.features = default_features
        self.s.nodes = 0
        self.s.trick_nodes = 0
        self.s.q.nil = -1

    def __dealloc__(self):
        tt_free(&self.s.tt)
        cutoff_free(&self.s)

    def clear(self):
        """Empty the transposition table (and shrink it to its initial size)
        and zero the statistics: a cold start."""
        tt_reset(&self.s.tt)
        cutoff_reset(&self.s)
        self.reset_stats()
        if self.s.tt.bucket == NULL:
            raise MemoryError()

    def reset_stats(self):
        """Zero the statistics (``nodes``, ``trick_nodes``)."""
        self.s.nodes = 0
        self.s.trick_nodes = 0

    @property
    def nodes(self):
        """Search nodes visited (one per card tried, and one per root)."""
        return self.s.nodes

    @property
    def trick_nodes(self):
        """Search nodes at trick starts (what DDS counts as nodes)."""
        return self.s.trick_nodes

    @property
    def features(self):
        """The techniques this Core uses: {name: on} (see set_features)."""
        return {name: bool(self.s.features & bit) for name, bit in FEATURES.items()}

    @property
    def tt_entries(self):
        """Number of transposition-table entries in use."""
        return self.s.tt.used

    @property
    def tt_capacity(self):
        """Number of entries the table holds now (it grows up to ``tt_mb``)."""
        return self.s.tt.buckets * BUCKET

    @property
    def tt_bytes(self):
        """Bytes the table holds now (slots and shape directory)."""
        return self.s.tt.buckets * tt_bytes_per_bucket()

    # ------------------------------------------------------------------
    # the questions (one entry point each; positions are checked by the caller)
    # ------------------------------------------------------------------
    cdef int _interrupted(self) except -1:
        """Raise what a signal handler raised during the search (see
        poll_signals); the table holds only finished results."""
        self.s.stop = 0
        if PyErr_Occurred() == NULL:
            raise KeyboardInterrupt
        return -1

    cdef int _load(self, object pos, int side, int count, int nil_seat) except -1:
        """Set up the search at ``pos`` (``hands``, ``leader``, ``trick``,
        ``spades_broken``, ``breaking``) for ``side`` (the maximisers),
        ``count`` (the seats whose tricks count) and ``nil_seat`` (-1: none)."""
        cdef int i, k
        cdef tuple hands = tuple(pos.hands)
        cdef tuple trick = tuple(pos.trick)
        cdef State* st = &self.s.st
        cdef Query* q = &self.s.q
        q.side = side
        q.count = count
        q.nil = nil_seat
        q.breaking = 1 if pos.breaking else 0
        q.meta = <uint16_t>(0x8000 | ((side | (count << 4) | ((nil_seat + 1) << 8)
                                       | (q.breaking << 11)) << 3))
        for i in range(4):
            st.hand[i] = <uint64_t>hands[i]
        st.tleader = <int>pos.leader
        st.twin = 0
        st.broken = 1 if pos.spades_broken else 0
        self.s.ply = 0
        # put the trick in progress on the table
        for i in range(len(trick)):
            k = <int>trick[i]
            st.tcard[i] = k
            if i == 0 or _beats(k, st.tcard[st.twin]):
                st.twin = i
        st.tlen = len(trick)
        self.s.stop = 0
        start_trick(st)
        return 0

    cpdef int max_tricks(self, object pos, int side, int count, int nil_seat):
        """The most tricks of the seats in ``count`` the maximisers (``side``)
        can make from ``pos`` on; -1 when ``nil_seat``'s nil cannot be kept."""
        cdef int v
        self._load(pos, side, count, nil_seat)
        with nogil:
            v = root_value(&self.s)
        if self.s.stop:
            self._interrupted()
        return v

    cpdef int bound(self, object pos, int side, int count, int nil_seat, int target):
        """One fail-soft null-window search at ``target``: a result
        ``v >= target`` means the value is at least ``v``, ``v < target`` that
        it is at most ``v`` (so the value is at least ``target`` exactly when
        the result is)."""
        cdef int v, rem
        cdef uint64_t rw
        self._load(pos, side, count, nil_seat)
        rem = tricks_left(&self.s)
        if target <= (-1 if nil_seat >= 0 else 0):
            return target          # every line reaches it
        if target > rem:
            return rem
        with nogil:
            self.s.ply = 0
            v = search(&self.s, target, &rw)
        if self.s.stop:
            self._interrupted()
        return v

    cpdef list card_groups(self, object pos, int side, int count, int nil_seat):
        """``(card_mask, value)`` for every group of equivalent legal cards of
        the seat to move, in search order."""
        cdef Search* ctx = &self.s
        cdef int i, k, n, v, w, base, best, seat, rem, maxnode, s
        cdef State saved
        cdef uint64_t alive, a, hr, grp
        cdef Move* mv
        cdef list out = []
        self._load(pos, side, count, nil_seat)
        seat = (ctx.st.tleader + ctx.st.tlen) & 3
        maxnode = (ctx.q.side >> seat) & 1
        alive = ctx.st.alive
        saved = ctx.st
        # one move per group of equivalent cards, likely best first
        mv = &ctx.moves[MAX_PLY - 1][0]
        n = ordered_moves(ctx, seat, mv, -1)
        best = -100
        for i in range(n):
            k = mv[i].card
            s = k // 13
            a = _suit(alive, s)
            hr = ds_pext13(_suit(ctx.st.hand[seat], s), a)
            w = ds_pop(a & ((DS_ONE << (k - 13 * s)) - 1))    # the card's place in hr
            base = w
            while base > 0 and (hr >> (base - 1)) & 1:
                base -= 1
            grp = ds_pdep13(((DS_ONE << (w + 1)) - 1) & ~((DS_ONE << base) - 1), a)
            with nogil:
                w = play_card(ctx, k)
                if w >= 0 and w == ctx.q.nil:
                    v = -1
                else:
                    base = 0 if w < 0 else ((ctx.q.count >> w) & 1)
                    rem = tricks_left(ctx)
                    if rem == 0:
                        v = base
                    else:
                        v = mtd_value(ctx, -1 if ctx.q.nil >= 0 else 0, rem,
                                      (best - base) if best > -100 else first_guess(ctx))
                        if v >= 0:
                            v += base
                ctx.st = saved
            if ctx.stop:
                self._interrupted()
            if best == -100 or (v > best if maxnode else v < best):
                best = v
            out.append(((grp << (13 * s)), v))
        return out

    cpdef list optimal_line(self, object pos, int side, int count, int nil_seat):
        """The cards of one optimal play-out from ``pos`` to the end of the hand."""
        cdef Search* ctx = &self.s
        cdef int i, k, n, v, w, base, seat, rem, ok, lost, t
        cdef State saved
        cdef uint64_t rw
        cdef Move* mv
        cdef list out = []
        self._load(pos, side, count, nil_seat)
        lost = 0
        with nogil:
            v = root_value(ctx)
        if ctx.stop:
            self._interrupted()
        while True:
            rem = tricks_left(ctx)
            if rem == 0:
                break
            seat = (ctx.st.tleader + ctx.st.tlen) & 3
            with nogil:
                mv = &ctx.moves[MAX_PLY - 1][0]
                n = gen_moves(ctx, seat, mv)
                k = -1
                saved = ctx.st
                for i in range(n):
                    w = play_card(ctx, mv[i].card)
                    if w >= 0 and w == ctx.q.nil:
                        base = -100       # nil lost on this trick
                    else:
                        base = 0 if w < 0 else ((ctx.q.count >> w) & 1)
                    if lost:
                        ok = 1
                    elif (ctx.q.side >> seat) & 1:
                        # need child value >= v
                        if v < 0:
                            ok = 1
                        elif base == -100:
                            ok = 0
                        elif tricks_left(ctx) == 0:
                            ok = base >= v
                        else:
                            ctx.ply = 0
                            t = v - base if ctx.q.nil < 0 or v - base > 0 else 0
                            ok = search(ctx, t, &rw) >= t
                    else:
                        # need child value <= v, i.e. not >= v + 1
                        if base == -100:
                            ok = 1
                        elif tricks_left(ctx) == 0:
                            ok = base <= v
                        else:
                            ctx.ply = 0
                            t = 0 if ctx.q.nil >= 0 and v + 1 - base <= 0 else v + 1 - base
                            ok = search(ctx, t, &rw) < t
                    if ctx.stop:
                        break
                    if ok:
                        k = mv[i].card
                        if base == -100:
                            lost = 1
                        elif base > 0:
                            v -= base
                        break
                    ctx.st = saved
            if ctx.stop:
                ctx.st = saved
                self._interrupted()
            if k < 0:
                raise RuntimeError("engine: no move keeps the value (internal error)")
            out.append(k)
        return out
