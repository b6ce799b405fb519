//! The permuted-block Hamming index of 64-bit SimHash fingerprints (Manku,
//! Jain, Das Sarma, "Detecting near-duplicates for web crawling", WWW 2007):
//! exact for Hamming distance up to `max_k`, keeping the contract of
//! [`crate::index`].

use super::fingerprint::{hamming_distance, Fingerprint, SimHashConfig, Weighting};
use crate::error::{check_range, Error};
use crate::hash::Spec;
use crate::index::buckets::Buckets;
use crate::index::ids::IdTable;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::index::{sort_hits, sort_pairs, Hit, NearDupIndex, Pair, Score};
use crate::shingle::Shingling;
use alloc::format;
use alloc::vec::Vec;

const MAGIC: &[u8; 4] = b"NDSH";
const FORMAT_VERSION: u16 = 1;
/// Largest `max_k` an index accepts.
pub const MAX_K: u32 = 16;
/// Largest number of tables an index accepts.
pub const MAX_TABLES: usize = 1000;

/// Configuration of a [`SimHashIndex`]: checked once by
/// [`SimHashIndexConfig::check`].
///
/// Defaults: exact for Hamming distance up to 3, `max_k + 2` blocks (10
/// tables, the design size of Manku et al.).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
pub struct SimHashIndexConfig {
    /// The largest Hamming distance queries are exact for, 0..=16 (default 3).
    pub max_k: u32,
    /// Blocks of the 64 bits, `max_k < blocks ≤ 64` (default `max_k + 2`):
    /// the permuted-block tables' design, which [`SimHashIndex::table_keys`]
    /// follows; where a table's key would have at most 12 bits, the index
    /// searches by multi-index hashing instead (the same results).
    pub blocks: Option<u32>,
}

impl Default for SimHashIndexConfig {
    fn default() -> Self {
        SimHashIndexConfig {
            max_k: 3,
            blocks: None,
        }
    }
}

crate::config::setters!(SimHashIndexConfig {
    /// Sets `max_k`.
    max_k: u32,
    /// Sets the number of blocks (`None`: `max_k + 2`).
    blocks: Option<u32>,
});

impl SimHashIndexConfig {
    /// The number of blocks, `blocks` or `max_k + 2`.
    pub fn block_count(&self) -> u32 {
        self.blocks.unwrap_or(self.max_k + 2)
    }

    /// Checks every option, before anything is allocated.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when `max_k` or `blocks` is out of
    /// range, or the design needs more than 1,000 tables.
    pub fn check(&self) -> Result<(), Error> {
        check_range("max_k", self.max_k, 0..=MAX_K)?;
        let b = self.block_count();
        if b <= self.max_k || b > 64 {
            return Err(Error::option(
                "blocks",
                format!(
                    "must be more than the largest distance k = {} and at most 64, got {b}",
                    self.max_k
                ),
            ));
        }
        let tables = binomial(b as u64, self.max_k as u64);
        if tables > MAX_TABLES as u64 {
            return Err(Error::option(
                "blocks",
                format!(
                    "{b} blocks for k = {} make {tables} tables, more than {MAX_TABLES}; choose fewer blocks",
                    self.max_k
                ),
            ));
        }
        Ok(())
    }
}

