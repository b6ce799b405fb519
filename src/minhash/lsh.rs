//! The MinHash LSH index (banding; Indyk and Motwani 1998; *Mining of
//! Massive Datasets* ch. 3.4), with removal and snapshots: datasketch's
//! `MinHashLSH(threshold, num_perm)` with insert, query and remove, keeping
//! the contract of [`crate::index`].
//!
//! **Band hash** of band `j` with values `v_1 … v_r`:
//! `combine(j, [v_1, …, v_r])` of [`crate::hash::combine`] (values widened
//! to `u64`). The banding is [`super::LshParams`].
//!
//! **Buckets** are the bucket store every index shares
//! (`index/buckets.rs`, its tables layout): one table per band
//! holding a 4-byte slot per bucket, found by the bucket's band hash, the
//! bucket's slots chained through one array of `b` `u32` links per slot.
//! Band hashes are **not stored**: a probe that meets an entry with the
//! same 7 bits of hash confirms it by recomputing band `j`'s hash from the
//! signature in that slot — the lookup stays exact, never a candidate by a
//! hash collision of stored bits. A table that grows recomputes its
//! entries' hashes the same way, reading the signatures in slot order. A
//! bucket with one document (the common case) costs one table entry and one
//! link, with no allocation of its own.
//!
//! **Memory** per document: its id (once, in its slot; the id table's
//! lookup holds a 4-byte slot), its signature (`4 · num_perm` bytes, plus
//! `num_perm / 8` for the one-permutation scheme's mask), and per band one
//! table entry (5 bytes, 5–10 with the table's spare capacity) and a 4-byte
//! link: about `4·num_perm + 12·b + 100` bytes plus the id; measured in
//! `BENCHMARKS.md`. Empty signatures (documents without shingles) are kept
//! out of the buckets.

use super::bands::{band_key, LshConfig, LshParams};
use super::signature::{MinHashScheme, Signature, SignatureKind};
use crate::error::Error;
use crate::index::buckets::Buckets;
use crate::index::ids::IdTable;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::index::{sort_hits, sort_pairs, Hit, NearDupIndex, Pair, Score};
use crate::shingle::Shingling;
use alloc::format;
use alloc::vec::Vec;

const MAGIC: &[u8; 4] = b"NDLS";
/// The snapshot formats follow the signature's: 1 for classic signatures
/// (unchanged since the first release), 2 with the scheme byte.
use super::signature::{FORMAT_CLASSIC, FORMAT_SCHEMES};

/// What an index that never held a signature records.
const NEVER: SignatureKind = SignatureKind {
    spec: crate::hash::Spec::V1,
    seed: 0,
    shingling: Shingling::Custom,
    scheme: MinHashScheme::Classic,
};

/// A MinHash LSH index over string ids (datasketch's `MinHashLSH`).
#[derive(Clone, Debug)]
pub struct MinHashLsh {
    params: LshParams,
    /// Seed, shingling and scheme of the signatures it takes (from the
    /// first insert, [`MinHashLsh::set_signature_kind`] or a snapshot).
    kind: Option<SignatureKind>,
    ids: IdTable<Signature>,
    /// Per band, its buckets of slots (keys recomputed from the slots'
    /// signatures, never stored).
    buckets: Buckets,
    /// Per band: the range of signature values that are its rows.
    spans: Vec<(usize, usize)>,
}

impl MinHashLsh {
    /// An empty index with the banding of `config`.
    ///
    /// # Errors
    /// As [`LshConfig::check`].
    pub fn new(config: &LshConfig) -> Result<Self, Error> {
        Ok(Self::with_params(config.params()?, 0))
    }

    /// An empty index with these parameters and room for `n` documents.
    pub fn with_params(params: LshParams, n: usize) -> Self {
        let b = params.bands();
        let spans = params.spans();
        MinHashLsh {
            params,
            kind: None,
            ids: IdTable::with_capacity(n, true),
            buckets: Buckets::tables_for(b, n),
            spans,
        }
    }

