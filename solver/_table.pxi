# Storage: the transposition table (included by _engine.pyx; types in
# _engine.pxd).
#
# Entries are trick-start positions up to relative rank with lower and upper
# bounds of the counted tricks from that trick on.  A pattern is filed under
# a key of the shape, the meta bits and either the holders of the top 1 to
# NCLS cards of every suit, or the set of suits it leaves free plus the
# holder of the top card of the others; a small shape directory lists, per
# shape and meta bits, the keys filed, which a lookup probes in turn.  The
# table starts at MIN_BUCKETS buckets and doubles while it fills, up to its
# cap; then it replaces its least recently used slots.

cdef enum:
    NO_HIT = -100           # a probe found nothing usable
    NCLS = 3                # key classes: 1 to NCLS top cards fixed in every suit
    NKEYS = 15 + NCLS       # keys of one shape: the 15 sets of free suits, the NCLS classes
    DIR_PER_BUCKET = 32     # shape directory entries per bucket
    GROW_ON_EVICT = 64      # grow once replacements reach 1/64 of the slots
    MIN_BUCKETS = 1 << 10
    HKEY_DIR = 27           # TTSlot.hkey: the key number from this bit on,
    HKEY_BUCKET = (1 << 27) - 1     # the low bits of its hash below it (at most 1 << 27 buckets)


cdef inline uint64_t _mix(uint64_t h) noexcept nogil:
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 32
    return h


cdef inline uint64_t _shape_base(uint64_t shape, uint64_t meta) noexcept nogil:
    """The unmixed hash of a shape and meta bits, which every key of them
    starts from."""
    return shape * <uint64_t>0x9E3779B97F4A7C15 ^ (meta + 1) * <uint64_t>0xC2B2AE3D27D4EB4F


# The top four relative ranks of every suit (bits 9-12 of its 13-bit field).
cdef uint64_t TOP4 = 0xF007803C01E00

# The keys of one shape and meta bits, numbered in the order a lookup
# probes them (NKEYS in all): first the sets of free suits, more free suits
# first (their patterns are the more general), each with the top card of
# the other suits fixed; then 1 to NCLS top cards fixed in every suit.
# Per key number: the bits of a _top_code it keeps, and a constant that
# sets its hash apart.
cdef uint64_t KEY_KEEP[NKEYS]
cdef uint64_t KEY_SALT[NKEYS]
# Per set of free suits (1-15): its key number.
cdef int ZSET_KEY[16]