/// `C(n, r)`, saturating at `u64::MAX`.
fn binomial(n: u64, r: u64) -> u64 {
    let r = r.min(n - r.min(n));
    (0..r).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// One table: which blocks form the key (its leading bits after the
/// permutation).
#[derive(Clone, Debug)]
struct Table {
    /// Block order: key blocks first.
    order: Vec<u8>,
    /// How many of `order` are key blocks.
    key_blocks: usize,
}

/// A stored fingerprint: its 64 bits, and whether it is empty.
#[derive(Clone, Copy, Debug)]
struct Entry {
    fp: u64,
    empty: bool,
}

/// The permuted-block index for Hamming distance at most `max_k` (Manku et
/// al. 2007).
///
/// The 64 bits are split into `B > max_k` blocks of consecutive bits (sizes as
/// equal as possible). If two fingerprints differ in at most `k ≤ max_k` bits,
/// at least `B − k` blocks are identical; so the index keeps one table per
/// choice of `B − max_k` key blocks (`C(B, max_k)` tables), and in table `t`
/// every fingerprint is in the bucket of its key there — table `t`'s bits,
/// hashed with the table's number ([`SimHashIndex::table_keys`], SPEC.md
/// §10). A query looks, in every table, at the bucket of its own key, and
/// keeps the fingerprints within distance `k`: the result is **exact** —
/// precisely what a linear scan returns. The default `B = max_k + 2` gives
/// `C(max_k + 2, 2)` tables (10 for `k = 3`, the paper's 10-table design
/// size) with keys of about `64·2/(k+2)` bits.
///
/// **The buckets** are the bucket store every index shares
/// (`index/buckets.rs`, as [`crate::minhash::MinHashLsh`] and the dedup
/// pipeline). With keys wider than 12 bits (small distances: the default
/// `k = 3` has 25-bit keys), its tables layout: per table, a hash table of
/// 4-byte slots that confirms a bucket by recomputing its key from the
/// fingerprint of the slot it holds (keys are never stored), and a 4-byte
/// link per slot and table. When a table's key would have at most 12 bits
/// (large distances: every bucket a fixed share of the collection), no
/// table's buckets are kept: the store's parts layout finds the fingerprints
/// within `max_k` by multi-index hashing instead (four 16-bit parts, part
/// `i` searched within radius `t_i`, `Σ (t_i + 1) = max_k + 1`; Norouzi et
/// al. 2012, Qin et al. 2018): 48 bytes a fingerprint in its four buckets
/// (the fingerprint and its slot, 12 bytes a bucket, in blocks of one
/// array; up to twice that with the blocks' spare room, and the blocks a
/// bucket outgrew until a new bucket takes them), a 12-byte header a
/// bucket (at most `4 · 65,536`) and 1 MB of tables; [`SimHashIndex::table_keys`] are the
/// same either way. The paper's sorted tables are not
/// kept: a bucket is found in one probe, an insert or a removal takes
/// `O(tables)` plus the lengths of its buckets, and nothing is buffered or
/// merged.
///
/// **Memory** per fingerprint: about 9–13 bytes per table (the slot with its
/// hash table's spare room and control byte, and the link) plus about 40 in
/// the id table (the id's pointer, the fingerprint, its lookup entry) and
/// the id's bytes: about 130–170 bytes plus the id at `max_k = 3`
/// (BENCHMARKS.md, "SimHashIndex over the shared bucket store"). Empty fingerprints (texts without features) are kept out of
/// the buckets. A removed id's slot is given to a later insert.
#[derive(Clone, Debug)]
pub struct SimHashIndex {
    max_k: u32,
    /// Bit offset and length of each block, from the lowest bit.
    blocks: Vec<(u8, u8)>,
    tables: Vec<Table>,
    ids: IdTable<Entry>,
    /// The fingerprint of each slot in the buckets, dense: what a walk of a
    /// bucket reads (8 bytes a slot, where `ids` keeps 32 with the id).
    fps: Vec<u64>,
    /// Per table, its buckets of slots (keys recomputed, never stored).
    buckets: Buckets,
    config: Option<SimHashConfig>,
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

/// `fp` with its blocks in `order`, the first leading.
fn permute(blocks: &[(u8, u8)], order: &[u8], fp: u64) -> u64 {
    let mut out = 0u64;
    for &j in order {
        let (shift, len) = blocks[j as usize];
        let mask = if len == 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        };
        out = if len == 64 { 0 } else { out << len } | ((fp >> shift) & mask);
    }
    out
}

/// Table `t`'s key of the fingerprint value `fp`: `combine(t, [its key
/// blocks' bits])` (SPEC.md §10).
fn key_of(blocks: &[(u8, u8)], tables: &[Table], t: usize, fp: u64) -> u64 {
    let table = &tables[t];
    // The leading bits of the permuted fingerprint that are its key blocks:
    // those blocks alone, in order.
    let key = permute(blocks, &table.order[..table.key_blocks], fp);
    crate::hash::combine(t as u64, &[key])
}

/// Table `t`'s key of the fingerprint in slot `s` of `fps` (every slot in
/// the buckets holds one): the keys the bucket store recomputes.
fn slot_keys<'a>(
    fps: &'a [u64],
    blocks: &'a [(u8, u8)],
    tables: &'a [Table],
) -> impl Fn(u32, usize) -> u64 + 'a {
    move |s, t| key_of(blocks, tables, t, fps[s as usize])
}

