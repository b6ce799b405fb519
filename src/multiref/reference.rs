//! The reference text of multireference cosine signatures (Mohammadi &
//! Khasteh 2020): `R` character 3-grams cut into `P` partitions, and the
//! signature of a document — its `P` cosines with the partitions.
//!
//! **3-grams** are those of SPEC.md §3 with `q = 3`: consecutive Unicode
//! scalar values of the normalised text (tokens joined by single spaces),
//! each hashed with `bytes_hash(0, utf8)`. A document's vector `d` counts
//! each 3-gram's occurrences; partition `p`'s vector `r_p` counts each
//! 3-gram's occurrences in the partition (the reference may repeat a 3-gram).
//!
//! **Signature** `s_p = d · r_p / (‖d‖ ‖r_p‖)` for `p = 0 … P−1`, each in
//! [0, 1], computed from exact integer sums, one `f64` division, stored as `f32`
//! (0 for an empty document or partition). Cost: one hash look-up per
//! reference 3-gram after the document's 3-grams are counted — `O(n + R)`
//! for a text of `n` characters; comparing two signatures is `O(P)`.
//!
//! **Partitions** are consecutive runs of the reference, sizes as equal as
//! possible (the first `R mod P` one longer).

use crate::document::Document;
use crate::error::{check_range, Error};
use crate::hash;
use crate::shingle::Shingling;
use alloc::string::String;
use alloc::vec::Vec;
/// Largest reference, in 3-grams.
pub const MAX_GRAMS: usize = 1 << 16;
/// Largest number of partitions.
pub const MAX_PARTITIONS: usize = 4096;

/// The shingling of multireference vectors: character 3-grams.
pub const GRAMS: Shingling = Shingling::Chars(3);

/// A reference: `R` 3-grams (their text and hash) in `P` partitions.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    grams: Vec<String>,
    hashes: Vec<u64>,
    /// Start of each partition in `grams`, and `R` at the end.
    bounds: Vec<u32>,
    /// `‖r_p‖` of each partition.
    norms: Vec<f64>,
    /// Per partition, `(3-gram hash, count)` in first-appearance order.
    counts: Vec<Vec<(u64, u32)>>,
    /// The mean signature of the training corpus, for centring before
    /// random projection (empty: none).
    mean: Vec<f32>,
}

/// The hash of a 3-gram's text, as in SPEC.md §3 (seed 0).
pub fn gram_hash(gram: &str) -> u64 {
    hash::bytes_hash(0, gram.as_bytes())
}

impl Reference {
    /// A reference of `grams` (each 1..=3 Unicode scalar values of
    /// normalised text; usually exactly 3) cut into `partitions` partitions.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when there are no grams or more
    /// than [`MAX_GRAMS`], `partitions` is outside `1..=min(R, 4096)`, a
    /// gram is empty or longer than 3 characters, or the reference is
    /// degenerate: fewer distinct 3-grams than partitions (1,000 copies of
    /// one 3-gram would give every text of the other 3-grams a zero
    /// signature).
    pub fn new(grams: Vec<String>, partitions: usize) -> Result<Self, Error> {
        check_range("grams", grams.len(), 1..=MAX_GRAMS)?;
        check_range(
            "partitions",
            partitions,
            1..=grams.len().min(MAX_PARTITIONS),
        )?;
        if let Some(g) = grams.iter().find(|g| !(1..=3).contains(&g.chars().count())) {
            return Err(Error::option(
                "grams",
                alloc::format!("a 3-gram must have 1 to 3 characters, got {g:?}"),
            ));
        }
        let hashes: Vec<u64> = grams.iter().map(|g| gram_hash(g)).collect();
        let mut distinct = hashes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() < partitions {
            return Err(Error::option(
                "grams",
                alloc::format!(
                    "a degenerate reference: {} distinct 3-grams for {partitions} partitions (at least one a partition is needed)",
                    distinct.len()
                ),
            ));
        }
        let r = grams.len();
        let (q, extra) = (r / partitions, r % partitions);
        let mut bounds = Vec::with_capacity(partitions + 1);
        let mut at = 0usize;
        for p in 0..partitions {
            bounds.push(at as u32);
            at += q + usize::from(p < extra);
        }
        bounds.push(r as u32);
        let mut counts = Vec::with_capacity(partitions);
        let mut norms = Vec::with_capacity(partitions);
        for p in 0..partitions {
            let mut c: Vec<(u64, u32)> = Vec::new();
            for &h in &hashes[bounds[p] as usize..bounds[p + 1] as usize] {
                match c.iter_mut().find(|(x, _)| *x == h) {
                    Some((_, n)) => *n += 1,
                    None => c.push((h, 1)),
                }
            }
            let n2: u64 = c.iter().map(|&(_, n)| n as u64 * n as u64).sum();
            norms.push(libm::sqrt(n2 as f64));
            counts.push(c);
        }
        Ok(Reference {
            grams,
            hashes,
            bounds,
            norms,
            counts,
            mean: Vec::new(),
        })
    }

