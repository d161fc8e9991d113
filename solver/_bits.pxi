# Bit helpers of the compiled core (included by _engine.pyx): the C
# intrinsics behind them, and the card and suit arithmetic every unit uses.
#
# A hand is a 52-bit mask, card = suit * 13 + rank - 2 (suits S=0 H=1 D=2
# C=3, spades trump): a 13-bit field per suit, bit 12 the ace.

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
    #if defined(__AVX512BW__)
    #include <immintrin.h>
    #endif
    /* bit i set when tags[i] == tag, for the 32 tags of a bucket */
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
    uint64_t ds_pdep(uint64_t x, uint64_t m)
    uint64_t ds_tag_match32(const uint16_t* tags, uint16_t tag)
    void ds_prefetch(const void* p)
    int ds_pop(uint64_t x)
    int ds_ctz(uint64_t x)
    int ds_hib(uint64_t x)


cdef inline int _beats(int card, int best) noexcept nogil:
    """Does ``card`` beat ``best``, the card currently winning the trick?"""
    cdef int cs = card // 13
    cdef int bs = best // 13
    if cs == bs:
        return card > best
    return cs == 0


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