    /// Seed, shingling and scheme of the signatures the index holds (set
    /// by the first insert, [`MinHashLsh::set_signature_kind`], or read from
    /// a snapshot); `None` while it has never held one.
    pub fn signature_kind(&self) -> Option<SignatureKind> {
        self.kind
    }

    /// Fixes the seed, shingling and scheme of the signatures the index
    /// takes (as the first insert would), so that an empty index records
    /// them too.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] when the index holds signatures of
    /// another kind.
    pub fn set_signature_kind(&mut self, kind: SignatureKind) -> Result<(), Error> {
        match self.kind {
            Some(k) if k != kind => Err(Error::incompatible(
                "signature",
                format!("{k}"),
                format!("{kind}"),
            )),
            _ => {
                self.kind = Some(kind);
                Ok(())
            }
        }
    }

    /// The banding parameters.
    pub fn params(&self) -> &LshParams {
        &self.params
    }

    fn band_hashes(&self, sig: &Signature) -> Vec<u64> {
        self.params.band_keys(sig.values())
    }

    /// The bucket keys of `sig`, one per band (`bands` values, band `j`'s
    /// key is `combine(j, rows of band j)`, SPEC.md §9): two signatures are
    /// LSH candidates exactly when they share a key. A store outside this
    /// index (e.g. the edge Worker's SQLite shards) keeps `key → ids` and
    /// finds the same candidates. The keys are stable across versions and
    /// platforms (golden vectors); an empty signature has no keys.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] for a signature that does not fit
    /// (other `num_perm`, or another seed or shingling than the index holds).
    pub fn band_keys(&self, sig: &Signature) -> Result<Vec<u64>, Error> {
        self.check_sig(sig)?;
        if sig.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self.band_hashes(sig))
    }

    fn check_sig(&self, sig: &Signature) -> Result<(), Error> {
        let kind = self.kind.unwrap_or(sig.kind());
        if sig.num_perm() != self.params.num_perm() || sig.kind() != kind {
            return Err(Error::incompatible(
                "signature",
                format!("num_perm {}, {kind}", self.params.num_perm()),
                sig.describe(),
            ));
        }
        Ok(())
    }

    /// Every document, `(id, signature)`, in the order of their slots (the
    /// order added, when nothing was removed).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Signature)> + '_ {
        self.ids.iter().map(|(_, id, sig)| (id, sig))
    }

    /// The signature stored for `id`.
    pub fn signature(&self, id: &str) -> Option<&Signature> {
        self.ids.value_of(id)
    }

    /// Candidate slots for `sig`: documents sharing at least one band.
    fn candidates(&self, sig: &Signature) -> Vec<u32> {
        if sig.is_empty() {
            return Vec::new();
        }
        let mut slots: Vec<u32> = Vec::new();
        let key = slot_keys(&self.ids, &self.spans);
        self.buckets.candidates(
            &self.band_hashes(sig),
            0,
            u32::MAX,
            usize::MAX,
            key,
            |_| true,
            64,
            &mut slots,
        );
        slots.sort_unstable();
        slots.dedup();
        slots
    }

    /// The documents sharing at least one band with `sig`, with their
    /// estimated resemblance, kept when it reaches `min_jaccard` (`None`:
    /// every candidate), best first then by id. Time `O(b)` plus the
    /// candidates.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Incompatible`] for a signature that does not fit.
    pub fn query_with(
        &self,
        sig: &Signature,
        min_jaccard: Option<f64>,
    ) -> Result<Vec<Hit<'_>>, Error> {
        self.check_sig(sig)?;
        let mut out: Vec<Hit<'_>> = Vec::new();
        for s in self.candidates(sig) {
            let Some((id, other)) = self.ids.get(s) else {
                continue;
            };
            let j = other.jaccard(sig)?;
            if min_jaccard.is_some_and(|t| j < t) {
                continue;
            }
            out.push(Hit {
                id,
                score: Score::Jaccard(j),
            });
        }
        sort_hits(&mut out);
        Ok(out)
    }

    /// Every candidate pair (sharing at least one band) once, with its
    /// estimated resemblance, kept when it reaches `min_jaccard` (`None`:
    /// every candidate pair). Sorted by `(a, b)`.
    pub fn all_pairs_with(&self, min_jaccard: Option<f64>) -> Vec<Pair<'_>> {
        // Candidates are filtered as they are met, bucket by bucket, so that
        // memory follows the pairs kept, not the candidates (a pair sharing
        // several bands is estimated once per band).
        let mut pairs: Vec<(u32, u32, f64)> = Vec::new();
        for j in 0..self.params.bands() {
            self.buckets.for_each_shared(j, |bucket| {
                for (i, &x) in bucket.iter().enumerate() {
                    let Some((_, sx)) = self.ids.get(x) else {
                        continue;
                    };
                    for &y in &bucket[i + 1..] {
                        let Some((_, sy)) = self.ids.get(y) else {
                            continue;
                        };
                        // Signatures in one index are compatible by construction.
                        let j = sx.jaccard(sy).unwrap_or(0.0);
                        if min_jaccard.is_none_or(|t| j >= t) {
                            pairs.push((x.min(y), x.max(y), j));
                        }
                    }
                }
            });
        }
        pairs.sort_unstable_by_key(|&(x, y, _)| (x, y));
        pairs.dedup_by_key(|p| (p.0, p.1));
        let mut out: Vec<Pair<'_>> = Vec::with_capacity(pairs.len());
        for (x, y, j) in pairs {
            let (Some((ix, _)), Some((iy, _))) = (self.ids.get(x), self.ids.get(y)) else {
                continue;
            };
            let (a, b) = if ix <= iy { (ix, iy) } else { (iy, ix) };
            out.push(Pair {
                a,
                b,
                score: Score::Jaccard(j),
            });
        }
        sort_pairs(&mut out);
        out
    }

    /// Adds `id` with `sig` to its buckets.
    fn link(&mut self, id: &str, sig: Signature) -> Result<(), Error> {
        self.check_sig(&sig)?;
        let bands = (!sig.is_empty()).then(|| self.band_hashes(&sig));
        let kind = sig.kind();
        let slot = self.ids.insert(id, sig)?;
        self.kind = Some(kind);
        if let Some(bands) = bands {
            let key = slot_keys(&self.ids, &self.spans);
            self.buckets.add(slot, &bands, key, 0);
        }
        Ok(())
    }

    /// The index as bytes. An index of classic signatures is written in
    /// format 1: `"NDLS"`, `u16` format, `u16` spec version, `u32` num_perm,
    /// `f64` threshold, `u32` bands, bands × `u32` rows, `u64` seed, `u8`
    /// shingling kind, `u8` size, `u64` count, then per document `u32` id
    /// length, id (UTF-8), num_perm × `u32` values; `u32` CRC-32.
    /// Little-endian. Any other scheme is written in format 2: the same with
    /// a `u8` scheme (0 classic, 1 one-permutation) after the shingling size,
    /// and each signature's bins before densification
    /// ([`Signature::bins`]) as its values. Buckets are rebuilt on load.
    pub fn to_bytes(&self) -> Vec<u8> {
        let kind = self.kind.unwrap_or(NEVER);
        let mut w = Writer::with_spec(MAGIC, kind.format(), kind.spec);
        w.u32(self.params.num_perm() as u32);
        w.f64(self.params.threshold());
        w.u32(self.params.bands() as u32);
        for &r in self.params.rows() {
            w.u32(r);
        }
        kind.write(&mut w);
        w.u64(self.ids.len() as u64);
        for (_, id, sig) in self.ids.iter() {
            w.str(id);
            for v in sig.bins() {
                w.u32(v);
            }
        }
        w.finish()
    }

    /// Reads [`MinHashLsh::to_bytes`] output (formats 1 and 2).
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] for wrong magic, a bad checksum,
    /// truncation, bad parameters, an unknown scheme, a duplicate id or
    /// trailing bytes; [`crate::ErrorKind::Version`] for another format or
    /// spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        const WHAT: &str = "MinHash LSH snapshot";
        let (mut r, format) = Reader::open_specs(
            bytes,
            MAGIC,
            FORMAT_CLASSIC..=FORMAT_SCHEMES,
            WHAT,
            crate::hash::Spec::V2,
        )?;
        let num_perm = r.u32()? as usize;
        let threshold = r.f64()?;
        let bands = r.u32()? as usize;
        if bands == 0 || bands > num_perm || bands > r.remaining() / 4 {
            return Err(corrupt(
                WHAT,
                format!("{bands} bands for numPerm {num_perm}"),
            ));
        }
        let rows = (0..bands)
            .map(|_| r.u32())
            .collect::<Result<Vec<u32>, _>>()?;
        let params = LshParams::from_rows(num_perm, threshold, rows).ok_or_else(|| {
            corrupt(
                WHAT,
                "the threshold, numPerm or band rows are out of range".into(),
            )
        })?;
        let kind = SignatureKind::read(&mut r, format, WHAT)?;
        let count = r.count(4 + 4 * num_perm)?;
        let mut index = MinHashLsh::with_params(params, count);
        index.kind = (count > 0 || kind != NEVER).then_some(kind);
        for _ in 0..count {
            let id = r.str()?;
            let values = (0..num_perm)
                .map(|_| r.u32())
                .collect::<Result<Vec<u32>, _>>()?;
            let sig = Signature::from_parts(kind, values)
                .ok_or_else(|| corrupt(WHAT, "a signature is invalid".into()))?;
            index
                .insert(&id, sig)
                .map_err(|e| corrupt(WHAT, format!("{e}")))?;
        }
        r.end()?;
        Ok(index)
    }
}

