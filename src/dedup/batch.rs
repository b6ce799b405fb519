//! A batch of documents sketched on every core (rayon) and added in input
//! order — so the result is that of one thread, whatever the number of
//! cores: the one loop of `neardup dedup`, Python's `dedup()` and the engine
//! kernels. Feature `parallel` (it needs `std` threads).
//!
//! A batch's sketches are all held until it is added: callers give batches
//! of a few thousand documents (and can check for cancellation between
//! them).

use super::{Deduplicator, Match, Sketch, Stages};
use crate::error::Error;
use crate::tfidf::DocumentFrequencies;
use alloc::vec::Vec;
use rayon::prelude::*;

/// A batch failed at document `index` (its position in the batch).
#[derive(Clone, Debug, PartialEq)]
pub struct BatchError {
    /// The document's index in the batch.
    pub index: usize,
    /// What went wrong.
    pub error: Error,
}

impl core::fmt::Display for BatchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "document {}: {}", self.index, self.error)
    }
}

impl std::error::Error for BatchError {}

fn at(index: usize) -> impl Fn(Error) -> BatchError {
    move |error| BatchError { index, error }
}

impl Stages {
    /// The sketches of `texts` on every core, in order ([`Stages::sketch`]).
    ///
    /// # Errors
    /// The first text (in order) that cannot be sketched.
    pub fn sketch_batch<T: AsRef<str> + Sync>(
        &self,
        texts: &[T],
    ) -> Result<Vec<Sketch>, BatchError> {
        texts
            .par_iter()
            .enumerate()
            .map(|(i, t)| self.sketch(t.as_ref()).map_err(at(i)))
            .collect()
    }

    /// The document frequencies of `texts` counted on every core (the first
    /// pass of tf-idf weights, [`Stages::count`]).
    ///
    /// # Errors
    /// The first text (in order) that cannot be read.
    pub fn count_batch<T: AsRef<str> + Sync>(
        &self,
        texts: &[T],
    ) -> Result<DocumentFrequencies, BatchError> {
        texts
            .par_iter()
            .enumerate()
            .try_fold(DocumentFrequencies::new, |mut df, (i, t)| {
                self.count(&mut df, t.as_ref()).map_err(at(i))?;
                Ok(df)
            })
            .try_reduce(DocumentFrequencies::new, |mut a, b| {
                // Cannot fail: every piece was counted by these stages.
                a.merge(&b).map_err(at(0))?;
                Ok(a)
            })
    }
}

impl Deduplicator {
    /// Adds documents `ids[i]` with `texts[i]`: sketched on every core, then
    /// added in order; `found(i, matches)` is called with each document's
    /// near-duplicates already added, best first (as
    /// [`Deduplicator::add`]). The same result as adding them one by one.
    ///
    /// # Errors
    /// The first document (in order) that cannot be sketched or added
    /// (a duplicate id, [`Deduplicator::add`]'s errors); the documents
    /// before it are added. `ids` and `texts` of different lengths are an
    /// error at the shorter one's end.
    pub fn add_batch<I, T>(
        &mut self,
        ids: &[I],
        texts: &[T],
        mut found: impl FnMut(usize, &[Match<'_>]),
    ) -> Result<(), BatchError>
    where
        I: AsRef<str> + Sync,
        T: AsRef<str> + Sync,
    {
        let n = ids.len().min(texts.len());
        let sketches: Vec<Result<Sketch, Error>> = texts[..n]
            .par_iter()
            .map(|t| self.stages().sketch_deferred(t.as_ref()))
            .collect();
        for (i, (id, sketch)) in ids.iter().zip(sketches).enumerate() {
            let pairs = self
                .insert(id.as_ref(), sketch.map_err(at(i))?)
                .map_err(at(i))?;
            found(i, &self.matches_of(pairs));
        }
        if ids.len() != texts.len() {
            return Err(BatchError {
                index: n,
                error: Error::option(
                    "ids",
                    alloc::format!("{} ids for {} texts", ids.len(), texts.len()),
                ),
            });
        }
        Ok(())
    }
}