def _key_numbers():
    top_keep = [0, 0x8884442221110, 0xCCC6663331998, 0xEEE7773BB9DDC]
    zsets = sorted(range(1, 16), key=lambda z: (-bin(z).count("1"), -z))
    keys = [(1, z) for z in zsets] + [(c, 0) for c in range(1, NCLS + 1)]
    for k, (cls, zset) in enumerate(keys):
        fields = sum(0x1FFF << (13 * s) for s in range(4) if (zset >> s) & 1)
        KEY_KEEP[k] = top_keep[cls] & ~fields & 0xFFFFFFFFFFFFFFFF
        KEY_SALT[k] = ((cls | (zset << 4)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        if zset:
            ZSET_KEY[zset] = k


_key_numbers()


cdef inline uint64_t _top_code(const uint64_t* rel) noexcept nogil:
    """Who of seats 0-2 holds each of the top four cards of every suit (in
    relative rank): in each suit's 13-bit field, seat 0's four top ranks at
    bits 9-12, seat 1's at 5-8, seat 2's at 1-4 (the ranks a shorter suit
    lacks read as held by nobody, alike for one shape)."""
    return (rel[0] & TOP4) | ((rel[1] & TOP4) >> 4) | ((rel[2] & TOP4) >> 8)


cdef inline uint64_t _key_hash(uint64_t base, uint64_t top, int key) noexcept nogil:
    """Hash of a table key: the shape and meta bits (``base``:
    _shape_base), the key number and the holders of the top cards it fixes
    (``top``: _top_code)."""
    return _mix(base ^ (top & KEY_KEEP[key]) * <uint64_t>0xD6E8FEB86659FD93 ^ KEY_SALT[key])


cdef inline size_t tt_bytes_per_bucket() noexcept nogil:
    return sizeof(TTBucket) + DIR_PER_BUCKET * sizeof(DirEntry)


cdef void tt_init(Table* t, double tt_mb) noexcept nogil:
    """An empty table of MIN_BUCKETS buckets (t.bucket is NULL when memory
    is short) whose cap is the largest power of two of buckets whose last
    doubling fits in ``tt_mb`` megabytes: while it doubles, the old half and
    the new table are held together (1.5 times the cap), so that sum, not
    the cap alone, stays within ``tt_mb``."""
    cdef double limit = tt_mb * 1048576.0
    cdef size_t buckets = 1
    while <double>(buckets * 3 * tt_bytes_per_bucket()) <= limit and buckets < HKEY_BUCKET:
        buckets *= 2
    t.max_buckets = buckets
    t.bucket = NULL
    t.dir = NULL
    t.evicted = 0
    t.stamp = 1
    tt_alloc(t, MIN_BUCKETS if MIN_BUCKETS < buckets else buckets)


cdef void tt_free(Table* t) noexcept nogil:
    free(t.bucket)
    free(t.dir)
    t.bucket = NULL
    t.dir = NULL


cdef void tt_alloc(Table* t, size_t buckets) noexcept nogil:
    free(t.bucket)
    free(t.dir)
    t.bucket = <TTBucket*>calloc(buckets, sizeof(TTBucket))
    t.dir = <DirEntry*>calloc(buckets * DIR_PER_BUCKET, sizeof(DirEntry))
    if t.dir == NULL:
        free(t.bucket)
        t.bucket = NULL
    t.buckets = buckets
    t.used = 0


cdef void tt_reset(Table* t) noexcept nogil:
    """Empty the table and shrink it to its initial size."""
    cdef size_t b = MIN_BUCKETS if MIN_BUCKETS < t.max_buckets else t.max_buckets
    if t.bucket != NULL and t.buckets == b:
        memset(t.bucket, 0, b * sizeof(TTBucket))
        memset(t.dir, 0, b * DIR_PER_BUCKET * sizeof(DirEntry))
        t.used = 0
    else:
        tt_alloc(t, b)
    t.stamp = 1
    t.evicted = 0


cdef void _tt_grow(Table* t) noexcept nogil:
    """Double the table, re-filing every slot and re-deriving the shape
    directory; stay at the current size (and cap it there) when memory is
    short."""
    cdef size_t nb = t.buckets * 2
    cdef TTBucket* old = t.bucket
    cdef size_t ob = t.buckets
    cdef TTBucket* nt = <TTBucket*>calloc(nb, sizeof(TTBucket))
    cdef DirEntry* nd = <DirEntry*>calloc(nb * DIR_PER_BUCKET, sizeof(DirEntry))
    cdef size_t i, used = 0
    cdef int k, j, half
    cdef int fill[2]
    cdef TTBucket* src
    cdef TTBucket* dst
    if nd == NULL:
        free(nt)
        nt = NULL
    if nt == NULL:
        # stay at the current size: replacement keeps memory bounded
        t.max_buckets = ob
        return
    for i in range(ob):
        # the slots of bucket i go to bucket i or i + ob, filled in order
        src = &old[i]
        fill[0] = 0
        fill[1] = 0
        for k in range(BUCKET):
            if src.tag[k] == 0:
                continue
            half = (src.slot[k].hkey & ob) != 0
            dst = nt + i + half * ob
            j = fill[half]
            fill[half] = j + 1
            dst.tag[j] = src.tag[k]
            dst.stamp[j] = src.stamp[k]
            dst.slot[j] = src.slot[k]
            used += 1
    free(old)
    t.bucket = nt
    # the shape directory: re-derive it from the slots
    free(t.dir)
    t.dir = nd
    t.buckets = nb
    t.used = used
    for i in range(nb):
        for k in range(BUCKET):
            if nt[i].tag[k]:
                _dir_add(t, _mix(_shape_base(nt[i].slot[k].shape, nt[i].slot[k].meta)) | 1,
                         nt[i].slot[k].hkey >> HKEY_DIR)


cdef inline DirEntry* _dir_set(Table* t, uint64_t h) noexcept nogil:
    """The 4-way set of shape directory entries of hash ``h``."""
    return t.dir + ((h & (t.buckets * DIR_PER_BUCKET // 4 - 1)) << 2)


cdef DirEntry* _dir_find(Table* t, uint64_t h) noexcept nogil:
    """The shape directory entry of hash ``h``, or NULL."""
    cdef DirEntry* d = _dir_set(t, h)
    cdef int i
    for i in range(4):
        if d[i].key == h:
            return &d[i]
    return NULL


cdef void _dir_add(Table* t, uint64_t h, int key) noexcept nogil:
    """List key number ``key`` in the directory entry of hash ``h``
    (_mix(_shape_base) | 1)."""
    cdef DirEntry* d = _dir_find(t, h)
    cdef DirEntry* base
    cdef int i
    if d == NULL:
        base = _dir_set(t, h)
        d = &base[(h >> 58) & 3]
        for i in range(4):
            if base[i].key == 0:
                d = &base[i]
                break
        d.key = h
        d.keys = 0
    d.keys |= <uint32_t>1 << key


cdef int tt_probe(Table* t, uint64_t shape, uint16_t meta, const uint64_t* rel,
                  int target, uint64_t alive, uint64_t* rw) noexcept nogil:
    """Look a trick-start position up: a bound that decides ``target``, or
    NO_HIT.  The lookup probes the keys the shape's directory entry lists,
    in the order of their numbers (free-suit sets, more free suits first;
    then 1 to NCLS fixed top cards), each key hashed when its turn comes
    (most lookups end at the first or second key).  In the first bucket holding
    entries that decide, it takes the one fixing fewest cards: the most
    general pattern reports the fewest relevant cards, so the entries its
    ancestors store are more general too."""
    cdef uint64_t base = _shape_base(shape, meta)
    cdef DirEntry* d = _dir_find(t, _mix(base) | 1)
    cdef uint64_t top = _top_code(rel)
    cdef uint64_t h, mm, m, ms, out
    cdef int k, s, cnt, best, fixed
    cdef uint16_t tag
    cdef uint32_t keys
    cdef TTBucket* b
    cdef TTSlot* e
    if d == NULL:
        return NO_HIT
    keys = d.keys
    while keys:
        h = _key_hash(base, top, ds_ctz(keys))
        keys &= keys - 1
        b = t.bucket + (h & (t.buckets - 1))
        tag = <uint16_t>((h >> 48) | 1)
        mm = ds_tag_match32(b.tag, tag)
        best = -1
        fixed = 99
        while mm:
            k = ds_ctz(mm)
            mm &= mm - 1
            e = &b.slot[k]
            m = e.mask
            if (rel[0] & m) != e.pat[0] or (rel[1] & m) != e.pat[1] \
                    or (rel[2] & m) != e.pat[2] or e.shape != shape or e.meta != meta:
                continue
            if (e.lower >= target or e.upper < target) and ds_pop(m) < fixed:
                # of the entries that decide, the one fixing fewest cards
                best = k
                fixed = ds_pop(m)
        if best >= 0:
            e = &b.slot[best]
            b.stamp[best] = t.stamp
            m = e.mask
            out = 0
            for s in range(4):
                ms = _suit(m, s)
                if ms:
                    cnt = ds_pop(ms)
                    out |= _kth_highest(_suit(alive, s), cnt) << (13 * s)
            rw[0] = out
            return e.lower if e.lower >= target else e.upper
    return NO_HIT


cdef void tt_store(Table* t, const uint64_t* hand, uint64_t shape, uint16_t meta,
                   const uint64_t* rel, uint64_t alive, uint64_t rw, int target, int value,
                   int rem) noexcept nogil:
    """File the result ``value`` of a null-window search at ``target`` for the
    position (``hand``; ``rel``: relative holdings of seats 0-2) with the
    ranks its relevant cards ``rw`` fix; ``rem``: tricks left.  The entry of
    the same pattern takes the bound if there is one; entries under the same
    key that the new bounds make redundant are freed (after macroxue's
    bridge-solver, whose pattern update absorbs narrower patterns)."""
    cdef uint64_t mask = 0, r, a, mm, cand
    cdef int s, k, low, cnt, victim, cls, n, zset, lower, upper, same
    cdef uint32_t best
    cdef TTBucket* b
    cdef TTSlot* e
    cdef uint64_t p0, p1, p2, h, base
    cdef uint16_t tag
    cdef int key
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
            low = _extended_low(hand, r, s, a)
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
    t.stamp += 1
    base = _shape_base(shape, meta)
    key = ZSET_KEY[zset] if zset else 15 + cls - 1
    _dir_add(t, _mix(base) | 1, key)
    h = _key_hash(base, _top_code(rel), key)
    b = t.bucket + (h & (t.buckets - 1))
    tag = <uint16_t>((h >> 48) | 1)
    if value >= target:
        lower = value
        upper = rem
    else:
        lower = -1
        upper = value
    # the entry of this pattern, if there is one, takes the bound
    same = -1
    cand = ds_tag_match32(b.tag, tag)
    mm = cand
    while mm:
        k = ds_ctz(mm)
        mm &= mm - 1
        e = &b.slot[k]
        if e.mask == mask and e.pat[0] == p0 and e.pat[1] == p1 and e.pat[2] == p2 \
                and e.shape == shape and e.meta == meta:
            if lower > e.lower:
                e.lower = <int8_t>lower
            if upper < e.upper:
                e.upper = <int8_t>upper
            lower = e.lower
            upper = e.upper
            b.stamp[k] = t.stamp
            same = k
            cand &= ~(DS_ONE << k)
            break
    # entries of narrower patterns (fixing these cards and more) whose bounds
    # are no tighter say nothing this entry does not: free their slots
    mm = cand
    while mm:
        k = ds_ctz(mm)
        mm &= mm - 1
        e = &b.slot[k]
        if e.lower <= lower and e.upper >= upper and (e.mask & mask) == mask \
                and (e.pat[0] & mask) == p0 and (e.pat[1] & mask) == p1 \
                and (e.pat[2] & mask) == p2 and e.shape == shape and e.meta == meta:
            b.tag[k] = 0
            t.used -= 1
    if same >= 0:
        return
    mm = ds_tag_match32(b.tag, 0)
    if mm:
        victim = ds_ctz(mm)
        t.used += 1
    else:
        # full: replace the least recently used slot
        victim = 0
        best = b.stamp[0]
        for k in range(1, BUCKET):
            if b.stamp[k] < best:
                best = b.stamp[k]
                victim = k
        t.evicted += 1
    b.tag[victim] = tag
    b.stamp[victim] = t.stamp
    e = &b.slot[victim]
    e.shape = shape
    e.meta = meta
    e.mask = mask
    e.hkey = (<uint32_t>h & HKEY_BUCKET) | (<uint32_t>key << HKEY_DIR)
    e.pat[0] = p0
    e.pat[1] = p1
    e.pat[2] = p2
    e.lower = <int8_t>lower
    e.upper = <int8_t>upper
    if t.buckets < t.max_buckets and (
            t.used * 4 > t.buckets * BUCKET * 3
            or t.evicted * GROW_ON_EVICT > t.buckets * BUCKET):
        # full, or crowded buckets are replacing entries: double it
        t.evicted = 0
        _tt_grow(t)