/// Band `j`'s hash of the signature in live slot `s`, its rows the values
/// in `spans[j]` (every slot in a band's table is live; a dead one gives 0):
/// the keys the bucket store recomputes.
fn slot_keys<'a>(
    ids: &'a IdTable<Signature>,
    spans: &'a [(usize, usize)],
) -> impl Fn(u32, usize) -> u64 + 'a {
    move |s, j| {
        ids.get(s).map_or(0, |(_, sig)| {
            band_key(j, &sig.values()[spans[j].0..spans[j].1])
        })
    }
}

impl NearDupIndex for MinHashLsh {
    type Sketch = Signature;

    /// Adds `id` with `sig`. Time `O(b)`.
    fn insert(&mut self, id: &str, sig: Signature) -> Result<(), Error> {
        self.link(id, sig)
    }

    /// Removes `id`. Time `O(b)` times the size of its buckets.
    fn remove(&mut self, id: &str) -> bool {
        let Some(slot) = self.ids.slot_of(id) else {
            return false;
        };
        // Unlinked while its signature is still in its slot: the tables
        // confirm a bucket by the signature of the slot they hold.
        let keys = match self.ids.get(slot) {
            Some((_, sig)) if !sig.is_empty() => self.band_hashes(sig),
            _ => Vec::new(),
        };
        let key = slot_keys(&self.ids, &self.spans);
        self.buckets.remove(slot, &keys, 0, usize::MAX, key);
        self.ids.remove(id);
        true
    }

