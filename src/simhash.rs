//! 64-bit SimHash fingerprints (Charikar, "Similarity estimation techniques
//! from rounding algorithms", STOC 2002) and the permuted-block Hamming index
//! (Manku, Jain, Das Sarma, "Detecting near-duplicates for web crawling",
//! WWW 2007).
//!
//! **Fingerprint.** Features are shingles ([`Shingling`]: words, word
//! k-shingles or character q-grams), each hashed to 64 bits by the project's
//! hash (SPEC.md §2), each with a weight `w_f > 0`. For bit `i` (the bit of
//! value `1 << i`), `V_i = Σ_f w_f · (+1 if bit i of hash(f) is 1 else −1)`,
//! and bit `i` of the fingerprint is 1 iff `V_i > 0` (a tie, `V_i = 0`, gives
//! 0; a text without features gives fingerprint 0). With [`Weighting::Tf`],
//! `w_f` is the feature's count in the text (each occurrence adds 1), summed
//! in integers; with [`Weighting::Binary`] every distinct feature weighs 1;
//! [`fingerprint_weighted`] takes any weights (e.g. tf-idf), summed in `f64`
//! in the order given.
//!
//! **Similarity.** The Hamming distance `d` of two fingerprints estimates the
//! angle between the weighted feature vectors: `P[bit differs] = θ/π`, so
//! `cos θ ≈ cos(π d / 64)` ([`cosine_estimate`]).
//!
//! **Index.** See [`SimHashIndex`].

use crate::codec::{corrupt, Reader, Writer};
use crate::error::{Error, ErrorKind};
use crate::shingle::Shingling;
use crate::unionfind::cluster_ids;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

/// How features are weighted in a fingerprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighting {
    /// Term frequency: every occurrence of a feature adds weight 1.
    Tf,
    /// Every distinct feature weighs 1.
    Binary,
}

/// What a fingerprint is made of: shingling, weighting and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FingerprintConfig {
    /// The features.
    pub shingling: Shingling,
    /// Their weights.
    pub weighting: Weighting,
    /// Hash seed.
    pub seed: u64,
}

impl Default for FingerprintConfig {
    /// Word 3-shingles, term-frequency weights, seed 0.
    fn default() -> Self {
        FingerprintConfig {
            shingling: Shingling::Words(3),
            weighting: Weighting::Tf,
            seed: 0,
        }
    }
}

impl FingerprintConfig {
    /// The fingerprint of `text` (normalised per SPEC.md).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for an out-of-range or custom shingling.
    pub fn fingerprint(&self, text: &str) -> Result<u64, Error> {
        self.shingling.check()?;
        if self.shingling == Shingling::Custom {
            return Err(Error::invalid_option(
                "a text fingerprint needs word or character shingles, not custom",
            ));
        }
        let mut hashes = self.shingling.hashes(text, self.seed);
        if self.weighting == Weighting::Binary {
            hashes.sort_unstable();
            hashes.dedup();
        }
        Ok(fingerprint(&hashes))
    }
}

/// The SimHash of features given by their hashes, each occurrence weighing 1
/// (repeat a hash to weigh it more). Exact integer sums.
pub fn fingerprint(feature_hashes: &[u64]) -> u64 {
    // ones[i] = number of features with bit i set; V_i = 2·ones[i] − n.
    // Counted with bit-sliced counters: slice j holds bit j of all 64
    // counters, and adding a hash is a ripple-carry add across slices
    // (about log2(64) + 1 steps on average instead of 64 additions).
    const SLICES: usize = 16;
    let mut ones = [0u64; 64];
    for chunk in feature_hashes.chunks((1 << SLICES) - 1) {
        let mut c = [0u64; SLICES];
        for &h in chunk {
            let mut carry = h;
            let mut j = 0;
            while carry != 0 && j < SLICES {
                let t = c[j] & carry;
                c[j] ^= carry;
                carry = t;
                j += 1;
            }
        }
        for (j, &w) in c.iter().enumerate() {
            if w != 0 {
                for (i, o) in ones.iter_mut().enumerate() {
                    *o += ((w >> i) & 1) << j;
                }
            }
        }
    }
    let n = feature_hashes.len() as u64;
    let mut fp = 0u64;
    for (i, &o) in ones.iter().enumerate() {
        if 2 * o > n {
            fp |= 1 << i;
        }
    }
    fp
}

