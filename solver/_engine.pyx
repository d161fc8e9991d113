# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, overflowcheck=False
# cython: infer_types=False, profile=False
"""The compiled double-dummy core of dummy-spades.

Reached through :mod:`solver.engine` (the Python facade); the interface and
its semantics are those of :mod:`solver.reference`.  The design (null-window
alpha-beta under an MTD(f) driver, a bounded transposition table keyed up to
relative rank with "relevant card" generalisation, equivalent-card pruning,
sure-trick bounds) is described in docs/ENGINE.md.

Everything below the question methods (``Solver.max_tricks``, ``bound``,
``card_groups``, ``optimal_line``) runs on C data without the GIL.
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
    #if defined(__AVX2__) || defined(__AVX512BW__)
    #include <immintrin.h>
    #endif
    /* bit i set when tags[i] == tag, for 64 tags */
    static inline uint64_t ds_tag_match32(const uint16_t* tags, uint16_t tag) {
    #if defined(__AVX512BW__)
        __m512i t = _mm512_set1_epi16((short)tag);
        return _mm512_cmpeq_epi16_mask(_mm512_loadu_si512((const void*)tags), t);
    #else
        uint64_t r = 0;
        for (int i = 0; i < 32; i++) r |= (uint64_t)(tags[i] == tag) << i;
        return r;
    #endif
    }
    static inline uint64_t ds_tag_match64(const uint16_t* tags, uint16_t tag) {
    #if defined(__AVX512BW__)
        __m512i t = _mm512_set1_epi16((short)tag);
        uint64_t lo = _mm512_cmpeq_epi16_mask(_mm512_loadu_si512((const void*)tags), t);
        uint64_t hi = _mm512_cmpeq_epi16_mask(_mm512_loadu_si512((const void*)(tags + 32)), t);
        return lo | (hi << 32);
    #elif defined(__AVX2__) && defined(__BMI2__)
        __m256i t = _mm256_set1_epi16((short)tag);
        uint64_t r = 0;
        for (int i = 0; i < 4; i++) {
            __m256i c = _mm256_cmpeq_epi16(_mm256_loadu_si256((const __m256i*)(tags + 16 * i)), t);
            uint32_t m = (uint32_t)_mm256_movemask_epi8(c);
            r |= (uint64_t)_pext_u32(m, 0x55555555u) << (16 * i);
        }
        return r;
    #else
        uint64_t r = 0;
        for (int i = 0; i < 64; i++) r |= (uint64_t)(tags[i] == tag) << i;
        return r;
    #endif
    }
    static inline void ds_prefetch(const void* p) { __builtin_prefetch(p); }
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
    uint64_t ds_tag_match64(const uint16_t* tags, uint16_t tag)
    uint64_t ds_tag_match32(const uint16_t* tags, uint16_t tag)
    void ds_prefetch(const void* p)
    uint64_t ds_pdep(uint64_t x, uint64_t m)
    int ds_pop(uint64_t x)
    int ds_ctz(uint64_t x)
    int ds_hib(uint64_t x)


DEFAULT_TT_MB = 128.0
cdef int NO_HIT = -100
cdef uint16_t NIL_META = 0x3800     # the nil seat's bits in cfg_meta (see _load)

cdef int NCLS = 3
cdef int TT_MIN_REM = 1        # no table for positions with this many tricks left or fewer              # key classes: 1 to NCLS top cards fixed in every suit
cdef size_t DIR_PER_BUCKET = 16
cdef size_t GROW_ON_EVICT = 64
cdef size_t MIN_BUCKETS = 1 << 10


# switches for testing the pruning techniques one by one (all on by default)
cdef int USE_TT = 1
cdef int USE_QUICK = 1
cdef int USE_SURE = 1


def _set_options(tt=True, quick=True, sure=True):
    """Testing aid: switch pruning techniques off (process-wide)."""
    global USE_TT, USE_QUICK, USE_SURE
    USE_TT, USE_QUICK, USE_SURE = bool(tt), bool(quick), bool(sure)




cdef inline int _beats(int card, int best) noexcept nogil:
    """Does ``card`` beat ``best``, the card currently winning the trick?"""
    cdef int cs = card // 13
    cdef int bs = best // 13
    if cs == bs:
        return card > best
    return cs == 0


cdef inline uint64_t _suit(uint64_t h, int s) noexcept nogil:
    return (h >> (13 * s)) & DS_SUIT


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


cdef inline int _nil_covered(const uint64_t* hand, int nil, int side, int leader, int low,
                             int low_lead, uint64_t low_rw, uint64_t* rw) noexcept nogil:
    """Can the nil hand surely lose every trick from this trick start on?
    Sufficient: with one partner, every suit the nil hand holds is

    * *low*: not spades, and the nil hand's highest card is below the other
      hands' lowest (or nobody else holds the suit), or
    * *covered*: the i-th highest of the nil hand's cards in the suit is
      below the partner's i-th highest (spades must be covered), or
    * *matched*: not spades, every card the partner holds in it is above
      the nil hand's, and the j-th lowest card of the other hands (the
      partner's aside) is above the nil hand's j-th lowest, for every j both
      have,

    and, when the nil hand is on lead, it can lead a covered suit or a low
    suit another hand holds.  The strategy (fixed in advance, whatever the
    opponents play) keeps every suit low, covered or matched:

    * the suit led is low for the nil hand: it follows below the card led
      (whoever led it); the partner follows or discards a *free* card (one
      no cover needs: of a suit not covered, or the lowest of a covered suit
      where it holds more cards than the nil hand) — it has one, since the
      nil hand's cards are not all in covered suits;
    * the suit led is matched: led by the partner, any card of the nil hand
      is below it (it plays its highest); led by another hand, the nil hand
      plays its highest card below the card led — it has one (its lowest is
      below their lowest), and removing the two keeps the j-th-lowest
      condition (other hands' cards leaving only raise theirs, and a card
      of the nil hand above the led one would be above their j-th lowest
      for a j it fails); the partner as for a low suit;
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
                lead_ok = 1
                out |= DS_ONE << (13 * s + ds_ctz(ns))
                continue
            # matched: a side suit whose every card of the partner is above
            # the nil hand's, and whose j-th lowest card of the others is
            # above the nil hand's j-th lowest
            if s == 0 or (ps and ds_ctz(ps) < ds_hib(ns)):
                ok = 0
                break
            m = 0
            for c in range(4):
                if c != nil and c != q:
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


cdef inline uint64_t _hash(uint64_t shape, uint64_t meta) noexcept nogil:
    cdef uint64_t h = shape * <uint64_t>0x9E3779B97F4A7C15
    h ^= (meta + 1) * <uint64_t>0xC2B2AE3D27D4EB4F
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 32
    return h


cdef inline uint64_t _key_hash(uint64_t shape, uint64_t meta, const uint64_t* rel,
                               uint64_t alive, int cls, int zset) noexcept nogil:
    """Hash of a table key: the shape, the meta bits, a set of free suits
    (``zset``: suits whose cards a pattern leaves free) and the holders of
    the top ``cls`` (<= 4) cards of every other suit (all of a shorter suit:
    the ranks a suit lacks read as held by nobody, alike for one shape)."""
    cdef uint64_t code = 0, m4 = ((DS_ONE << cls) - 1) << (4 - cls), t
    cdef int s, sh
    for s in range(4):
        if (zset >> s) & 1:
            continue
        sh = 13 * s + 9
        t = ((rel[0] >> sh) & m4) | (((rel[1] >> sh) & m4) << 4) | (((rel[2] >> sh) & m4) << 8)
        code |= t << (12 * s)
    return _hash(shape ^ (code * <uint64_t>0xD6E8FEB86659FD93),
                 meta | (<uint64_t>cls << 16) | (<uint64_t>zset << 20))


