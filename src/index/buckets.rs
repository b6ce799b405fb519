//! The bucket store under every index: bucket key → the documents holding
//! it, in the order of their positions — LSH's buckets (Indyk & Motwani
//! 1998) for every kind of key: MinHash bands, SimHash and multiref tables
//! (one key per table), the exact join's prefix shingles (a varying number
//! of keys). Two documents are candidates when they share a bucket.
//!
//! **Chains.** A bucket's documents form a circular chain through one `u32`
//! array (`next`); the store finds a bucket by its *last* link, whose `next`
//! is the first. So adding at the end, reading from the start and knowing
//! the bucket's length all need no list of their own, and a bucket with one
//! document costs one table entry and one link, with no allocation.
//! Positions increase along a chain from its first link to its last: a
//! document added below the last of a bucket is linked in its place.
//!
//! **Four layouts.**
//!
//! * [`Buckets::tables`]: `k` keys per document, the `j`-th in table `j`
//!   (bands, permuted-block tables). A table entry is a 4-byte position,
//!   and the link of position `p` in table `j` is `next[p · k + j]`. **Keys
//!   are not stored**: a probe that meets an entry with the same 7 bits of
//!   hash (hashbrown's control byte) confirms it by recomputing key `j` of
//!   the position there, from the sketch the caller holds (`key(p, j)`),
//!   so a lookup stays exact, never a candidate by a collision of stored
//!   bits. A full table is rebuilt twice as large by reading the positions
//!   in order (sequential reads of the sketches), its old table freed
//!   first: about `5 · k` bytes of table a document (5–10 with the spare
//!   room) and `4 · k` of links.
//! * [`Buckets::keyed`]: keys of any number per document (the exact join's
//!   prefixes): a map from the key (8 bytes) to its bucket's last link, and
//!   per link its next link and its document.
//! * [`Buckets::parts`]: 64-bit words within Hamming distance `k` by
//!   multi-index hashing (Norouzi, Punjani & Fleet, "Fast search in Hamming
//!   space with multi-index hashing", CVPR 2012), with the thresholds of the
//!   generalised pigeonhole principle (Qin et al., "GPH: similarity search
//!   in Hamming space", ICDE 2018): the word is cut into four 16-bit parts,
//!   part `i` searched within radius `t_i`, where `Σ (t_i + 1) = k + 1`
//!   (if every part differed in more than its `t_i` bits, the words would
//!   differ in more than `k`). A document is in one bucket a part, found
//!   by the part's value in a table of 65,536 (no key stored or hashed); a
//!   query reads the buckets of every value within each part's radius (428
//!   of them at `k = 10`). A bucket is a *run*: its 64-bit words (the
//!   SimHash fingerprints) in the order of their positions, in a block of
//!   one array (the slab) behind a header with its length, and the
//!   positions at the same offsets of a second array, so that a query reads
//!   a bucket's header and first words in one cache line and tests its
//!   words in one sequential scan without touching the documents. Blocks
//!   come in power-of-two sizes; a full bucket moves to a block twice as
//!   large and leaves its block to the next bucket of that size (a free
//!   list per size). A query finds all its buckets and reads a word of
//!   every cache line of them before the scan, so that their memory is
//!   fetched in parallel rather than one bucket after another. The
//!   caller's keys are ignored. Where the permuted-block tables of large
//!   distances keep every bucket a fixed share of the collection (keys of
//!   10–11 bits at `k = 10`: a query scanned a twenty-fifth of it), a
//!   part's bucket is a 65,536th: a query's cost grows with the collection
//!   far more slowly, and a document costs 4 runs' 12 bytes (more with
//!   their spare room) instead of 66, besides the tables' 1 MB
//!   (BENCHMARKS.md, "SimHash's buckets by multi-index hashing", "SimHash's
//!   buckets in one slab").
//!
//! The keys themselves are the caller's (stable 64-bit hashes, SPEC.md); the
//! store never hashes with anything but them.

use alloc::vec::Vec;
use hashbrown::hash_table::Entry;
use hashbrown::{HashMap, HashTable};

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

/// Not linked / end.
const NONE: u32 = u32::MAX;

/// The candidate index: buckets of positions (module docs).
#[derive(Clone, Debug)]
pub(crate) struct Buckets {
    store: Store,
}

#[derive(Clone, Debug)]
enum Store {
    /// One table per key index; `next[p · k + j]` is position `p`'s next
    /// position in its bucket of table `j` ([`NONE`]: not linked).
    Tables {
        tables: Vec<HashTable<u32>>,
        next: Vec<u32>,
    },
    /// Key → last link; per link its next link and its position.
    Keyed {
        last: Map<u64, u32>,
        next: Vec<u32>,
        owner: Vec<u32>,
    },
    /// Multi-index hashing of the words (module docs).
    Parts(Parts),
}

/// Bits of a part of the words (four parts of a 64-bit word).
const PART_BITS: u32 = 16;
/// Parts of a word.
const PARTS: usize = (64 / PART_BITS) as usize;
/// Values of a part: buckets of a part's table.
const PART_VALUES: usize = 1 << PART_BITS;

/// The parts layout: per part, its radius and its table of buckets.
#[derive(Clone, Debug)]
struct Parts {
    /// The distance the layout was made for.
    k: u32,
    /// How many masks part `i` reads (those of weight at most its radius
    /// `t_i`: `V(16, t_i)`); 0 for a part never read (`t_i = −1`: `k < 3`),
    /// whose buckets are not kept either.
    reach: [usize; PARTS],
    /// The 16-bit masks in order of weight: 0, the 16 of weight 1, …
    masks: Vec<u16>,
    /// `PARTS · 65,536` entries: part `i`'s bucket of value `v` is the
    /// block at `heads[i · 65,536 + v]` of `slab` (0: no bucket).
    /// Allocated at the first word (1 MB, of which only the pages touched
    /// are resident).
    heads: Vec<u32>,
    /// Every bucket's block, in units of [`UNIT`] slots: a block of
    /// `UNIT · 2^c` slots (size class `c`) at offset `o = UNIT · u`
    /// (`heads` holds `u`) has its bucket's length (low 32 bits) and size
    /// class (high 32 bits) in `slab[o]`, then room for `UNIT · 2^c − 1`
    /// words, the first `length` of them the bucket's in order of
    /// positions. A bucket's header and first words share a cache line, so
    /// that a query reads a small bucket in one fetch, with no allocation
    /// of its own to find first. A full bucket moves to a block of the next
    /// class; the block it leaves goes on its class's free list, from which
    /// the next block of that class is taken. The first unit is never a
    /// block.
    slab: Vec<u64>,
    /// `pos[o + 1 + j]` is the position of word `slab[o + 1 + j]` (the
    /// same offsets as `slab`; the headers' places unused).
    pos: Vec<u32>,
    /// Per size class, the unit of its first free block (0: none); a free
    /// block's header holds the unit of the next.
    free: [u32; CLASSES],
}

