//! Locality-sensitive hashing of MinHash signatures by banding (Indyk and
//! Motwani 1998; Leskovec, Rajaraman, Ullman, *Mining of Massive Datasets*,
//! ch. 3.4), with a threshold advisor, removal, and snapshots.
//!
//! A signature of `num_perm` values is cut into `b` **bands** of consecutive
//! **rows**; two documents become candidates when all rows of at least one
//! band agree. With `r_j` rows in band `j`, a pair of resemblance `s` becomes a
//! candidate with probability (the S-curve)
//!
//! ```text
//! P(s) = 1 − Π_j (1 − s^{r_j})
//! ```
//!
//! **The advisor** ([`LshParams::for_threshold`]) picks `b` minimising
//! `w_fp · ∫_0^t P(s) ds + w_fn · ∫_t^1 (1 − P(s)) ds` (the weighted
//! false-positive and false-negative probability mass, as datasketch does),
//! but always uses **all** `num_perm` values: the rows are spread over the
//! bands as evenly as possible (`num_perm mod b` bands get one more row): at
//! threshold 0.5 with 128 values it picks 25 bands, 3 of 6 rows and 22 of 5,
//! where a uniform `b × r` would leave values unused. Integrals are by composite Simpson's rule with 256 intervals each,
//! in `libm` arithmetic, so native and wasm32 pick the same bands.
//!
//! **Band hash** of band `j` with values `v_1 … v_r`:
//! `combine(j, [v_1, …, v_r])` of [`crate::hash::combine`] (values widened
//! to `u64`).
//!
//! **Memory** per document: its id, its signature (`4 · num_perm` bytes),
//! and per band one bucket entry of the band's hash table (a `u64` key and a
//! 16-byte bucket holding one slot inline, about 28 bytes with the table's
//! spare capacity): about `4·num_perm + 28·b + 80` bytes plus the id;
//! measured in `BENCHMARKS.md`. Band hashes are not stored: `remove`
//! recomputes them from the signature.

use crate::codec::{corrupt, Reader, Writer};
use crate::error::{Error, ErrorKind};
use crate::minhash::{Signature, MAX_PERM};
use crate::shingle::Shingling;
use crate::unionfind::cluster_ids;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

const MAGIC: &[u8; 4] = b"NDLS";
const FORMAT_VERSION: u16 = 1;
const SIMPSON_INTERVALS: usize = 256;

/// Banding parameters: the rows of each band.
#[derive(Clone, Debug, PartialEq)]
pub struct LshParams {
    num_perm: usize,
    threshold: f64,
    rows: Vec<u32>,
}

/// S-curve `P(s) = 1 − Π_j (1 − s^{r_j})` for band rows `rows`.
pub fn s_curve(rows: &[u32], s: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    1.0 - rows
        .iter()
        .map(|&r| 1.0 - libm::pow(s, r as f64))
        .product::<f64>()
}

fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    if b <= a {
        return 0.0;
    }
    let n = SIMPSON_INTERVALS;
    let h = (b - a) / n as f64;
    let mut sum = f(a) + f(b);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        sum += w * f(a + i as f64 * h);
    }
    sum * h / 3.0
}

/// Rows for `bands` bands using all `num_perm` values, as even as possible
/// (the first `num_perm mod bands` bands get one more).
fn spread_rows(num_perm: usize, bands: usize) -> Vec<u32> {
    let (q, extra) = (num_perm / bands, num_perm % bands);
    (0..bands)
        .map(|j| (q + usize::from(j < extra)) as u32)
        .collect()
}