    fn contains(&self, id: &str) -> bool {
        self.ids.slot_of(id).is_some()
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// Candidates whose estimated resemblance reaches the threshold.
    fn query(&self, sig: &Signature) -> Result<Vec<Hit<'_>>, Error> {
        self.query_with(sig, Some(self.params.threshold()))
    }

    /// Candidate pairs whose estimated resemblance reaches the threshold.
    fn all_pairs(&self) -> Vec<Pair<'_>> {
        self.all_pairs_with(Some(self.params.threshold()))
    }

    fn to_bytes(&self) -> Vec<u8> {
        MinHashLsh::to_bytes(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::SplitMix64;
    use crate::minhash::{MinHashConfig, MinHasher};
    use alloc::string::String;

    fn planted(h: &MinHasher, salt: u64, common: usize, extra: usize) -> (Signature, Signature) {
        let mut rng = SplitMix64::new(salt);
        let c: Vec<u64> = (0..common).map(|_| rng.next()).collect();
        let mut a = c.clone();
        let mut b = c;
        a.extend((0..extra).map(|_| rng.next()));
        b.extend((0..extra).map(|_| rng.next()));
        (h.signature(&a), h.signature(&b))
    }

    /// A hasher of 16 values over given shingles and an empty index of 16
    /// values at threshold 0.3, for the bucket tests.
    fn small_index() -> (MinHasher, MinHashLsh) {
        let h = MinHasher::new(
            &MinHashConfig::default()
                .num_perm(16)
                .shingle(Shingling::Custom),
        )
        .unwrap();
        let lsh = MinHashLsh::new(&LshConfig::default().num_perm(16).threshold(0.3)).unwrap();
        (h, lsh)
    }

    /// Random inserts and removals (slots reused, buckets of several
    /// documents unlinked at their head, middle and tail) leave exactly the
    /// candidates a brute-force check of shared band keys gives.
    #[test]
    fn buckets_stay_exact_under_inserts_and_removals() {
        let (h, mut lsh) = small_index();
        let mut rng = SplitMix64::new(17);
        // 60 documents in 12 families of near copies: buckets of several.
        let sigs: Vec<Signature> = (0..60u64)
            .map(|i| {
                let family = i % 12;
                let mut set: Vec<u64> = (0..30).map(|x| family * 1000 + x).collect();
                set.extend((0..(rng.next() % 4)).map(|_| rng.next()));
                h.signature(&set)
            })
            .collect();
        let keys: Vec<Vec<u64>> = sigs.iter().map(|s| lsh.band_keys(s).unwrap()).collect();
        let mut live: Vec<bool> = alloc::vec![false; sigs.len()];
        for step in 0..3_000 {
            let i = (rng.next() % sigs.len() as u64) as usize;
            let id = alloc::format!("d{i}");
            if live[i] {
                assert!(lsh.remove(&id));
            } else {
                lsh.insert(&id, sigs[i].clone()).unwrap();
            }
            live[i] = !live[i];
            if step % 97 != 0 {
                continue;
            }
            let shares = |a: usize, b: usize| keys[a].iter().zip(&keys[b]).any(|(x, y)| x == y);
            let mut want: Vec<(String, String)> = Vec::new();
            for a in 0..sigs.len() {
                for b in a + 1..sigs.len() {
                    if live[a] && live[b] && shares(a, b) {
                        let (x, y) = (alloc::format!("d{a}"), alloc::format!("d{b}"));
                        want.push(if x <= y { (x, y) } else { (y, x) });
                    }
                }
            }
            want.sort();
            let got: Vec<(String, String)> = lsh
                .all_pairs_with(None)
                .into_iter()
                .map(|p| (p.a.into(), p.b.into()))
                .collect();
            assert_eq!(got, want, "step {step}");
            for q in 0..sigs.len() {
                let mut want: Vec<String> = (0..sigs.len())
                    .filter(|&b| live[b] && shares(q, b))
                    .map(|b| alloc::format!("d{b}"))
                    .collect();
                want.sort();
                let mut got: Vec<String> = lsh
                    .query_with(&sigs[q], None)
                    .unwrap()
                    .into_iter()
                    .map(|hit| hit.id.into())
                    .collect();
                got.sort();
                assert_eq!(got, want, "step {step} query {q}");
            }
        }
        assert!(lsh.len() > 0);
    }

    /// The same through the tables' growth: 3,000 documents in families of
    /// 1, 2, 3 and 1,000 near copies, inserted (several rebuilds), a quarter
    /// removed (dead entries), half of those inserted again (reused
    /// slots); the candidate pairs are those sharing a band key, by brute
    /// force over the keys.
    #[test]
    fn buckets_stay_exact_as_the_tables_grow() {
        let (h, mut lsh) = small_index();
        let mut rng = SplitMix64::new(29);
        // The 1,000 copies interleaved with the others, so that each
        // growth meets some of them.
        let family = |i: u64| match i {
            _ if i.is_multiple_of(3) => 0,
            1 | 4 => 1,
            2 | 5 | 8 => 2,
            _ => i, // alone
        };
        let sigs: Vec<Signature> = (0..3000u64)
            .map(|i| {
                let f = family(i);
                let mut set: Vec<u64> = (0..30).map(|x| f * 1000 + x).collect();
                set.extend((0..(rng.next() % 6)).map(|_| rng.next()));
                h.signature(&set)
            })
            .collect();
        let keys: Vec<Vec<u64>> = sigs.iter().map(|s| lsh.band_keys(s).unwrap()).collect();
        let id = |i: usize| alloc::format!("d{i:04}");
        let mut live = alloc::vec![true; sigs.len()];
        for (i, sig) in sigs.iter().enumerate() {
            lsh.insert(&id(i), sig.clone()).unwrap();
        }
        for i in (0..sigs.len()).step_by(4) {
            assert!(lsh.remove(&id(i)));
            live[i] = false;
        }
        for i in (0..sigs.len()).step_by(8) {
            lsh.insert(&id(i), sigs[i].clone()).unwrap();
            live[i] = true;
        }
        let mut want: Vec<(String, String)> = Vec::new();
        for a in 0..sigs.len() {
            for b in a + 1..sigs.len() {
                if live[a] && live[b] && keys[a].iter().zip(&keys[b]).any(|(x, y)| x == y) {
                    want.push((id(a), id(b)));
                }
            }
        }
        assert!(want.len() > 100_000, "the family of 1,000 gives most pairs");
        let got: Vec<(String, String)> = lsh
            .all_pairs_with(None)
            .into_iter()
            .map(|p| (p.a.into(), p.b.into()))
            .collect();
        assert_eq!(got.len(), want.len());
        assert!(got == want);
        assert_eq!(lsh.len(), live.iter().filter(|&&l| l).count());
        // Every live document is its own candidate, the dead ones nobody's.
        for (i, sig) in sigs.iter().enumerate().step_by(7) {
            let hits = lsh.query_with(sig, None).unwrap();
            assert_eq!(hits.iter().any(|hit| hit.id == id(i)), live[i], "d{i}");
        }
    }

    /// Sharing a band key is exactly being a candidate (what the edge
    /// Worker's SQLite buckets rely on).
    #[test]
    fn band_keys_are_shared_exactly_by_candidates() {
        let h =
            MinHasher::new(&MinHashConfig::default().seed(5).shingle(Shingling::Custom)).unwrap();
        let mut lsh = MinHashLsh::new(&LshConfig::default()).unwrap();
        let mut sigs = Vec::new();
        for i in 0..120u64 {
            let (a, b) = planted(&h, 1000 + i, 40 + (i as usize % 60), 30);
            sigs.push((format!("a{i}"), a));
            sigs.push((format!("b{i}"), b));
        }
        for (id, sig) in &sigs {
            lsh.insert(id, sig.clone()).unwrap();
        }
        let keys: Vec<Vec<u64>> = sigs
            .iter()
            .map(|(_, s)| lsh.band_keys(s).unwrap())
            .collect();
        assert!(keys.iter().all(|k| k.len() == lsh.params().bands()));
        let mut shared_pairs = 0;
        for (i, (_, sig)) in sigs.iter().enumerate() {
            let mut want: Vec<&str> = lsh
                .query_with(sig, None)
                .unwrap()
                .iter()
                .map(|h| h.id)
                .filter(|id| *id != sigs[i].0)
                .collect();
            want.sort_unstable();
            let mut have: Vec<&str> = (0..sigs.len())
                .filter(|&j| j != i && keys[j].iter().any(|k| keys[i].contains(k)))
                .map(|j| sigs[j].0.as_str())
                .collect();
            have.sort_unstable();
            shared_pairs += have.len();
            assert_eq!(have, want);
        }
        assert!(shared_pairs >= 100, "only {shared_pairs} candidates");
        let empty = h.signature(&[]);
        assert!(lsh.band_keys(&empty).unwrap().is_empty());
        let other = MinHasher::new(&MinHashConfig::default().num_perm(64)).unwrap();
        assert!(lsh.band_keys(&other.signature(&[1, 2, 3])).is_err());
    }

    #[test]
    fn predicted_recall_is_reproduced_on_planted_pairs() {
        let h =
            MinHasher::new(&MinHashConfig::default().seed(3).shingle(Shingling::Custom)).unwrap();
        let params = LshConfig::default().params().unwrap();
        // Pairs at resemblance 0.6 (common 150, 50 + 50 extra) and 0.35.
        for (common, extra, s) in [(150usize, 50usize, 0.6f64), (70, 65, 0.35)] {
            let n = 300;
            let mut lsh = MinHashLsh::with_params(params.clone(), 0);
            for i in 0..n {
                let (a, b) = planted(&h, 100 + i as u64 * 7 + common as u64, common, extra);
                lsh.insert(&format!("a{i:04}"), a).unwrap();
                lsh.insert(&format!("b{i:04}"), b).unwrap();
            }
            let pairs = lsh.all_pairs_with(None);
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
        let h = MinHasher::new(
            &MinHashConfig::default()
                .num_perm(64)
                .shingle(Shingling::Custom),
        )
        .unwrap();
        let mut lsh = MinHashLsh::new(&LshConfig::default().num_perm(64)).unwrap();
        let (a, b) = planted(&h, 1, 190, 10);
        let (c, _) = planted(&h, 2, 0, 200);
        lsh.insert("a", a.clone()).unwrap();
        lsh.insert("b", b).unwrap();
        lsh.insert("c", c.clone()).unwrap();
        assert_eq!(lsh.len(), 3);
        assert!(matches!(
            lsh.insert("a", c.clone()).unwrap_err().kind(),
            crate::ErrorKind::DuplicateId { .. }
        ));
        let ids = |hits: Vec<Hit<'_>>| hits.iter().map(|h| String::from(h.id)).collect::<Vec<_>>();
        // Best first: a itself (1.0), then b.
        assert_eq!(ids(lsh.query_with(&a, None).unwrap()), ["a", "b"]);
        assert_eq!(ids(lsh.query(&a).unwrap()), ["a", "b"]);
        assert_eq!(lsh.all_pairs().len(), 1);
        assert_eq!(lsh.clusters(), [alloc::vec!["a", "b"]]);
        assert!(lsh.remove("b"));
        assert!(!lsh.remove("b"));
        assert_eq!(ids(lsh.query_with(&a, None).unwrap()), ["a"]);
        assert!(lsh.all_pairs_with(None).is_empty());
        // The freed slot is reused; the index still answers correctly.
        lsh.insert("d", a.clone()).unwrap();
        assert_eq!(ids(lsh.query_with(&a, None).unwrap()), ["a", "d"]);
        // Empty signatures are stored but never match, not even each other.
        lsh.insert("e1", h.empty()).unwrap();
        lsh.insert("e2", h.empty()).unwrap();
        assert!(lsh.contains("e1") && lsh.len() == 5);
        assert!(lsh.query_with(&h.empty(), None).unwrap().is_empty());
        assert!(lsh
            .all_pairs_with(None)
            .iter()
            .all(|p| !p.a.starts_with('e')));
        assert!(lsh.remove("e1"));
        let other = MinHasher::new(
            &MinHashConfig::default()
                .num_perm(32)
                .shingle(Shingling::Custom),
        )
        .unwrap()
        .signature(&[1]);
        assert!(lsh.insert("f", other).is_err());
    }

    #[test]
    fn snapshot_round_trip_and_corruption() {
        let h = MinHasher::new(&MinHashConfig::default().num_perm(32).seed(9)).unwrap();
        let mut lsh = MinHashLsh::new(&LshConfig::default().num_perm(32)).unwrap();
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
        assert_eq!(back.query(&q).unwrap(), lsh.query(&q).unwrap());
        for i in (0..bytes.len()).step_by(3) {
            let mut b = bytes.clone();
            b[i] ^= 0x01;
            crate::testing::assert_damaged(MinHashLsh::from_bytes(&b), format_args!("flip at {i}"));
            crate::testing::assert_damaged(
                MinHashLsh::from_bytes(&bytes[..i]),
                format_args!("truncated at {i}"),
            );
        }
    }
}