/// Slots of `slab` a unit: the smallest block (a header and three words).
const UNIT: usize = 4;

/// Size classes of blocks: `UNIT · 2^c` slots for `c < CLASSES`.
const CLASSES: usize = 32;

/// The most slots `slab` holds: offsets are `u32` units.
const SLAB_LIMIT: usize = (u32::MAX as usize).saturating_mul(UNIT);

impl Parts {
    fn new(k: u32) -> Self {
        // `Σ (t_i + 1) = k + 1`, as even as it goes: the balls' volumes are
        // then smallest (428 reads at k = 10, radii 2, 2, 2, 1, against
        // 2 · 697 + 137 = 1,531 at radii 3, 3, 2 and a part unread).
        let total = k as usize + 1;
        let mut radius_plus_one = [total / PARTS; PARTS];
        for r in radius_plus_one.iter_mut().take(total % PARTS) {
            *r += 1;
        }
        let widest = radius_plus_one[0].min(PART_BITS as usize + 1);
        let mut masks: Vec<u16> = (0..=u16::MAX)
            .filter(|m| (m.count_ones() as usize) < widest)
            .collect();
        masks.sort_by_key(|m| m.count_ones());
        let reach = radius_plus_one.map(|r| {
            // Masks of weight below `r`: a prefix of `masks`.
            masks.partition_point(|m| (m.count_ones() as usize) < r)
        });
        Parts {
            k,
            reach,
            masks,
            heads: Vec::new(),
            slab: Vec::new(),
            pos: Vec::new(),
            free: [0; CLASSES],
        }
    }

    /// Part `i` of `word` (its `i`-th 16 bits from the lowest).
    fn part(word: u64, i: usize) -> usize {
        ((word >> (i as u32 * PART_BITS)) as usize) & (PART_VALUES - 1)
    }

    /// Where in `heads` part `i`'s bucket of `word`'s part lies.
    fn head(word: u64, i: usize) -> usize {
        i * PART_VALUES + Self::part(word, i)
    }

    /// The length and size class of the block at unit `u`.
    fn header(&self, u: u32) -> (usize, usize) {
        let h = self.slab[u as usize * UNIT];
        ((h & 0xFFFF_FFFF) as usize, (h >> 32) as usize)
    }

    fn set_header(&mut self, u: u32, len: usize, class: usize) {
        self.slab[u as usize * UNIT] = len as u64 | (class as u64) << 32;
    }

    /// The words a block of class `c` holds.
    fn room(c: usize) -> usize {
        (UNIT << c) - 1
    }