impl LshParams {
    /// The advisor: bands for resemblance `threshold` in (0, 1) with
    /// `num_perm` values, minimising `w_fp · FP + w_fn · FN` (see the module
    /// docs; datasketch's defaults are `w_fp = w_fn = 0.5`).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for a threshold outside (0, 1),
    /// `num_perm` outside 1..=4096, or weights that are negative, not finite
    /// or both 0.
    pub fn for_threshold(
        threshold: f64,
        num_perm: usize,
        w_fp: f64,
        w_fn: f64,
    ) -> Result<Self, Error> {
        check_common(threshold, num_perm)?;
        if !(w_fp.is_finite()
            && w_fn.is_finite()
            && w_fp >= 0.0
            && w_fn >= 0.0
            && w_fp + w_fn > 0.0)
        {
            return Err(Error::invalid_option(format!(
                "weights must be finite, non-negative and not both 0, got {w_fp} and {w_fn}"
            )));
        }
        let mut best: Option<(f64, Vec<u32>)> = None;
        for bands in 1..=num_perm {
            let rows = spread_rows(num_perm, bands);
            let fp = simpson(|s| s_curve(&rows, s), 0.0, threshold);
            let fneg = simpson(|s| 1.0 - s_curve(&rows, s), threshold, 1.0);
            let err = w_fp * fp + w_fn * fneg;
            if best.as_ref().is_none_or(|(e, _)| err < *e) {
                best = Some((err, rows));
            }
        }
        let (_, rows) = best.expect("num_perm >= 1");
        Ok(LshParams {
            num_perm,
            threshold,
            rows,
        })
    }

    /// Explicit `bands` × `rows` (`bands · rows ≤ num_perm`; values beyond
    /// are unused), as in datasketch's `params=(b, r)`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] when a count is 0 or `bands · rows`
    /// exceeds `num_perm`, or the threshold is outside (0, 1).
    pub fn explicit(threshold: f64, num_perm: usize, bands: u32, rows: u32) -> Result<Self, Error> {
        check_common(threshold, num_perm)?;
        if bands == 0 || rows == 0 || bands as u64 * rows as u64 > num_perm as u64 {
            return Err(Error::invalid_option(format!(
                "bands and rows must be at least 1 with bands × rows ≤ numPerm ({num_perm}), got {bands} × {rows}"
            )));
        }
        Ok(LshParams {
            num_perm,
            threshold,
            rows: alloc::vec![rows; bands as usize],
        })
    }

    /// Number of bands `b`.
    pub fn bands(&self) -> usize {
        self.rows.len()
    }

    /// Rows of each band (length `b`).
    pub fn rows(&self) -> &[u32] {
        &self.rows
    }

    /// Signature length.
    pub fn num_perm(&self) -> usize {
        self.num_perm
    }

    /// The resemblance threshold.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// Signature values used, `Σ r_j` (≤ `num_perm`).
    pub fn values_used(&self) -> usize {
        self.rows.iter().map(|&r| r as usize).sum()
    }

    /// Probability that a pair of resemblance `s` becomes a candidate.
    pub fn probability(&self, s: f64) -> f64 {
        s_curve(&self.rows, s)
    }

    /// Expected recall for pairs whose resemblance is uniform on `[s, 1]`:
    /// `∫_s^1 P(x) dx / (1 − s)`; `P(1) = 1` when `s = 1`.
    pub fn expected_recall(&self, s: f64) -> f64 {
        let s = s.clamp(0.0, 1.0);
        if s >= 1.0 {
            return self.probability(1.0);
        }
        simpson(|x| self.probability(x), s, 1.0) / (1.0 - s)
    }

    /// False-positive mass `∫_0^t P(s) ds` and false-negative mass
    /// `∫_t^1 (1 − P(s)) ds` at the threshold.
    pub fn error_masses(&self) -> (f64, f64) {
        (
            simpson(|s| self.probability(s), 0.0, self.threshold),
            simpson(|s| 1.0 - self.probability(s), self.threshold, 1.0),
        )
    }
}

