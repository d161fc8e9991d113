# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, overflowcheck=False
"""The compiled random dealer of dummy-spades (reached through
:mod:`solver.dealer`; docs/DEAL.md describes the stream and the language).

* :class:`Stream`: the random numbers, xoshiro256** seeded by four
  splitmix64 outputs of the seed, and whole numbers below ``n`` by Lemire's
  multiply-and-reject method (no bias).
* :meth:`Stream.deal`: candidate deals, each a forward Fisher-Yates shuffle
  of the deck 0..51 (in order) for as many positions as it takes: ``4 *
  cards`` of them (39 for full deals: the fourth hand is what is left),
  hand ``h`` the cards at positions ``cards * h`` on. Each candidate is
  judged by a compiled program (:mod:`solver.constraints` makes it) and the
  accepted ones are kept: rejection sampling, so the deals kept are uniform
  among those that satisfy the program.

The program is a list of ints run on a small stack of doubles: an opcode
(``OPS``) then its arguments. Hands are the 52-bit masks of
:mod:`solver.cards`.
"""
from array import array

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, uint8_t, uint64_t

cdef extern from * nogil:
    """
    #include <stdint.h>
    static inline uint64_t dl_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    /* the high and low words of the 128-bit product r * n */
    static inline uint64_t dl_mul_hi(uint64_t r, uint64_t n, uint64_t *low) {
        __uint128_t m = (__uint128_t)r * n;
        *low = (uint64_t)m;
        return (uint64_t)(m >> 64);
    }
    static inline int dl_pop(uint64_t x) { return __builtin_popcountll(x); }
    /* the build may use POPCNT (see setup.py): is it there? */
    static inline int dl_cpu_ok(void) {
    #if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("popcnt");
    #else
        return 1;
    #endif
    }
    """
    uint64_t dl_rotl(uint64_t x, int k)
    uint64_t dl_mul_hi(uint64_t r, uint64_t n, uint64_t *low)
    int dl_pop(uint64_t x)
    int dl_cpu_ok()

if not dl_cpu_ok():
    raise ImportError("this CPU lacks POPCNT, which the dealer was compiled for (x86-64-v2); "
                      "build it for the oldest x86-64 with DUMMY_SPADES_ARCH=x86-64")

# ---------------------------------------------------------------- the program
cdef enum:
    OP_CONST = 1       # k: push consts[k]
    OP_LENGTH          # hand, suit: the suit's length
    OP_HCP             # hand: high-card points (A 4, K 3, Q 2, J 1)
    OP_HCP_SUIT        # hand, suit
    OP_QT              # hand: quick tricks
    OP_QT_SUIT         # hand, suit
    OP_CARDS           # hand, k: how many of the cards masks[k] the hand holds
    OP_HAS             # hand, k: 1 if it holds all of them
    OP_SHAPE           # hand, t: 1 if its shape is in shape table t
    OP_ADD
    OP_SUB
    OP_NEG
    OP_LT
    OP_LE
    OP_GT
    OP_GE
    OP_EQ
    OP_NE
    OP_NOT
    OP_AND             # target: false on top: jump to target keeping it; else pop
    OP_OR              # target: true on top: jump to target keeping it; else pop
    OP_REQUIRE         # pop; false: the candidate is rejected
    OP_END             # the candidate is accepted

#: The opcodes by name, for the compiler (solver/constraints/compiler.py).
OPS = {"const": OP_CONST, "length": OP_LENGTH, "hcp": OP_HCP, "hcp_suit": OP_HCP_SUIT,
       "qt": OP_QT, "qt_suit": OP_QT_SUIT, "cards": OP_CARDS, "has": OP_HAS,
       "shape": OP_SHAPE, "+": OP_ADD, "-": OP_SUB, "neg": OP_NEG, "<": OP_LT, "<=": OP_LE,
       ">": OP_GT, ">=": OP_GE, "==": OP_EQ, "!=": OP_NE, "not": OP_NOT, "and": OP_AND,
       "or": OP_OR, "require": OP_REQUIRE, "end": OP_END}
cdef enum:
    SHAPE_ENTRIES = 14 * 14 * 14
    STACK_DEPTH = 256
    SIGNAL_EVERY = 1 << 16     # candidates between two looks for a signal (Ctrl-C)

#: Entries of one shape table: spade, heart and diamond lengths 0..13
#: (the clubs are the rest), ``spades * 196 + hearts * 14 + diamonds``.
SHAPE_TABLE = SHAPE_ENTRIES
#: The deepest stack a program may need.
STACK_MAX = STACK_DEPTH