    /// The bucket of the block at unit `u`.
    fn run(&self, u: u32) -> Run<'_> {
        let (len, _) = self.header(u);
        let body = u as usize * UNIT + 1;
        Run {
            pos: &self.pos[body..body + len],
            word: &self.slab[body..body + len],
        }
    }

    /// A block of class `c`, empty: from the class's free list, else at
    /// the end of `slab`. Its unit.
    fn block(&mut self, c: usize) -> u32 {
        let u = match self.free[c] {
            0 => {
                if self.slab.is_empty() {
                    self.slab.resize(UNIT, 0);
                    self.pos.resize(UNIT, 0);
                }
                let o = self.slab.len();
                self.slab.resize(o + (UNIT << c), 0);
                self.pos.resize(o + (UNIT << c), 0);
                (o / UNIT) as u32
            }
            u => {
                self.free[c] = self.slab[u as usize * UNIT] as u32;
                u
            }
        };
        self.set_header(u, 0, c);
        u
    }

    /// Puts the block at unit `u`, of class `c`, on its free list.
    fn release(&mut self, u: u32, c: usize) {
        self.slab[u as usize * UNIT] = u64::from(self.free[c]);
        self.free[c] = u;
    }

    /// Whether a document still fits behind offsets of 32-bit units: a
    /// document moves at most four buckets, each to a block at most twice
    /// the largest (so at most twice `slab`), and `slab` is kept under a
    /// sixteenth of the limit.
    fn has_room(&self) -> bool {
        self.slab.len() <= SLAB_LIMIT / 16
    }

    fn add(&mut self, p: u32, word: u64) {
        if self.heads.is_empty() {
            self.heads = alloc::vec![0; PARTS * PART_VALUES];
        }
        let reach = self.reach;
        for i in (0..PARTS).filter(|&i| reach[i] > 0) {
            let h = Self::head(word, i);
            let mut u = self.heads[h];
            if u == 0 {
                u = self.block(0);
                self.heads[h] = u;
            }
            let (len, c) = self.header(u);
            if len == Self::room(c) {
                // Full: the bucket moves to a block of the next class.
                let n = self.block(c + 1);
                let (from, to) = (u as usize * UNIT + 1, n as usize * UNIT + 1);
                self.slab.copy_within(from..from + len, to);
                self.pos.copy_within(from..from + len, to);
                self.set_header(n, len, c + 1);
                self.release(u, c);
                self.heads[h] = n;
                u = n;
            }
            // In the order of positions: at the end unless `p` is below
            // the last (a reused slot).
            let (len, c) = self.header(u);
            let body = u as usize * UNIT + 1;
            let at = match len {
                0 => 0,
                _ if self.pos[body + len - 1] < p => len,
                _ => self.pos[body..body + len].partition_point(|&q| q < p),
            };
            self.slab.copy_within(body + at..body + len, body + at + 1);
            self.pos.copy_within(body + at..body + len, body + at + 1);
            self.slab[body + at] = word;
            self.pos[body + at] = p;
            self.set_header(u, len + 1, c);
        }
    }

    /// The units of the buckets a query of `word` reads, each once, their
    /// headers prefetched: in a large collection each is a cache miss, and
    /// a loop that does nothing else keeps many more of them in flight
    /// than one that also reads them (BENCHMARKS.md, "SimHash's bucket
    /// headers prefetched, short sets in two passes").
    fn units_near(&self, word: u64) -> Vec<u32> {
        if self.heads.is_empty() {
            return Vec::new();
        }
        let mut units = Vec::with_capacity(self.reach.iter().sum());
        for i in 0..PARTS {
            let base = i * PART_VALUES;
            let v = Self::part(word, i);
            for &m in &self.masks[..self.reach[i]] {
                let u = self.heads[base + (v ^ m as usize)];
                if u != 0 {
                    super::prefetch::prefetch(&self.slab, u as usize * UNIT);
                    units.push(u);
                }
            }
        }
        units
    }

    /// Calls `f(a, b)` for the positions `a < b` of every two words that
    /// share a bucket's neighbourhood in some part and differ in at most
    /// `within` bits: each
    /// bucket against itself and against the buckets of the values within
    /// its part's radius above its own, so that two words within the
    /// layout's distance meet at least once (more than once when they do
    /// in several parts).
    fn near_pairs(&self, within: u32, mut f: impl FnMut(u32, u32)) {
        if self.heads.is_empty() {
            return;
        }
        for i in (0..PARTS).filter(|&i| self.reach[i] > 0) {
            let heads = &self.heads[i * PART_VALUES..(i + 1) * PART_VALUES];
            for (v, &r) in heads.iter().enumerate().filter(|(_, &r)| r != 0) {
                let a = self.run(r);
                for (x, (&pa, &wa)) in a.pos.iter().zip(a.word).enumerate() {
                    let rest = x + 1;
                    each_within(&a.word[rest..], wa, within, |j| {
                        f(pa, a.pos[rest + j]);
                    });
                }
                for &m in &self.masks[1..self.reach[i]] {
                    let u = v ^ m as usize;
                    if u < v || heads[u] == 0 {
                        continue;
                    }
                    let b = self.run(heads[u]);
                    for (&pa, &wa) in a.pos.iter().zip(a.word) {
                        each_within(b.word, wa, within, |j| {
                            let pb = b.pos[j];
                            f(pa.min(pb), pa.max(pb));
                        });
                    }
                }
            }
        }
    }

    fn remove(&mut self, p: u32, word: u64, cap: usize) -> bool {
        let mut crowded = false;
        if self.heads.is_empty() {
            return false;
        }
        let reach = self.reach;
        for i in (0..PARTS).filter(|&i| reach[i] > 0) {
            let u = self.heads[Self::head(word, i)];
            if u == 0 {
                continue;
            }
            let (len, c) = self.header(u);
            let body = u as usize * UNIT + 1;
            if let Ok(at) = self.pos[body..body + len].binary_search(&p) {
                crowded |= len > cap;
                self.slab.copy_within(body + at + 1..body + len, body + at);
                self.pos.copy_within(body + at + 1..body + len, body + at);
                self.set_header(u, len - 1, c);
            }
        }
        crowded
    }
}

/// Calls `take(i)` for every `i`, in order, whose `words[i]` differs from
/// `word` in at most `within` bits (any `within`; 64 and above: every
/// word). The words are tested four a branch: almost every word of a
/// bucket fails, and the four tests' results are combined without one (a
/// loop that branched on each word made `SimHashIndex`'s all-pairs 1.2–1.4×
/// slower, BENCHMARKS.md, "SimHash's bucket headers prefetched, short sets
/// in two passes").
#[inline(always)]
fn each_within(words: &[u64], word: u64, within: u32, mut take: impl FnMut(usize)) {
    let near = |w: u64| (w ^ word).count_ones() <= within;
    let mut quads = words.chunks_exact(4);
    let mut i = 0;
    for c in &mut quads {
        if near(c[0]) | near(c[1]) | near(c[2]) | near(c[3]) {
            for (d, &w) in c.iter().enumerate() {
                if near(w) {
                    take(i + d);
                }
            }
        }
        i += 4;
    }
    for (d, &w) in quads.remainder().iter().enumerate() {
        if near(w) {
            take(i + d);
        }
    }
}

/// A bucket of the parts layout as a query reads it: its positions,
/// increasing, and the word of each (the same index in both).
#[derive(Clone, Copy, Debug)]
struct Run<'a> {
    pos: &'a [u32],
    word: &'a [u64],
}

impl Buckets {
    /// `k` keys a document, the `j`-th in table `j`, keys recomputed from
    /// the caller's sketches (module docs).
    pub(crate) fn tables(k: usize) -> Self {
        Self::tables_for(k, 0)
    }

    /// [`Buckets::tables`] with room for `n` documents (a snapshot read:
    /// no table grows).
    pub(crate) fn tables_for(k: usize, n: usize) -> Self {
        Buckets {
            store: Store::Tables {
                tables: (0..k).map(|_| HashTable::with_capacity(n)).collect(),
                next: Vec::with_capacity(n.saturating_mul(k)),
            },
        }
    }

    /// Keys of any number a document, stored.
    pub(crate) fn keyed() -> Self {
        Buckets {
            store: Store::Keyed {
                last: Map::default(),
                next: Vec::new(),
                owner: Vec::new(),
            },
        }
    }

    /// Words within Hamming distance `k` (`k ≤ 64`) by multi-index
    /// hashing: four parts of 16 bits, each in one table (module docs). The
    /// keys callers give are ignored; a document's word places it.
    pub(crate) fn parts(k: u32) -> Self {
        Buckets {
            store: Store::Parts(Parts::new(k)),
        }
    }

    /// Whether the layout reads the caller's keys (all but the parts
    /// layout, which places a document by its word).
    pub(crate) fn reads_keys(&self) -> bool {
        !matches!(self.store, Store::Parts(_))
    }