fn check_common(threshold: f64, num_perm: usize) -> Result<(), Error> {
    if !(threshold > 0.0 && threshold < 1.0) {
        return Err(Error::invalid_option(format!(
            "threshold must be in (0, 1), got {threshold}"
        )));
    }
    if !(1..=MAX_PERM).contains(&num_perm) {
        return Err(Error::invalid_option(format!(
            "numPerm must be in 1..={MAX_PERM}, got {num_perm}"
        )));
    }
    Ok(())
}

struct Entry {
    id: String,
    sig: Signature,
}

/// The slots of one bucket: one inline (the common case), else a vector.
#[derive(Clone, Debug)]
enum Bucket {
    One(u32),
    Many(Vec<u32>),
}

impl Bucket {
    fn as_slice(&self) -> &[u32] {
        match self {
            Bucket::One(s) => core::slice::from_ref(s),
            Bucket::Many(v) => v,
        }
    }

    fn push(&mut self, slot: u32) {
        match self {
            Bucket::One(s) => *self = Bucket::Many(alloc::vec![*s, slot]),
            Bucket::Many(v) => v.push(slot),
        }
    }

    /// Removes `slot`; `true` when the bucket is then empty.
    fn remove(&mut self, slot: u32) -> bool {
        match self {
            Bucket::One(s) => *s == slot,
            Bucket::Many(v) => {
                v.retain(|&x| x != slot);
                match v[..] {
                    [] => true,
                    [one] => {
                        *self = Bucket::One(one);
                        false
                    }
                    _ => false,
                }
            }
        }
    }
}

/// A MinHash LSH index over string ids (datasketch's `MinHashLSH`).
pub struct MinHashLsh {
    params: LshParams,
    /// Seed and shingling of the signatures it takes (from the first insert
    /// or a snapshot).
    kind: Option<(u64, Shingling)>,
    slots: Vec<Option<Entry>>,
    free: Vec<u32>,
    ids: Map<String, u32>,
    tables: Vec<Map<u64, Bucket>>,
}

/// A candidate pair from [`MinHashLsh::all_pairs`], ids in insertion order
/// of slots, with the estimated Jaccard resemblance.
#[derive(Clone, Debug, PartialEq)]
pub struct LshPair<'a> {
    /// One id.
    pub a: &'a str,
    /// The other id.
    pub b: &'a str,
    /// Estimated resemblance from the signatures.
    pub jaccard: f64,
}

impl MinHashLsh {
    /// An empty index with these parameters.
    pub fn new(params: LshParams) -> Self {
        Self::with_capacity(params, 0)
    }

    /// An empty index with room for `n` documents before it reallocates.
    pub fn with_capacity(params: LshParams, n: usize) -> Self {
        let b = params.bands();
        MinHashLsh {
            params,
            kind: None,
            slots: Vec::with_capacity(n),
            free: Vec::new(),
            ids: Map::with_capacity_and_hasher(n, Default::default()),
            tables: (0..b)
                .map(|_| Map::with_capacity_and_hasher(n, Default::default()))
                .collect(),
        }
    }

    /// Seed and shingling of the signatures the index holds (set by the
    /// first insert, or read from a snapshot); `None` while it has never held
    /// one.
    pub fn signature_kind(&self) -> Option<(u64, Shingling)> {
        self.kind
    }

    /// The banding parameters.
    pub fn params(&self) -> &LshParams {
        &self.params
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// `true` when empty.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// `true` when `id` is in the index.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains_key(id)
    }

