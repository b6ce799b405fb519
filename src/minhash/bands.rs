//! Banding parameters of MinHash LSH and the threshold advisor (Indyk and
//! Motwani 1998; Leskovec, Rajaraman, Ullman, *Mining of Massive Datasets*,
//! ch. 3.4).
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
//! **The advisor** picks `b` minimising `w_fp · ∫_0^t P(s) ds + w_fn ·
//! ∫_t^1 (1 − P(s)) ds` (the weighted false-positive and false-negative
//! probability mass, as datasketch does), but always uses **all** `num_perm`
//! values: the rows are spread over the bands as evenly as possible
//! (`num_perm mod b` bands get one more row): at threshold 0.5 with 128 values
//! it picks 25 bands, 3 of 6 rows and 22 of 5, where a uniform `b × r` would
//! leave values unused. Integrals are by composite Simpson's rule with 256
//! intervals each, in `libm` arithmetic, so native and wasm32 pick the same
//! bands.
//!
//! **Cost.** Rows take only two values, `q = ⌊n/b⌋` and `q + 1`, so
//! `P(s) = 1 − exp((b − e) ln(1 − s^q) + e ln(1 − s^{q+1}))` with
//! `e = n mod b`; `ln(1 − s^q)` at the 514 integration points is computed
//! once per distinct `q` (about `2√n` of them). The whole search is
//! `O(n)` exponentials per point: about a millisecond at 128 values and tens
//! of milliseconds at 4096.

use super::signature::MAX_PERM;
use crate::error::{check_range, Error};
use alloc::format;
use alloc::vec::Vec;

const SIMPSON_INTERVALS: usize = 256;

/// Configuration of a MinHash LSH index: checked once by
/// [`LshConfig::params`].
///
/// Defaults: threshold 0.5, 128 values, equal weights 0.5 of false positives
/// and false negatives, bands and rows from the advisor.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(rename_all = "camelCase", default, deny_unknown_fields)
)]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct LshConfig {
    /// Jaccard resemblance threshold in (0, 1) (default 0.5).
    pub threshold: f64,
    /// Values per signature, 1..=4096 (default 128).
    pub num_perm: u32,
    /// Weight of false positives for the advisor, ≥ 0 (default 0.5).
    pub fp_weight: f64,
    /// Weight of false negatives for the advisor, ≥ 0 (default 0.5).
    pub fn_weight: f64,
    /// Explicit number of bands (with `rows`) instead of the advisor's.
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub bands: Option<u32>,
    /// Explicit rows per band (with `bands`); `bands · rows ≤ num_perm`.
    #[cfg_attr(feature = "wasm-bindings", tsify(optional))]
    pub rows: Option<u32>,
}

impl Default for LshConfig {
    fn default() -> Self {
        LshConfig {
            threshold: 0.5,
            num_perm: 128,
            fp_weight: 0.5,
            fn_weight: 0.5,
            bands: None,
            rows: None,
        }
    }
}

crate::config::setters!(LshConfig {
    /// Sets the threshold.
    threshold: f64,
    /// Sets `num_perm`.
    num_perm: u32,
});

impl LshConfig {
    /// Sets the advisor's weights of false positives and false negatives.
    pub fn weights(mut self, fp: f64, fneg: f64) -> Self {
        self.fp_weight = fp;
        self.fn_weight = fneg;
        self
    }

    /// Sets explicit bands × rows (datasketch's `params=(b, r)`).
    pub fn bands(mut self, bands: u32, rows: u32) -> Self {
        self.bands = Some(bands);
        self.rows = Some(rows);
        self
    }

    /// Checks every option.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for a threshold outside (0, 1),
    /// `num_perm` outside 1..=4096, weights that are negative, not finite or
    /// both 0, only one of bands and rows, or `bands · rows > num_perm`.
    pub fn check(&self) -> Result<(), Error> {
        if !(self.threshold > 0.0 && self.threshold < 1.0) {
            return Err(Error::option(
                "threshold",
                format!("must be in (0, 1), got {}", self.threshold),
            ));
        }
        check_range("num_perm", self.num_perm, 1..=MAX_PERM as u32)?;
        for (name, w) in [("fp_weight", self.fp_weight), ("fn_weight", self.fn_weight)] {
            if !(w.is_finite() && w >= 0.0) {
                return Err(Error::option(
                    name,
                    format!("must be a finite number ≥ 0, got {w}"),
                ));
            }
        }
        if self.fp_weight + self.fn_weight <= 0.0 {
            return Err(Error::option(
                "fn_weight",
                "fp_weight and fn_weight must not both be 0",
            ));
        }
        match (self.bands, self.rows) {
            (None, None) => Ok(()),
            (Some(b), Some(r)) if b >= 1 && r >= 1 && b as u64 * r as u64 <= self.num_perm as u64 => {
                Ok(())
            }
            (Some(b), Some(r)) => Err(Error::option(
                "bands",
                format!(
                    "bands and rows must be at least 1 with bands × rows ≤ num_perm ({}), got {b} × {r}",
                    self.num_perm
                ),
            )),
            (Some(_), None) => Err(Error::option("rows", "give rows with bands")),
            (None, Some(_)) => Err(Error::option("bands", "give bands with rows")),
        }
    }