    /// The same layout, empty.
    pub(crate) fn emptied(&self) -> Self {
        match &self.store {
            Store::Tables { tables, .. } => Self::tables(tables.len()),
            Store::Keyed { .. } => Self::keyed(),
            Store::Parts(parts) => Self::parts(parts.k),
        }
    }

    /// `true` when position `position` with `more` keys still fits (links
    /// are numbered by `u32` in the keyed layout).
    pub(crate) fn has_room(&self, position: u32, more: usize) -> bool {
        match &self.store {
            Store::Tables { tables, .. } => {
                (position as u64 + 1) * (tables.len() as u64) < usize::MAX as u64
            }
            Store::Keyed { next, .. } => next.len() + more < NONE as usize,
            Store::Parts(parts) => parts.has_room(),
        }
    }

    /// Room for `n` positions in all (`0..n`): in the tables layout, each
    /// table that could not hold a bucket for each of them is rebuilt once
    /// to that size ([`rebuild`]), so that adding up to `n` documents
    /// rebuilds none (each table is otherwise rebuilt at every doubling,
    /// every key recomputed from the caller's sketches: most of the index's
    /// cost in a large collection, BENCHMARKS.md "Tables sized before a
    /// collection is read"). The other layouts keep their keys, and grow as
    /// they fill. Best effort: where the memory cannot be had, a table is
    /// left to grow. `key` as in [`Buckets::add`].
    pub(crate) fn reserve(&mut self, n: usize, key: impl Fn(u32, usize) -> u64) {
        let Store::Tables { tables, next } = &mut self.store else {
            return;
        };
        let k = tables.len();
        let links = n.saturating_mul(k).saturating_sub(next.len());
        if next.try_reserve(links).is_err() {
            return;
        }
        for j in 0..k {
            if tables[j].capacity() < n {
                rebuild(tables, next, j, n, &key);
            }
        }
    }

    /// Adds position `p` to the buckets of `keys` (one per table in the
    /// tables layout); the parts layout ignores `keys` and places it by its
    /// `word`, which the others ignore. `key(q, j)` recomputes key `j` of a
    /// position `q` already held.
    pub(crate) fn add(&mut self, p: u32, keys: &[u64], key: impl Fn(u32, usize) -> u64, word: u64) {
        match &mut self.store {
            Store::Tables { tables, next } => {
                let k = tables.len();
                if keys.is_empty() {
                    return; // a document without shingles
                }
                debug_assert_eq!(keys.len(), k);
                let at = p as usize * k;
                if next.len() < at + k {
                    next.resize(at + k, NONE);
                }
                for (j, &h) in keys.iter().enumerate() {
                    if tables[j].len() == tables[j].capacity() {
                        let twice = (tables[j].capacity() * 2).max(16);
                        rebuild(tables, next, j, twice, &key);
                    }
                    let link = |q: u32| q as usize * k + j;
                    let hash = |&q: &u32| key(q, j);
                    match tables[j].entry(h, |&q| key(q, j) == h, hash) {
                        Entry::Occupied(mut e) => {
                            if insert(next, link, |q| q, *e.get(), p) {
                                *e.get_mut() = p;
                            }
                        }
                        Entry::Vacant(e) => {
                            e.insert(p);
                            next[link(p)] = p;
                        }
                    }
                }
            }
            Store::Keyed { last, next, owner } => {
                for &h in keys {
                    let l = next.len() as u32;
                    next.push(l);
                    owner.push(p);
                    match last.get_mut(&h) {
                        Some(tail) => {
                            let o = &*owner;
                            if insert(next, |l| l as usize, |l| o[l as usize], *tail, l) {
                                *tail = l;
                            }
                        }
                        None => {
                            last.insert(h, l);
                        }
                    }
                }
            }
            Store::Parts(parts) => parts.add(p, word),
        }
    }

