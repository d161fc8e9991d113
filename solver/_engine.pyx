# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, overflowcheck=False
# cython: infer_types=False, profile=False
"""The compiled double-dummy core of dummy-spades.

Reached through :mod:`solver.engine` (the Python facade); the interface and
its semantics are those of :mod:`solver.reference`.  The design (null-window
alpha-beta under an MTD(f) driver, a bounded transposition table keyed up to
relative rank with "relevant card" generalisation, equivalent-card pruning,
sure-trick bounds) is described in docs/ENGINE.md.

Everything below ``Solver.query`` runs on C data without the GIL.
"""
from libc.stdint cimport int8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

cdef extern from * nogil:
    """
    #include <stdint.h>
    #if defined(__BMI2__)
    #include <immintrin.h>
    static inline uint64_t ds_pext(uint64_t x, uint64_t m) { return _pext_u64(x, m); }
    static inline uint64_t ds_pdep(uint64_t x, uint64_t m) { return _pdep_u64(x, m); }
    #else
    static inline uint64_t ds_pext(uint64_t x, uint64_t m) {
        uint64_t r = 0, b = 1;
        for (; m; m &= m - 1, b <<= 1) if (x & m & (0 - m)) r |= b;
        return r;
    }
    static inline uint64_t ds_pdep(uint64_t x, uint64_t m) {
        uint64_t r = 0, b = 1;
        for (; m; m &= m - 1, b <<= 1) if (x & b) r |= m & (0 - m);
        return r;
    }
    #endif
    static inline int ds_pop(uint64_t x) { return __builtin_popcountll(x); }
    static inline int ds_ctz(uint64_t x) { return __builtin_ctzll(x); }
    static inline int ds_hib(uint64_t x) { return 63 - __builtin_clzll(x); }
    #define DS_SUIT ((uint64_t)0x1FFF)
    #define DS_SPADES ((uint64_t)0x1FFF)
    #define DS_NOT_SPADES ((uint64_t)0xFFFFFFFFFE000ULL)
    #define DS_ONE ((uint64_t)1)
    """
    const uint64_t DS_SUIT
    const uint64_t DS_SPADES
    const uint64_t DS_NOT_SPADES
    const uint64_t DS_ONE
    uint64_t ds_pext(uint64_t x, uint64_t m)
    uint64_t ds_pdep(uint64_t x, uint64_t m)
    int ds_pop(uint64_t x)
    int ds_ctz(uint64_t x)
    int ds_hib(uint64_t x)


# query kinds of the one door into the core
KIND_MAX = 0
KIND_GROUPS = 1
KIND_LINE = 2

DEFAULT_TT_MB = 128.0
cdef size_t MIN_BUCKETS = 1 << 10

cdef uint64_t ZOB[52]

# switches for testing the pruning techniques one by one (all on by default)
cdef int USE_TT = 1
cdef int USE_QUICK = 1
cdef int USE_SURE = 1


def _set_options(tt=True, quick=True, sure=True):
    """Testing aid: switch pruning techniques off (process-wide)."""
    global USE_TT, USE_QUICK, USE_SURE
    USE_TT, USE_QUICK, USE_SURE = bool(tt), bool(quick), bool(sure)