    /// Sets the mean signature used to centre signatures before random
    /// projection ([`super::Projector`]).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] when its length is not `P` or a
    /// value is not finite.
    pub fn with_mean(mut self, mean: Vec<f32>) -> Result<Self, Error> {
        if !(mean.is_empty() || mean.len() == self.partitions())
            || mean.iter().any(|x| !x.is_finite())
        {
            return Err(Error::option(
                "mean",
                alloc::format!(
                    "must have {} finite values, got {}",
                    self.partitions(),
                    mean.len()
                ),
            ));
        }
        self.mean = mean;
        Ok(self)
    }

    /// The 3-grams, `R` of them.
    pub fn grams(&self) -> &[String] {
        &self.grams
    }

    /// Number of partitions `P` (the signature's length).
    pub fn partitions(&self) -> usize {
        self.bounds.len() - 1
    }

    /// The mean signature (empty when there is none).
    pub fn mean(&self) -> &[f32] {
        &self.mean
    }

    /// An identifier of the reference's content: a hash of its 3-grams and
    /// partition bounds. Signatures record it, so that signatures of
    /// different references are never compared.
    pub fn id(&self) -> u64 {
        let mut h = hash::combine(self.partitions() as u64, &self.hashes);
        h = hash::fmix64(h ^ self.grams.len() as u64);
        h
    }

    /// The signature of a document (any seed: its 3-grams are hashed with
    /// seed 0 here). Length `P`, values in [0, 1]. Time `O(n log n + R log
    /// n)` for `n` 3-gram positions and `R` reference 3-grams; memory 8 bytes
    /// per 3-gram position and 4 per distinct 3-gram, whatever the text (the
    /// 3-grams are sorted and counted in place, no hash table).
    pub fn signature_of(&self, doc: &Document) -> super::MultiRefSignature {
        let n = doc.normalized();
        let mut grams = crate::shingle::char_shingles(n, 3, 0, crate::hash::Spec::V1);
        grams.sort_unstable();
        // Distinct 3-grams at the front of `grams`, their counts in `tf`.
        let mut tf: Vec<u32> = Vec::new();
        let mut distinct = 0;
        for i in 0..grams.len() {
            if i > 0 && grams[i] == grams[distinct - 1] {
                tf[distinct - 1] += 1;
            } else {
                grams[distinct] = grams[i];
                tf.push(1);
                distinct += 1;
            }
        }
        grams.truncate(distinct);
        // Integer sums: exact.
        let doc_norm = libm::sqrt(tf.iter().map(|&c| c as u64 * c as u64).sum::<u64>() as f64);
        let count = |h: u64| grams.binary_search(&h).map_or(0, |i| tf[i] as u64);
        let values = self
            .counts
            .iter()
            .zip(&self.norms)
            .map(|(part, &norm)| {
                if doc_norm == 0.0 || norm == 0.0 {
                    return 0.0f32;
                }
                let dot: u64 = part.iter().map(|&(h, c)| count(h) * c as u64).sum();
                (dot as f64 / (doc_norm * norm)).clamp(0.0, 1.0) as f32
            })
            .collect();
        super::MultiRefSignature {
            reference: self.id(),
            values,
        }
    }

    /// [`Reference::signature_of`] a text.
    pub fn signature(&self, text: &str) -> super::MultiRefSignature {
        self.signature_of(&Document::new(text, 0))
    }
}