impl SimHashIndex {
    /// An empty index with the design of `config`.
    ///
    /// # Errors
    /// As [`SimHashIndexConfig::check`].
    pub fn new(config: &SimHashIndexConfig) -> Result<Self, Error> {
        Self::with_room(config, 0)
    }

    /// [`SimHashIndex::new`] with room for `n` fingerprints.
    fn with_room(config: &SimHashIndexConfig, n: usize) -> Result<Self, Error> {
        config.check()?;
        let max_k = config.max_k;
        let b = config.block_count();
        let key_blocks = (b - max_k) as usize;
        let tables = combinations(b as usize, key_blocks);
        let (q, extra) = (64 / b, 64 % b);
        let mut blocks = Vec::new();
        let mut at = 0u32;
        for j in 0..b {
            let len = q + u32::from(j < extra);
            blocks.push((at as u8, len as u8));
            at += len;
        }
        let tables: Vec<Table> = tables
            .into_iter()
            .map(|key| {
                let mut order = key.clone();
                order.extend((0..b as u8).filter(|j| !key.contains(j)));
                Table {
                    order,
                    key_blocks: key.len(),
                }
            })
            .collect();
        // Keys of at most 12 bits (large distances: 12 blocks and keys of
        // 10–11 bits for k = 10) would make few, large buckets, each a
        // fixed share of the collection: multi-index hashing instead (the
        // store's parts layout), whose buckets are a 65,536th. Wider keys
        // make many small buckets, chained.
        let narrowest = tables
            .iter()
            .map(|t| {
                let key = &t.order[..t.key_blocks];
                key.iter()
                    .map(|&j| blocks[j as usize].1 as u32)
                    .sum::<u32>()
            })
            .min()
            .unwrap_or(64);
        let buckets = match narrowest <= 12 {
            true => Buckets::parts(max_k),
            false => Buckets::tables_for(tables.len(), n),
        };
        Ok(SimHashIndex {
            max_k,
            blocks,
            tables,
            ids: IdTable::with_capacity(n, true),
            fps: Vec::with_capacity(n),
            buckets,
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

    /// The configuration of the fingerprints it holds (set by the first
    /// insert, or read from a snapshot); `None` while it has never held one.
    pub fn config(&self) -> Option<SimHashConfig> {
        self.config
    }

    /// Fixes the configuration of the fingerprints the index takes (as the
    /// first insert would), so that an empty index records it too.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the index holds fingerprints
    /// of another configuration.
    pub fn set_config(&mut self, config: SimHashConfig) -> Result<(), Error> {
        self.check_fp(&Fingerprint::new(0, config, true))?;
        self.config = Some(config);
        Ok(())
    }

    /// The bucket keys of `fp`, one per table: table `t`'s key is
    /// `combine(t, [its key blocks' bits])` (SPEC.md §10). Two fingerprints
    /// within Hamming distance `max_k` share at least one key (the tables'
    /// pigeonhole), so a store outside this index (e.g. the edge Worker's
    /// SQLite shards) that keeps `key → ids` and checks the distance of the
    /// candidates is exact too. Stable across versions and platforms
    /// (golden vectors); an empty fingerprint has no keys.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] for a fingerprint of another
    /// configuration than the index holds.
    pub fn table_keys(&self, fp: &Fingerprint) -> Result<Vec<u64>, Error> {
        self.check_fp(fp)?;
        if fp.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self.keys(fp.value()))
    }

    /// Every table's key of the fingerprint value `fp`.
    fn keys(&self, fp: u64) -> Vec<u64> {
        (0..self.tables.len())
            .map(|t| self.table_key(t, fp))
            .collect()
    }

    /// The keys the buckets read of the fingerprint value `fp`: every
    /// table's, or none for the parts layout (which reads `fp` itself).
    fn bucket_keys(&self, fp: u64) -> Vec<u64> {
        match self.buckets.reads_keys() {
            true => self.keys(fp),
            false => Vec::new(),
        }
    }

    /// Table `t`'s key of the fingerprint value `fp` (one of
    /// [`SimHashIndex::table_keys`], unchecked): `t < ` the number of tables.
    pub(crate) fn table_key(&self, t: usize, fp: u64) -> u64 {
        key_of(&self.blocks, &self.tables, t, fp)
    }

    /// Every document, `(id, fingerprint)`, in the order of their slots
    /// (the order added, when nothing was removed).
    pub fn iter(&self) -> impl Iterator<Item = (&str, Fingerprint)> + '_ {
        let config = self.config.unwrap_or(SimHashConfig::CUSTOM);
        self.ids
            .iter()
            .map(move |(_, id, e)| (id, Fingerprint::new(e.fp, config, e.empty)))
    }

    /// The fingerprint of `id`.
    pub fn fingerprint(&self, id: &str) -> Option<Fingerprint> {
        let e = self.ids.value_of(id)?;
        Some(Fingerprint::new(
            e.fp,
            self.config.unwrap_or(SimHashConfig::CUSTOM),
            e.empty,
        ))
    }

    fn check_fp(&self, fp: &Fingerprint) -> Result<(), Error> {
        match self.config {
            Some(c) if c != fp.config() => Err(Error::incompatible(
                "fingerprint",
                c.describe(),
                fp.config().describe(),
            )),
            _ => Ok(()),
        }
    }

    /// Adds `id` with `fp` to its buckets.
    fn add(&mut self, id: &str, fp: Fingerprint) -> Result<(), Error> {
        self.check_fp(&fp)?;
        let keys = (!fp.is_empty()).then(|| self.bucket_keys(fp.value()));
        let slot = self.ids.insert(
            id,
            Entry {
                fp: fp.value(),
                empty: fp.is_empty(),
            },
        )?;
        self.config = Some(fp.config());
        if let Some(keys) = keys {
            let at = slot as usize;
            if self.fps.len() <= at {
                self.fps.resize(at + 1, 0);
            }
            self.fps[at] = fp.value();
            let key = slot_keys(&self.fps, &self.blocks, &self.tables);
            self.buckets.add(slot, &keys, key, fp.value());
        }
        Ok(())
    }

    /// Adds many fingerprints at once (as repeated [`NearDupIndex::insert`]).
    /// Stops at the first error; the fingerprints before it stay inserted.
    ///
    /// # Errors
    /// As [`NearDupIndex::insert`].
    pub fn insert_many<'a>(
        &mut self,
        items: impl IntoIterator<Item = (&'a str, Fingerprint)>,
    ) -> Result<(), Error> {
        for (id, fp) in items {
            self.add(id, fp)?;
        }
        Ok(())
    }

    /// Slots within distance `k` of `fp`, each once, ascending.
    fn query_slots(&self, fp: u64, k: u32) -> Vec<(u32, u32)> {
        let mut slots: Vec<u32> = Vec::new();
        let distance = |s: u32| hamming_distance(self.fps[s as usize], fp);
        let key = slot_keys(&self.fps, &self.blocks, &self.tables);
        self.buckets.candidates(
            &self.bucket_keys(fp),
            fp,
            u32::MAX,
            usize::MAX,
            key,
            |s| distance(s) <= k,
            k,
            &mut slots,
        );
        slots.sort_unstable();
        slots.dedup();
        slots.into_iter().map(|s| (s, distance(s))).collect()
    }

    fn check_k(&self, k: u32) -> Result<(), Error> {
        if k > self.max_k {
            return Err(Error::option(
                "max_k",
                format!(
                    "k = {k} is more than the index's largest distance {}",
                    self.max_k
                ),
            ));
        }
        Ok(())
    }

    /// Every fingerprint within Hamming distance `k ≤ max_k` of `fp`,
    /// exactly, nearest first then by id. An empty fingerprint matches
    /// nothing.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when `k > max_k`;
    /// [`crate::ErrorKind::Incompatible`] for another configuration.
    pub fn query_within(&self, fp: &Fingerprint, k: u32) -> Result<Vec<Hit<'_>>, Error> {
        self.check_k(k)?;
        self.check_fp(fp)?;
        if fp.is_empty() {
            return Ok(Vec::new());
        }
        let mut out: Vec<Hit<'_>> = self
            .query_slots(fp.value(), k)
            .into_iter()
            .filter_map(|(s, d)| {
                self.ids.get(s).map(|(id, _)| Hit {
                    id,
                    score: Score::Hamming(d),
                })
            })
            .collect();
        sort_hits(&mut out);
        Ok(out)
    }