cdef inline int _zset_of(uint64_t shape, uint64_t mask) noexcept nogil:
    """The suits a pattern leaves free: cards left in the suit, none fixed."""
    cdef int s, p, n, z = 0
    for s in range(4):
        n = 0
        for p in range(4):
            n += (shape >> (4 * (4 * p + s))) & 15
        if n and _suit(mask, s) == 0:
            z |= 1 << s
    return z


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


cdef inline int _extended_low(const uint64_t* hand, uint64_t r, int s, uint64_t a) noexcept nogil:
    """Rank bit of the lowest relevant card of suit ``s`` (``r`` != 0: the
    relevant cards of the suit, ``a``: the suit's cards alive), extended down
    through the cards of its hand that are equivalent to it: a card the
    search treated as one move with it."""
    cdef int low = ds_ctz(r)
    cdef int o = 0
    cdef uint64_t below, h
    while o < 3 and not (_suit(hand[o], s) >> low) & 1:
        o += 1
    h = _suit(hand[o], s)
    if not (h >> low) & 1:
        return low
    below = a & ((DS_ONE << low) - 1)
    while below and (h >> ds_hib(below)) & 1:
        low = ds_hib(below)
        below &= ~(DS_ONE << low)
    return low


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
        # the largest power-of-two number of buckets that fits in tt_mb
        cdef double limit = tt_mb * 1048576.0
        cdef size_t buckets = 1
        while <double>(buckets * 2 * (sizeof(TTBucket) + DIR_PER_BUCKET * sizeof(DirEntry))) <= limit:
            buckets *= 2
        self.tt_max_buckets = buckets
        self.tt = NULL
        self.dir = NULL
        self._alloc(MIN_BUCKETS if MIN_BUCKETS < buckets else buckets)
        if self.tt == NULL:
            raise MemoryError()
        self.nodes = 0
        self.trick_nodes = 0
        self.stamp = 1
        self.nil = -1

    def __dealloc__(self):
        free(self.tt)
        free(self.dir)

    def clear(self):
        """Empty the transposition table (and shrink it to its initial size)
        and zero the statistics: a cold start."""
        self._reset_table()
        self.reset_stats()
        if self.tt == NULL:
            raise MemoryError()

    def reset_stats(self):
        """Zero the statistics (``nodes``, ``trick_nodes``)."""
        self.nodes = 0
        self.trick_nodes = 0

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
        """Bytes the table holds now (slots and shape directory)."""
        return self.tt_buckets * (sizeof(TTBucket) + DIR_PER_BUCKET * sizeof(DirEntry))

    # ------------------------------------------------------------------
    # transposition table
    # ------------------------------------------------------------------
    cdef void _alloc(self, size_t buckets) noexcept nogil:
        free(self.tt)
        free(self.dir)
        self.tt = <TTBucket*>calloc(buckets, sizeof(TTBucket))
        self.dir = <DirEntry*>calloc(buckets * DIR_PER_BUCKET, sizeof(DirEntry))
        if self.dir == NULL:
            free(self.tt)
            self.tt = NULL
        self.tt_buckets = buckets
        self.tt_used = 0

    cdef void _reset_table(self) noexcept nogil:
        cdef size_t b = MIN_BUCKETS if MIN_BUCKETS < self.tt_max_buckets else self.tt_max_buckets
        if self.tt != NULL and self.tt_buckets == b:
            memset(self.tt, 0, b * sizeof(TTBucket))
            memset(self.dir, 0, b * DIR_PER_BUCKET * sizeof(DirEntry))
            self.tt_used = 0
        else:
            self._alloc(b)
        self.stamp = 1

    cdef void _grow(self) noexcept nogil:
        cdef size_t nb = self.tt_buckets * 2
        cdef TTBucket* old = self.tt
        cdef size_t ob = self.tt_buckets
        cdef TTBucket* nt = <TTBucket*>calloc(nb, sizeof(TTBucket))
        cdef DirEntry* nd = <DirEntry*>calloc(nb * DIR_PER_BUCKET, sizeof(DirEntry))
        cdef size_t i, used = 0
        cdef int k, j
        cdef TTBucket* src
        cdef TTBucket* dst
        if nd == NULL:
            free(nt)
            nt = NULL
        if nt == NULL:
            # stay at the current size: replacement keeps memory bounded
            self.tt_max_buckets = ob
            return
        for i in range(ob):
            src = &old[i]
            for k in range(BUCKET):
                if src.tag[k] == 0:
                    continue
                dst = nt + (src.slot[k].hkey & (nb - 1))
                for j in range(BUCKET):
                    if dst.tag[j] == 0:
                        dst.tag[j] = src.tag[k]
                        dst.stamp[j] = src.stamp[k]
                        dst.slot[j] = src.slot[k]
                        used += 1
                        break
        free(old)
        self.tt = nt
        # the shape directory: re-derive it from the slots
        free(self.dir)
        self.dir = nd
        self.tt_buckets = nb
        self.tt_used = used
        for i in range(nb):
            for k in range(BUCKET):
                if nt[i].tag[k]:
                    j = _zset_of(nt[i].slot[k].shape, nt[i].slot[k].mask)
                    if j:
                        self._dir_add(nt[i].slot[k].shape, nt[i].slot[k].meta, j)

    cdef DirEntry* _dir_find(self, uint64_t h) noexcept nogil:
        """The shape directory entry of hash ``h`` (4-way sets), or NULL."""
        cdef DirEntry* d = self.dir + ((h & (self.tt_buckets * DIR_PER_BUCKET // 4 - 1)) << 2)
        cdef int i
        for i in range(4):
            if d[i].key == h:
                return &d[i]
        return NULL

    cdef void _dir_add(self, uint64_t shape, uint16_t meta, int zset) noexcept nogil:
        cdef uint64_t h = _hash(shape, meta) | 1
        cdef DirEntry* d = self._dir_find(h)
        cdef DirEntry* base
        cdef int i
        if d == NULL:
            base = self.dir + ((h & (self.tt_buckets * DIR_PER_BUCKET // 4 - 1)) << 2)
            d = &base[(h >> 58) & 3]
            for i in range(4):
                if base[i].key == 0:
                    d = &base[i]
                    break
            d.key = h
            d.zsets = 0
        d.zsets |= <uint16_t>(1 << zset)

    cdef int _probe_key(self, uint64_t h, uint64_t shape, uint16_t meta, const uint64_t* rel,
                        int target, uint64_t alive, uint64_t* rw) noexcept nogil:
        cdef TTBucket* b = self.tt + (h & (self.tt_buckets - 1))
        cdef uint16_t tag = <uint16_t>((h >> 48) | 1)
        cdef uint64_t mm = 0, m, ms, out
        cdef int k, s, res, cnt
        cdef TTSlot* e
        mm = ds_tag_match32(b.tag, tag)
        while mm:
            k = ds_ctz(mm)
            mm &= mm - 1
            e = &b.slot[k]
            if e.meta != meta or e.shape != shape:
                continue
            m = e.mask
            if (rel[0] & m) != e.pat[0] or (rel[1] & m) != e.pat[1] \
                    or (rel[2] & m) != e.pat[2]:
                continue
            if e.lower >= target:
                res = e.lower
            elif e.upper < target:
                res = e.upper
            else:
                continue
            b.stamp[k] = self.stamp
            out = 0
            for s in range(4):
                ms = _suit(m, s)
                if ms:
                    cnt = ds_pop(ms)
                    out |= _kth_highest(_suit(alive, s), cnt) << (13 * s)
            rw[0] = out
            return res
        return NO_HIT

    cdef int _probe(self, uint64_t shape, uint16_t meta, const uint64_t* rel,
                    int target, uint64_t alive, uint64_t* rw) noexcept nogil:
        """Look the trick-start position up.  A pattern is filed under a key
        built from the shape, the meta bits, the set of suits it leaves free
        and the holders of the top cards it fixes (see ``_store``); the
        lookup probes the keys of the free-suit sets the shape's directory
        entry lists, then the keys of 1 to 4 fixed top cards."""
        cdef uint64_t h = _hash(shape, meta) | 1
        cdef DirEntry* d = self._dir_find(h)
        cdef int z, res, cls, nk = 0, i
        cdef uint16_t zs
        cdef uint64_t keys[20]
        if d != NULL:
            zs = d.zsets
            while zs and nk < 15:
                z = ds_ctz(zs)
                zs &= zs - 1
                keys[nk] = _key_hash(shape, meta, rel, alive, 1, z)
                nk += 1
        for cls in range(1, NCLS + 1):
            keys[nk] = _key_hash(shape, meta, rel, alive, cls, 0)
            nk += 1
        for i in range(nk):
            ds_prefetch(&self.tt[keys[i] & (self.tt_buckets - 1)].tag[0])
        for i in range(nk):
            res = self._probe_key(keys[i], shape, meta, rel, target, alive, rw)
            if res != NO_HIT:
                return res
        return NO_HIT

    cdef void _store(self, uint64_t shape, uint16_t meta, const uint64_t* rel,
                     uint64_t alive, uint64_t rw, int target, int value, int rem) noexcept nogil:
        cdef uint64_t mask = 0, r, a, mm
        cdef int s, k, low, cnt, victim, cls, n, zset
        cdef uint32_t best
        cdef TTBucket* b
        cdef TTSlot* e
        cdef uint64_t p0, p1, p2, h
        cdef uint16_t tag
        cls = NCLS
        zset = 0
        for s in range(4):
            a = _suit(alive, s)
            n = ds_pop(a)
            r = _suit(rw, s)
            cnt = 0
            if r:
                # the lowest relevant card, extended down through the cards of
                # its hand that are equivalent to it (one move in the search)
                low = _extended_low(self.hand, r, s, a)
                cnt = ds_pop(a >> low)
                mask |= (((DS_ONE << cnt) - 1) << (13 - cnt)) << (13 * s)
            # the key: suits left free, how many top cards the others fix
            if n and cnt == 0:
                zset |= 1 << s
            elif cnt < n and cnt < cls:
                cls = cnt
        p0 = rel[0] & mask
        p1 = rel[1] & mask
        p2 = rel[2] & mask
        self.stamp += 1
        if zset:
            cls = 1
            self._dir_add(shape, meta, zset)
        h = _key_hash(shape, meta, rel, alive, cls, zset)
        b = self.tt + (h & (self.tt_buckets - 1))
        tag = <uint16_t>((h >> 48) | 1)
        mm = ds_tag_match32(b.tag, tag)
        while mm:
            k = ds_ctz(mm)
            mm &= mm - 1
            e = &b.slot[k]
            if e.meta == meta and e.shape == shape and e.mask == mask \
                    and e.pat[0] == p0 and e.pat[1] == p1 and e.pat[2] == p2:
                if value >= target:
                    if value > e.lower:
                        e.lower = <int8_t>value
                else:
                    if value < e.upper:
                        e.upper = <int8_t>value
                b.stamp[k] = self.stamp
                return
        victim = 0
        best = 0xFFFFFFFF
        for k in range(BUCKET):
            if b.tag[k] == 0:
                victim = k
                self.tt_used += 1
                break
            if b.stamp[k] < best:
                best = b.stamp[k]
                victim = k
        if b.tag[victim]:
            self.tt_evicted += 1
        b.tag[victim] = tag
        b.stamp[victim] = self.stamp
        e = &b.slot[victim]
        e.shape = shape
        e.meta = meta
        e.mask = mask
        e.hkey = <uint32_t>h
        e.pat[0] = p0
        e.pat[1] = p1
        e.pat[2] = p2
        if value >= target:
            e.lower = <int8_t>value
            e.upper = <int8_t>rem
        else:
            e.lower = -1
            e.upper = <int8_t>value
        if self.tt_buckets < self.tt_max_buckets and (
                self.tt_used * 4 > self.tt_buckets * BUCKET * 3
                or self.tt_evicted * GROW_ON_EVICT > self.tt_buckets * BUCKET):
            # full, or crowded buckets are replacing entries: double it
            self.tt_evicted = 0
            self._grow()

    # ------------------------------------------------------------------
    # search
    # ------------------------------------------------------------------
    cdef int _search(self, int target, uint64_t* rw) noexcept nogil:
        """Null-window test of "at least ``target`` counted tricks from here on".

        Fail-soft: a result ``v >= target`` is a lower bound of the value,
        ``v < target`` an upper bound (values are -1 for a lost nil, else the
        counted tricks).  ``rw`` receives the relevant cards of the bound.
        """
        cdef int rem, t, tm
        self.nodes += 1
        if self.tlen == 0:
            self.trick_nodes += 1
            return self._trick_start(target, rw)
        if self.tlen < 3 and USE_SURE:
            # who is sure to win the trick in progress?
            rem = ds_pop(self.hand[self.tleader]) + 1
            if self.nil >= 0 and self._secure(1 << self.nil, 1, rw):
                return -1
            # a team that can take the trick takes it if it helps: the
            # maximisers that count (the other maximisers play against them
            # in _secure), or the minimisers that do not count
            if target <= 1 and self.nil < 0:
                tm = self.side & self.count
                if tm and self._secure(tm, 0, rw):
                    return 1
            if target >= rem:
                tm = (~self.side) & (~self.count) & 15
                if tm and self._secure(tm, 0, rw):
                    return rem - 1
        return self._expand(target, rw)

    cdef int _secure(self, int team, int current_only, uint64_t* rw) noexcept nogil:
        """Is the trick in progress sure to be won by a seat of ``team`` (a
        seat mask), whatever the seats still to play do?  (``current_only``:
        only by the card now winning, against every seat still to play.)"""
        cdef int leader = self.tleader
        cdef int ls = self.tcard[0] // 13
        cdef int wc = self.tcard[self.twin]
        cdef int ws = (leader + self.twin) & 3
        cdef int k, q, opp_ruff = 0, mate_ruff = 0
        cdef uint64_t opp_suit = 0, opp_trumps = 0, mate_suit = 0, qs
        for k in range(self.tlen, 4):
            q = (leader + k) & 3
            qs = _suit(self.hand[q], ls)
            if (team >> q) & 1 and not current_only:
                mate_suit |= qs
                if qs == 0 and ls != 0 and (self.hand[q] & DS_SPADES):
                    mate_ruff = 1
            else:
                opp_suit |= qs
                if qs == 0 and ls != 0 and (self.hand[q] & DS_SPADES):
                    opp_ruff = 1
                    opp_trumps |= self.hand[q] & DS_SPADES
        rw[0] = 0
        if (team >> ws) & 1:
            # the card now winning: its rank beat the cards already played
            # and must beat those still to come
            if wc // 13 == ls:
                if not opp_ruff and (opp_suit == 0 or wc > 13 * ls + ds_hib(opp_suit)):
                    rw[0] = DS_ONE << wc
                    return 1
            elif opp_trumps == 0 or wc > ds_hib(opp_trumps):
                rw[0] = DS_ONE << wc
                return 1
        if current_only or wc // 13 != ls or opp_ruff:
            return 0
        if mate_suit and 13 * ls + ds_hib(mate_suit) > wc and \
                (opp_suit == 0 or ds_hib(mate_suit) > ds_hib(opp_suit)):
            rw[0] = DS_ONE << (13 * ls + ds_hib(mate_suit))
            return 1
        if mate_ruff:
            return 1
        return 0

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
            return -1
        return (self.count >> w) & 1

    cdef int _trick_start(self, int target, uint64_t* rw) noexcept nogil:
        cdef int leader = self.tleader
        cdef uint64_t h0 = self.hand[0], h1 = self.hand[1], h2 = self.hand[2], h3 = self.hand[3]
        cdef uint64_t alive = h0 | h1 | h2 | h3
        cdef int rem = ds_pop(self.hand[leader])
        cdef int s, p, j, res, qt, team, tm, use_tt, low, low_lead
        cdef uint64_t sp, shape, crw, a
        cdef uint64_t rel[4]
        cdef uint16_t meta
        rw[0] = 0
        if self.nil < 0 and target <= 0:
            return 0
        if target > rem or rem == 0:
            return rem
        if rem == 1:
            return self._last_trick(target, rw)

        # sure trump tricks of each side (won whoever leads): see _team_sure
        if self.nil < 0 and USE_SURE:
            # nobody's tricks count, or everybody's
            if self.count == 0:
                return 0
            if self.count == 15:
                return rem
        if self.nil >= 0 and USE_SURE and (target <= 0 or self.ply == 0):
            low = _nil_low_suits(self.hand, self.nil, &low_lead, &crw)
            if _nil_lowest(self.hand[self.nil], low, self.nil == leader, low_lead):
                # the nil hand can no longer win a trick, whatever anyone
                # plays: kept; and at the root of a query for tricks the
                # rest is the plain game (deeper, switching games costs more
                # than it saves)
                if target <= 0:
                    rw[0] = crw
                    return 0
                j = self.nil
                meta = self.cfg_meta
                self.nil = -1
                self.cfg_meta = meta & ~NIL_META
                res = self._trick_start(target, rw)
                self.nil = j
                self.cfg_meta = meta
                rw[0] |= crw
                return res
            if target <= 0 and _nil_covered(self.hand, self.nil, self.side, leader, low,
                                            low_lead, crw, rw):
                return 0
        sp = alive & DS_SPADES
        if sp and USE_SURE:
            if self.nil >= 0:
                if self._team_sure(1 << self.nil, 1, &crw) >= 1:
                    # the nil hand must win a trick with a spade
                    rw[0] = crw
                    return -1
            # trump tricks the counted seats win whatever anyone plays (a
            # lower bound), and those the other seats win (an upper bound)
            if self.nil < 0:
                j = self._team_sure(self.count, target, &crw)
                if j >= target:
                    rw[0] = crw
                    return j
            j = self._team_sure((~self.count) & 15, rem - target + 1, &crw)
            if rem - j < target:
                rw[0] = crw
                return rem - j

        # transposition table (not for the last tricks: searching them is cheaper)
        use_tt = USE_TT and rem > TT_MIN_REM
        shape = 0
        if not use_tt:
            pass
        else:
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
            res = self._probe(shape, meta, rel, target, alive, rw)
            if res != NO_HIT:
                return res

        # quick tricks of the leader (cashing top cards, keeping the lead)
        if not USE_QUICK:
            pass
        elif (self.side >> leader) & 1:
            if self.nil < 0 and (self.count >> leader) & 1:
                qt = self._quick_tricks(leader, target, &crw)
                if qt >= target:
                    rw[0] = crw
                    return qt
        elif not (self.count >> leader) & 1:
            qt = self._quick_tricks(leader, rem - target + 1, &crw)
            if rem - qt < target:
                rw[0] = crw
                return rem - qt

        res = self._expand(target, &crw)
        if use_tt:
            self._store(shape, meta, rel, alive, crw, target, res, rem)
        rw[0] = crw
        return res

    cdef int _team_sure(self, int team, int need, uint64_t* rw) noexcept nogil:
        """Tricks the seats of ``team`` (a seat mask) win with trumps whatever
        anyone plays.  Every card is played in the end and one hand's trumps
        fall in different tricks; a trump of hand q is beaten only by a
        higher trump of a seat outside the team in the same trick, and each
        such trump beats at most one of q's.  So if q's i-th highest trump
        has fewer than i higher trumps outside the team, at least i minus
        that many of q's tricks are the team's (a Hall deficiency; it covers
        "longest trump hand minus the opponents' trumps" and "top trumps").
        The best hand and i, stopping at ``need`` (smallest relevant set:
        the ranks down to that i-th trump)."""
        cdef uint64_t opp = 0, mine
        cdef int q, c, i, d, best = 0, bc = -1
        for q in range(4):
            if not (team >> q) & 1:
                opp |= self.hand[q] & DS_SPADES
        rw[0] = 0
        for q in range(4):
            if not (team >> q) & 1:
                continue
            mine = self.hand[q] & DS_SPADES
            i = 0
            while mine:
                c = ds_hib(mine)
                mine &= ~(DS_ONE << c)
                i += 1
                d = i - ds_pop(opp >> (c + 1))
                if d > best:
                    best = d
                    bc = c
                    if best >= need:
                        break
            if best >= need:
                break
        if bc >= 0:
            rw[0] = DS_ONE << bc
        return best

    cdef int _qt(self, const uint64_t* h, int leader, int broken, int need, uint64_t* rw) noexcept nogil:
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
        cdef int team = (self.side >> leader) & 1
        cdef int q, s, lim, t_sp, total, cap, n, run, longest, used
        cdef int t[4]
        cdef int k[4]
        cdef uint64_t out = 0, a
        t[0] = 0
        k[0] = 0
        if (not self.breaking) or broken or (mine & DS_NOT_SPADES) == 0:
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
                    if q == leader or ((self.side >> q) & 1) == team:
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
                if q == leader or ((self.side >> q) & 1) != team:
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

    cdef int _quick_tricks(self, int leader, int need, uint64_t* rw) noexcept nogil:
        """Quick tricks of the leader's side: the leader's own (``_qt``), or
        a trick crossing to its partner's top card in a suit followed by the
        partner's own quick tricks.  The crossing needs a team of two seats that count alike.
        Stops at the first count reaching ``need`` (smallest relevant set)."""
        cdef int qt = self._qt(self.hand, leader, self.broken, need, rw)
        cdef int team = (self.side >> leader) & 1
        cdef int pd = -1, q, s, top, v, o
        cdef uint64_t h2[4]
        cdef uint64_t a, ls, ps, os, crw
        if qt >= need:
            return qt
        for q in range(4):
            if q != leader and ((self.side >> q) & 1) == team:
                if pd >= 0:
                    return qt          # three seats on the team
                pd = q
        if pd < 0 or ((self.count >> pd) & 1) != ((self.count >> leader) & 1):
            return qt
        for s in range(4):
            if qt >= need or qt >= ds_pop(self.hand[leader]):
                break
            if s == 0 and self.breaking and not self.broken and (self.hand[leader] & DS_NOT_SPADES):
                continue
            ls = _suit(self.hand[leader], s)
            ps = _suit(self.hand[pd], s)
            if ls == 0 or ps == 0:
                continue
            a = _suit(self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3], s)
            top = ds_hib(a)
            if not (ps >> top) & 1:
                continue
            for q in range(4):
                h2[q] = self.hand[q]
            o = 1
            for q in range(4):
                if q == leader or q == pd:
                    continue
                os = _suit(self.hand[q], s)
                if os:
                    h2[q] &= ~(DS_ONE << (13 * s + ds_ctz(os)))
                elif s and (self.hand[q] & DS_SPADES):
                    o = 0          # an opponent could ruff
            if not o:
                continue
            h2[leader] &= ~(DS_ONE << (13 * s + ds_ctz(ls)))
            h2[pd] &= ~(DS_ONE << (13 * s + top))
            v = 1 + self._qt(h2, pd, self.broken or s == 0, need - 1, &crw)
            if v > qt:
                qt = v
                rw[0] = crw | (DS_ONE << (13 * s + top))
        return qt

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

    cdef void _order(self, int seat, Move* mv, int n) noexcept nogil:
        """Score the moves for the search order."""
        cdef int me = (self.side >> seat) & 1
        if self.tlen:
            self._order_follow(seat, mv, n)
        elif self.nil >= 0 and (seat == self.nil or not me):
            self._order_lead_nil(seat, mv, n)
        elif (me == ((self.side >> ((seat + 2) & 3)) & 1) and me != ((self.side >> ((seat + 1) & 3)) & 1)
                and me != ((self.side >> ((seat + 3) & 3)) & 1)):
            self._order_lead_pair(seat, mv, n)
        else:
            self._order_lead(seat, mv, n)

    cdef void _order_lead_nil(self, int seat, Move* mv, int n) noexcept nogil:
        """Leads in a nil query.  The nil hand leads the cards with the most
        cards of other hands above them.  Its opponents lead low in the
        suits where the nil hand's lowest card is high and its partners
        hold few cards above it (the nil hand may be forced to win)."""
        cdef int nil = self.nil
        cdef int i, c, s, r, lo, q
        cdef uint64_t ns, ms, ps, os
        for i in range(n):
            c = mv[i].card
            s = c // 13
            r = c % 13
            if seat == nil:
                os = _suit(self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3], s) \
                    & ~_suit(self.hand[nil], s)
                mv[i].score = 20 * ds_pop(os >> (r + 1)) - r
                continue
            ns = _suit(self.hand[nil], s)
            ms = _suit(self.hand[seat], s)
            if ns == 0:
                mv[i].score = -20 - r
                continue
            lo = ds_ctz(ns)
            ps = 0
            for q in range(4):
                if q != nil and (self.side >> q) & 1:
                    ps |= _suit(self.hand[q], s)
            mv[i].score = 100 + 4 * lo - 20 * ds_pop(ps >> lo) - r
            if r > lo:
                mv[i].score -= 60

    cdef void _order_lead_pair(self, int seat, Move* mv, int n) noexcept nogil:
        """Lead weights for partners facing two opponents (partner opposite).

        Prefer suits where the opponents hold few cards (smaller trees) and
        cannot ruff, where partner can ruff, finesses through the left-hand
        opponent, leads toward our winners; avoid leading into the
        right-hand opponent's high cards.  Within a suit, leads that win the
        trick first (cashing, dropping singleton honours, crossing to
        partner), then sequences and low cards."""
        cdef uint64_t alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        cdef int lho = (seat + 1) & 3, pd = (seat + 2) & 3, rho = (seat + 3) & 3
        cdef int rem = ds_pop(self.hand[seat])
        cdef int i, s, c, r, nl, nr, np, nm, cl, cr, sw, w, win, rr, seq
        cdef int top_h, sec_h, third_h, top_c, sec_c
        cdef uint64_t a, bits, mine, ptr, ltr, rtr
        cdef int owner[3]
        cdef int sw_of[4]
        cdef int cur = -1, sw0 = 0
        cdef uint64_t below
        ptr = self.hand[pd] & DS_SPADES
        ltr = self.hand[lho] & DS_SPADES
        rtr = self.hand[rho] & DS_SPADES
        for i in range(n):
            c = mv[i].card
            s = c // 13
            r = c % 13
            if s != cur:
                # the suit's facts, once per suit (moves come suit by suit)
                cur = s
                a = _suit(alive, s)
                mine = _suit(self.hand[seat], s)
                nl = ds_pop(_suit(self.hand[lho], s))
                nr = ds_pop(_suit(self.hand[rho], s))
                np = ds_pop(_suit(self.hand[pd], s))
                nm = ds_pop(mine)
                # holders of the three highest cards of the suit
                bits = a
                for w in range(3):
                    owner[w] = -1
                    if bits:
                        top_c = ds_hib(bits)
                        bits &= ~(DS_ONE << top_c)
                        owner[w] = 0
                        while not (self.hand[owner[w]] >> (13 * s + top_c)) & 1:
                            owner[w] += 1
                top_h = owner[0]
                sec_h = owner[1]
                third_h = owner[2]
                top_c = ds_hib(a)
                sec_c = ds_hib(a & ~(DS_ONE << top_c)) if (a & ~(DS_ONE << top_c)) else -1
                cl = nl if nl else rem + 1
                cr = nr if nr else rem + 1
                sw0 = -((cl + cr) * 128) // 13
                if s != 0:
                    if (nl == 0 and ltr) or (nr == 0 and rtr):
                        sw0 -= 12
                    if np == 0 and ptr and nr > 0:
                        sw0 += 17
                if top_h == rho or sec_h == rho:
                    if nr != 1:
                        sw0 -= 12
                elif top_h == lho and sec_h == pd and np != 1:
                    sw0 += 27
                if s != 0 and nm == 1 and (self.hand[seat] & DS_SPADES) and np > 1 and top_h == pd:
                    sw0 += 19
            sw = sw0
            rr = 14 - ds_pop(a >> (r + 1))
            # a sequence: the next card down is ours too (a group of equals)
            below = a & ((DS_ONE << r) - 1)
            seq = below != 0 and (mine >> ds_hib(below)) & 1
            # will this lead win the trick (by us or partner)?
            win = 0
            if top_h == seat and r == top_c:
                if s == 0:
                    win = 1
                elif (np or not ptr):
                    win = (nl or not ltr) and (nr or not rtr)
                else:
                    win = (nl or (ltr == 0 or ds_hib(ptr) > ds_hib(ltr))) and \
                          (nr or (rtr == 0 or ds_hib(ptr) > ds_hib(rtr)))
            elif top_h == pd:
                win = s == 0 or ((nl or not ltr) and (nr or not rtr))
            elif s != 0 and np == 0 and ptr:
                if nl == 0 and ltr and ds_hib(ltr) > ds_hib(ptr):
                    win = 0
                elif nr == 0 and rtr and ds_hib(rtr) > ds_hib(ptr):
                    win = 0
                else:
                    win = 1
            if win:
                if (nl == 1 and top_h == lho) or (nr == 1 and top_h == rho):
                    w = sw + 35 + rr
                elif top_h == seat:
                    if sec_h == pd:
                        w = sw + 48 + rr
                    elif r == top_c:
                        w = sw + 31
                    else:
                        w = sw - 3 + rr
                elif top_h == pd:
                    w = sw + 42 + rr if sec_h == seat else sw + 28 + rr
                elif seq and r == sec_c:
                    w = sw + 40
                elif seq:
                    w = sw + 22 + rr
                else:
                    w = sw + 11 + rr
            else:
                if sec_h == pd and third_h == pd:
                    sw += 20
                elif (sec_h == seat and third_h == pd and np > 1) or \
                        (sec_h == pd and third_h == seat and np > 1):
                    sw += 13
                if (nl == 1 and top_h == lho) or (nr == 1 and top_h == rho):
                    w = sw + 2 + rr
                elif top_h == seat:
                    if sec_h == pd:
                        w = sw + 33 + rr
                    elif r == top_c:
                        w = sw + 38
                    else:
                        w = sw - 14 + rr
                elif top_h == pd:
                    w = sw + 34 + rr
                elif seq and r == sec_c:
                    w = sw + 35
                else:
                    w = sw + 17 - r
            mv[i].score = w

    cdef void _order_lead(self, int seat, Move* mv, int n) noexcept nogil:
        """Order the leads by suit categories (in the spirit of well-tuned
        bridge solvers): give partner a ruff, finesse through the left-hand
        opponent, lead from strength, plain leads, suits with a void, free
        finesses for the right-hand opponent, trumps; a suit an opponent can
        ruff comes last.  In each suit the top and bottom cards come first."""
        cdef uint64_t alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        cdef int team = (self.side >> seat) & 1
        cdef int lho = (seat + 1) & 3, pd = (seat + 2) & 3, rho = (seat + 3) & 3
        cdef int std = (((self.side >> pd) & 1) == team and ((self.side >> lho) & 1) != team
                        and ((self.side >> rho) & 1) != team)
        cdef int i, q, s, cat, top, bottom, my_tr, opp_ruff, opp_void, pd_ruff, any_void
        cdef int cats[4]
        cdef int tops[4]
        cdef int bottoms[4]
        cdef uint64_t ms, ps, ls, rs, ours, suit_alive, A, K, Q, J, T, rest
        my_tr = ds_pop(self.hand[seat] & DS_SPADES)
        for s in range(4):
            cats[s] = -1
            tops[s] = -1
            bottoms[s] = 99
        for i in range(n):
            s = mv[i].card // 13
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
            ms = _suit(self.hand[seat], s)
            ps = 0
            opp_ruff = 0
            opp_void = 0
            pd_ruff = 0
            any_void = 0
            for q in range(4):
                if q == seat:
                    continue
                if ((self.side >> q) & 1) == team:
                    ps |= _suit(self.hand[q], s)
                    if _suit(self.hand[q], s) == 0:
                        any_void = 1
                        if (self.hand[q] & DS_SPADES) and ds_pop(self.hand[q] & DS_SPADES) <= my_tr:
                            pd_ruff = 1
                elif _suit(self.hand[q], s) == 0:
                    opp_void = 1
                    any_void = 1
                    if self.hand[q] & DS_SPADES:
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
                ps = _suit(self.hand[pd], s)
                ls = _suit(self.hand[lho], s)
                rs = _suit(self.hand[rho], s)
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
        for i in range(n):
            s = mv[i].card // 13
            if cats[s] == 600:
                mv[i].score = 602 if mv[i].card == bottoms[s] else 0
            elif mv[i].card == tops[s]:
                mv[i].score = cats[s] + 2
            elif mv[i].card == bottoms[s]:
                mv[i].score = cats[s] + 1
            else:
                mv[i].score = 0

    cdef void _order_follow(self, int seat, Move* mv, int n) noexcept nogil:
        """Order the plays to a trick: duck when partner's card holds or we
        cannot win, win as cheaply as is safe, ruff low, discard from long
        suits."""
        cdef int leader = self.tleader
        cdef int pos = self.tlen
        cdef int ls = self.tcard[0] // 13
        cdef int wc = self.tcard[self.twin]
        cdef int wseat = (leader + self.twin) & 3
        cdef int team = (self.side >> seat) & 1
        # ``good``: the seats whose winning the trick helps this seat's side
        # (the counted seats for a maximiser, the others for a minimiser; in
        # a nil query every seat but the nil hand, or the nil hand alone)
        cdef int good
        cdef int pw
        cdef int i, k, q, c, s, r, my_top, my_low_win, later_top, later_void, later_ruff
        cdef int pd_later_top, safe
        cdef uint64_t lat = 0, pd_lat = 0, mine, hi
        cdef int lens[4]
        cdef int bottoms[4]
        if self.nil >= 0:
            good = (15 & ~(1 << self.nil)) if team else (1 << self.nil)
        else:
            good = self.count if team else (~self.count) & 15
        pw = (good >> wseat) & 1
        if self.nil >= 0 and not team and not (pos > ((self.nil - leader) & 3) and wseat == self.nil):
            # an opponent of the nil hand: under it when it is still to
            # play (it may be forced to win); when it has lost the trick,
            # win cheaply (the lead), else low
            k = pos > ((self.nil - leader) & 3)
            for i in range(n):
                c = mv[i].card
                if k and _beats(c, wc):
                    mv[i].score = 200 - c % 13
                else:
                    mv[i].score = 100 - c % 13
            return
        if not (good >> seat) & 1:
            # this seat winning the trick does not help: lose it, shedding
            # the highest cards that lose (and when it must win, cheaply)
            self._order_shed(seat, mv, n)
            return
        later_void = 0
        later_ruff = 0
        for k in range(pos + 1, 4):
            q = (leader + k) & 3
            if ((self.side >> q) & 1) == team:
                if (good >> q) & 1:
                    pd_lat |= _suit(self.hand[q], ls)
                continue
            if _suit(self.hand[q], ls) == 0:
                later_void = 1
                if self.hand[q] & DS_SPADES:
                    later_ruff = 1
            lat |= _suit(self.hand[q], ls)
        later_top = 13 * ls + ds_hib(lat) if lat else -1
        pd_later_top = 13 * ls + ds_hib(pd_lat) if pd_lat else -1
        mine = _suit(self.hand[seat], ls)
        if mine:
            my_top = 13 * ls + ds_hib(mine)
            # is partner's winning card safe from the opponents still to play?
            if wc // 13 == ls:
                safe = (not later_ruff) and wc > later_top
            else:
                safe = 1
            if pos == 3:
                safe = 1
            if not _beats(my_top, wc) or (pw and safe):
                for i in range(n):
                    mv[i].score = 100 - mv[i].card % 13
                return
            if pos == 1 and not pw and pd_later_top > wc and (not lat or pd_later_top > later_top):
                # partner, still to play, can beat the trick: second hand low
                for i in range(n):
                    mv[i].score = 100 - mv[i].card % 13
                return
            hi = mine & ~((DS_ONE << (wc - 13 * ls + 1)) - 1) if wc // 13 == ls else mine
            my_low_win = 13 * ls + ds_ctz(hi)
            for i in range(n):
                c = mv[i].card
                r = c % 13
                if _beats(c, wc):
                    if pos == 3 or not lat or (my_low_win > later_top and not later_ruff):
                        mv[i].score = 200 - r
                    else:
                        mv[i].score = 200 + r
                else:
                    mv[i].score = 100 - r
            return
        # void in the suit led: ruff or discard
        for s in range(4):
            lens[s] = ds_pop(_suit(self.hand[seat], s))
            bottoms[s] = 99
        for i in range(n):
            s = mv[i].card // 13
            if mv[i].card < bottoms[s]:
                bottoms[s] = mv[i].card
        safe = pos == 3 or (lat and wc > later_top and not later_ruff) or (wc // 13 == 0 and not later_ruff)
        for i in range(n):
            c = mv[i].card
            s = c // 13
            r = c % 13
            if s == 0:
                if pw and safe:
                    mv[i].score = 10 - r
                elif wc // 13 == 0:
                    if not pw and c > wc:
                        mv[i].score = 300 - r
                    else:
                        mv[i].score = 10 - r
                elif pos == 3 or lat or not later_ruff:
                    mv[i].score = 300 - r if c == bottoms[0] else 20 - r
                else:
                    mv[i].score = 250 + r
            elif c == bottoms[s]:
                mv[i].score = 100 + lens[s]
            else:
                mv[i].score = 30 - r

    cdef void _order_shed(self, int seat, Move* mv, int n) noexcept nogil:
        """Order the plays of a seat that should not win the trick (the nil
        hand, a maximiser whose tricks do not count, a counted minimiser):
        the highest cards that lose now first, then the cheapest winners."""
        cdef int wc = self.tcard[self.twin]
        cdef int i, c
        for i in range(n):
            c = mv[i].card
            if _beats(c, wc):
                mv[i].score = 50 - c % 13 - (13 if c < 13 else 0)
            elif c < 13:
                mv[i].score = 150 + c % 13      # a spade under a higher spade
            else:
                mv[i].score = 100 + c % 13

    cdef uint64_t _extend_rw(self, uint64_t rw, int seat) noexcept nogil:
        """Relevant cards as seen by an ancestor: when the lowest relevant
        card of a suit is in ``seat``'s hand, the cards of that hand
        equivalent to it here (one move in this node's search, though perhaps
        not equivalent at an ancestor) are relevant too."""
        cdef uint64_t alive, r, a, h, below
        cdef int s, low, i
        if (rw & self.hand[seat]) == 0:
            return rw          # (the lowest relevant cards are not this hand's)
        alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        for i in range(self.tlen):
            alive |= DS_ONE << self.tcard[i]
        for s in range(4):
            r = _suit(rw, s)
            if r == 0:
                continue
            low = ds_ctz(r)
            h = _suit(self.hand[seat], s)
            if not (h >> low) & 1:
                continue
            a = _suit(alive, s)
            below = a & ((DS_ONE << low) - 1)
            while below and (h >> ds_hib(below)) & 1:
                low = ds_hib(below)
                below &= ~(DS_ONE << low)
            rw |= DS_ONE << (13 * s + low)
        return rw

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
        cdef int i, k, c, res, wpos, wcard, wseat, nt, t0, t1, t2, low, lwset, best, won
        cdef int lw[4]
        cdef uint64_t cb, crw, cw, acc = 0, r, alive
        if n > 1:
            self._order(seat, mv, n)
            _sort_moves(mv, n)
        best = -2 if maxnode else 99
        lw[0] = 0
        lw[1] = 13
        lw[2] = 26
        lw[3] = 39
        lwset = 0
        for i in range(n):
            c = mv[i].card
            if c < lw[c // 13]:
                # a small card like one tried before: below every rank that
                # mattered to that card's result, so it gives the same result
                continue
            cb = DS_ONE << c
            self.hand[seat] ^= cb
            self.tcard[tlen] = c
            if tlen == 0 or _beats(c, self.tcard[old_twin]):
                self.twin = tlen
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
                    res = -1
                    crw = cw
                else:
                    won = (self.count >> wseat) & 1
                    nt = target - won
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
                    if res >= 0:
                        res += won
                    crw |= cw
                    self.tcard[0] = t0
                    self.tcard[1] = t1
                    self.tcard[2] = t2
                    self.tleader = leader
                    self.tlen = tlen
                    self.broken = old_broken
            self.twin = old_twin
            self.ply = ply
            self.hand[seat] ^= cb
            if (res >= target) == maxnode:
                # cutoff: this move proves the result
                rw[0] = self._extend_rw(crw, seat)
                return res
            if maxnode:
                if res > best:
                    best = res
            elif res < best:
                best = res
            acc |= crw
            k = c // 13
            if not (lwset >> k) & 1:
                lwset |= 1 << k
                r = _suit(acc, k)
                if r:
                    alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
                    for wpos in range(tlen):
                        alive |= DS_ONE << self.tcard[wpos]
                    low = 13 * k + _extended_low(self.hand, r, k, _suit(alive, k))
                else:
                    low = 13 * k + 13
                if c < low:
                    lw[k] = low
        rw[0] = self._extend_rw(acc, seat)
        return best

    # ------------------------------------------------------------------
    # drivers
    # ------------------------------------------------------------------
    cdef int _rem(self) noexcept nogil:
        return ds_pop(self.hand[self.tleader]) + (1 if self.tlen else 0)

    cdef int _value(self, int lo, int hi, int guess) noexcept nogil:
        """The exact value in [lo, hi] by null-window searches (MTD(f)):
        each fail-soft result moves a bound, and the next test starts there."""
        cdef int t, v
        cdef uint64_t rw
        t = guess
        while lo < hi:
            if t <= lo:
                t = lo + 1
            if t > hi:
                t = hi
            self.ply = 0
            v = self._search(t, &rw)
            if v >= t:
                lo = v
                t = v + 1
            else:
                hi = v
                t = v
        return lo

    cdef int _guess(self) noexcept nogil:
        """A first guess of the value for the MTD driver.  For two partners
        against two (the tricks of the side counted, no nil) a linear fit of
        double-dummy results on high cards, trump lengths and shortness;
        else the top (the fail-soft searches come down quickly)."""
        cdef int rem = self._rem()
        cdef int q, s, n, hcp = 0, tr = 0, mx = 0, omx = 0, short = 0, top = 0
        cdef uint64_t sp
        cdef double est
        if self.nil >= 0 or self.count != self.side or ds_pop(self.side) != 2 or self.tlen:
            return rem
        sp = 0
        for q in range(4):
            n = ds_pop(self.hand[q] & DS_SPADES)
            if (self.side >> q) & 1:
                sp |= self.hand[q]
                tr += n
                if n > mx:
                    mx = n
                for s in range(4):
                    hcp += 4 * ((self.hand[q] >> (13 * s + 12)) & 1) + 3 * ((self.hand[q] >> (13 * s + 11)) & 1) \
                        + 2 * ((self.hand[q] >> (13 * s + 10)) & 1) + ((self.hand[q] >> (13 * s + 9)) & 1)
                if n:
                    for s in range(1, 4):
                        n = ds_pop(_suit(self.hand[q], s))
                        if n < 3:
                            short += 3 - n
            elif n > omx:
                omx = n
        top = ((sp >> 12) & 1) + ((sp >> 11) & 1) + ((sp >> 10) & 1)
        est = (0.387 * hcp + 0.571 * tr + 0.416 * mx - 0.317 * omx + 0.093 * short
               + 0.151 * top - 5.986) * rem / 13.0
        n = <int>(est + 2.5)
        if n < 0:
            n = 0
        if n > rem:
            n = rem
        return n

    cdef int _root_value(self) noexcept nogil:
        cdef int rem = self._rem()
        cdef int lo = -1 if self.nil >= 0 else 0
        if rem == 0:
            return 0
        return self._value(lo, rem, self._guess())

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

    # ------------------------------------------------------------------
    # the questions (one entry point each; positions are checked by the caller)
    # ------------------------------------------------------------------
    cdef int _load(self, object pos, int side, int count, int nil_seat) except -1:
        """Set up the search at ``pos`` (``hands``, ``leader``, ``trick``,
        ``spades_broken``, ``breaking``) for ``side`` (the maximisers),
        ``count`` (the seats whose tricks count) and ``nil_seat`` (-1: none)."""
        cdef int i, k
        cdef tuple hands = tuple(pos.hands)
        cdef tuple trick = tuple(pos.trick)
        self.side = side
        self.count = count
        self.nil = nil_seat
        self.breaking = 1 if pos.breaking else 0
        self.cfg_meta = <uint16_t>(0x8000 | ((side | (count << 4) | ((nil_seat + 1) << 8)
                                              | (self.breaking << 11)) << 3))
        for i in range(4):
            self.hand[i] = <uint64_t>hands[i]
        self.tleader = <int>pos.leader
        self.twin = 0
        self.broken = 1 if pos.spades_broken else 0
        self.ply = 0
        # put the trick in progress on the table
        for i in range(len(trick)):
            k = <int>trick[i]
            self.tcard[i] = k
            if i == 0 or _beats(k, self.tcard[self.twin]):
                self.twin = i
        self.tlen = len(trick)
        return 0

    cpdef int max_tricks(self, object pos, int side, int count, int nil_seat):
        """The most tricks of the seats in ``count`` the maximisers (``side``)
        can make from ``pos`` on; -1 when ``nil_seat``'s nil cannot be kept."""
        cdef int v
        self._load(pos, side, count, nil_seat)
        with nogil:
            v = self._root_value()
        return v

    cpdef int bound(self, object pos, int side, int count, int nil_seat, int target):
        """One fail-soft null-window search at ``target``: a result
        ``v >= target`` means the value is at least ``v``, ``v < target`` that
        it is at most ``v`` (so the value is at least ``target`` exactly when
        the result is)."""
        cdef int v, rem
        cdef uint64_t rw
        self._load(pos, side, count, nil_seat)
        rem = self._rem()
        if target <= (-1 if nil_seat >= 0 else 0):
            return target          # every line reaches it
        if target > rem:
            return rem
        with nogil:
            self.ply = 0
            v = self._search(target, &rw)
        return v

    cpdef list card_groups(self, object pos, int side, int count, int nil_seat):
        """``(card_mask, value)`` for every group of equivalent legal cards of
        the seat to move, in search order."""
        cdef int i, i2, k, n, v, w, base, best, seat, rem, maxnode, s
        cdef uint64_t saved_hand[4]
        cdef int saved_tcard[4]
        cdef int saved_tlen, saved_leader, saved_twin, saved_broken
        cdef uint64_t alive, a, hr, grp
        cdef Move* mv
        cdef list out = []
        self._load(pos, side, count, nil_seat)
        seat = (self.tleader + self.tlen) & 3
        maxnode = (self.side >> seat) & 1
        alive = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        for i in range(self.tlen):
            alive |= DS_ONE << self.tcard[i]
        for i in range(4):
            saved_hand[i] = self.hand[i]
            saved_tcard[i] = self.tcard[i]
        saved_tlen, saved_leader, saved_twin, saved_broken = \
            self.tlen, self.tleader, self.twin, self.broken
        # one move per group of equivalent cards, likely best first
        mv = &self.moves[MAX_PLY - 1][0]
        n = self._gen(seat, mv)
        if n > 1:
            self._order(seat, mv, n)
            _sort_moves(mv, n)
        best = -100
        for i2 in range(n):
            k = mv[i2].card
            s = k // 13
            a = _suit(alive, s)
            hr = ds_pext(_suit(self.hand[seat], s), a)
            w = ds_pop(a & ((DS_ONE << (k - 13 * s)) - 1))    # the card's place in hr
            base = w
            while base > 0 and (hr >> (base - 1)) & 1:
                base -= 1
            grp = ds_pdep(((DS_ONE << (w + 1)) - 1) & ~((DS_ONE << base) - 1), a)
            with nogil:
                w = self._apply(k)
                if w >= 0 and w == self.nil:
                    v = -1
                else:
                    base = 0 if w < 0 else ((self.count >> w) & 1)
                    rem = self._rem()
                    if rem == 0:
                        v = base
                    else:
                        v = self._value(-1 if self.nil >= 0 else 0, rem,
                                        (best - base) if best > -100 else self._guess())
                        if v >= 0:
                            v += base
                for i in range(4):
                    self.hand[i] = saved_hand[i]
                    self.tcard[i] = saved_tcard[i]
                self.tlen, self.tleader, self.twin, self.broken = \
                    saved_tlen, saved_leader, saved_twin, saved_broken
            if best == -100 or (v > best if maxnode else v < best):
                best = v
            out.append(((grp << (13 * s)), v))
        return out

    cpdef list optimal_line(self, object pos, int side, int count, int nil_seat):
        """The cards of one optimal play-out from ``pos`` to the end of the hand."""
        cdef int i, i2, k, n, v, w, base, seat, rem, ok, lost, t
        cdef uint64_t saved_hand[4]
        cdef int saved_tcard[4]
        cdef int saved_tlen, saved_leader, saved_twin, saved_broken
        cdef uint64_t rw
        cdef Move* mv
        cdef list out = []
        self._load(pos, side, count, nil_seat)
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
                            t = v - base if self.nil < 0 or v - base > 0 else 0
                            ok = self._search(t, &rw) >= t
                    else:
                        # need child value <= v, i.e. not >= v + 1
                        if base == -100:
                            ok = 1
                        elif self._rem() == 0:
                            ok = base <= v
                        else:
                            self.ply = 0
                            t = 0 if self.nil >= 0 and v + 1 - base <= 0 else v + 1 - base
                            ok = self._search(t, &rw) < t
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