/// The SimHash of weighted features `(hash, weight)`; weights must be finite
/// (negative weights count against their feature). Sums in `f64` in order.
///
/// # Errors
/// [`ErrorKind::InvalidOption`] for a NaN or infinite weight.
pub fn fingerprint_weighted(features: &[(u64, f64)]) -> Result<u64, Error> {
    let mut v = [0f64; 64];
    for &(h, w) in features {
        if !w.is_finite() {
            return Err(Error::invalid_option(format!(
                "feature weight {w} is not finite"
            )));
        }
        for (i, vi) in v.iter_mut().enumerate() {
            if (h >> i) & 1 == 1 {
                *vi += w;
            } else {
                *vi -= w;
            }
        }
    }
    Ok(v.iter()
        .enumerate()
        .fold(0u64, |fp, (i, &x)| if x > 0.0 { fp | (1 << i) } else { fp }))
}

/// Number of differing bits, 0..=64.
pub fn hamming_distance(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// Charikar's estimate of the cosine similarity from the Hamming distance
/// `d` of 64-bit fingerprints: `cos(π d / 64)`, in [−1, 1].
pub fn cosine_estimate(d: u32) -> f64 {
    libm::cos(core::f64::consts::PI * d.min(64) as f64 / 64.0)
}

const MAGIC: &[u8; 4] = b"NDSH";
const FORMAT_VERSION: u16 = 1;
/// Inserts buffered unsorted before they are merged into the tables.
const PENDING_LIMIT: usize = 1024;
/// Largest `max_k` an index accepts.
pub const MAX_K: u32 = 16;

/// One table: which blocks form the key (its leading bits), and the sorted
/// permuted fingerprints with their slots.
#[derive(Clone, Debug)]
struct Table {
    /// Block order: key blocks first.
    order: Vec<u8>,
    key_bits: u32,
    /// The bulk of the entries.
    main: Run,
    /// Recent entries, merged into `main` when they pass `√(1024·|main|)`.
    recent: Run,
}

/// Permuted fingerprints with their slots, sorted by (key, slot), in two
/// parallel arrays.
#[derive(Clone, Debug, Default)]
struct Run {
    keys: Vec<u64>,
    slots: Vec<u32>,
}

impl Run {
    fn len(&self) -> usize {
        self.keys.len()
    }

    /// Merges sorted `add` in, in place, from the back.
    fn merge_in(&mut self, add: &[(u64, u32)]) {
        let old = self.keys.len();
        self.keys.resize(old + add.len(), 0);
        self.slots.resize(old + add.len(), 0);
        let (mut i, mut j, mut w) = (old, add.len(), old + add.len());
        while j > 0 {
            if i > 0 && (self.keys[i - 1], self.slots[i - 1]) > add[j - 1] {
                self.keys[w - 1] = self.keys[i - 1];
                self.slots[w - 1] = self.slots[i - 1];
                i -= 1;
            } else {
                self.keys[w - 1] = add[j - 1].0;
                self.slots[w - 1] = add[j - 1].1;
                j -= 1;
            }
            w -= 1;
        }
    }

    /// The entries whose key (the top `key_bits` bits) equals that of `p`.
    fn with_key(&self, p: u64, key_bits: u32) -> (&[u64], &[u32]) {
        let shift = 64 - key_bits;
        let lo_key = (p >> shift) << shift;
        let lo = self.keys.partition_point(|&x| x < lo_key);
        let hi = match lo_key.checked_add(1u64 << shift) {
            Some(h) if shift < 64 => lo + self.keys[lo..].partition_point(|&x| x < h),
            _ => self.keys.len(),
        };
        (&self.keys[lo..hi], &self.slots[lo..hi])
    }
}

/// The permuted-block index for Hamming distance at most `max_k` (Manku et
/// al. 2007).
///
/// The 64 bits are split into `B > max_k` blocks of consecutive bits (sizes as
/// equal as possible). If two fingerprints differ in at most `k ≤ max_k` bits,
/// at least `B − k` blocks are identical; so the index keeps one table per
/// choice of `B − max_k` key blocks (`C(B, max_k)` tables), each table holding
/// every fingerprint with its bits permuted so that the key blocks lead,
/// sorted. A query looks, in every table, at the fingerprints whose permuted
/// key equals its own (a binary search), and keeps those within distance `k`:
/// the result is **exact** — precisely what a linear scan returns. The
/// default `B = max_k + 2` gives `C(max_k + 2, 2)` tables (10 for `k = 3`,
/// the paper's 10-table design size) with keys of about `64·2/(k+2)` bits.
///
/// **Memory** per fingerprint: 12 bytes per table (a `u64` key and a `u32`
/// slot in two sorted arrays, no per-entry allocation) plus 8 bytes for the
/// fingerprint and the id: e.g. `12 · 10 + 8 = 128` bytes plus the id at
/// `max_k = 3`.
///
/// Inserts go to an unsorted buffer of up to 1,024 entries that queries scan
/// linearly; full buffers are merged into a second, smaller sorted run per
/// table, which is merged into the main run when it passes `√(1024·n)`
/// entries (amortised `O(√(n/1024))` moves per insert and table, two binary
/// searches per table per query); [`SimHashIndex::insert_many`] sorts once
/// for bulk loads. Removals leave a tombstone until more than a
/// quarter of the slots are dead, then the tables are rebuilt.
#[derive(Clone, Debug)]
pub struct SimHashIndex {
    max_k: u32,
    /// Bit offset and length of each block, from the lowest bit.
    blocks: Vec<(u8, u8)>,
    tables: Vec<Table>,
    fps: Vec<u64>,
    ids: Vec<Option<String>>,
    by_id: Map<String, u32>,
    pending: Vec<u32>,
    dead: usize,
    config: Option<FingerprintConfig>,
}

/// A match of [`SimHashIndex::query`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match<'a> {
    /// The id.
    pub id: &'a str,
    /// Hamming distance to the query.
    pub distance: u32,
}