cdef uint64_t SUIT13 = 0x1FFF
# the aces, kings, queens and jacks of every suit
cdef uint64_t ACES = (<uint64_t>1 << 12) | (<uint64_t>1 << 25) | (<uint64_t>1 << 38) | (<uint64_t>1 << 51)
cdef uint64_t KINGS = ACES >> 1
cdef uint64_t QUEENS = ACES >> 2
cdef uint64_t JACKS = ACES >> 3
# quick tricks (in halves) of a suit by [ace king queen bits << 1 | at least two cards]:
# AK 2, AQ 1.5, A 1, KQ 1, Kx 0.5
cdef int QT_HALVES[16]
cdef int _i, _a, _k, _q, _two
for _i in range(16):
    _two = _i & 1
    _q = (_i >> 1) & 1
    _k = (_i >> 2) & 1
    _a = (_i >> 3) & 1
    QT_HALVES[_i] = (4 if _a and _k else 3 if _a and _q else 2 if _a else
                     2 if _k and _q else 1 if _k and _two else 0)


cdef inline int _hcp(uint64_t h) noexcept nogil:
    return 4 * dl_pop(h & ACES) + 3 * dl_pop(h & KINGS) + 2 * dl_pop(h & QUEENS) + dl_pop(h & JACKS)


cdef inline int _qt_halves(uint64_t s) noexcept nogil:
    """Quick tricks of one suit (a 13-bit field), in halves."""
    return QT_HALVES[((s >> 9) & 14) | (s > 0 and (s & (s - 1)) != 0)]


cdef inline uint64_t _suit(uint64_t h, int s) noexcept nogil:
    return (h >> (13 * s)) & SUIT13


cdef int _run(const int32_t* code, const double* consts, const uint64_t* masks,
              const uint8_t* shapes, const uint64_t* hands) noexcept nogil:
    """1 if the program accepts the deal ``hands``, else 0."""
    cdef double stack[STACK_DEPTH]
    cdef int sp = 0, pc = 0, op, t, s
    cdef uint64_t h, m
    while True:
        op = code[pc]
        if op == OP_LENGTH:
            stack[sp] = dl_pop(_suit(hands[code[pc + 1]], code[pc + 2]))
            sp += 1
            pc += 3
        elif op == OP_CONST:
            stack[sp] = consts[code[pc + 1]]
            sp += 1
            pc += 2
        elif op == OP_GE:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] >= stack[sp]
            pc += 1
        elif op == OP_LE:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] <= stack[sp]
            pc += 1
        elif op == OP_REQUIRE:
            sp -= 1
            if stack[sp] == 0:
                return 0
            pc += 1
        elif op == OP_AND:
            if stack[sp - 1] == 0:
                pc = code[pc + 1]
            else:
                sp -= 1
                pc += 2
        elif op == OP_OR:
            if stack[sp - 1] != 0:
                pc = code[pc + 1]
            else:
                sp -= 1
                pc += 2
        elif op == OP_HCP:
            stack[sp] = _hcp(hands[code[pc + 1]])
            sp += 1
            pc += 2
        elif op == OP_HCP_SUIT:
            stack[sp] = _hcp(hands[code[pc + 1]] & (SUIT13 << (13 * code[pc + 2])))
            sp += 1
            pc += 3
        elif op == OP_QT:
            h = hands[code[pc + 1]]
            stack[sp] = 0.5 * (_qt_halves(_suit(h, 0)) + _qt_halves(_suit(h, 1))
                               + _qt_halves(_suit(h, 2)) + _qt_halves(_suit(h, 3)))
            sp += 1
            pc += 2
        elif op == OP_QT_SUIT:
            stack[sp] = 0.5 * _qt_halves(_suit(hands[code[pc + 1]], code[pc + 2]))
            sp += 1
            pc += 3
        elif op == OP_CARDS:
            stack[sp] = dl_pop(hands[code[pc + 1]] & masks[code[pc + 2]])
            sp += 1
            pc += 3
        elif op == OP_HAS:
            m = masks[code[pc + 2]]
            stack[sp] = (hands[code[pc + 1]] & m) == m
            sp += 1
            pc += 3
        elif op == OP_SHAPE:
            h = hands[code[pc + 1]]
            t = code[pc + 2]
            s = (dl_pop(_suit(h, 0)) * 196 + dl_pop(_suit(h, 1)) * 14 + dl_pop(_suit(h, 2)))
            stack[sp] = shapes[t * SHAPE_ENTRIES + s]
            sp += 1
            pc += 3
        elif op == OP_ADD:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] + stack[sp]
            pc += 1
        elif op == OP_SUB:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] - stack[sp]
            pc += 1
        elif op == OP_NEG:
            stack[sp - 1] = -stack[sp - 1]
            pc += 1
        elif op == OP_LT:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] < stack[sp]
            pc += 1
        elif op == OP_GT:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] > stack[sp]
            pc += 1
        elif op == OP_EQ:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] == stack[sp]
            pc += 1
        elif op == OP_NE:
            sp -= 1
            stack[sp - 1] = stack[sp - 1] != stack[sp]
            pc += 1
        elif op == OP_NOT:
            stack[sp - 1] = stack[sp - 1] == 0
            pc += 1
        else:   # OP_END
            return 1