    /// The banding: explicit, or the advisor's (see the module docs).
    ///
    /// # Errors
    /// As [`LshConfig::check`].
    pub fn params(&self) -> Result<LshParams, Error> {
        self.check()?;
        let n = self.num_perm as usize;
        let rows = match (self.bands, self.rows) {
            (Some(b), Some(r)) => alloc::vec![r; b as usize],
            _ => spread_rows(n, advise(self.threshold, n, self.fp_weight, self.fn_weight)),
        };
        Ok(LshParams {
            num_perm: n,
            threshold: self.threshold,
            rows,
        })
    }
}

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

/// The `SIMPSON_INTERVALS + 1` points and Simpson weights (times `h / 3`)
/// of `[a, b]`.
fn simpson_points(a: f64, b: f64) -> Vec<(f64, f64)> {
    let n = SIMPSON_INTERVALS;
    let h = (b - a) / n as f64;
    (0..=n)
        .map(|i| {
            let w = if i == 0 || i == n {
                1.0
            } else if i % 2 == 1 {
                4.0
            } else {
                2.0
            };
            (if i == n { b } else { a + i as f64 * h }, w * h / 3.0)
        })
        .collect()
}

fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64) -> f64 {
    if b <= a {
        return 0.0;
    }
    simpson_points(a, b).iter().map(|&(x, w)| w * f(x)).sum()
}

/// Rows for `bands` bands using all `num_perm` values, as even as possible
/// (the first `num_perm mod bands` bands get one more).
fn spread_rows(num_perm: usize, bands: usize) -> Vec<u32> {
    let (q, extra) = (num_perm / bands, num_perm % bands);
    (0..bands)
        .map(|j| (q + usize::from(j < extra)) as u32)
        .collect()
}

/// [`advise`] of the default settings (threshold 0.5, 128 values, both
/// weights 0.5), which every deduplicator, index and Worker request made
/// at its defaults asks for: about 100,000 calls of `exp`, `pow` and
/// `log1p`, 2.7 ms, each time. Held to [`advise_each`] by a test.
const DEFAULT_BANDS: usize = 25;

/// The advisor's number of bands (see the module docs).
fn advise(threshold: f64, num_perm: usize, w_fp: f64, w_fn: f64) -> usize {
    if (threshold, num_perm, w_fp, w_fn) == (0.5, 128, 0.5, 0.5) {
        return DEFAULT_BANDS;
    }
    advise_each(threshold, num_perm, w_fp, w_fn)
}

/// [`advise`], every band count tried.
fn advise_each(threshold: f64, num_perm: usize, w_fp: f64, w_fn: f64) -> usize {
    let lo = simpson_points(0.0, threshold);
    let hi = simpson_points(threshold, 1.0);
    // ln(1 − s^q) at every point, per q, computed once.
    let mut logs: Vec<Option<(Vec<f64>, Vec<f64>)>> = alloc::vec![None; num_perm + 2];
    let mut log_of = |q: usize| -> (Vec<f64>, Vec<f64>) {
        logs[q]
            .get_or_insert_with(|| {
                let f = |pts: &[(f64, f64)]| {
                    pts.iter()
                        .map(|&(s, _)| libm::log1p(-libm::pow(s, q as f64)))
                        .collect::<Vec<f64>>()
                };
                (f(&lo), f(&hi))
            })
            .clone()
    };
    let mut best: Option<(f64, usize)> = None;
    for bands in 1..=num_perm {
        let (q, extra) = (num_perm / bands, num_perm % bands);
        let (lq_lo, lq_hi) = log_of(q);
        let (lq1_lo, lq1_hi) = if extra > 0 {
            log_of(q + 1)
        } else {
            (Vec::new(), Vec::new())
        };
        let (nq, ne) = ((bands - extra) as f64, extra as f64);
        // 1 − P(s) = exp(nq ln(1 − s^q) + ne ln(1 − s^(q+1))).
        let miss = |lq: &[f64], lq1: &[f64], i: usize| {
            let mut e = nq * lq[i];
            if extra > 0 {
                e += ne * lq1[i];
            }
            libm::exp(e)
        };
        let fp: f64 = lo
            .iter()
            .enumerate()
            .map(|(i, &(_, w))| w * (1.0 - miss(&lq_lo, &lq1_lo, i)))
            .sum();
        let fneg: f64 = hi
            .iter()
            .enumerate()
            .map(|(i, &(_, w))| w * miss(&lq_hi, &lq1_hi, i))
            .sum();
        let err = w_fp * fp + w_fn * fneg;
        if best.is_none_or(|(e, _)| err < e) {
            best = Some((err, bands));
        }
    }
    best.map_or(1, |(_, b)| b)
}