    /// Every pair within Hamming distance `k ≤ max_k`, once, exactly, sorted
    /// by ids.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when `k > max_k`.
    pub fn all_pairs_within(&self, k: u32) -> Result<Vec<Pair<'_>>, Error> {
        self.check_k(k)?;
        // Pairs are filtered as they are met, bucket by bucket, so that
        // memory follows the pairs kept (a pair sharing several tables is
        // met once per table).
        let mut pairs: Vec<(u32, u32, u32)> = Vec::new();
        // Multi-index hashing (the parts layout) joins each bucket with its
        // neighbours; the tables below have none then.
        self.buckets.near_pairs(k, |a, b| {
            let d = hamming_distance(self.fps[a as usize], self.fps[b as usize]);
            pairs.push((a, b, d));
        });
        for t in 0..self.tables.len() {
            self.buckets.for_each_shared(t, |bucket| {
                for (x, &sa) in bucket.iter().enumerate() {
                    let fa = self.fps[sa as usize];
                    for &sb in &bucket[x + 1..] {
                        let d = hamming_distance(fa, self.fps[sb as usize]);
                        if d <= k {
                            pairs.push((sa.min(sb), sa.max(sb), d));
                        }
                    }
                }
            });
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut out: Vec<Pair<'_>> = pairs
            .into_iter()
            .filter_map(|(x, y, d)| {
                let (a, b) = (self.ids.get(x)?.0, self.ids.get(y)?.0);
                let (a, b) = if a <= b { (a, b) } else { (b, a) };
                Some(Pair {
                    a,
                    b,
                    score: Score::Hamming(d),
                })
            })
            .collect();
        sort_pairs(&mut out);
        Ok(out)
    }