def hand_features(uint64_t hand):
    """``(lengths, hcp, quick tricks)`` of one hand as the programs count
    them (for the tests)."""
    return (tuple(dl_pop(_suit(hand, s)) for s in range(4)), _hcp(hand),
            0.5 * sum(_qt_halves(_suit(hand, s)) for s in range(4)))


cdef class Stream:
    """The random stream of one seed (0 to 2**64 - 1) and the dealer on it."""

    cdef uint64_t s[4]
    cdef int deck[52]

    def __init__(self, uint64_t seed):
        cdef uint64_t z
        cdef int i
        for i in range(4):
            seed += <uint64_t>0x9E3779B97F4A7C15
            z = seed
            z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
            self.s[i] = z ^ (z >> 31)

    cdef inline uint64_t _next(self) noexcept nogil:
        cdef uint64_t result = dl_rotl(self.s[1] * 5, 7) * 9
        cdef uint64_t t = self.s[1] << 17
        self.s[2] ^= self.s[0]
        self.s[3] ^= self.s[1]
        self.s[1] ^= self.s[2]
        self.s[0] ^= self.s[3]
        self.s[2] ^= t
        self.s[3] = dl_rotl(self.s[3], 45)
        return result

    cdef inline uint64_t _below(self, uint64_t n) noexcept nogil:
        """A whole number in [0, n), n >= 1, without bias (Lemire)."""
        cdef uint64_t low
        cdef uint64_t high = dl_mul_hi(self._next(), n, &low)
        cdef uint64_t floor
        if low < n:
            floor = (0 - n) % n
            while low < floor:
                high = dl_mul_hi(self._next(), n, &low)
        return high

    def next_u64(self):
        """The next 64-bit output of the stream (for the tests)."""
        return self._next()

    def below(self, uint64_t n):
        """A whole number in [0, n) from the stream (for the tests)."""
        if n == 0:
            raise ValueError("below(0): expected n >= 1")
        return self._below(n)

    cdef inline void _deal(self, int cards, uint64_t* hands) noexcept nogil:
        cdef int i, j, c, h, draws = 39 if cards == 13 else 4 * cards
        for i in range(52):
            self.deck[i] = i
        for i in range(draws):
            j = i + <int>self._below(52 - i)
            c = self.deck[j]
            self.deck[j] = self.deck[i]
            self.deck[i] = c
        for h in range(4):
            hands[h] = 0
        for i in range(draws):
            hands[i // cards] |= <uint64_t>1 << self.deck[i]
        if cards == 13:
            hands[3] = ((<uint64_t>1 << 52) - 1) ^ hands[0] ^ hands[1] ^ hands[2]

    def deal(self, Py_ssize_t count, int cards, const int32_t[::1] code,
             const double[::1] consts, const uint64_t[::1] masks, const uint8_t[::1] shapes,
             uint64_t max_tries):
        """Deal candidates of ``cards`` cards a hand until ``count`` pass
        ``code`` or ``max_tries`` have been dealt; return ``(hands,
        tries)``: the accepted deals' hands, four a deal, as an
        ``array('Q')``, and the number of candidates dealt."""
        if not 1 <= cards <= 13:
            raise ValueError(f"cards={cards}: expected 1 to 13 cards a hand")
        if code.shape[0] == 0 or count < 0:
            raise ValueError("expected a program ending with 'end' and a count of 0 or more")
        out = array("Q", bytes(8 * 4 * count))
        cdef uint64_t[::1] kept = out
        cdef uint64_t hands[4]
        cdef uint64_t tries = 0
        cdef Py_ssize_t found = 0
        cdef const double* cp = &consts[0] if consts.shape[0] else NULL
        cdef const uint64_t* mp = &masks[0] if masks.shape[0] else NULL
        cdef const uint8_t* sp = &shapes[0] if shapes.shape[0] else NULL
        cdef int plain = code[0] == OP_END
        while found < count and tries < max_tries:
            self._deal(cards, hands)
            tries += 1
            if plain or _run(&code[0], cp, mp, sp, hands):
                kept[4 * found] = hands[0]
                kept[4 * found + 1] = hands[1]
                kept[4 * found + 2] = hands[2]
                kept[4 * found + 3] = hands[3]
                found += 1
            if (tries & (SIGNAL_EVERY - 1)) == 0:
                PyErr_CheckSignals()
        if found < count:
            return out[:4 * found], tries
        return out, tries