/// A pair of [`SimHashIndex::all_pairs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair<'a> {
    /// The smaller id.
    pub a: &'a str,
    /// The larger id.
    pub b: &'a str,
    /// Hamming distance.
    pub distance: u32,
}

fn combinations(n: usize, r: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..r).collect();
    if r > n {
        return out;
    }
    loop {
        out.push(idx.iter().map(|&i| i as u8).collect());
        let mut i = r;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if idx[i] != i + n - r {
                break;
            }
        }
        idx[i] += 1;
        for j in i + 1..r {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

impl SimHashIndex {
    /// An empty index exact for distances up to `max_k` (0..=16), with
    /// `blocks` blocks (`max_k < blocks ≤ 64`; `None` for `max_k + 2`).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] when `max_k` or `blocks` is out of range,
    /// or the design would need more than 1,000 tables.
    pub fn new(max_k: u32, blocks: Option<u32>) -> Result<Self, Error> {
        if max_k > MAX_K {
            return Err(Error::invalid_option(format!(
                "k must be in 0..={MAX_K}, got {max_k}"
            )));
        }
        let b = blocks.unwrap_or(max_k + 2).min(64);
        if b <= max_k {
            return Err(Error::invalid_option(format!(
                "blocks must be more than k ({max_k}) and at most 64, got {b}"
            )));
        }
        let key_blocks = (b - max_k) as usize;
        let tables = combinations(b as usize, key_blocks);
        if tables.len() > 1000 {
            return Err(Error::invalid_option(format!(
                "{b} blocks for k = {max_k} make {} tables; choose fewer blocks",
                tables.len()
            )));
        }
        let (q, extra) = (64 / b, 64 % b);
        let mut blocks = Vec::new();
        let mut at = 0u32;
        for j in 0..b {
            let len = q + u32::from(j < extra);
            blocks.push((at as u8, len as u8));
            at += len;
        }
        let tables = tables
            .into_iter()
            .map(|key| {
                let key_bits = key.iter().map(|&j| blocks[j as usize].1 as u32).sum();
                let mut order = key.clone();
                order.extend((0..b as u8).filter(|j| !key.contains(j)));
                Table {
                    order,
                    key_bits,
                    main: Run::default(),
                    recent: Run::default(),
                }
            })
            .collect();
        Ok(SimHashIndex {
            max_k,
            blocks,
            tables,
            fps: Vec::new(),
            ids: Vec::new(),
            by_id: Map::default(),
            pending: Vec::new(),
            dead: 0,
            config: None,
        })
    }

    /// The largest distance queries are exact for.
    pub fn max_k(&self) -> u32 {
        self.max_k
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Number of tables.
    pub fn tables(&self) -> usize {
        self.tables.len()
    }

    /// Number of fingerprints.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The fingerprint configuration recorded with the index (saved in
    /// snapshots), if any.
    pub fn config(&self) -> Option<FingerprintConfig> {
        self.config
    }

    /// Records how the fingerprints were made, for users of a snapshot.
    pub fn set_config(&mut self, config: Option<FingerprintConfig>) {
        self.config = config;
    }

    fn permute(&self, order: &[u8], fp: u64) -> u64 {
        let mut out = 0u64;
        for &j in order {
            let (shift, len) = self.blocks[j as usize];
            let mask = if len == 64 {
                u64::MAX
            } else {
                (1u64 << len) - 1
            };
            out = if len == 64 { 0 } else { out << len } | ((fp >> shift) & mask);
        }
        out
    }

    /// The fingerprint of `id`.
    pub fn get(&self, id: &str) -> Option<u64> {
        self.by_id.get(id).map(|&s| self.fps[s as usize])
    }

    /// Adds fingerprint `fp` as `id`.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateId`] when `id` is present.
    pub fn insert(&mut self, id: &str, fp: u64) -> Result<(), Error> {
        if self.by_id.contains_key(id) {
            return Err(Error::new(ErrorKind::DuplicateId(id.into())));
        }
        if self.ids.len() >= u32::MAX as usize {
            return Err(Error::invalid_option(
                "the index is full (2^32 - 1 fingerprints)",
            ));
        }
        let slot = self.ids.len() as u32;
        self.fps.push(fp);
        self.ids.push(Some(id.into()));
        self.by_id.insert(id.into(), slot);
        self.pending.push(slot);
        if self.pending.len() >= PENDING_LIMIT {
            self.flush_pending();
        }
        Ok(())
    }

    /// Adds many fingerprints at once, sorting each table once (faster than
    /// repeated [`SimHashIndex::insert`] for a bulk load). Stops at the first
    /// error; the fingerprints before it stay inserted.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateId`] as for `insert`.
    pub fn insert_many<'a>(
        &mut self,
        items: impl IntoIterator<Item = (&'a str, u64)>,
    ) -> Result<(), Error> {
        let mut result = Ok(());
        for (id, fp) in items {
            if self.by_id.contains_key(id) {
                result = Err(Error::new(ErrorKind::DuplicateId(id.into())));
                break;
            }
            if self.ids.len() >= u32::MAX as usize {
                result = Err(Error::invalid_option(
                    "the index is full (2^32 - 1 fingerprints)",
                ));
                break;
            }
            let slot = self.ids.len() as u32;
            self.fps.push(fp);
            self.ids.push(Some(id.into()));
            self.by_id.insert(id.into(), slot);
            self.pending.push(slot);
        }
        self.merge_pending();
        result
    }

    /// Removes `id`; `false` when absent.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(slot) = self.by_id.remove(id) else {
            return false;
        };
        self.ids[slot as usize] = None;
        self.dead += 1;
        if self.dead * 4 > self.ids.len() {
            self.compact();
        }
        true
    }

    /// The live slots of `slots`, each with its permuted fingerprint in
    /// table `t`, sorted.
    fn permuted(&self, t: usize, slots: &[u32]) -> Vec<(u64, u32)> {
        let mut add: Vec<(u64, u32)> = slots
            .iter()
            .filter(|&&s| self.ids[s as usize].is_some())
            .map(|&s| (self.permute(&self.tables[t].order, self.fps[s as usize]), s))
            .collect();
        add.sort_unstable();
        add
    }

    /// Moves the unsorted buffer into the tables' recent runs, and those
    /// into the main runs when they pass an eighth of them.
    fn flush_pending(&mut self) {
        let pending = core::mem::take(&mut self.pending);
        for t in 0..self.tables.len() {
            let add = self.permuted(t, &pending);
            let table = &mut self.tables[t];
            table.recent.merge_in(&add);
            // Balance the two merge costs: flushing into `recent` costs
            // |recent| per 1,024 inserts, merging `recent` into `main` costs
            // |main| per |recent| inserts; both are √(1024·|main|) per insert
            // at |recent| = √(1024·|main|).
            let limit = libm::sqrt(1024.0 * table.main.len() as f64) as usize;
            if table.recent.len() > limit.max(1 << 16) {
                let recent = core::mem::take(&mut table.recent);
                let pairs: Vec<(u64, u32)> = recent.keys.into_iter().zip(recent.slots).collect();
                table.main.merge_in(&pairs);
            }
        }
    }

    /// Moves every buffered insert into the main sorted tables (inserts are
    /// merged automatically in batches; call this after a bulk load to make
    /// queries take the fastest path).
    pub fn merge_pending(&mut self) {
        self.flush_pending();
        for table in &mut self.tables {
            let recent = core::mem::take(&mut table.recent);
            let pairs: Vec<(u64, u32)> = recent.keys.into_iter().zip(recent.slots).collect();
            table.main.merge_in(&pairs);
        }
    }

    /// Drops removed fingerprints and rebuilds the tables.
    fn compact(&mut self) {
        let mut fps = Vec::with_capacity(self.by_id.len());
        let mut ids = Vec::with_capacity(self.by_id.len());
        for (fp, id) in self.fps.iter().zip(self.ids.iter_mut()) {
            if let Some(id) = id.take() {
                fps.push(*fp);
                ids.push(Some(id));
            }
        }
        self.fps = fps;
        self.ids = ids;
        self.dead = 0;
        self.by_id.clear();
        for (s, id) in self.ids.iter().enumerate() {
            if let Some(id) = id {
                self.by_id.insert(id.clone(), s as u32);
            }
        }
        for t in &mut self.tables {
            t.main = Run::default();
            t.recent = Run::default();
        }
        self.pending = (0..self.ids.len() as u32).collect();
        self.merge_pending();
    }

    /// Slots within distance `k` of `fp`, each once, ascending.
    fn query_slots(&self, fp: u64, k: u32) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for t in &self.tables {
            let p = self.permute(&t.order, fp);
            for run in [&t.main, &t.recent] {
                let (_, slots) = run.with_key(p, t.key_bits);
                for &s in slots {
                    if self.ids[s as usize].is_none() {
                        continue;
                    }
                    let d = hamming_distance(self.fps[s as usize], fp);
                    if d <= k {
                        out.push((s, d));
                    }
                }
            }
        }
        for &s in &self.pending {
            if self.ids[s as usize].is_some() {
                let d = hamming_distance(self.fps[s as usize], fp);
                if d <= k {
                    out.push((s, d));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every fingerprint within Hamming distance `k` of `fp`, exactly, sorted
    /// by distance then id.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] when `k > max_k`.
    pub fn query(&self, fp: u64, k: u32) -> Result<Vec<Match<'_>>, Error> {
        self.check_k(k)?;
        let mut out: Vec<Match<'_>> = self
            .query_slots(fp, k)
            .into_iter()
            .filter_map(|(s, d)| {
                self.ids[s as usize]
                    .as_deref()
                    .map(|id| Match { id, distance: d })
            })
            .collect();
        out.sort_by(|x, y| (x.distance, x.id).cmp(&(y.distance, y.id)));
        Ok(out)
    }

    fn check_k(&self, k: u32) -> Result<(), Error> {
        if k > self.max_k {
            return Err(Error::invalid_option(format!(
                "k = {k} is more than the index's max_k = {}",
                self.max_k
            )));
        }
        Ok(())
    }

    /// Every pair within Hamming distance `k`, once, exactly, sorted by ids.
    /// Works on a merged copy of the tables when inserts are buffered.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] when `k > max_k`.
    pub fn all_pairs(&self, k: u32) -> Result<Vec<Pair<'_>>, Error> {
        self.check_k(k)?;
        let merged;
        let this = if self.pending.is_empty() && self.tables.iter().all(|t| t.recent.len() == 0) {
            self
        } else {
            let mut c = self.clone();
            c.merge_pending();
            merged = c;
            &merged
        };
        let mut pairs: Vec<(u32, u32, u32)> = Vec::new();
        for t in &this.tables {
            let (keys, slots) = (&t.main.keys, &t.main.slots);
            let shift = 64 - t.key_bits;
            let key_of = |x: u64| if shift == 64 { 0 } else { x >> shift };
            let mut i = 0;
            while i < keys.len() {
                let key = key_of(keys[i]);
                let mut j = i;
                while j < keys.len() && key_of(keys[j]) == key {
                    j += 1;
                }
                let group = &slots[i..j];
                for (x, &sa) in group.iter().enumerate() {
                    if this.ids[sa as usize].is_none() {
                        continue;
                    }
                    for &sb in &group[x + 1..] {
                        if this.ids[sb as usize].is_none() {
                            continue;
                        }
                        let d = hamming_distance(this.fps[sa as usize], this.fps[sb as usize]);
                        if d <= k {
                            pairs.push((sa.min(sb), sa.max(sb), d));
                        }
                    }
                }
                i = j;
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        // Ids of `this` equal ids of `self` slot for slot (a merge moves no slot).
        let mut out: Vec<Pair<'_>> = pairs
            .into_iter()
            .filter_map(|(x, y, d)| {
                let (a, b) = (
                    self.ids[x as usize].as_deref()?,
                    self.ids[y as usize].as_deref()?,
                );
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                Some(Pair { a, b, distance: d })
            })
            .collect();
        out.sort_by(|p, q| (p.a, p.b).cmp(&(q.a, q.b)));
        Ok(out)
    }

    /// Clusters: connected components (union–find) of the pairs within
    /// distance `k`; each sorted, by first id; singletons left out.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] when `k > max_k`.
    pub fn clusters(&self, k: u32) -> Result<Vec<Vec<&str>>, Error> {
        let pairs: Vec<(&str, &str)> = self.all_pairs(k)?.iter().map(|p| (p.a, p.b)).collect();
        Ok(cluster_ids(&pairs))
    }

    /// The index as bytes (format 1): `"NDSH"`, `u16` format, `u16` spec
    /// version, `u32` max_k, `u32` blocks, `u8` has-config, then if so `u8`
    /// shingling kind, `u8` size, `u8` weighting (0 tf, 1 binary), `u64` seed;
    /// `u64` count, then per fingerprint `u32` id length, id (UTF-8), `u64`
    /// fingerprint; `u32` CRC-32. Little-endian. Tables are rebuilt on load.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, FORMAT_VERSION);
        w.u32(self.max_k);
        w.u32(self.blocks.len() as u32);
        match self.config {
            None => w.u8(0),
            Some(c) => {
                w.u8(1);
                let (kind, n) = c.shingling.code();
                w.u8(kind);
                w.u8(n);
                w.u8(match c.weighting {
                    Weighting::Tf => 0,
                    Weighting::Binary => 1,
                });
                w.u64(c.seed);
            }
        }
        w.u64(self.by_id.len() as u64);
        for (fp, id) in self.fps.iter().zip(&self.ids) {
            if let Some(id) = id {
                w.str(id);
                w.u64(*fp);
            }
        }
        w.finish()
    }

    /// Reads [`SimHashIndex::to_bytes`] output.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] for wrong magic, a bad checksum, truncation,
    /// bad parameters, a duplicate id or trailing bytes;
    /// [`ErrorKind::Version`] for another format or spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "SimHash index snapshot";
        let mut r = Reader::open(bytes, MAGIC, FORMAT_VERSION, WHAT)?;
        let max_k = r.u32()?;
        let blocks = r.u32()?;
        let mut index =
            SimHashIndex::new(max_k, Some(blocks)).map_err(|e| corrupt(WHAT, format!("{e}")))?;
        if index.blocks() != blocks as usize {
            return Err(corrupt(WHAT, format!("{blocks} blocks is out of range")));
        }
        index.config = match r.u8()? {
            0 => None,
            1 => {
                let (kind, n) = (r.u8()?, r.u8()?);
                let shingling = Shingling::from_code(kind, n)
                    .ok_or_else(|| corrupt(WHAT, format!("unknown shingling ({kind}, {n})")))?;
                let weighting = match r.u8()? {
                    0 => Weighting::Tf,
                    1 => Weighting::Binary,
                    x => return Err(corrupt(WHAT, format!("unknown weighting {x}"))),
                };
                Some(FingerprintConfig {
                    shingling,
                    weighting,
                    seed: r.u64()?,
                })
            }
            x => return Err(corrupt(WHAT, format!("bad config flag {x}"))),
        };
        let count = r.u64()?;
        if count > (r.remaining() / 12) as u64 {
            return Err(corrupt(
                WHAT,
                format!("{count} fingerprints cannot fit in the data"),
            ));
        }
        for _ in 0..count {
            let id = r.str()?;
            let fp = r.u64()?;
            if index.by_id.contains_key(id.as_str()) {
                return Err(corrupt(WHAT, format!("duplicate id {id:?}")));
            }
            let slot = index.ids.len() as u32;
            index.fps.push(fp);
            index.by_id.insert(id.clone(), slot);
            index.ids.push(Some(id));
            index.pending.push(slot);
        }
        r.end()?;
        index.merge_pending();
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::SplitMix64;
    use alloc::string::ToString;

    fn brute(fps: &[(String, u64)], q: u64, k: u32) -> Vec<(String, u32)> {
        let mut v: Vec<(String, u32)> = fps
            .iter()
            .filter(|(_, f)| hamming_distance(*f, q) <= k)
            .map(|(id, f)| (id.clone(), hamming_distance(*f, q)))
            .collect();
        v.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        v
    }

    /// Random fingerprints plus planted near copies (1..=k+2 flipped bits).
    fn data(n: usize, k: u32, salt: u64) -> Vec<(String, u64)> {
        let mut rng = SplitMix64::new(salt);
        let mut out: Vec<(String, u64)> = Vec::new();
        for i in 0..n {
            let fp = if i % 3 == 2 && i > 0 {
                let mut f = out[i - 1].1;
                for _ in 0..(rng.next() % (k as u64 + 3)) {
                    f ^= 1 << (rng.next() % 64);
                }
                f
            } else {
                rng.next()
            };
            out.push((format!("id{i:05}"), fp));
        }
        out
    }

    #[test]
    fn fingerprint_bits_by_hand() {
        // Bit 0 set in 2 of 3 features -> 1; bit 1 set in 1 of 3 -> 0;
        // bit 2 set in 1 of 2 equal-weight -> tie -> 0.
        assert_eq!(fingerprint(&[0b011, 0b001, 0b100]) & 0b111, 0b001);
        assert_eq!(fingerprint(&[0b100, 0b000]) & 0b100, 0);
        assert_eq!(fingerprint(&[]), 0);
        assert_eq!(fingerprint(&[0xdead_beef]), 0xdead_beef);
        assert_eq!(
            fingerprint_weighted(&[(0b1, 3.0), (0b0, 2.0)]).unwrap() & 1,
            1
        );
        assert_eq!(
            fingerprint_weighted(&[(0b1, 1.0), (0b0, 2.0)]).unwrap() & 1,
            0
        );
        assert!(fingerprint_weighted(&[(1, f64::NAN)]).is_err());
        assert_eq!(hamming_distance(0, u64::MAX), 64);
        assert!((cosine_estimate(0) - 1.0).abs() < 1e-15);
        assert!(cosine_estimate(32).abs() < 1e-15);
    }

    #[test]
    fn bit_sliced_counts_equal_plain_counts() {
        let mut rng = SplitMix64::new(1);
        for n in [0usize, 1, 2, 3, 64, 1000, 70_000, 140_001] {
            // Skewed bits too: AND of two values sets each bit with p = 1/4.
            let hs: Vec<u64> = (0..n)
                .map(|i| {
                    if i % 2 == 0 {
                        rng.next()
                    } else {
                        rng.next() & rng.next()
                    }
                })
                .collect();
            let mut plain = 0u64;
            for i in 0..64 {
                let ones = hs.iter().filter(|&&h| (h >> i) & 1 == 1).count() as u64;
                if 2 * ones > n as u64 {
                    plain |= 1 << i;
                }
            }
            assert_eq!(fingerprint(&hs), plain, "n = {n}");
        }
    }

    #[test]
    fn similar_texts_are_close() {
        let c = FingerprintConfig::default();
        let a = c
            .fingerprint("the quick brown fox jumps over the lazy dog near the river bank today")
            .unwrap();
        let b = c
            .fingerprint("the quick brown fox jumps over the lazy dog near the river bank tonight")
            .unwrap();
        let x = c
            .fingerprint("completely unrelated words about compilers and parsing tables")
            .unwrap();
        assert!(hamming_distance(a, b) < hamming_distance(a, x));
        assert!(c.fingerprint("").is_ok());
    }

    #[test]
    fn index_is_exact_against_brute_force() {
        for (k, blocks) in [
            (3u32, None),
            (3, Some(4)),
            (6, None),
            (0, None),
            (8, Some(10)),
            (1, Some(64)),
        ] {
            let fps = data(3000, k, k as u64 * 31 + blocks.unwrap_or(0) as u64);
            let mut index = SimHashIndex::new(k, blocks).unwrap();
            for (id, fp) in &fps {
                index.insert(id, *fp).unwrap();
            }
            let mut rng = SplitMix64::new(99);
            // Half the queries with inserts still buffered (unsorted and recent
            // runs), half after everything is merged into the main runs.
            for q in 0..300 {
                if q == 150 {
                    index.merge_pending();
                }
                // Queries near stored fingerprints, and random ones.
                let mut fp = if q % 2 == 0 {
                    fps[(rng.next() % 3000) as usize].1
                } else {
                    rng.next()
                };
                for _ in 0..(rng.next() % (k as u64 + 2)) {
                    fp ^= 1 << (rng.next() % 64);
                }
                for kk in [k, k / 2] {
                    let got: Vec<(String, u32)> = index
                        .query(fp, kk)
                        .unwrap()
                        .into_iter()
                        .map(|m| (m.id.to_string(), m.distance))
                        .collect();
                    assert_eq!(got, brute(&fps, fp, kk), "k {kk} blocks {blocks:?}");
                }
            }
            // All pairs equals brute force.
            let mut want: Vec<(String, String, u32)> = Vec::new();
            for i in 0..fps.len() {
                for j in i + 1..fps.len() {
                    let d = hamming_distance(fps[i].1, fps[j].1);
                    if d <= k {
                        want.push((fps[i].0.clone(), fps[j].0.clone(), d));
                    }
                }
            }
            let got: Vec<(String, String, u32)> = index
                .all_pairs(k)
                .unwrap()
                .into_iter()
                .map(|p| (p.a.to_string(), p.b.to_string(), p.distance))
                .collect();
            assert_eq!(got, want, "all pairs k {k}");
            assert!(!want.is_empty() || k == 0);
        }
    }

    #[test]
    fn insert_many_equals_inserts() {
        let fps = data(5000, 3, 77);
        let mut one = SimHashIndex::new(3, None).unwrap();
        for (id, fp) in &fps {
            one.insert(id, *fp).unwrap();
        }
        let mut many = SimHashIndex::new(3, None).unwrap();
        many.insert_many(fps.iter().map(|(id, fp)| (id.as_str(), *fp)))
            .unwrap();
        assert_eq!(one.all_pairs(3).unwrap(), many.all_pairs(3).unwrap());
        assert_eq!(one.to_bytes(), many.to_bytes());
        assert!(many.insert_many([("id00001", 5u64)]).is_err());
    }

    #[test]
    fn remove_compact_clusters_and_errors() {
        let mut index = SimHashIndex::new(3, None).unwrap();
        assert_eq!(index.tables(), 10);
        index.insert("a", 0b0000).unwrap();
        index.insert("b", 0b0111).unwrap();
        index.insert("c", 0b1111_0000_0000).unwrap();
        index.insert("d", u64::MAX).unwrap();
        assert!(matches!(
            index.insert("a", 1).unwrap_err().kind(),
            ErrorKind::DuplicateId(_)
        ));
        assert_eq!(index.clusters(3).unwrap(), [alloc::vec!["a", "b"]]);
        assert!(index.remove("b"));
        assert!(!index.remove("b"));
        assert!(index.query(0, 3).unwrap().iter().all(|m| m.id != "b"));
        // Removing more than a quarter compacts; answers stay right.
        assert!(index.remove("d"));
        assert_eq!(index.len(), 2);
        assert_eq!(
            index.query(0b1, 3).unwrap(),
            [Match {
                id: "a",
                distance: 1
            }]
        );
        assert!(index.query(0, 4).is_err());
        assert!(SimHashIndex::new(17, None).is_err());
        assert!(SimHashIndex::new(3, Some(3)).is_err());
        assert!(SimHashIndex::new(8, Some(30)).is_err());
    }

    #[test]
    fn snapshot_round_trip_and_corruption() {
        let mut index = SimHashIndex::new(3, None).unwrap();
        index.set_config(Some(FingerprintConfig::default()));
        for (id, fp) in data(200, 3, 5) {
            index.insert(&id, fp).unwrap();
        }
        index.remove("id00007");
        let bytes = index.to_bytes();
        let back = SimHashIndex::from_bytes(&bytes).unwrap();
        assert_eq!(back.len(), 199);
        assert_eq!(back.config(), Some(FingerprintConfig::default()));
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.all_pairs(3).unwrap(), index.all_pairs(3).unwrap());
        for i in (0..bytes.len()).step_by(7) {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(SimHashIndex::from_bytes(&b).is_err(), "flip at {i}");
            assert!(
                SimHashIndex::from_bytes(&bytes[..i]).is_err(),
                "truncated at {i}"
            );
        }
    }
}