    /// Clusters within distance `k ≤ max_k`: connected components of
    /// [`SimHashIndex::all_pairs_within`].
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when `k > max_k`.
    pub fn clusters_within(&self, k: u32) -> Result<Vec<Vec<&str>>, Error> {
        Ok(crate::index::clusters::cluster_pairs(
            &self.all_pairs_within(k)?,
        ))
    }

    /// The index as bytes (format 1): `"NDSH"`, `u16` format, `u16` spec
    /// version, `u32` max_k, `u32` blocks, `u8` has-config, then if so `u8`
    /// shingling kind, `u8` size, `u8` weighting (0 tf, 1 binary), `u64` seed;
    /// `u64` count, then per fingerprint `u32` id length, id (UTF-8), `u64`
    /// fingerprint; `u32` CRC-32. Little-endian. Tables are rebuilt on load.
    /// Fingerprints of custom features record no configuration.
    pub fn to_bytes(&self) -> Vec<u8> {
        // The spec version of text fingerprints is the header's.
        let spec = self.config.map_or(Spec::V1, |c| c.spec);
        let mut w = Writer::with_spec(MAGIC, FORMAT_VERSION, spec);
        w.u32(self.max_k);
        w.u32(self.blocks.len() as u32);
        match self.config.filter(|c| c.shingle != Shingling::Custom) {
            None => w.u8(0),
            Some(c) => {
                w.u8(1);
                let (kind, n) = c.shingle.code();
                w.u8(kind);
                w.u8(n);
                w.u8(match c.weights {
                    Weighting::Tf => 0,
                    Weighting::Binary => 1,
                });
                w.u64(c.seed);
            }
        }
        w.u64(self.ids.len() as u64);
        for (_, id, e) in self.ids.iter() {
            w.str(id);
            w.u64(e.fp);
        }
        w.finish()
    }