cdef uint64_t _splitmix(uint64_t* s) noexcept nogil:
    s[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = s[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void _init_tables() noexcept nogil:
    cdef uint64_t s = 12345
    cdef int i
    for i in range(52):
        ZOB[i] = _splitmix(&s)


_init_tables()


cdef inline int _beats(int card, int best) noexcept nogil:
    """Does ``card`` beat ``best``, the card currently winning the trick?"""
    cdef int cs = card // 13
    cdef int bs = best // 13
    if cs == bs:
        return card > best
    return cs == 0


cdef inline uint64_t _suit(uint64_t h, int s) noexcept nogil:
    return (h >> (13 * s)) & DS_SUIT


cdef inline uint64_t _hash(uint64_t shape, uint64_t meta) noexcept nogil:
    cdef uint64_t h = shape * <uint64_t>0x9E3779B97F4A7C15
    h ^= (meta + 1) * <uint64_t>0xC2B2AE3D27D4EB4F
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 32
    return h


cdef inline int _top_run(uint64_t mine, uint64_t alive) noexcept nogil:
    """How many of the highest cards of a suit (``alive``) are in ``mine``."""
    cdef uint64_t others = alive & ~mine
    if mine == 0:
        return 0
    if others == 0:
        return ds_pop(mine)
    return ds_pop(mine >> (ds_hib(others) + 1))


cdef inline uint64_t _kth_highest(uint64_t alive, int k) noexcept nogil:
    """Bit of the k-th highest card (k >= 1) of a suit's cards ``alive``."""
    cdef int n = ds_pop(alive)
    return ds_pdep(DS_ONE << (n - k), alive)


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


cdef class Solver:
    """One search context: a bounded transposition table and search state.

    ``tt_mb`` caps the table's memory; the table starts small and doubles
    while it fills, up to the cap, and then replaces its least recently used
    entries.  Not thread-safe: use one Solver per thread or process.
    """

    def __cinit__(self, double tt_mb=DEFAULT_TT_MB):
        if not tt_mb > 0:
            raise ValueError(f"tt_mb must be a positive number of megabytes, not {tt_mb!r}")
        self.tt_mb = tt_mb
        cdef size_t slots = <size_t>(tt_mb * 1048576.0 / sizeof(TTSlot))
        cdef size_t buckets = MIN_BUCKETS
        while buckets * 2 * BUCKET <= slots:
            buckets *= 2
        if buckets * BUCKET > slots and buckets > 16:
            while buckets > 16 and buckets * BUCKET > slots:
                buckets //= 2
        self.tt_max_buckets = buckets
        self.tt = NULL
        self.hints = <Hint*>calloc(1 << 16, sizeof(Hint))
        if self.hints == NULL:
            raise MemoryError()
        self.hint_mask = (1 << 16) - 1
        self._alloc(MIN_BUCKETS if MIN_BUCKETS < buckets else buckets)
        if self.tt == NULL:
            raise MemoryError()
        self.nodes = 0
        self.stamp = 1
        self.nil = -1

    def __dealloc__(self):
        free(self.tt)
        free(self.hints)

    def clear(self):
        """Empty the transposition table (and shrink it to its initial size)."""
        self._reset_table()
        if self.tt == NULL:
            raise MemoryError()

    @property
    def tt_entries(self):
        """Number of transposition-table entries in use."""
        return self.tt_used

    @property
    def tt_capacity(self):
        """Number of entries the table holds now (it grows up to ``tt_mb``)."""
        return self.tt_buckets * BUCKET

    @property
    def tt_bytes(self):
        return self.tt_buckets * BUCKET * sizeof(TTSlot)

    # ------------------------------------------------------------------
    # transposition table
    # ------------------------------------------------------------------
    cdef void _alloc(self, size_t buckets) noexcept nogil:
        free(self.tt)
        self.tt = <TTSlot*>calloc(buckets * BUCKET, sizeof(TTSlot))
        self.tt_buckets = buckets
        self.tt_used = 0

    cdef void _reset_table(self) noexcept nogil:
        cdef size_t b = MIN_BUCKETS if MIN_BUCKETS < self.tt_max_buckets else self.tt_max_buckets
        if self.tt != NULL and self.tt_buckets == b:
            memset(self.tt, 0, b * BUCKET * sizeof(TTSlot))
            self.tt_used = 0
        else:
            self._alloc(b)
        memset(self.hints, 0, (self.hint_mask + 1) * sizeof(Hint))
        self.stamp = 1

    cdef void _grow(self) noexcept nogil:
        cdef size_t nb = self.tt_buckets * 2
        cdef TTSlot* old = self.tt
        cdef size_t ob = self.tt_buckets
        cdef TTSlot* nt = <TTSlot*>calloc(nb * BUCKET, sizeof(TTSlot))
        cdef size_t i, j, used = 0
        cdef TTSlot* src
        cdef TTSlot* dst
        if nt == NULL:
            # stay at the current size: replacement keeps memory bounded
            self.tt_max_buckets = ob
            return
        for i in range(ob * BUCKET):
            src = &old[i]
            if not (src.meta & 0x8000):
                continue
            dst = nt + (_hash(src.shape, src.meta) & (nb - 1)) * BUCKET
            for j in range(BUCKET):
                if not (dst[j].meta & 0x8000):
                    dst[j] = src[0]
                    used += 1
                    break
        free(old)
        self.tt = nt
        self.tt_buckets = nb
        self.tt_used = used

    cdef int _probe(self, uint64_t shape, uint16_t meta, const uint64_t* rel,
                    int target, uint64_t alive, uint64_t* rw) noexcept nogil:
        cdef TTSlot* b = self.tt + (_hash(shape, meta) & (self.tt_buckets - 1)) * BUCKET
        cdef int k, s, res, cnt
        cdef uint64_t m, ms, out
        for k in range(BUCKET):
            if b[k].meta != meta or b[k].shape != shape:
                continue
            m = b[k].mask
            if (rel[0] & m) != b[k].pat[0] or (rel[1] & m) != b[k].pat[1] \
                    or (rel[2] & m) != b[k].pat[2]:
                continue
            if b[k].lower >= target:
                res = 1
            elif b[k].upper < target:
                res = 0
            else:
                continue
            b[k].stamp = self.stamp
            out = 0
            for s in range(4):
                ms = _suit(m, s)
                if ms:
                    cnt = ds_pop(ms)
                    out |= _kth_highest(_suit(alive, s), cnt) << (13 * s)
            rw[0] = out
            return res
        return -1

    cdef void _store(self, uint64_t shape, uint16_t meta, const uint64_t* rel,
                     uint64_t alive, uint64_t rw, int target, int ok, int rem) noexcept nogil:
        cdef uint64_t mask = 0, r, a, hr
        cdef int s, k, low, cnt, victim, o, pos
        cdef uint32_t best
        cdef TTSlot* b
        cdef uint64_t p0, p1, p2
        for s in range(4):
            r = _suit(rw, s)
            if r:
                # the lowest relevant card, extended down through the cards of
                # its hand that are equivalent to it (one move in the search)
                low = ds_ctz(r)
                a = _suit(alive, s)
                o = 0
                while o < 3 and not (_suit(self.hand[o], s) >> low) & 1:
                    o += 1
                hr = ds_pext(_suit(self.hand[o], s), a)
                pos = ds_pop(a & ((DS_ONE << low) - 1))
                while pos > 0 and (hr >> (pos - 1)) & 1:
                    pos -= 1
                cnt = ds_pop(a) - pos
                mask |= (((DS_ONE << cnt) - 1) << (13 - cnt)) << (13 * s)
        p0 = rel[0] & mask
        p1 = rel[1] & mask
        p2 = rel[2] & mask
        self.stamp += 1
        b = self.tt + (_hash(shape, meta) & (self.tt_buckets - 1)) * BUCKET
        for k in range(BUCKET):
            if b[k].meta == meta and b[k].shape == shape and b[k].mask == mask \
                    and b[k].pat[0] == p0 and b[k].pat[1] == p1 and b[k].pat[2] == p2:
                if ok:
                    if target > b[k].lower:
                        b[k].lower = <int8_t>target
                else:
                    if target - 1 < b[k].upper:
                        b[k].upper = <int8_t>(target - 1)
                b[k].stamp = self.stamp
                return
        victim = -1
        best = 0xFFFFFFFF
        for k in range(BUCKET):
            if not (b[k].meta & 0x8000):
                victim = k
                self.tt_used += 1
                break
            if b[k].stamp < best:
                best = b[k].stamp
                victim = k
        b[victim].shape = shape
        b[victim].meta = meta
        b[victim].mask = mask
        b[victim].pat[0] = p0
        b[victim].pat[1] = p1
        b[victim].pat[2] = p2
        b[victim].stamp = self.stamp
        if ok:
            b[victim].lower = <int8_t>target
            b[victim].upper = <int8_t>rem
        else:
            b[victim].lower = -1
            b[victim].upper = <int8_t>(target - 1)
        if self.tt_used * 4 > self.tt_buckets * BUCKET * 3 and self.tt_buckets < self.tt_max_buckets:
            self._grow()

    # ------------------------------------------------------------------
    # search
    # ------------------------------------------------------------------
    cdef int _search(self, int target, uint64_t* rw) noexcept nogil:
        """Can the maximiser take ``target`` counted tricks from here on?"""
        self.nodes += 1
        if self.tlen == 0:
            return self._trick_start(target, rw)
        return self._expand(target, rw)

    cdef int _last_trick(self, int target, uint64_t* rw) noexcept nogil:
        cdef int leader = self.tleader
        cdef int w = leader, i, p, c
        cdef int cards[4]
        cdef int wc = ds_ctz(self.hand[leader])
        cards[0] = wc
        for i in range(1, 4):
            p = (leader + i) & 3
            c = ds_ctz(self.hand[p])
            cards[i] = c
            if _beats(c, wc):
                wc = c
                w = p
        rw[0] = 0
        for i in range(4):
            if cards[i] != wc and cards[i] // 13 == wc // 13:
                rw[0] = DS_ONE << wc
                break
        if w == self.nil:
            return 0
        return ((self.count >> w) & 1) >= target

    cdef int _trick_start(self, int target, uint64_t* rw) noexcept nogil:
        cdef int leader = self.tleader
        cdef uint64_t h0 = self.hand[0], h1 = self.hand[1], h2 = self.hand[2], h3 = self.hand[3]
        cdef uint64_t alive = h0 | h1 | h2 | h3
        cdef int rem = ds_pop(self.hand[leader])
        cdef int s, p, x, j, res, qt
        cdef uint64_t sp, hx, others, shape, crw, a
        cdef uint64_t rel[4]
        cdef uint16_t meta
        if self.nil < 0 and target <= 0:
            rw[0] = 0
            return 1
        if target > rem:
            rw[0] = 0
            return 0
        if rem == 0:
            rw[0] = 0
            return 1
        if rem == 1:
            return self._last_trick(target, rw)

        # sure trump tricks: the holder of the top spade wins a trick with
        # each spade it holds above every other hand's spades.
        sp = alive & DS_SPADES
        if sp and USE_SURE:
            x = 0
            while not (self.hand[x] >> ds_hib(sp)) & 1:
                x += 1
            hx = self.hand[x] & DS_SPADES
            others = sp & ~hx
            if x == self.nil:
                rw[0] = DS_ONE << ds_hib(sp)
                return 0
            j = _top_run(hx, sp)
            if (self.count >> x) & 1:
                if self.nil < 0 and j >= target:
                    rw[0] = _kth_highest(sp, j)
                    return 1
            elif rem - j < target:
                rw[0] = _kth_highest(sp, j)
                return 0

        # transposition table
        shape = 0
        for p in range(4):
            for s in range(4):
                shape |= (<uint64_t>ds_pop(_suit(self.hand[p], s))) << (4 * (4 * p + s))
        for p in range(3):
            rel[p] = 0
            for s in range(4):
                a = _suit(alive, s)
                if a:
                    rel[p] |= (ds_pext(_suit(self.hand[p], s), a) << (13 - ds_pop(a))) << (13 * s)
        meta = self.cfg_meta | <uint16_t>leader
        if self.breaking and self.broken:
            meta |= 4
        if USE_TT:
            res = self._probe(shape, meta, rel, target, alive, rw)
            if res >= 0:
                return res

        # quick tricks of the leader (cashing top cards, keeping the lead)
        if not USE_QUICK:
            pass
        elif (self.side >> leader) & 1:
            if self.nil < 0 and (self.count >> leader) & 1:
                qt = self._quick_tricks(leader, &crw)
                if qt >= target:
                    rw[0] = crw
                    return 1
        elif not (self.count >> leader) & 1:
            qt = self._quick_tricks(leader, &crw)
            if rem - qt < target:
                rw[0] = crw
                return 0

        res = self._expand(target, &crw)
        self._store(shape, meta, rel, alive, crw, target, res, rem)
        rw[0] = crw
        return res

    cdef int _quick_tricks(self, int leader, uint64_t* rw) noexcept nogil:
        """Tricks the leader can cash from the top, keeping the lead.

        Sound for any side: the tricks are won by the leader itself; partners
        are never forced to ruff (capped by their side-suit cards); opponents
        with trumps left after drawing trumps limit a suit to their length.
        """
        cdef uint64_t alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        cdef uint64_t mine = self.hand[leader]
        cdef int team = (self.side >> leader) & 1
        cdef int q, s, lim, t_sp, total, cap, n
        cdef int t[4]
        cdef uint64_t out = 0, a
        t[0] = 0
        if (not self.breaking) or self.broken or (mine & DS_NOT_SPADES) == 0:
            t[0] = _top_run(mine & DS_SPADES, alive & DS_SPADES)
        t_sp = t[0]
        total = 0
        for s in range(1, 4):
            a = _suit(alive, s)
            lim = _top_run(_suit(mine, s), a)
            if lim:
                for q in range(4):
                    if q == leader or ((self.side >> q) & 1) == team:
                        continue
                    if ds_pop(self.hand[q] & DS_SPADES) > t_sp:
                        n = ds_pop(_suit(self.hand[q], s))
                        if n < lim:
                            lim = n
            t[s] = lim
            total += lim
        if total:
            for q in range(4):
                if q == leader or ((self.side >> q) & 1) != team:
                    continue
                if ds_pop(self.hand[q] & DS_SPADES) > t_sp:
                    cap = ds_pop(self.hand[q] & DS_NOT_SPADES)
                    if cap < total:
                        total = cap
        if total == 0:
            for s in range(1, 4):
                t[s] = 0
        for s in range(4):
            if t[s]:
                out |= _kth_highest(_suit(alive, s), t[s]) << (13 * s)
        rw[0] = out
        return t_sp + total

    cdef int _gen(self, int seat, Move* out) noexcept nogil:
        """Legal moves of ``seat``: one card per group of equivalent cards."""
        cdef uint64_t h = self.hand[seat]
        cdef uint64_t legal, alive, hs, a, hr, reps, rb, f
        cdef int n = 0, s, i
        alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        for i in range(self.tlen):
            alive |= DS_ONE << self.tcard[i]
        if self.tlen:
            f = h & (<uint64_t>DS_SUIT << (13 * (self.tcard[0] // 13)))
            legal = f if f else h
        else:
            legal = h
            if self.breaking and not self.broken and (h & DS_NOT_SPADES):
                legal = h & DS_NOT_SPADES
        for s in range(4):
            hs = _suit(legal, s)
            if hs == 0:
                continue
            a = _suit(alive, s)
            hr = ds_pext(hs, a)
            reps = hr & ~(hr >> 1)
            rb = ds_pdep(reps, a)
            while rb:
                out[n].card = 13 * s + ds_ctz(rb)
                out[n].score = 0
                n += 1
                rb &= rb - 1
        return n

    cdef void _order_lead(self, int seat, Move* mv, int n) noexcept nogil:
        cdef uint64_t alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        cdef int team = (self.side >> seat) & 1
        cdef int i, q, c, s, r, top, owner, score, opp_ruff, pd_ruff, second
        cdef uint64_t a, below
        for i in range(n):
            c = mv[i].card
            s = c // 13
            r = c % 13
            a = _suit(alive, s)
            top = ds_hib(a)
            owner = 0
            while not (self.hand[owner] >> (13 * s + top)) & 1:
                owner += 1
            opp_ruff = 0
            pd_ruff = 0
            if s != 0:
                for q in range(4):
                    if q != seat and _suit(self.hand[q], s) == 0 and (self.hand[q] & DS_SPADES):
                        if ((self.side >> q) & 1) == team:
                            pd_ruff = 1
                        else:
                            opp_ruff = 1
            if owner == seat:
                if r == top:
                    score = 20 if opp_ruff else 80
                else:
                    score = 30 - r
            elif ((self.side >> owner) & 1) == team:
                score = 15 - r if opp_ruff else 60 - r
            else:
                below = a & ~(DS_ONE << top)
                second = ds_hib(below) if below else -1
                if r == second:
                    score = 45
                else:
                    score = 25 - r
            if pd_ruff and not opp_ruff:
                score += 30
            if s == 0:
                if ((self.side >> owner) & 1) == team:
                    score += 10
                else:
                    score -= 10
            mv[i].score = score

    cdef void _order_follow(self, int seat, Move* mv, int n) noexcept nogil:
        cdef int leader = self.tleader
        cdef int pos = self.tlen
        cdef int ls = self.tcard[0] // 13
        cdef int wc = self.tcard[self.twin]
        cdef int wseat = (leader + self.twin) & 3
        cdef int team = (self.side >> seat) & 1
        cdef int pw = ((self.side >> wseat) & 1) == team
        cdef int i, k, q, c, s, r, score, safe, can_ruff, top_later
        cdef uint64_t alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        cdef uint64_t qs, later_opp_suit = 0, later_opp_sp = 0
        # the cards of the opponents still to play after this seat
        can_ruff = 0
        for k in range(pos + 1, 4):
            q = (leader + k) & 3
            if ((self.side >> q) & 1) == team:
                continue
            qs = _suit(self.hand[q], ls)
            later_opp_suit |= qs
            if qs == 0 and (self.hand[q] & DS_SPADES):
                can_ruff = 1
                later_opp_sp |= self.hand[q] & DS_SPADES
        top_later = ds_hib(later_opp_suit) + 13 * ls if later_opp_suit else -1
        # is the card now winning safe against the opponents still to play?
        if wc // 13 == ls:
            safe = (top_later < wc) and not can_ruff
        else:
            safe = later_opp_sp == 0 or ds_hib(later_opp_sp) < wc
        for i in range(n):
            c = mv[i].card
            s = c // 13
            r = c % 13
            if s == ls:
                if pw:
                    if safe:
                        score = 50 - r
                    elif _beats(c, wc) and c > top_later and not can_ruff:
                        score = 45 - r
                    else:
                        score = 30 - r
                elif _beats(c, wc):
                    if pos == 3 or (c > top_later and not can_ruff):
                        score = 60 - r
                    elif pos == 2:
                        score = 35 + r
                    else:
                        score = 20 - r
                else:
                    score = 25 - r
            elif s == 0:
                if pw and safe:
                    score = 5 - r
                elif _beats(c, wc):
                    if later_opp_sp and ds_hib(later_opp_sp) > c:
                        score = 35 - r
                    else:
                        score = 55 - r
                else:
                    score = 2 - r
            else:
                score = 20 - r
                if ds_hib(_suit(alive, s)) == r:
                    score -= 15
            mv[i].score = score

    cdef int _expand(self, int target, uint64_t* rw) noexcept nogil:
        cdef int tlen = self.tlen
        cdef int leader = self.tleader
        cdef int seat = (leader + tlen) & 3
        cdef int ply = self.ply
        cdef Move* mv = &self.moves[ply][0]
        cdef int n = self._gen(seat, mv)
        cdef int maxnode = (self.side >> seat) & 1
        cdef int old_twin = self.twin
        cdef int old_broken = self.broken
        cdef int i, k, c, res, wpos, wcard, wseat, nt, t0, t1, t2
        cdef uint64_t cb, crw, cw, acc = 0, hk
        cdef Hint* hint
        hk = self.zob ^ ((<uint64_t>(tlen * 4 + leader) + 1) * <uint64_t>0x9E3779B97F4A7C15)
        hk ^= hk >> 31
        hint = &self.hints[hk & self.hint_mask]
        if n > 1:
            if tlen == 0:
                self._order_lead(seat, mv, n)
            else:
                self._order_follow(seat, mv, n)
            if hint.check == <uint32_t>(hk >> 32):
                for i in range(n):
                    if mv[i].card == hint.card:
                        mv[i].score += 1000
                        break
            _sort_moves(mv, n)
        for i in range(n):
            c = mv[i].card
            cb = DS_ONE << c
            self.hand[seat] ^= cb
            self.tcard[tlen] = c
            if tlen == 0 or _beats(c, self.tcard[old_twin]):
                self.twin = tlen
            self.zob ^= ZOB[c]
            self.ply = ply + 1
            if tlen < 3:
                self.tlen = tlen + 1
                res = self._search(target, &crw)
                self.tlen = tlen
            else:
                wpos = self.twin
                wcard = self.tcard[wpos]
                wseat = (leader + wpos) & 3
                cw = 0
                for k in range(4):
                    if k != wpos and self.tcard[k] // 13 == wcard // 13:
                        cw = DS_ONE << wcard
                        break
                if wseat == self.nil:
                    res = 0
                    crw = cw
                else:
                    nt = target - ((self.count >> wseat) & 1)
                    if self.nil >= 0 and nt < 0:
                        nt = 0
                    if (self.tcard[0] < 13 or self.tcard[1] < 13 or self.tcard[2] < 13
                            or self.tcard[3] < 13):
                        self.broken = 1
                    t0 = self.tcard[0]
                    t1 = self.tcard[1]
                    t2 = self.tcard[2]
                    self.tleader = wseat
                    self.tlen = 0
                    res = self._search(nt, &crw)
                    crw |= cw
                    self.tcard[0] = t0
                    self.tcard[1] = t1
                    self.tcard[2] = t2
                    self.tleader = leader
                    self.tlen = tlen
                    self.broken = old_broken
            self.twin = old_twin
            self.ply = ply
            self.zob ^= ZOB[c]
            self.hand[seat] ^= cb
            if res == maxnode:
                # cutoff: this move proves the result
                rw[0] = crw
                if n > 1:
                    hint.check = <uint32_t>(hk >> 32)
                    hint.card = c
                return res
            acc |= crw
        rw[0] = acc
        return 1 - maxnode

    # ------------------------------------------------------------------
    # drivers
    # ------------------------------------------------------------------
    cdef int _rem(self) noexcept nogil:
        return ds_pop(self.hand[self.tleader]) + (1 if self.tlen else 0)

    cdef int _value(self, int lo, int hi, int guess) noexcept nogil:
        """The exact value in [lo, hi] by null-window searches (MTD(f))."""
        cdef int t
        cdef uint64_t rw
        t = guess
        while lo < hi:
            if t <= lo:
                t = lo + 1
            if t > hi:
                t = hi
            self.ply = 0
            if self._search(t, &rw):
                lo = t
                t = t + 1
            else:
                hi = t - 1
                t = t - 1
        return lo

    cdef int _root_value(self) noexcept nogil:
        cdef int rem = self._rem()
        cdef int lo = -1 if self.nil >= 0 else 0
        if rem == 0:
            return 0
        return self._value(lo, rem, (rem + 1) // 2)

    cdef int _apply(self, int card) noexcept nogil:
        """Play ``card`` at the root; return the trick's winner if it completes one, else -1."""
        cdef int seat = (self.tleader + self.tlen) & 3
        cdef int w, k
        self.hand[seat] &= ~(DS_ONE << card)
        self.tcard[self.tlen] = card
        if self.tlen == 0 or _beats(card, self.tcard[self.twin]):
            self.twin = self.tlen
        self.tlen += 1
        if self.tlen < 4:
            return -1
        w = (self.tleader + self.twin) & 3
        for k in range(4):
            if self.tcard[k] < 13:
                self.broken = 1
        self.tleader = w
        self.tlen = 0
        self.twin = 0
        return w

    cpdef object query(self, int kind, tuple hands, int leader, int side, tuple trick,
                       bint spades_broken, bint breaking, int count, int nil_seat):
        """The one door into the core (positions are checked by the caller).

        kind 0: the value (max_tricks); 1: a list of ``(group_mask, value)``
        for the groups of equivalent legal cards; 2: an optimal line (list of
        cards).  ``nil_seat`` is -1 for none.
        """
        cdef int i, i2, k, n, v, w, base, best, seat, rem, ok, lost
        cdef uint64_t saved_hand[4]
        cdef int saved_tcard[4]
        cdef int saved_tlen, saved_leader, saved_twin, saved_broken
        cdef uint64_t legal, alive, hs, a, hr, grp, f
        cdef uint64_t rw
        cdef Move* mv
        cdef int s
        cdef list out
        self.side = side
        self.count = count
        self.nil = nil_seat
        self.breaking = 1 if breaking else 0
        self.cfg_meta = <uint16_t>(0x8000 | ((side | (count << 4) | ((nil_seat + 1) << 8)
                                              | (self.breaking << 11)) << 3))
        for i in range(4):
            self.hand[i] = <uint64_t>hands[i]
        self.tleader = leader
        self.tlen = 0
        self.twin = 0
        self.broken = 1 if spades_broken else 0
        self.zob = 0
        self.ply = 0
        # put the trick in progress on the table
        for i in range(len(trick)):
            k = <int>trick[i]
            self.tcard[i] = k
            if i == 0 or _beats(k, self.tcard[self.twin]):
                self.twin = i
        self.tlen = len(trick)

        if kind == KIND_MAX:
            with nogil:
                v = self._root_value()
            return v

        if kind == KIND_GROUPS:
            out = []
            seat = (self.tleader + self.tlen) & 3
            alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
            for i in range(self.tlen):
                alive |= DS_ONE << self.tcard[i]
            if self.tlen:
                f = self.hand[seat] & (<uint64_t>DS_SUIT << (13 * (self.tcard[0] // 13)))
                legal = f if f else self.hand[seat]
            else:
                legal = self.hand[seat]
                if self.breaking and not self.broken and (legal & DS_NOT_SPADES):
                    legal &= DS_NOT_SPADES
            for i in range(4):
                saved_hand[i] = self.hand[i]
                saved_tcard[i] = self.tcard[i]
            saved_tlen, saved_leader, saved_twin, saved_broken = \
                self.tlen, self.tleader, self.twin, self.broken
            best = -2
            for s in range(4):
                hs = _suit(legal, s)
                a = _suit(alive, s)
                while hs:
                    # one group: a maximal run of this hand's cards among the alive ones
                    hr = ds_pext(hs, a)
                    k = ds_hib(hr)
                    n = k
                    while n > 0 and (hr >> (n - 1)) & 1:
                        n -= 1
                    grp = ds_pdep(((DS_ONE << (k + 1)) - 1) & ~((DS_ONE << n) - 1), a)
                    hs &= ~grp
                    with nogil:
                        w = self._apply(13 * s + ds_ctz(grp))
                        if w >= 0 and w == self.nil:
                            v = -1
                        else:
                            base = 0 if w < 0 else ((self.count >> w) & 1)
                            rem = self._rem()
                            if rem == 0:
                                v = base
                            else:
                                v = self._value(-1 if self.nil >= 0 else 0, rem,
                                                (best - base) if best >= 0 else (rem + 1) // 2)
                                if v >= 0:
                                    v += base
                        for i in range(4):
                            self.hand[i] = saved_hand[i]
                            self.tcard[i] = saved_tcard[i]
                        self.tlen, self.tleader, self.twin, self.broken = \
                            saved_tlen, saved_leader, saved_twin, saved_broken
                    if v > best:
                        best = v
                    out.append(((grp << (13 * s)), v))
            return out

        if kind == KIND_LINE:
            out = []
            lost = 0
            with nogil:
                v = self._root_value()
            while True:
                rem = self._rem()
                if rem == 0:
                    break
                seat = (self.tleader + self.tlen) & 3
                with nogil:
                    mv = &self.moves[MAX_PLY - 1][0]
                    n = self._gen(seat, mv)
                    k = -1
                    for i in range(4):
                        saved_hand[i] = self.hand[i]
                        saved_tcard[i] = self.tcard[i]
                    saved_tlen, saved_leader, saved_twin, saved_broken = \
                        self.tlen, self.tleader, self.twin, self.broken
                    for i in range(n):
                        w = self._apply(mv[i].card)
                        if w >= 0 and w == self.nil:
                            base = -100       # nil lost on this trick
                        else:
                            base = 0 if w < 0 else ((self.count >> w) & 1)
                        if lost:
                            ok = 1
                        elif (self.side >> seat) & 1:
                            # need child value >= v
                            if v < 0:
                                ok = 1
                            elif base == -100:
                                ok = 0
                            elif self._rem() == 0:
                                ok = base >= v
                            else:
                                self.ply = 0
                                ok = self._search(v - base if self.nil < 0 or v - base > 0 else 0, &rw)
                        else:
                            # need child value <= v, i.e. not >= v + 1
                            if base == -100:
                                ok = 1
                            elif self._rem() == 0:
                                ok = base <= v
                            else:
                                self.ply = 0
                                if self.nil >= 0 and v + 1 - base <= 0:
                                    ok = not self._search(0, &rw)
                                else:
                                    ok = not self._search(v + 1 - base, &rw)
                        if ok:
                            k = mv[i].card
                            if base == -100:
                                lost = 1
                            elif base > 0:
                                v -= base
                            break
                        for i2 in range(4):
                            self.hand[i2] = saved_hand[i2]
                            self.tcard[i2] = saved_tcard[i2]
                        self.tlen, self.tleader, self.twin, self.broken = \
                            saved_tlen, saved_leader, saved_twin, saved_broken
                if k < 0:
                    raise RuntimeError("engine: no move keeps the value (internal error)")
                out.append(k)
            return out

        raise ValueError(f"unknown query kind {kind!r}")