    /// Appends to `out` the positions in the buckets of `keys` that are
    /// below `before` (all with `u32::MAX`): of the first `cap` of each
    /// bucket, in the order of positions (once per shared key), those that
    /// `keep` (a caller's cheap test, applied after the cap is counted, so
    /// it never changes which documents are the first `cap`) and, in the
    /// parts layout, whose word differs from `word` in at most `within`
    /// bits (tested first: a position is read only for a word kept; the
    /// other layouts ignore `within`). The parts layout reads the buckets
    /// of `word` instead of `keys`' (a position can come from several: the
    /// caller drops repeats; a cap counts in each), and finds every word
    /// within the layout's distance of `word`: `within` above it finds no
    /// more.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn candidates(
        &self,
        keys: &[u64],
        word: u64,
        before: u32,
        cap: usize,
        key: impl Fn(u32, usize) -> u64,
        keep: impl Fn(u32) -> bool,
        within: u32,
        out: &mut Vec<u32>,
    ) {
        if let Store::Parts(parts) = &self.store {
            // The buckets first (each header read with its first words),
            // then every further cache line of each prefetched: the lines
            // of all the runs (hundreds a query, most out of cache in a
            // large collection) are fetched at once instead of run after
            // run, and the scan below finds them in cache (BENCHMARKS.md,
            // "SimHash's buckets fetched at once"; on x86-64 a prefetch,
            // which waits for nothing, in place of a load of one word a
            // line: "SimHash's bucket headers prefetched, short sets in two
            // passes").
            let units = parts.units_near(word);
            for &u in &units {
                let run = parts.run(u);
                for j in (8..run.word.len()).step_by(8) {
                    super::prefetch::prefetch(run.word, j);
                }
            }
            // Uncapped (SimHash's own buckets, `SimHashIndex`): every
            // bucket in one scan where the CPU has AVX-512 with VPOPCNTDQ.
            #[cfg(all(feature = "std", target_arch = "x86_64"))]
            if cap == usize::MAX {
                let words = |r: usize| parts.run(units[r]).word;
                let take = |r: usize, i: usize| {
                    let q = parts.run(units[r]).pos[i];
                    if q < before && keep(q) {
                        out.push(q);
                    }
                };
                if super::avx512::each_within(units.len(), words, word, within, take) {
                    return;
                }
            }
            for run in units.iter().map(|&u| parts.run(u)) {
                if cap >= run.pos.len() {
                    // Every position below `before` (usually all of them):
                    // one read of the words, four a branch (almost every
                    // word is too far), a position read only for a word
                    // kept.
                    each_within(run.word, word, within, |i| {
                        let q = run.pos[i];
                        if q < before && keep(q) {
                            out.push(q);
                        }
                    });
                    continue;
                }
                let end = run.pos.partition_point(|&q| q < before).min(cap);
                for (&q, &w) in run.pos[..end].iter().zip(&run.word[..end]) {
                    if (w ^ word).count_ones() <= within && keep(q) {
                        out.push(q);
                    }
                }
            }
            return;
        }
        for (j, &h) in keys.iter().enumerate() {
            let mut taken = 0;
            self.walk(j, h, &key, |p| {
                if p >= before || taken >= cap {
                    return false;
                }
                if keep(p) {
                    out.push(p);
                }
                taken += 1;
                true
            });
        }
    }

    /// The parts layout's pairs of positions `a < b` whose words differ in
    /// at most `within` bits (the layout's distance at most: it meets no
    /// pair farther apart), each at least once, in no order; nothing for
    /// the other layouts (their pairs are their buckets':
    /// [`Buckets::for_each_shared`]).
    pub(crate) fn near_pairs(&self, within: u32, f: impl FnMut(u32, u32)) {
        if let Store::Parts(parts) = &self.store {
            parts.near_pairs(within, f);
        }
    }

    /// Calls `f` with the positions of bucket `h` of table `j` (the keyed
    /// layout ignores `j`) from the first, while it returns `true`.
    fn walk(
        &self,
        j: usize,
        h: u64,
        key: &impl Fn(u32, usize) -> u64,
        mut f: impl FnMut(u32) -> bool,
    ) {
        match &self.store {
            Store::Tables { tables, next } => {
                let k = tables.len();
                if let Some(&last) = tables[j].find(h, |&q| key(q, j) == h) {
                    chain(next, |q| q as usize * k + j, last).all(f);
                }
            }
            Store::Keyed { last, next, owner } => {
                if let Some(&tail) = last.get(&h) {
                    chain(next, |l| l as usize, tail).all(|l| f(owner[l as usize]));
                }
            }
            // Never walked: its candidates are read by `candidates` alone.
            Store::Parts(_) => {}
        }
    }

    /// The positions of every bucket of table `j` holding two or more, in
    /// the order of positions, one bucket at a time (tables layout; the
    /// keyed layout has one table, `j` = 0).
    pub(crate) fn for_each_shared(&self, j: usize, mut f: impl FnMut(&[u32])) {
        let mut bucket = Vec::new();
        let mut each =
            |next: &[u32], link: &dyn Fn(u32) -> usize, pos: &dyn Fn(u32) -> u32, last| {
                if next[link(last)] != last {
                    bucket.clear();
                    bucket.extend(chain(next, link, last).map(pos));
                    f(&bucket);
                }
            };
        match &self.store {
            Store::Tables { tables, next } => {
                let k = tables.len();
                for &last in tables[j].iter() {
                    each(next, &|q| q as usize * k + j, &|q| q, last);
                }
            }
            Store::Keyed { last, next, owner } => {
                for &tail in last.values() {
                    each(next, &|l| l as usize, &|l| owner[l as usize], tail);
                }
            }
            // No bucket of it is a set of candidates (a query reads many).
            Store::Parts(_) => {}
        }
    }

    /// Takes position `p` out of the buckets of `keys` (the keys it was
    /// added with, `key(p, j)` still giving them; in the parts layout, of
    /// its `word`). Time: the length of those buckets. Returns `true` when
    /// one of them held more than `cap` documents (a later one now moves
    /// into the first `cap`).
    pub(crate) fn remove(
        &mut self,
        p: u32,
        keys: &[u64],
        word: u64,
        cap: usize,
        key: impl Fn(u32, usize) -> u64,
    ) -> bool {
        let mut crowded = false;
        match &mut self.store {
            Store::Parts(parts) => crowded = parts.remove(p, word, cap),
            Store::Tables { tables, next } => {
                let k = tables.len();
                for (j, &h) in keys.iter().enumerate() {
                    let link = |q: u32| q as usize * k + j;
                    if next.get(link(p)).is_none_or(|&n| n == NONE) {
                        continue;
                    }
                    let Ok(mut e) = tables[j].find_entry(h, |&q| key(q, j) == h) else {
                        continue;
                    };
                    let (len, new_last) = unlink(next, link, *e.get(), |q| q == p);
                    crowded |= len > cap;
                    match new_last {
                        Some(None) => {
                            e.remove();
                        }
                        Some(Some(q)) => *e.get_mut() = q,
                        None => {}
                    }
                }
            }
            Store::Keyed { last, next, owner } => {
                for &h in keys {
                    let Some(&tail) = last.get(&h) else {
                        continue;
                    };
                    let (len, new_last) =
                        unlink(next, |l| l as usize, tail, |l| owner[l as usize] == p);
                    crowded |= len > cap;
                    match new_last {
                        Some(None) => {
                            last.remove(&h);
                        }
                        Some(Some(l)) => {
                            last.insert(h, l);
                        }
                        None => {}
                    }
                }
            }
        }
        crowded
    }
}

/// The nodes of the chain whose last node is `last`, from the first (the
/// last one's next) to `last`. A node's next is `next[link(node)]`.
fn chain<'a>(
    next: &'a [u32],
    link: impl Fn(u32) -> usize + 'a,
    last: u32,
) -> impl Iterator<Item = u32> + 'a {
    let mut at = Some(next[link(last)]);
    core::iter::from_fn(move || {
        let n = at?;
        at = (n != last).then(|| next[link(n)]);
        Some(n)
    })
}

/// Links `node` into the chain whose last is `last`, keeping the positions
/// (`pos`) increasing from the first: at the end unless it is below the
/// last (a reused slot), then after the last node below it (or before the
/// first). `true` when `node` becomes the last.
fn insert(
    next: &mut [u32],
    link: impl Fn(u32) -> usize,
    pos: impl Fn(u32) -> u32,
    last: u32,
    node: u32,
) -> bool {
    let p = pos(node);
    let at_end = p >= pos(last);
    let mut q = last;
    if !at_end {
        // The last is above `p`, so the walk stops before coming round.
        while pos(next[link(q)]) <= p {
            q = next[link(q)];
        }
    }
    next[link(node)] = next[link(q)];
    next[link(q)] = node;
    at_end
}