    /// Reads [`SimHashIndex::to_bytes`] output.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] for wrong magic, a bad checksum,
    /// truncation, bad parameters, a duplicate id or trailing bytes;
    /// [`crate::ErrorKind::Version`] for another format or spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "SimHash index snapshot";
        let versions = FORMAT_VERSION..=FORMAT_VERSION;
        let (mut r, _) = Reader::open_specs(bytes, MAGIC, versions, WHAT, Spec::V2)?;
        let max_k = r.u32()?;
        let blocks = r.u32()?;
        let design = SimHashIndexConfig {
            max_k,
            blocks: Some(blocks),
        };
        design.check().map_err(|e| corrupt(WHAT, format!("{e}")))?;
        let config = match r.u8()? {
            0 => None,
            1 => {
                let (kind, n) = (r.u8()?, r.u8()?);
                let shingle = Shingling::from_code(kind, n)
                    .filter(|s| *s != Shingling::Custom)
                    .ok_or_else(|| corrupt(WHAT, format!("unknown shingling ({kind}, {n})")))?;
                let weights = match r.u8()? {
                    0 => Weighting::Tf,
                    1 => Weighting::Binary,
                    x => return Err(corrupt(WHAT, format!("unknown weighting {x}"))),
                };
                Some(SimHashConfig {
                    shingle,
                    weights,
                    seed: r.u64()?,
                    spec: r.spec(),
                })
            }
            x => return Err(corrupt(WHAT, format!("bad config flag {x}"))),
        };
        let count = r.count(12)?;
        let mut index =
            SimHashIndex::with_room(&design, count).map_err(|e| corrupt(WHAT, format!("{e}")))?;
        index.config = config;
        let fp_config = config.unwrap_or(SimHashConfig::CUSTOM);
        for _ in 0..count {
            let id = r.str()?;
            let fp = Fingerprint::from_parts(r.u64()?, fp_config);
            index
                .add(&id, fp)
                .map_err(|e| corrupt(WHAT, format!("{e}")))?;
        }
        r.end()?;
        if count == 0 {
            index.config = config;
        }
        Ok(index)
    }
}

impl NearDupIndex for SimHashIndex {
    type Sketch = Fingerprint;

    /// Adds `id` with `fp`. Time `O(tables)`.
    fn insert(&mut self, id: &str, fp: Fingerprint) -> Result<(), Error> {
        self.add(id, fp)
    }

    /// Removes `id`. Time `O(tables)` times the size of its buckets.
    fn remove(&mut self, id: &str) -> bool {
        let Some(slot) = self.ids.slot_of(id) else {
            return false;
        };
        // Unlinked while its fingerprint is still in its slot: the tables
        // confirm a bucket by the fingerprint of the slot they hold.
        let (keys, fp) = match self.ids.get(slot) {
            Some((_, e)) if !e.empty => (self.bucket_keys(e.fp), e.fp),
            _ => (Vec::new(), 0),
        };
        let key = slot_keys(&self.fps, &self.blocks, &self.tables);
        self.buckets.remove(slot, &keys, fp, usize::MAX, key);
        self.ids.remove(id);
        true
    }

    fn contains(&self, id: &str) -> bool {
        self.ids.slot_of(id).is_some()
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// Fingerprints within distance `max_k`.
    fn query(&self, fp: &Fingerprint) -> Result<Vec<Hit<'_>>, Error> {
        self.query_within(fp, self.max_k)
    }

