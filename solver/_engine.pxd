# Declarations of the compiled double-dummy core (solver/_engine.pyx).
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

# One transposition-table entry: a trick-start position up to relative rank.
# ``shape`` holds the 16 suit lengths (4 bits per seat and suit); ``mask``
# selects, per suit, the top relative ranks that mattered to the result;
# ``pat[i]`` is seat i's holding of those ranks (seat 3 holds the rest).
# Relative holdings are 13-bit fields per suit (bit 12 = highest card left).
ctypedef struct TTSlot:
    uint64_t shape
    uint64_t mask
    uint64_t pat[3]
    uint32_t hkey          # low bits of the key's hash (to re-file when the table grows)
    uint16_t meta          # leader, spades broken, side/count/nil/breaking
    int8_t lower           # bounds of the counted tricks from this trick on
    int8_t upper

# A bucket: all positions of one shape land in the same bucket.  ``tag`` (16
# bits of the shape's hash, 0 = empty) and ``stamp`` (last use, for LRU
# replacement) sit apart from the slots so that a scan touches few lines.
ctypedef struct TTBucket:
    uint16_t tag[BUCKET]
    uint32_t stamp[BUCKET]
    TTSlot slot[BUCKET]

# Shape directory entry: which free-suit sets have patterns filed for one
# shape (a lossy hint that keeps lookups to a few buckets).
ctypedef struct DirEntry:
    uint64_t key
    uint16_t zsets

# A candidate move at one ply: the card (one per equivalence group) and its
# ordering score.
ctypedef struct Move:
    int card
    int score


cdef class Solver:
    # -- transposition table (owned, flat, bounded) --
    cdef TTBucket* tt
    cdef DirEntry* dir
    cdef size_t tt_buckets          # current number of buckets (power of two)
    cdef size_t tt_max_buckets      # cap from tt_mb
    cdef size_t tt_used
    cdef size_t tt_evicted          # replacements since the table last grew
    cdef int tt_bits
    cdef uint32_t stamp

    # -- statistics --
    cdef readonly unsigned long long nodes
    cdef readonly unsigned long long trick_nodes  # nodes at trick starts (DDS counts these)
    cdef readonly double tt_mb

    # -- configuration of the current query --
    cdef int side
    cdef int count
    cdef int nil
    cdef int breaking
    cdef uint16_t cfg_meta

    # -- search state --
    cdef uint64_t hand[4]
    cdef int tcard[4]
    cdef int tlen
    cdef int tleader
    cdef int twin                   # position in the trick of the winning card
    cdef int broken
    cdef int ply
    cdef Move moves[MAX_PLY][MAX_MOVES]

    # -- internals (no GIL, no exceptions) --
    cdef void _alloc(self, size_t buckets) noexcept nogil
    cdef void _grow(self) noexcept nogil
    cdef void _reset_table(self) noexcept nogil
    cdef DirEntry* _dir_find(self, uint64_t h) noexcept nogil
    cdef void _dir_add(self, uint64_t shape, uint16_t meta, int zset) noexcept nogil
    cdef int _probe_key(self, uint64_t h, uint64_t shape, uint16_t meta, const uint64_t* rel,
                        int target, uint64_t alive, uint64_t* rw) noexcept nogil
    cdef int _probe(self, uint64_t shape, uint16_t meta, const uint64_t* rel,
                    int target, uint64_t alive, uint64_t* rw) noexcept nogil
    cdef void _store(self, uint64_t shape, uint16_t meta, const uint64_t* rel,
                     uint64_t alive, uint64_t rw, int target, int value, int rem) noexcept nogil
    cdef int _search(self, int target, uint64_t* rw) noexcept nogil
    cdef int _secure(self, int team, int current_only, uint64_t* rw) noexcept nogil
    cdef int _trick_start(self, int target, uint64_t* rw) noexcept nogil
    cdef int _last_trick(self, int target, uint64_t* rw) noexcept nogil
    cdef int _expand(self, int target, uint64_t* rw) noexcept nogil
    cdef uint64_t _extend_rw(self, uint64_t rw, int seat) noexcept nogil
    cdef int _gen(self, int seat, Move* out) noexcept nogil
    cdef void _order(self, int seat, Move* mv, int n) noexcept nogil
    cdef void _order_lead(self, int seat, Move* mv, int n) noexcept nogil
    cdef void _order_lead_pair(self, int seat, Move* mv, int n) noexcept nogil
    cdef void _order_follow(self, int seat, Move* mv, int n) noexcept nogil
    cdef void _order_shed(self, int seat, Move* mv, int n) noexcept nogil
    cdef void _order_lead_nil(self, int seat, Move* mv, int n) noexcept nogil
    cdef int _quick_tricks(self, int leader, int need, uint64_t* rw) noexcept nogil
    cdef int _qt(self, const uint64_t* h, int leader, int broken, int need, uint64_t* rw) noexcept nogil
    cdef int _team_sure(self, int team, int need, uint64_t* rw) noexcept nogil
    cdef int _value(self, int lo, int hi, int guess) noexcept nogil
    cdef int _apply(self, int card) noexcept nogil
    cdef int _rem(self) noexcept nogil
    cdef int _root_value(self) noexcept nogil
    cdef int _guess(self) noexcept nogil

    cdef int _load(self, object pos, int side, int count, int nil_seat) except -1

    # the questions: pos has hands (4 masks), leader, trick (cards), spades_broken,
    # breaking; count is a seat mask (the caller's default: side); nil_seat -1 for none
    cpdef int max_tricks(self, object pos, int side, int count, int nil_seat)
    cpdef int bound(self, object pos, int side, int count, int nil_seat, int target)
    cpdef list card_groups(self, object pos, int side, int count, int nil_seat)
    cpdef list optimal_line(self, object pos, int side, int count, int nil_seat)