/// Takes the node that `is` out of the chain whose last is `last`. Returns
/// the chain's length before, and what the last becomes: `None` when it
/// stays (the node was not the last, or not found), `Some(None)` when the
/// chain is now empty, `Some(Some(prev))` when its predecessor takes its
/// place.
fn unlink(
    next: &mut [u32],
    link: impl Fn(u32) -> usize,
    last: u32,
    is: impl Fn(u32) -> bool,
) -> (usize, Option<Option<u32>>) {
    let (mut prev, mut len, mut found) = (last, 0, None);
    for q in chain(next, &link, last) {
        len += 1;
        if found.is_none() && is(q) {
            found = Some((prev, q));
        }
        prev = q;
    }
    let Some((prev, node)) = found else {
        return (len, None);
    };
    if prev != node {
        next[link(prev)] = next[link(node)];
    }
    next[link(node)] = NONE;
    let new_last = match (node == last, prev == node) {
        (false, _) => None,
        (true, true) => Some(None),
        (true, false) => Some(Some(prev)),
    };
    (len, new_last)
}

/// Rebuilds table `j` to hold `capacity` buckets (twice its capacity when
/// it is full; [`Buckets::reserve`]'s size): its old table freed first,
/// then the last of each bucket (the largest position: the one whose link
/// goes back to its bucket's first, at or below it) inserted as its
/// bucket's entry, in order. Chains are unchanged. Only the lasts' keys are
/// recomputed, each once, and no entry is compared with another (the
/// buckets' keys are distinct); they are computed [`REBUILD_CHUNK`] at a time
/// before being inserted, so that their hash chains, independent of one
/// another, overlap in the processor (BENCHMARKS.md, "Tables sized before
/// a collection is read"). Where the memory for `capacity` cannot be had,
/// the table is rebuilt at twice its size, as when it fills (and that
/// failing, the allocator's error ends the process, as any allocation's).
fn rebuild(
    tables: &mut [HashTable<u32>],
    next: &[u32],
    j: usize,
    capacity: usize,
    key: &impl Fn(u32, usize) -> u64,
) {
    let k = tables.len();
    let len = tables[j].len();
    let twice = (tables[j].capacity() * 2).max(16);
    tables[j] = HashTable::new();
    let mut table = HashTable::new();
    let hash = |&q: &u32| key(q, j);
    if table.try_reserve(capacity.max(len), hash).is_err() {
        table = HashTable::with_capacity(twice);
    }
    let mut lasts = (0..(next.len() / k) as u32).filter(|&p| {
        let first = next[p as usize * k + j];
        first != NONE && first <= p
    });
    let mut chunk = [(0u32, 0u64); REBUILD_CHUNK];
    loop {
        let mut n = 0;
        for (slot, p) in chunk.iter_mut().zip(&mut lasts) {
            *slot = (p, 0);
            n += 1;
        }
        for slot in &mut chunk[..n] {
            slot.1 = key(slot.0, j);
        }
        for &(p, h) in &chunk[..n] {
            // Never grows: it has room for every bucket held.
            table.insert_unique(h, p, hash);
        }
        if n < REBUILD_CHUNK {
            break;
        }
    }
    tables[j] = table;
}

