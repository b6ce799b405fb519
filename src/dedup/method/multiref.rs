//! The `multiref` method: a document's multireference signature, its
//! cosines with the partitions of a trained reference text (Mohammadi &
//! Khasteh 2020), and the signature's 64 random-projection bits, keyed by the
//! permuted-block tables of those bits (SPEC.md §10, §12); a candidate is
//! kept when the bits are within Hamming distance `k` and the signatures'
//! cosine reaches the reference's `t2` (and the exact Jaccard the threshold
//! with `verify`).
//!
//! Body: the `P` cosines' `f32` bits, then the projection's two words (low
//! first). Bytes: `u32` length and the signature's bytes (SPEC.md §12),
//! `u64` projection bits.

use super::{read_nested, word64, words, write_nested, Extras, Method, Side, Verified};
use crate::dedup::config::{DedupConfig, DedupMethod};
use crate::document::Document;
use crate::error::Error;
use crate::index::snapshot::{corrupt, Reader, Writer};
use crate::multiref::{cosine, Decision, MultiRefSignature, Projector, Reference, Thresholds};
use crate::simhash::{hamming_distance, Fingerprint, SimHashIndex};
use alloc::sync::Arc;
use alloc::vec::Vec;

/// A reference text with its thresholds and projector: what the multiref
/// method needs (Mohammadi & Khasteh 2020).
#[derive(Clone, Debug)]
pub struct MultiRefModel {
    /// The reference text's partitions.
    pub reference: Reference,
    /// The decision thresholds; pairs below `t2` are dropped.
    pub thresholds: Thresholds,
    projector: Projector,
}

impl MultiRefModel {
    /// The model of a reference and its thresholds.
    ///
    /// # Errors
    /// As [`Thresholds::check`].
    pub fn new(reference: Reference, thresholds: Thresholds) -> Result<Self, Error> {
        thresholds.check()?;
        let projector = Projector::new(&reference);
        Ok(MultiRefModel {
            reference,
            thresholds,
            projector,
        })
    }
}

#[derive(Debug)]
pub(crate) struct MultiRef {
    model: Arc<MultiRefModel>,
    tables: SimHashIndex,
    k: u32,
}

impl MultiRef {
    pub(crate) fn new(config: &DedupConfig, extras: &Extras) -> Result<Self, Error> {
        let model = extras.model.clone().ok_or_else(|| {
            Error::option(
                "reference",
                "method multiref needs a reference text (Stages::with_reference)",
            )
        })?;
        Ok(MultiRef {
            model,
            tables: SimHashIndex::new(&config.index_config())?,
            k: config.max_distance(),
        })
    }

    fn partitions(&self) -> usize {
        self.model.reference.partitions()
    }

    fn bits(&self, body: &[u32]) -> u64 {
        word64(&body[self.partitions()..])
    }

    fn body(sig: &MultiRefSignature, bits: u64) -> Vec<u32> {
        let mut body: Vec<u32> = sig.values().iter().map(|v| v.to_bits()).collect();
        body.extend(words(bits));
        body
    }
}

impl Method for MultiRef {
    fn kind(&self) -> DedupMethod {
        DedupMethod::MultiRef
    }

    fn width(&self) -> usize {
        self.partitions() + 2
    }

    fn sketch(&self, doc: &Document) -> Result<Vec<u32>, Error> {
        let sig = self.model.reference.signature_of(doc);
        let bits = self.model.projector.bits(&sig)?;
        Ok(Self::body(&sig, bits))
    }

    fn is_empty(&self, _side: Side<'_>) -> bool {
        false
    }

    fn write(&self, body: &[u32], w: &mut Writer) {
        let p = self.partitions();
        let values = body[..p].iter().map(|&b| f32::from_bits(b)).collect();
        let sig = MultiRefSignature {
            reference: self.model.reference.id(),
            values,
        };
        write_nested(w, &sig.to_bytes());
        w.u64(self.bits(body));
    }

    fn read(&self, r: &mut Reader<'_>) -> Result<Vec<u32>, Error> {
        let sig = MultiRefSignature::from_bytes(&read_nested(r, "dedup sketch")?)?;
        if sig.reference() != self.model.reference.id() || sig.values().len() != self.partitions() {
            return Err(corrupt(
                "dedup sketch",
                "its signature is of another reference".into(),
            ));
        }
        Ok(Self::body(&sig, r.u64()?))
    }

    fn bucket_cap(&self) -> Option<usize> {
        Some(crate::dedup::BUCKET_CAP)
    }

    fn key_count(&self) -> Option<usize> {
        Some(self.tables.tables())
    }

    fn keys(&self, side: Side<'_>) -> Result<Vec<u64>, Error> {
        self.tables
            .table_keys(&Fingerprint::from_value(self.bits(side.body)))
    }

    fn far(&self, a: &[u32], b: &[u32]) -> bool {
        hamming_distance(self.bits(a), self.bits(b)) > self.k
    }

    fn key(&self, body: &[u32], j: usize) -> u64 {
        self.tables.table_key(j, self.bits(body))
    }

    fn verify(&self, a: Side<'_>, b: Side<'_>, v: &mut Verified) -> Result<bool, Error> {
        let d = hamming_distance(self.bits(a.body), self.bits(b.body));
        if d > self.k {
            return Ok(false);
        }
        let p = self.partitions();
        let e = cosine(
            a.body[..p]
                .iter()
                .zip(&b.body[..p])
                .map(|(&x, &y)| (f32::from_bits(x), f32::from_bits(y))),
        );
        let decision = self.model.thresholds.decide(e);
        if decision == Decision::Different {
            return Ok(false);
        }
        v.distance = Some(d);
        v.estimate = Some(e);
        v.decision = Some(decision);
        v.similarity = e;
        Ok(true)
    }
}