/// Band `j`'s key from the values of its rows: `combine(j, [values as
/// u64])` of [`crate::hash::combine`] (SPEC.md §9), without allocating.
#[inline]
pub(crate) fn band_key(j: usize, rows: &[u32]) -> u64 {
    rows.iter()
        .fold(j as u64, |h, &v| crate::hash::fmix64(h ^ u64::from(v)))
}

impl LshParams {
    /// The band keys of a signature's values (`num_perm` of them), one per
    /// band: band `j`'s key is `combine(j, [its rows' values as u64])`
    /// (SPEC.md §9). Two signatures are LSH candidates exactly when they
    /// share a key.
    pub fn band_keys(&self, values: &[u32]) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.rows.len());
        let mut at = 0usize;
        for (j, &r) in self.rows.iter().enumerate() {
            out.push(band_key(j, &values[at..at + r as usize]));
            at += r as usize;
        }
        out
    }

    /// Banding from stored rows (a snapshot), checked against `num_perm`.
    pub(crate) fn from_rows(num_perm: usize, threshold: f64, rows: Vec<u32>) -> Option<Self> {
        let ok = threshold > 0.0
            && threshold < 1.0
            && (1..=MAX_PERM).contains(&num_perm)
            && !rows.is_empty()
            && !rows.contains(&0)
            && rows.iter().map(|&x| x as u64).sum::<u64>() <= num_perm as u64;
        ok.then_some(LshParams {
            num_perm,
            threshold,
            rows,
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

    /// Per band, the range of signature values that are its rows.
    pub(crate) fn spans(&self) -> Vec<(usize, usize)> {
        self.rows
            .iter()
            .scan(0usize, |at, &r| {
                *at += r as usize;
                Some((*at - r as usize, *at))
            })
            .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn params(t: f64, n: u32) -> LshParams {
        LshConfig::default()
            .threshold(t)
            .num_perm(n)
            .params()
            .unwrap()
    }

    /// The advisor as first written: every band count, the S-curve as a
    /// product over the bands, `O(n²)` powers per point.
    fn advise_by_products(t: f64, n: usize, w_fp: f64, w_fn: f64) -> usize {
        let mut best: Option<(f64, usize)> = None;
        for bands in 1..=n {
            let rows = spread_rows(n, bands);
            let fp = simpson(|s| s_curve(&rows, s), 0.0, t);
            let fneg = simpson(|s| 1.0 - s_curve(&rows, s), t, 1.0);
            let err = w_fp * fp + w_fn * fneg;
            if best.is_none_or(|(e, _)| err < e) {
                best = Some((err, bands));
            }
        }
        best.unwrap().1
    }

    /// The defaults' banding, kept as a constant, is the advisor's.
    #[test]
    fn the_default_banding_is_the_advisors() {
        assert_eq!(advise_each(0.5, 128, 0.5, 0.5), DEFAULT_BANDS);
        assert_eq!(advise_by_products(0.5, 128, 0.5, 0.5), DEFAULT_BANDS);
        let d = LshConfig::default();
        assert_eq!(d.params().unwrap().bands(), DEFAULT_BANDS);
    }

    #[test]
    fn linear_advisor_equals_the_product_form() {
        for n in [1usize, 2, 7, 16, 64, 100, 128, 256] {
            for t in [0.05, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95] {
                for (p, q) in [(0.5, 0.5), (0.1, 0.9), (0.9, 0.1)] {
                    assert_eq!(
                        advise(t, n, p, q),
                        advise_by_products(t, n, p, q),
                        "n {n} t {t} weights {p} {q}"
                    );
                }
            }
        }
    }

    #[test]
    fn advisor_uses_all_values_and_matches_known_shapes() {
        let p = params(0.5, 128);
        assert_eq!(p.values_used(), 128);
        assert_eq!(p.bands(), 25);
        // The S-curve rises through the threshold.
        assert!(
            p.probability(0.3) < 0.35 && p.probability(0.7) > 0.9,
            "{:?}",
            p.rows()
        );
        let hi = params(0.9, 128);
        assert!(
            hi.rows()[0] > p.rows()[0],
            "higher threshold, more rows per band"
        );
        // Weighting false negatives up moves the curve left (more bands).
        let recall = LshConfig::default().weights(0.1, 0.9).params().unwrap();
        assert!(recall.bands() > p.bands());
        assert!(LshConfig::default().threshold(1.0).params().is_err());
        assert!(LshConfig::default().num_perm(0).params().is_err());
        assert!(LshConfig::default().bands(20, 7).params().is_err());
        assert_eq!(
            LshConfig::default()
                .bands(16, 8)
                .params()
                .unwrap()
                .values_used(),
            128
        );
        assert_eq!(params(0.5, 4096).values_used(), 4096);
    }

    #[test]
    fn s_curve_by_hand() {
        // 2 bands of 2 rows at s = 0.5: 1 - (1 - 0.25)^2 = 0.4375
        assert!((s_curve(&[2, 2], 0.5) - 0.4375).abs() < 1e-15);
        assert_eq!(s_curve(&[3], 1.0), 1.0);
        assert_eq!(s_curve(&[3], 0.0), 0.0);
    }
}
