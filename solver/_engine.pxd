# Declarations of the compiled double-dummy core (solver/_engine.pyx and the
# units it includes: _bits.pxi, _table.pxi, _bounds.pxi, _order.pxi,
# _search.pxi).
#
# Card encoding as in solver/cards.py: card = suit * 13 + rank - 2, suits
# S=0 H=1 D=2 C=3 (spades trump); a hand is a 52-bit mask.  Seats 0..3 in
# clockwise play order.  docs/ENGINE.md describes the design.
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t

# Limits of one search path: 13 tricks of 4 cards.
cdef enum:
    MAX_PLY = 56
    MAX_MOVES = 16
    BUCKET = 32             # slots per transposition-table bucket


# ---------------------------------------------------------------------------
# storage: the transposition table (_table.pxi)
# ---------------------------------------------------------------------------

# One entry: a trick-start position up to relative rank.  ``shape`` holds the
# 16 suit lengths (4 bits per seat and suit); ``mask`` selects, per suit, the
# top relative ranks that mattered to the result; ``pat[i]`` is seat i's
# holding of those ranks (seat 3 holds the rest).  Relative holdings are
# 13-bit fields per suit (bit 12 = highest card left).
ctypedef struct TTSlot:
    uint64_t shape
    uint64_t mask
    uint64_t pat[3]
    uint32_t hkey          # low bits of the key's hash and its directory bit (to re-file when the table grows)
    uint16_t meta          # leader, spades broken, side/count/nil/breaking
    int8_t lower           # bounds of the counted tricks from this trick on
    int8_t upper

# A bucket: all positions of one key land in the same bucket.  ``tag`` (16
# bits of the key's hash, 0 = empty) and ``stamp`` (last use, for LRU
# replacement) sit apart from the slots so that a scan touches few lines.
ctypedef struct TTBucket:
    uint16_t tag[BUCKET]
    uint32_t stamp[BUCKET]
    TTSlot slot[BUCKET]

# Shape directory entry: which keys have patterns filed for one shape and
# meta bits (bit k: key number k, _table.pxi's KEY_KEEP),
# so that a lookup probes only those; a shape whose entry is replaced by
# another's in its 4-way set is not found until it is stored again.
ctypedef struct DirEntry:
    uint64_t key
    uint32_t keys

# The table: flat arrays, a power-of-two number of buckets growing up to a cap.
ctypedef struct Table:
    TTBucket* bucket
    DirEntry* dir
    size_t buckets          # current number of buckets
    size_t max_buckets      # cap from tt_mb
    size_t used             # slots in use
    size_t evicted          # replacements since the table last grew
    uint32_t stamp          # LRU clock


# ---------------------------------------------------------------------------
# search state (_search.pxi, _bounds.pxi, _order.pxi, the drivers)
# ---------------------------------------------------------------------------

# The position being searched: saving and restoring it is one assignment.
ctypedef struct State:
    uint64_t hand[4]
    uint64_t alive          # the cards live at the start of the trick (hands and trick)
    uint64_t shape          # at the start of the trick: 16 suit lengths, 4 bits per seat and suit
    uint64_t rel[3]         # at the start of the trick: seats 0-2's holdings in relative rank
    int stale               # suits whose ``rel`` fields are out of date (fresh_relative)
    int tcard[4]            # the trick in progress, in play order
    int tlen                # cards in it
    int tleader             # the seat that led it
    int twin                # position in the trick of the winning card
    int broken              # spades broken

# The question: who maximises, whose tricks count, the nil seat.
ctypedef struct Query:
    int side                # seat mask of the maximisers
    int count               # seat mask of the seats whose tricks count
    int nil                 # the nil seat, -1 for none
    int breaking            # the spade-breaking rule is on
    uint16_t meta           # side/count/nil/breaking bits of the table key

# A candidate move at one ply: the card (one per equivalence group) and its
# ordering score.
ctypedef struct Move:
    int card
    int score

# The techniques that can be switched off, to measure what each contributes
# (all on by default; _engine.set_features).
cdef enum:
    FEATURE_TT = 1          # the transposition table
    FEATURE_QUICK = 2       # quick tricks of the leader
    FEATURE_SURE = 4        # sure tricks: trump sure tricks, the trick in progress, nil rules
    FEATURE_CUTOFF = 8      # the cutoff-card cache of move ordering
    FEATURE_LATER = 16      # later tricks: one trick for a set that needs one (split top trumps)
    FEATURE_LEAD = 32       # the trick about to be led: won by a set that needs one, whatever is led
    FEATURE_APART = 64      # two tricks for a set that needs two: its two top trumps held apart
    FEATURE_FORCED = 128    # nil: the nil hand forced to win the trick about to be led or in progress
    FEATURE_SIDE = 256      # the leader's side's quick tricks through its partner (a line of sure rounds)

# The cutoff-card cache (_order.pxi): per key, the card of each seat that
# last proved a result there.
ctypedef struct CutoffEntry:
    uint32_t check          # high bits of the key's hash, 0 = empty
    int8_t card[4]          # per seat: the card, -1 for none

# Everything one search works on.
ctypedef struct Search:
    State st
    Query q
    Table tt
    CutoffEntry* cut        # the cutoff-card cache, CUT_SIZE entries
    int ply
    int features            # FEATURE_* bits: the techniques switched on
    int stop                # a signal handler raised: unwind, store nothing
    unsigned long long nodes
    unsigned long long trick_nodes   # nodes at trick starts (DDS counts these)
    Move moves[MAX_PLY][MAX_MOVES]


cdef class Core:
    cdef Search s
    cdef readonly double tt_mb

    cdef int _load(self, object pos, int side, int count, int nil_seat) except -1
    cdef int _interrupted(self) except -1

    # the questions: pos has hands (4 masks), leader, trick (cards), spades_broken,
    # breaking; count is a seat mask (the caller's default: side); nil_seat -1 for none
    cpdef int max_tricks(self, object pos, int side, int count, int nil_seat)
    cpdef int bound(self, object pos, int side, int count, int nil_seat, int target)
    cpdef list card_groups(self, object pos, int side, int count, int nil_seat)
    cpdef list optimal_line(self, object pos, int side, int count, int nil_seat)