    fn band_hashes(&self, sig: &Signature) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.params.bands());
        let mut at = 0usize;
        let mut buf: Vec<u64> = Vec::new();
        for (j, &r) in self.params.rows.iter().enumerate() {
            buf.clear();
            buf.extend(sig.values()[at..at + r as usize].iter().map(|&v| v as u64));
            out.push(crate::hash::combine(j as u64, &buf));
            at += r as usize;
        }
        out
    }

    fn check_sig(&self, sig: &Signature) -> Result<(), Error> {
        if sig.num_perm() != self.params.num_perm {
            return Err(Error::new(ErrorKind::Incompatible(format!(
                "signature has {} values, the index takes {}",
                sig.num_perm(),
                self.params.num_perm
            ))));
        }
        if let Some((seed, sh)) = self.kind {
            if sig.seed() != seed || sig.shingling() != sh {
                return Err(Error::new(ErrorKind::Incompatible(format!(
                    "signature (seed {}, {}) differs from the index's (seed {seed}, {sh})",
                    sig.seed(),
                    sig.shingling()
                ))));
            }
        }
        Ok(())
    }

    /// Adds document `id` with signature `sig`. Time `O(b)`.
    ///
    /// # Errors
    /// [`ErrorKind::DuplicateId`] when `id` is present;
    /// [`ErrorKind::Incompatible`] when the signature's length, seed or
    /// shingling differs from the index's.
    pub fn insert(&mut self, id: &str, sig: Signature) -> Result<(), Error> {
        self.check_sig(&sig)?;
        if self.ids.contains_key(id) {
            return Err(Error::new(ErrorKind::DuplicateId(id.into())));
        }
        if self.slots.len() >= u32::MAX as usize && self.free.is_empty() {
            return Err(Error::invalid_option(
                "the index is full (2^32 - 1 documents)",
            ));
        }
        self.kind = Some((sig.seed(), sig.shingling()));
        let bands = self.band_hashes(&sig);
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.slots.push(None);
                (self.slots.len() - 1) as u32
            }
        };
        for (table, &h) in self.tables.iter_mut().zip(&bands) {
            table
                .entry(h)
                .and_modify(|b| b.push(slot))
                .or_insert(Bucket::One(slot));
        }
        self.slots[slot as usize] = Some(Entry { id: id.into(), sig });
        self.ids.insert(id.into(), slot);
        Ok(())
    }

    /// Removes `id`; `false` when it was not present. Time `O(b)` times the
    /// size of its buckets.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(slot) = self.ids.remove(id) else {
            return false;
        };
        if let Some(entry) = self.slots[slot as usize].take() {
            let bands = self.band_hashes(&entry.sig);
            for (table, h) in self.tables.iter_mut().zip(&bands) {
                if table.get_mut(h).is_some_and(|b| b.remove(slot)) {
                    table.remove(h);
                }
            }
        }
        self.free.push(slot);
        true
    }

    /// The signature stored for `id`.
    pub fn signature(&self, id: &str) -> Option<&Signature> {
        let slot = *self.ids.get(id)?;
        self.slots[slot as usize].as_ref().map(|e| &e.sig)
    }

    /// Candidate ids for `sig`: documents sharing at least one band, sorted
    /// by id, each once. With `min_jaccard`, only those whose estimated
    /// resemblance is at least that (verification by the signatures).
    ///
    /// # Errors
    /// [`ErrorKind::Incompatible`] for a signature that does not fit.
    pub fn query(&self, sig: &Signature, min_jaccard: Option<f64>) -> Result<Vec<&str>, Error> {
        self.check_sig(sig)?;
        let mut slots: Vec<u32> = Vec::new();
        for (table, h) in self.tables.iter().zip(self.band_hashes(sig)) {
            if let Some(bucket) = table.get(&h) {
                slots.extend_from_slice(bucket.as_slice());
            }
        }
        slots.sort_unstable();
        slots.dedup();
        let mut out: Vec<&str> = Vec::new();
        for s in slots {
            let Some(e) = self.slots[s as usize].as_ref() else {
                continue;
            };
            if let Some(t) = min_jaccard {
                if e.sig.jaccard(sig)? < t {
                    continue;
                }
            }
            out.push(&e.id);
        }
        out.sort_unstable();
        Ok(out)
    }

    /// Every candidate pair (sharing at least one band) once, with its
    /// estimated resemblance, optionally only those with estimate
    /// `>= min_jaccard`. Sorted by the pair of ids.
    pub fn all_pairs(&self, min_jaccard: Option<f64>) -> Vec<LshPair<'_>> {
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for table in &self.tables {
            for bucket in table.values() {
                let bucket = bucket.as_slice();
                for (i, &x) in bucket.iter().enumerate() {
                    for &y in &bucket[i + 1..] {
                        pairs.push((x.min(y), x.max(y)));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut out: Vec<LshPair<'_>> = Vec::with_capacity(pairs.len());
        for (x, y) in pairs {
            let (Some(ex), Some(ey)) = (
                self.slots[x as usize].as_ref(),
                self.slots[y as usize].as_ref(),
            ) else {
                continue;
            };
            // Signatures in one index are compatible by construction.
            let j = ex.sig.jaccard(&ey.sig).unwrap_or(0.0);
            if min_jaccard.is_some_and(|t| j < t) {
                continue;
            }
            let (a, b) = if ex.id <= ey.id {
                (&ex.id, &ey.id)
            } else {
                (&ey.id, &ex.id)
            };
            out.push(LshPair { a, b, jaccard: j });
        }
        out.sort_by(|p, q| (p.a, p.b).cmp(&(q.a, q.b)));
        out
    }

    /// Clusters of near-duplicates: connected components (union–find) of
    /// [`MinHashLsh::all_pairs`] with the same filter; each cluster sorted,
    /// clusters by their first id; singletons left out.
    pub fn clusters(&self, min_jaccard: Option<f64>) -> Vec<Vec<&str>> {
        let pairs: Vec<(&str, &str)> = self
            .all_pairs(min_jaccard)
            .iter()
            .map(|p| (p.a, p.b))
            .collect();
        cluster_ids(&pairs)
    }

    /// The index as bytes (format 1): `"NDLS"`, `u16` format, `u16` spec
    /// version, `u32` num_perm, `f64` threshold, `u32` bands, bands × `u32`
    /// rows, `u64` seed, `u8` shingling kind, `u8` size, `u64` count, then per
    /// document `u32` id length, id (UTF-8), num_perm × `u32` values; `u32`
    /// CRC-32. Little-endian. Buckets are rebuilt on load.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new(MAGIC, FORMAT_VERSION);
        w.u32(self.params.num_perm as u32);
        w.f64(self.params.threshold);
        w.u32(self.params.rows.len() as u32);
        for &r in &self.params.rows {
            w.u32(r);
        }
        let (seed, sh) = self.kind.unwrap_or((0, Shingling::Custom));
        w.u64(seed);
        let (kind, n) = sh.code();
        w.u8(kind);
        w.u8(n);
        w.u64(self.ids.len() as u64);
        for e in self.slots.iter().flatten() {
            w.str(&e.id);
            for &v in e.sig.values() {
                w.u32(v);
            }
        }
        w.finish()
    }

    /// Reads [`MinHashLsh::to_bytes`] output.
    ///
    /// # Errors
    /// [`ErrorKind::Corrupt`] for wrong magic, a bad checksum, truncation,
    /// bad parameters, a duplicate id or trailing bytes;
    /// [`ErrorKind::Version`] for another format or spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "MinHash LSH snapshot";
        let mut r = Reader::open(bytes, MAGIC, FORMAT_VERSION, WHAT)?;
        let num_perm = r.u32()? as usize;
        let threshold = r.f64()?;
        let bands = r.u32()? as usize;
        check_common(threshold, num_perm).map_err(|e| corrupt(WHAT, format!("{e}")))?;
        if bands == 0 || bands > num_perm {
            return Err(corrupt(
                WHAT,
                format!("{bands} bands for numPerm {num_perm}"),
            ));
        }
        let rows = (0..bands)
            .map(|_| r.u32())
            .collect::<Result<Vec<u32>, _>>()?;
        if rows.contains(&0) || rows.iter().map(|&x| x as u64).sum::<u64>() > num_perm as u64 {
            return Err(corrupt(WHAT, "band rows do not fit numPerm".into()));
        }
        let seed = r.u64()?;
        let (kind, n) = (r.u8()?, r.u8()?);
        let shingling = Shingling::from_code(kind, n)
            .ok_or_else(|| corrupt(WHAT, format!("unknown shingling ({kind}, {n})")))?;
        let count = r.u64()?;
        // Each document takes at least 4 + 4·num_perm bytes: bound `count`
        // before allocating.
        if count > (r.remaining() / (4 + 4 * num_perm)) as u64 {
            return Err(corrupt(
                WHAT,
                format!("{count} documents cannot fit in the data"),
            ));
        }
        let params = LshParams {
            num_perm,
            threshold,
            rows,
        };
        let mut index = MinHashLsh::with_capacity(params, count as usize);
        for _ in 0..count {
            let id = r.str()?;
            let values = (0..num_perm)
                .map(|_| r.u32())
                .collect::<Result<Vec<u32>, _>>()?;
            let sig = Signature::from_parts(seed, shingling, values)
                .ok_or_else(|| corrupt(WHAT, "a signature is invalid".into()))?;
            index
                .insert(&id, sig)
                .map_err(|e| corrupt(WHAT, format!("{e}")))?;
        }
        r.end()?;
        if count == 0 {
            index.kind = Some((seed, shingling));
        }
        Ok(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::{MinHasher, SplitMix64};

    #[test]
    fn advisor_uses_all_values_and_matches_known_shapes() {
        let p = LshParams::for_threshold(0.5, 128, 0.5, 0.5).unwrap();
        assert_eq!(p.values_used(), 128);
        // The S-curve rises through the threshold.
        assert!(
            p.probability(0.3) < 0.35 && p.probability(0.7) > 0.9,
            "{:?}",
            p.rows()
        );
        let hi = LshParams::for_threshold(0.9, 128, 0.5, 0.5).unwrap();
        assert!(
            hi.rows()[0] > p.rows()[0],
            "higher threshold, more rows per band"
        );
        // Weighting false negatives up moves the curve left (more bands).
        let recall = LshParams::for_threshold(0.5, 128, 0.1, 0.9).unwrap();
        assert!(recall.bands() > p.bands());
        assert!(LshParams::for_threshold(1.0, 128, 0.5, 0.5).is_err());
        assert!(LshParams::for_threshold(0.5, 0, 0.5, 0.5).is_err());
        assert!(LshParams::explicit(0.5, 128, 20, 7).is_err());
        assert_eq!(
            LshParams::explicit(0.5, 128, 16, 8).unwrap().values_used(),
            128
        );
    }

    #[test]
    fn s_curve_by_hand() {
        // 2 bands of 2 rows at s = 0.5: 1 - (1 - 0.25)^2 = 0.4375
        assert!((s_curve(&[2, 2], 0.5) - 0.4375).abs() < 1e-15);
        assert_eq!(s_curve(&[3], 1.0), 1.0);
        assert_eq!(s_curve(&[3], 0.0), 0.0);
    }

    fn planted(h: &MinHasher, salt: u64, common: usize, extra: usize) -> (Signature, Signature) {
        let mut rng = SplitMix64::new(salt);
        let c: Vec<u64> = (0..common).map(|_| rng.next()).collect();
        let mut a = c.clone();
        let mut b = c;
        a.extend((0..extra).map(|_| rng.next()));
        b.extend((0..extra).map(|_| rng.next()));
        (h.signature(&a), h.signature(&b))
    }

    #[test]
    fn predicted_recall_is_reproduced_on_planted_pairs() {
        let h = MinHasher::new(128, 3, Shingling::Custom).unwrap();
        let params = LshParams::for_threshold(0.5, 128, 0.5, 0.5).unwrap();
        // Pairs at resemblance 0.6 (common 150, 50 + 50 extra) and 0.35.
        for (common, extra, s) in [(150usize, 50usize, 0.6f64), (70, 65, 0.35)] {
            let n = 300;
            let mut lsh = MinHashLsh::new(params.clone());
            for i in 0..n {
                let (a, b) = planted(&h, 100 + i as u64 * 7 + common as u64, common, extra);
                lsh.insert(&format!("a{i:04}"), a).unwrap();
                lsh.insert(&format!("b{i:04}"), b).unwrap();
            }
            let pairs = lsh.all_pairs(None);
            let found = pairs
                .iter()
                .filter(|p| p.a.starts_with('a') && p.b.starts_with('b') && p.a[1..] == p.b[1..])
                .count();
            let want = params.probability(s) * n as f64;
            let sd = libm::sqrt(want * (1.0 - params.probability(s)));
            assert!(
                (found as f64 - want).abs() <= 4.0 * sd + 1.0,
                "s {s}: found {found} of {n}, predicted {want:.1}"
            );
        }
    }

    #[test]
    fn insert_query_remove_pairs_clusters() {
        let h = MinHasher::new(64, 0, Shingling::Custom).unwrap();
        let mut lsh = MinHashLsh::new(LshParams::for_threshold(0.5, 64, 0.5, 0.5).unwrap());
        let (a, b) = planted(&h, 1, 190, 10);
        let (c, _) = planted(&h, 2, 0, 200);
        lsh.insert("a", a.clone()).unwrap();
        lsh.insert("b", b).unwrap();
        lsh.insert("c", c.clone()).unwrap();
        assert_eq!(lsh.len(), 3);
        assert!(matches!(
            lsh.insert("a", c.clone()).unwrap_err().kind(),
            ErrorKind::DuplicateId(_)
        ));
        assert_eq!(lsh.query(&a, None).unwrap(), ["a", "b"]);
        assert_eq!(lsh.all_pairs(Some(0.5)).len(), 1);
        assert_eq!(lsh.clusters(None), [alloc::vec!["a", "b"]]);
        assert!(lsh.remove("b"));
        assert!(!lsh.remove("b"));
        assert_eq!(lsh.query(&a, None).unwrap(), ["a"]);
        assert!(lsh.all_pairs(None).is_empty());
        // The freed slot is reused; the index still answers correctly.
        lsh.insert("d", a.clone()).unwrap();
        assert_eq!(lsh.query(&a, None).unwrap(), ["a", "d"]);
        let other = MinHasher::new(32, 0, Shingling::Custom)
            .unwrap()
            .signature(&[1]);
        assert!(lsh.insert("e", other).is_err());
    }

    #[test]
    fn snapshot_round_trip_and_corruption() {
        let h = MinHasher::new(32, 9, Shingling::Words(5)).unwrap();
        let mut lsh = MinHashLsh::new(LshParams::for_threshold(0.5, 32, 0.5, 0.5).unwrap());
        for (i, t) in [
            "one two three four five six",
            "one two three four five seven",
            "other words entirely here now",
        ]
        .iter()
        .enumerate()
        {
            lsh.insert(&format!("doc{i}"), h.signature_of_text(t))
                .unwrap();
        }
        lsh.remove("doc2");
        let bytes = lsh.to_bytes();
        let back = MinHashLsh::from_bytes(&bytes).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back.params(), lsh.params());
        assert_eq!(back.to_bytes(), bytes);
        let q = h.signature_of_text("one two three four five six");
        assert_eq!(back.query(&q, None).unwrap(), lsh.query(&q, None).unwrap());
        for i in (0..bytes.len()).step_by(3) {
            let mut b = bytes.clone();
            b[i] ^= 0x01;
            assert!(MinHashLsh::from_bytes(&b).is_err(), "flip at {i}");
            assert!(
                MinHashLsh::from_bytes(&bytes[..i]).is_err(),
                "truncated at {i}"
            );
        }
    }
}