    /// Pairs within distance `max_k`.
    fn all_pairs(&self) -> Vec<Pair<'_>> {
        self.all_pairs_within(self.max_k).unwrap_or_default()
    }

    fn to_bytes(&self) -> Vec<u8> {
        SimHashIndex::to_bytes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::SplitMix64;
    use alloc::string::{String, ToString};

    fn new(k: u32, blocks: Option<u32>) -> Result<SimHashIndex, Error> {
        SimHashIndex::new(&SimHashIndexConfig { max_k: k, blocks })
    }

    fn fp(v: u64) -> Fingerprint {
        Fingerprint::from_value(v)
    }

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

    /// The bucket keys find what the index finds: a pair shares a table key
    /// exactly when some table's key blocks agree, so every pair within
    /// `max_k` shares one (what the edge Worker's SQLite buckets rely on).
    #[test]
    fn table_keys_are_shared_by_every_pair_within_max_k() {
        for (k, blocks) in [(3u32, None), (0, None), (6, None), (8, Some(10))] {
            let index = new(k, blocks).unwrap();
            let fps = data(600, k, 11 + k as u64);
            let keys: Vec<Vec<u64>> = fps
                .iter()
                .map(|(_, f)| index.table_keys(&fp(*f)).unwrap())
                .collect();
            assert!(keys.iter().all(|ks| ks.len() == index.tables()));
            let mut near = 0;
            for i in 0..fps.len() {
                for j in 0..i {
                    let d = hamming_distance(fps[i].1, fps[j].1);
                    let shared = keys[i].iter().any(|x| keys[j].contains(x));
                    if d <= k {
                        near += 1;
                        assert!(shared, "k {k}: pair at distance {d} shares no key");
                    }
                }
            }
            assert!(near >= 50, "k {k}: only {near} near pairs planted");
        }
        let index = new(3, None).unwrap();
        let empty = Fingerprint::new(0, SimHashConfig::default(), true);
        assert!(index.table_keys(&empty).unwrap().is_empty());
    }

    #[test]
    fn index_is_exact_against_brute_force() {
        // Every k from 0 to 8 with the default blocks, the pipeline's
        // designs (k 10 and 12: keys of 9–11 bits, so the bucket store's
        // parts layout), and unusual ones.
        let designs = (0..=8u32).map(|k| (k, None)).chain([
            (3, Some(4)),
            (8, Some(10)),
            (1, Some(64)),
            (10, Some(12)),
            (12, Some(14)),
        ]);
        for (k, blocks) in designs {
            let fps = data(3000, k, k as u64 * 31 + blocks.unwrap_or(0) as u64);
            let mut index = new(k, blocks).unwrap();
            for (id, v) in &fps {
                index.insert(id, fp(*v)).unwrap();
            }
            let mut rng = SplitMix64::new(99);
            for q in 0..300 {
                // Half the queries after a tenth of the fingerprints were
                // removed and put back (their slots reused, their buckets'
                // chains relinked).
                if q == 150 {
                    for (id, v) in fps.iter().step_by(10) {
                        assert!(index.remove(id));
                        assert!(index
                            .query_within(&fp(*v), 0)
                            .unwrap()
                            .iter()
                            .all(|h| h.id != id));
                    }
                    for (id, v) in fps.iter().step_by(10).rev() {
                        index.insert(id, fp(*v)).unwrap();
                    }
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
                        .query_within(&Fingerprint::from_value(fp), kk)
                        .unwrap()
                        .into_iter()
                        .map(|m| match m.score {
                            Score::Hamming(d) => (m.id.to_string(), d),
                            Score::Jaccard(_) => unreachable!(),
                        })
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
                .all_pairs_within(k)
                .unwrap()
                .into_iter()
                .map(|p| match p.score {
                    Score::Hamming(d) => (p.a.to_string(), p.b.to_string(), d),
                    Score::Jaccard(_) => unreachable!(),
                })
                .collect();
            assert_eq!(got, want, "all pairs k {k}");
            assert!(!want.is_empty() || k == 0);
        }
    }

    #[test]
    fn insert_many_equals_inserts() {
        let fps = data(5000, 3, 77);
        let mut one = new(3, None).unwrap();
        for (id, v) in &fps {
            one.insert(id, fp(*v)).unwrap();
        }
        let mut many = new(3, None).unwrap();
        many.insert_many(fps.iter().map(|(id, v)| (id.as_str(), fp(*v))))
            .unwrap();
        assert_eq!(one.all_pairs(), many.all_pairs());
        assert_eq!(one.to_bytes(), many.to_bytes());
        assert!(many.insert_many([("id00001", fp(5))]).is_err());
    }

    fn hits(index: &SimHashIndex, v: u64, k: u32) -> Vec<(String, u32)> {
        index
            .query_within(&fp(v), k)
            .unwrap()
            .into_iter()
            .map(|h| match h.score {
                Score::Hamming(d) => (h.id.to_string(), d),
                Score::Jaccard(_) => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn remove_clusters_and_errors() {
        let mut index = new(3, None).unwrap();
        assert_eq!(index.tables(), 10);
        index.insert("a", fp(0b0000)).unwrap();
        index.insert("b", fp(0b0111)).unwrap();
        index.insert("c", fp(0b1111_0000_0000)).unwrap();
        index.insert("d", fp(u64::MAX)).unwrap();
        assert!(matches!(
            index.insert("a", fp(1)).unwrap_err().kind(),
            crate::ErrorKind::DuplicateId { .. }
        ));
        assert_eq!(index.clusters(), [alloc::vec!["a", "b"]]);
        assert!(index.remove("b"));
        assert!(!index.remove("b"));
        assert!(hits(&index, 0, 3).iter().all(|m| m.0 != "b"));
        assert!(index.remove("d"));
        assert_eq!(index.len(), 2);
        assert_eq!(hits(&index, 0b1, 3), [("a".to_string(), 1)]);
        assert!(index.query_within(&fp(0), 4).is_err());
        assert!(new(17, None).is_err());
        assert!(new(3, Some(3)).is_err());
        assert!(new(8, Some(30)).is_err());
        // Checked before anything is built: C(64, 16) tables is refused at once.
        assert!(new(16, Some(64)).is_err());
        assert_eq!(binomial(12, 10), 66);
    }

    #[test]
    fn empty_texts_match_nothing_and_configurations_are_checked() {
        let c = SimHashConfig::default();
        let mut index = new(3, None).unwrap();
        for i in 0..50 {
            index
                .insert(&alloc::format!("empty{i}"), c.fingerprint("...").unwrap())
                .unwrap();
        }
        index
            .insert("x", c.fingerprint("some words of text").unwrap())
            .unwrap();
        assert_eq!(index.len(), 51);
        assert!(index.all_pairs().is_empty());
        assert!(index
            .query(&c.fingerprint("!!").unwrap())
            .unwrap()
            .is_empty());
        let other = SimHashConfig::default().shingle(Shingling::Chars(5));
        assert!(matches!(
            index
                .insert("y", other.fingerprint("text").unwrap())
                .unwrap_err()
                .kind(),
            crate::ErrorKind::Incompatible { .. }
        ));
        assert!(index.query(&fp(1)).is_err());
        let back = SimHashIndex::from_bytes(&index.to_bytes()).unwrap();
        assert!(back.fingerprint("empty3").unwrap().is_empty());
        assert!(back.all_pairs().is_empty());
        assert_eq!(back.config(), Some(c));
    }

    #[test]
    fn snapshot_round_trip_and_corruption() {
        let c = SimHashConfig::default();
        let mut index = new(3, None).unwrap();
        for (id, v) in data(200, 3, 5) {
            index.insert(&id, Fingerprint::new(v, c, false)).unwrap();
        }
        index.remove("id00007");
        let bytes = index.to_bytes();
        let back = SimHashIndex::from_bytes(&bytes).unwrap();
        assert_eq!(back.len(), 199);
        assert_eq!(back.config(), Some(c));
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.all_pairs(), index.all_pairs());
        for i in (0..bytes.len()).step_by(7) {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            crate::testing::assert_damaged(
                SimHashIndex::from_bytes(&b).map(|x| x.len()),
                format_args!("flip at {i}"),
            );
            crate::testing::assert_damaged(
                SimHashIndex::from_bytes(&bytes[..i]).map(|x| x.len()),
                format_args!("truncated at {i}"),
            );
        }
    }
}
