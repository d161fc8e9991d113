# Bit helpers of the compiled core (included by _engine.pyx): the C
# intrinsics behind them, and the card and suit arithmetic every unit uses.
#
# A hand is a 52-bit mask, card = suit * 13 + rank - 2 (suits S=0 H=1 D=2
# C=3, spades trump): a 13-bit field per suit, bit 12 the ace.

cdef extern from * nogil:
    """
    #include <stdint.h>
    #if defined(__BMI2__) || defined(__AVX512BW__) || defined(__SSE2__)
    #include <immintrin.h>
    #endif
    /* pext and pdep on one suit (13-bit fields): the BMI2 instructions where
       the build has them, else two lookups in 16 KB tables of 7-bit halves
       (as fast on these sizes, and on CPUs whose pext is microcoded) */
    #if defined(__BMI2__)
    static inline uint64_t ds_pext13(uint64_t x, uint64_t m) { return _pext_u64(x, m); }
    static inline uint64_t ds_pdep13(uint64_t x, uint64_t m) { return _pdep_u64(x, m); }
    static void ds_init_tables(void) {}
    #else
    static uint8_t ds_pext_tab[1 << 14];   /* [m7 << 7 | x7]: the bits of x under m, packed */
    static uint8_t ds_pdep_tab[1 << 14];   /* [m7 << 7 | k7]: the low bits of k spread over m */
    static void ds_init_tables(void) {
        for (uint32_t m = 0; m < 128; m++)
            for (uint32_t x = 0; x < 128; x++) {
                uint32_t e = 0, d = 0, b = 1, mm = m;
                for (; mm; mm &= mm - 1, b <<= 1) {
                    if (x & mm & (0u - mm)) e |= b;
                    if (x & b) d |= mm & (0u - mm);
                }
                ds_pext_tab[m << 7 | x] = (uint8_t)e;
                ds_pdep_tab[m << 7 | x] = (uint8_t)d;
            }
    }
    static inline uint64_t ds_pext13(uint64_t x, uint64_t m) {
        uint64_t lo = m & 0x7F, hi = (m >> 7) & 0x3F;
        return ds_pext_tab[lo << 7 | (x & lo)]
            | ((uint64_t)ds_pext_tab[hi << 7 | ((x >> 7) & hi)] << __builtin_popcountll(lo));
    }
    static inline uint64_t ds_pdep13(uint64_t x, uint64_t m) {
        uint64_t lo = m & 0x7F, hi = (m >> 7) & 0x3F;
        int n = __builtin_popcountll(lo);
        return ds_pdep_tab[lo << 7 | (x & ((1u << n) - 1))]
            | ((uint64_t)ds_pdep_tab[hi << 7 | ((x >> n) & 0x7F)] << 7);
    }
    #endif
    /* bit i set when tags[i] == tag, for the 32 tags of a bucket */
    static inline uint64_t ds_tag_match32(const uint16_t* tags, uint16_t tag) {
    #if defined(__AVX512BW__)
        __m512i t = _mm512_set1_epi16((short)tag);
        return _mm512_cmpeq_epi16_mask(_mm512_loadu_si512((const void*)tags), t);
    #elif defined(__SSE2__)
        __m128i t = _mm_set1_epi16((short)tag);
        __m128i c0 = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)tags), t);
        __m128i c1 = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)(tags + 8)), t);
        __m128i c2 = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)(tags + 16)), t);
        __m128i c3 = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)(tags + 24)), t);
        uint32_t lo = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(c0, c1));
        uint32_t hi = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(c2, c3));
        return (uint64_t)(lo | (hi << 16));
    #else
        uint64_t r = 0;
        for (int i = 0; i < 32; i++) r |= (uint64_t)(tags[i] == tag) << i;
        return r;
    #endif
    }
    /* the build needs POPCNT (see setup.py): is it there? */
    static inline int ds_cpu_ok(void) {
    #if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt");
    #else
        return 1;
    #endif
    }
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
    void ds_init_tables()
    int ds_cpu_ok()
    uint64_t ds_pext13(uint64_t x, uint64_t m)
    uint64_t ds_pdep13(uint64_t x, uint64_t m)
    uint64_t ds_tag_match32(const uint16_t* tags, uint16_t tag)
    int ds_pop(uint64_t x)
    int ds_ctz(uint64_t x)
    int ds_hib(uint64_t x)


# Per card: its suit and its rank in the suit (a load where a division by
# 13 takes several instructions).
cdef uint8_t SUIT_OF[52]
SUIT_OF[:] = [c // 13 for c in range(52)]
cdef uint8_t RANK_OF[52]
RANK_OF[:] = [c % 13 for c in range(52)]


cdef inline int _beats(int card, int best) noexcept nogil:
    """Does ``card`` beat ``best``, the card currently winning the trick?"""
    cdef int cs = SUIT_OF[card]
    cdef int bs = SUIT_OF[best]
    if cs == bs:
        return card > best
    return cs == 0


cdef inline int _may_lead_spades(int breaking, int broken, uint64_t hand) noexcept nogil:
    """May a hand holding ``hand`` lead a spade?  Under the breaking rule
    (``breaking``) only once spades are ``broken`` or when it holds nothing
    else."""
    return (not breaking) or broken or (hand & DS_NOT_SPADES) == 0


cdef inline uint64_t _suit(uint64_t h, int s) noexcept nogil:
    """Suit ``s`` of hand ``h`` as a 13-bit field."""
    return (h >> (13 * s)) & DS_SUIT


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
    return ds_pdep13(DS_ONE << (n - k), alive)


cdef inline uint64_t _relative(uint64_t h, uint64_t a) noexcept nogil:
    """Holding ``h`` of one suit in relative rank among the suit's live
    cards ``a``: bit 12 the highest card left, down from there."""
    return ds_pext13(h, a) << (13 - ds_pop(a))


cdef inline int _equivalent_low(uint64_t h, int low, uint64_t a) noexcept nogil:
    """The lowest card of holding ``h`` equivalent to its card ``low`` (rank
    bits of one suit; ``a``: the suit's live cards): down from ``low``
    through the live cards, as long as they are ``h``'s.  ``low`` itself
    when ``h`` lacks it."""
    cdef uint64_t below, o
    if not (h >> low) & 1:
        return low
    below = a & ((DS_ONE << low) - 1)
    o = below & ~h
    if o:
        # (the live cards above another hand's highest one below low)
        below &= ~((DS_ONE << (ds_hib(o) + 1)) - 1)
    if below:
        return ds_ctz(below)
    return low


cdef inline int _extended_low(const uint64_t* hand, uint64_t r, int s, uint64_t a) noexcept nogil:
    """Rank bit of the lowest relevant card of suit ``s`` (``r`` != 0: the
    relevant cards of the suit, ``a``: the suit's cards alive), extended down
    through the cards of its hand that are equivalent to it: a card the
    search treated as one move with it."""
    cdef int low = ds_ctz(r)
    cdef int o = 0
    while o < 3 and not (_suit(hand[o], s) >> low) & 1:
        o += 1
    return _equivalent_low(_suit(hand[o], s), low, a)