/// Keys computed together when a table is rebuilt ([`rebuild`]).
const REBUILD_CHUNK: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// Keys of a test: position `p`'s key `j` from a fixed list.
    fn found(b: &Buckets, keys: &[u64], before: u32, cap: usize, all: &[Vec<u64>]) -> Vec<u32> {
        let mut c = Vec::new();
        b.candidates(
            keys,
            0,
            before,
            cap,
            |q, j| all[q as usize][j],
            |_| true,
            64,
            &mut c,
        );
        c
    }

    #[test]
    fn keyed_candidates_share_a_key_in_order_and_removal_unlinks() {
        let none: &[Vec<u64>] = &[];
        let mut b = Buckets::keyed();
        let k = |_: u32, _: usize| 0;
        b.add(0, &[10, 11], k, 0);
        assert_eq!(found(&b, &[11, 12], u32::MAX, usize::MAX, none), [0]);
        b.add(1, &[11, 12], k, 0);
        assert_eq!(
            found(&b, &[10, 11, 12], u32::MAX, usize::MAX, none),
            [0, 0, 1, 1]
        );
        b.add(2, &[10, 11, 12], k, 0);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX, none), [0, 1, 2]);
        assert_eq!(found(&b, &[11], 2, usize::MAX, none), [0, 1]);
        assert!(!b.remove(1, &[11, 12], 0, usize::MAX, k));
        assert_eq!(found(&b, &[11, 12], u32::MAX, usize::MAX, none), [0, 2, 2]);
        b.remove(2, &[10, 11, 12], 0, usize::MAX, k);
        b.remove(0, &[10, 11], 0, usize::MAX, k);
        let Store::Keyed { last, .. } = &b.store else {
            unreachable!()
        };
        assert!(last.is_empty());
        // A bucket whose last was removed takes new links again.
        b.add(3, &[11], k, 0);
        b.add(4, &[11], k, 0);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX, none), [3, 4]);
        // A position below the last goes in its place.
        b.add(1, &[11], k, 0);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX, none), [1, 3, 4]);
    }

    #[test]
    fn a_cap_takes_the_first_documents_of_each_bucket() {
        for mut b in [Buckets::keyed(), Buckets::tables(1)] {
            let mut all: Vec<Vec<u64>> = (0..10).map(|_| vec![7]).collect();
            all.push(vec![8]);
            let key = |q: u32, j: usize| all[q as usize][j];
            for p in 0..11 {
                b.add(p, &all[p as usize], key, 0);
            }
            assert_eq!(found(&b, &[7], u32::MAX, 3, &all), [0, 1, 2]);
            assert_eq!(found(&b, &[8], u32::MAX, 3, &all), [10]);
            assert_eq!(found(&b, &[7], 2, 3, &all), [0, 1]);
            // Removing one of a crowded bucket says so; the next moves up.
            assert!(b.remove(1, &[7], 0, 3, key));
            assert_eq!(found(&b, &[7], u32::MAX, 3, &all), [0, 2, 3]);
            assert!(!b.remove(10, &[8], 0, 3, key));
            assert!(found(&b, &[8], u32::MAX, 3, &all).is_empty());
        }
    }

    /// Random adds and removals, against a plain list of (key, position)
    /// per table, as the tables grow from empty: candidates agree in order.
    #[test]
    fn tables_agree_with_a_plain_list_as_they_grow() {
        agrees_with_a_plain_list(Buckets::tables(3), &[]);
    }

    /// The same with the tables sized beforehand: for every document, for
    /// fewer (they grow past it), for many more, and again when half are
    /// added (each table rebuilt holding buckets of dozens).
    #[test]
    fn tables_sized_beforehand_agree_with_a_plain_list() {
        for sizes in [&[3000][..], &[500], &[100_000], &[0, 1500, 4000]] {
            agrees_with_a_plain_list(Buckets::tables(3), sizes);
        }
    }

    /// The parts layout finds exactly the words within distance `k` of a
    /// query, for every `k` a SimHash index takes and more: against a scan
    /// of every word held, through removals and re-adds, below a position.
    /// The words are near ones by construction: each a random word or an
    /// earlier one with `k` or `k + 1` bits flipped, the flips spread over
    /// the parts as evenly as possible or all in one part. The same for
    /// its all-pairs join.
    #[test]
    fn parts_find_exactly_the_words_within_k() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for k in 0..=18 {
            let mut b = Buckets::parts(k);
            let n = 1200u32;
            let mut words: Vec<u64> = Vec::new();
            for p in 0..n {
                let w = match (p, rnd() % 4) {
                    (0, _) | (_, 0) => rnd(),
                    (_, how) => {
                        let base = words[(rnd() % p as u64) as usize];
                        let flips = (k + (rnd() % 2) as u32).min(64);
                        let mut mask = 0u64;
                        // The order bits are flipped in, from a random start:
                        // round robin over the four parts (evenly), or
                        // part after part (all in one part first), or
                        // scattered (a stride prime to 64).
                        let order = |i: u32| match how {
                            1 => (i % 4) * 16 + i / 4,
                            2 => i,
                            _ => (i * 37) % 64,
                        };
                        let start = (rnd() % 64) as u32;
                        for i in 0..flips {
                            mask |= 1 << order((start + i) % 64);
                        }
                        base ^ mask
                    }
                };
                words.push(w);
            }
            let mut live = vec![false; n as usize];
            for p in 0..n {
                b.add(p, &[], |_, _| 0, words[p as usize]);
                live[p as usize] = true;
                if rnd() % 5 == 0 {
                    let q = (rnd() % (p as u64 + 1)) as u32;
                    if live[q as usize] {
                        b.remove(q, &[], words[q as usize], usize::MAX, |_, _| 0);
                        live[q as usize] = false;
                    }
                }
            }
            for q in (0..n).step_by(5) {
                if !live[q as usize] {
                    b.add(q, &[], |_, _| 0, words[q as usize]);
                    live[q as usize] = true;
                }
            }
            for probe in (0..n).step_by(3) {
                assert_parts_find(
                    &b,
                    &words,
                    &live,
                    k,
                    probe,
                    probe,
                    &alloc::format!("k = {k}"),
                );
            }
            // Every pair within k, as a scan of every two finds them.
            let near = |v: u64, w: u64| (v ^ w).count_ones() <= k;
            let mut got = Vec::new();
            b.near_pairs(k, |x, y| got.push((x, y)));
            got.sort_unstable();
            got.dedup();
            let held: Vec<u32> = (0..n).filter(|&q| live[q as usize]).collect();
            let mut want = Vec::new();
            for (i, &x) in held.iter().enumerate() {
                for &y in &held[i + 1..] {
                    if near(words[x as usize], words[y as usize]) {
                        want.push((x, y));
                    }
                }
            }
            assert_eq!(got, want, "all pairs, k = {k}");
            assert!(!want.is_empty());
        }
    }

    /// The parts layout's candidates for `word` below position `before`,
    /// `cap` a bucket, whose words differ from it in at most `within` bits:
    /// sorted, each once.
    fn parts_candidates(b: &Buckets, word: u64, before: u32, cap: usize, within: u32) -> Vec<u32> {
        let mut got = Vec::new();
        b.candidates(&[], word, before, cap, |_, _| 0, |_| true, within, &mut got);
        got.sort_unstable();
        got.dedup();
        got
    }

    /// Asserts that the parts layout's candidates for `words[probe]` below
    /// position `before` are exactly the live words within `k` of it, as a
    /// scan of every word finds them.
    fn assert_parts_find(
        b: &Buckets,
        words: &[u64],
        live: &[bool],
        k: u32,
        probe: u32,
        before: u32,
        what: &str,
    ) {
        let w = words[probe as usize];
        let near = |v: u64| (v ^ w).count_ones() <= k;
        let got = parts_candidates(b, w, before, usize::MAX, k);
        let want: Vec<u32> = (0..words.len() as u32)
            .filter(|&q| q < before && live[q as usize] && near(words[q as usize]))
            .collect();
        assert_eq!(got, want, "{what}, query {probe}");
    }

    /// The parts layout's buckets as they outgrow their blocks (many words
    /// share each part's value, so buckets hold hundreds): queries still
    /// find exactly the live words within `k` through moves to larger
    /// blocks, removals, re-adds below a bucket's last position and blocks
    /// taken back from the free lists; a cap takes the first positions of
    /// a bucket; and a collection removed and added again reuses the
    /// blocks it left (the slab does not grow).
    #[test]
    fn parts_buckets_outgrow_their_blocks_and_reuse_them() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let k = 10;
        let values = [0u64, 1, 0x8000, 0xFFFF, 0x0F0F];
        let n = 4000u32;
        let words: Vec<u64> = (0..n)
            .map(|_| (0..4).fold(0, |w, i| w | values[(rnd() % 5) as usize] << (16 * i)))
            .collect();
        let slab_len = |b: &Buckets| match &b.store {
            Store::Parts(parts) => parts.slab.len(),
            _ => unreachable!(),
        };
        let check = |b: &Buckets, live: &[bool], what: &str| {
            for probe in (0..n).step_by(37) {
                assert_parts_find(b, &words, live, k, probe, u32::MAX, what);
            }
        };
        let mut b = Buckets::parts(k);
        let mut live = vec![false; n as usize];
        for p in 0..n {
            b.add(p, &[], |_, _| 0, words[p as usize]);
            live[p as usize] = true;
        }
        check(&b, &live, "added");
        for p in (0..n).filter(|p| p % 3 == 1) {
            b.remove(p, &[], words[p as usize], usize::MAX, |_, _| 0);
            live[p as usize] = false;
        }
        check(&b, &live, "a third removed");
        for p in (0..n).filter(|p| p % 3 == 1).rev() {
            b.add(p, &[], |_, _| 0, words[p as usize]);
            live[p as usize] = true;
        }
        check(&b, &live, "re-added below the last");
        let before = slab_len(&b);
        for p in 0..n {
            b.remove(p, &[], words[p as usize], usize::MAX, |_, _| 0);
        }
        check(&b, &vec![false; n as usize], "all removed");
        for p in 0..n {
            b.add(p, &[], |_, _| 0, words[p as usize]);
        }
        check(&b, &live, "all added again");
        assert_eq!(slab_len(&b), before, "re-adding grows no bucket");
        // Four words in one bucket a part outgrow its first block; the
        // four blocks they leave hold the next word's four new buckets.
        let mut b = Buckets::parts(k);
        let (w, other) = (0x1234_5678_9abc_def0u64, 0x0101_0202_0303_0404u64);
        for p in 0..4 {
            b.add(p, &[], |_, _| 0, w);
        }
        let before = slab_len(&b);
        b.add(4, &[], |_, _| 0, other);
        assert_eq!(slab_len(&b), before, "the first blocks are reused");
        for (probe, want) in [(w, vec![0, 1, 2, 3]), (other, vec![4])] {
            let got = parts_candidates(&b, probe, u32::MAX, usize::MAX, 0);
            assert_eq!(got, want);
        }
        // One bucket a part for every word: a cap takes its first live
        // positions, below `before`.
        let mut b = Buckets::parts(k);
        for p in 0..300u32 {
            b.add(p, &[], |_, _| 0, w);
        }
        for p in (0..300u32).step_by(4) {
            b.remove(p, &[], w, usize::MAX, |_, _| 0);
        }
        for (cap, below) in [(1, u32::MAX), (7, u32::MAX), (50, 40), (1000, 299)] {
            let got = parts_candidates(&b, w, below, cap, 0);
            let want: Vec<u32> = (0..300u32)
                .filter(|p| p % 4 != 0)
                .take(cap)
                .filter(|&p| p < below)
                .collect();
            assert_eq!(got, want, "cap {cap}, below {below}");
        }
    }

    /// `sizes`: [`Buckets::reserve`] before the first add with the first,
    /// before add `n / 2` with the others (the first also when only one).
    fn agrees_with_a_plain_list(mut b: Buckets, sizes: &[usize]) {
        let k = 3;
        let n = 3000u32;
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        // Few distinct keys: buckets of one to dozens.
        let all: Vec<Vec<u64>> = (0..n)
            .map(|_| (0..k).map(|j| ((j as u64) << 32) | (rnd() % 400)).collect())
            .collect();
        let key = |q: u32, j: usize| all[q as usize][j];
        let mut live: Vec<bool> = vec![false; n as usize];
        if let Some(&size) = sizes.first() {
            b.reserve(size, key);
        }
        for p in 0..n {
            if p == n / 2 {
                for &size in sizes.get(1..).unwrap_or_default() {
                    b.reserve(size, key);
                }
            }
            b.add(p, &all[p as usize], key, 3 * p as u64);
            live[p as usize] = true;
            if rnd() % 4 == 0 {
                let q = (rnd() % (p as u64 + 1)) as u32;
                if live[q as usize] {
                    b.remove(q, &all[q as usize], 0, usize::MAX, key);
                    live[q as usize] = false;
                }
            }
        }
        // Some removed positions come back (below the last of their buckets).
        for q in (0..n).step_by(7) {
            if !live[q as usize] {
                b.add(q, &all[q as usize], key, 3 * q as u64);
                live[q as usize] = true;
            }
        }
        for probe in (0..n).step_by(13) {
            let keys = &all[probe as usize];
            let want: Vec<u32> = (0..k)
                .flat_map(|j| {
                    (0..n)
                        .filter(|&q| live[q as usize] && all[q as usize][j] == keys[j])
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(found(&b, keys, u32::MAX, usize::MAX, &all), want);
            let mut even = Vec::new();
            b.candidates(keys, 0, probe, usize::MAX, key, |_| true, 0, &mut even);
            // The word test (`within`) is the parts layout's alone.
            let kept = |&q: &u32| q < probe;
            assert_eq!(even, want.iter().copied().filter(kept).collect::<Vec<_>>());
            let capped: Vec<u32> = (0..k)
                .flat_map(|j| {
                    (0..n)
                        .filter(|&q| live[q as usize] && all[q as usize][j] == keys[j])
                        .filter(|&q| q < probe)
                        .take(2)
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(found(&b, keys, probe, 2, &all), capped);
        }
        // Every shared bucket of table 1 once, in order.
        let mut seen = 0;
        b.for_each_shared(1, |bucket| {
            assert!(bucket.len() >= 2 && bucket.windows(2).all(|w| w[0] < w[1]));
            let h = all[bucket[0] as usize][1];
            assert!(bucket.iter().all(|&q| all[q as usize][1] == h));
            seen += bucket.len();
        });
        let mut counts = Map::<u64, usize>::default();
        for q in (0..n).filter(|&q| live[q as usize]) {
            *counts.entry(all[q as usize][1]).or_default() += 1;
        }
        assert_eq!(seen, counts.values().filter(|&&c| c >= 2).sum::<usize>());
    }
}
