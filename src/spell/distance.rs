//! Damerau–Levenshtein distance (the optimal-string-alignment form:
//! insertions, deletions, substitutions and transpositions of adjacent
//! letters, no substring edited twice; Damerau 1964, Levenshtein 1966), and
//! a weighted form for ranking corrections in which typing slips cost less.

/// QWERTY rows, for [`adjacent`].
const ROWS: [&[u8]; 3] = [b"qwertyuiop", b"asdfghjkl", b"zxcvbnm"];

/// Row and column of a lowercase letter on a QWERTY keyboard (rows shifted
/// as on a real keyboard: 0, 0.25, 0.75 keys).
fn key(c: u8) -> Option<(f32, f32)> {
    ROWS.iter().enumerate().find_map(|(r, row)| {
        row.iter()
            .position(|&k| k == c)
            .map(|col| (r as f32, col as f32 + [0.0, 0.25, 0.75][r]))
    })
}

/// `true` when two lowercase letters are neighbouring keys on QWERTY.
pub fn adjacent(a: u8, b: u8) -> bool {
    match (key(a), key(b)) {
        (Some((ra, ca)), Some((rb, cb))) => {
            a != b && (ra - rb).abs() <= 1.0 && (ca - cb).abs() <= 1.0
        }
        _ => false,
    }
}

/// Damerau–Levenshtein distance (optimal string alignment) between two
/// byte strings, stopping early: returns `max + 1` as soon as the distance
/// is known to exceed `max`. When either string has at most 64 bytes it is
/// computed bit-parallel ([`Pattern`]: time `O(|a| + |b|)`); longer pairs
/// by dynamic programming (time `O(|a| · |b|)`, memory `O(|b|)`).
pub fn damerau_levenshtein(a: &[u8], b: &[u8], max: usize) -> usize {
    if a.len().abs_diff(b.len()) > max {
        return max.saturating_add(1);
    }
    // The distance is symmetric: either string may be the pattern.
    match Pattern::new(a)
        .map(|p| (p, b))
        .or_else(|| Pattern::new(b).map(|p| (p, a)))
    {
        Some((p, text)) => p.distance(text, max),
        None => damerau_levenshtein_dp(a, b, max),
    }
}

/// A string of at most 64 bytes prepared for many Damerau–Levenshtein
/// distances (optimal string alignment) to other strings: Hyyrö's
/// bit-vector algorithm (H. Hyyrö, "A bit-vector algorithm for computing
/// Levenshtein and Damerau edit distances", Nordic Journal of Computing
/// 10(1), 2003), which keeps a column of the dynamic-programming table as
/// two 64-bit vectors of its vertical differences (+1, −1) and advances it
/// one byte of the other string at a time in a few word operations, with
/// the transposition term of Hyyrö's section 4. 2 KB (a match mask per
/// byte value).
#[derive(Clone)]
pub struct Pattern {
    /// Bit `i` of `peq[c]` is set when byte `i` of the pattern is `c`.
    peq: [u64; 256],
    len: usize,
}

impl Pattern {
    /// Longest pattern: 64 bytes (one machine word of bits).
    pub const MAX_LEN: usize = 64;

    /// `a` prepared as a pattern, or `None` when it is longer than
    /// [`Pattern::MAX_LEN`] bytes.
    pub fn new(a: &[u8]) -> Option<Self> {
        if a.len() > Self::MAX_LEN {
            return None;
        }
        let mut peq = [0u64; 256];
        for (i, &c) in a.iter().enumerate() {
            peq[c as usize] |= 1 << i;
        }
        Some(Pattern { peq, len: a.len() })
    }

    /// The Damerau–Levenshtein distance (optimal string alignment) between
    /// the pattern and `b`, or `max + 1` when it exceeds `max` (known
    /// early: stops as soon as the bytes left of `b` cannot bring it back
    /// within `max`). Time `O(|b|)`.
    pub fn distance(&self, b: &[u8], max: usize) -> usize {
        let m = self.len;
        if m.abs_diff(b.len()) > max {
            return max.saturating_add(1);
        }
        if m == 0 {
            return b.len().min(max.saturating_add(1));
        }
        let last = 1u64 << (m - 1);
        // Vertical differences of the current column: +1 (vp), −1 (vn).
        let (mut vp, mut vn) = (!0u64, 0u64);
        // The diagonal-zero vector and match mask of the previous column.
        let (mut d0, mut pm_prev) = (0u64, 0u64);
        let mut dist = m;
        for (j, &c) in b.iter().enumerate() {
            let pm = self.peq[c as usize];
            let tr = ((!d0 & pm) << 1) & pm_prev;
            d0 = (((pm & vp).wrapping_add(vp)) ^ vp) | pm | vn | tr;
            let mut hp = vn | !(d0 | vp);
            let mut hn = d0 & vp;
            if hp & last != 0 {
                dist += 1;
            } else if hn & last != 0 {
                dist -= 1;
            }
            // The last row can fall by at most one a byte of `b` left.
            if dist > max.saturating_add(b.len() - 1 - j) {
                return max.saturating_add(1);
            }
            // Row 0 of the table is j: its horizontal difference is +1.
            hp = (hp << 1) | 1;
            hn <<= 1;
            vp = hn | !(d0 | hp);
            vn = hp & d0;
            pm_prev = pm;
        }
        dist.min(max.saturating_add(1))
    }
}

/// [`damerau_levenshtein`] by dynamic programming over three rows, with
/// the rows' minimum for stopping early: for strings beyond 64 bytes.
fn damerau_levenshtein_dp(a: &[u8], b: &[u8], max: usize) -> usize {
    let n = b.len();
    // Cells hold distances capped at `max + 1`, which fits in u32 for any
    // distance worth computing.
    let cap = max.min(u32::MAX as usize - 2) as u32 + 1;
    with_rows(n, |r2, r1, r0| {
        let (mut prev2, mut prev, mut cur): (&mut [u32], &mut [u32], &mut [u32]) = (r2, r1, r0);
        for (j, p) in prev.iter_mut().enumerate() {
            *p = (j as u32).min(cap);
        }
        for i in 1..=a.len() {
            cur[0] = (i as u32).min(cap);
            let mut row_min = cur[0];
            for j in 1..=n {
                let cost = u32::from(a[i - 1] != b[j - 1]);
                let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(prev2[j - 2] + 1);
                }
                let v = v.min(cap);
                cur[j] = v;
                row_min = row_min.min(v);
            }
            if row_min as usize > max {
                return max.saturating_add(1);
            }
            core::mem::swap(&mut prev2, &mut prev);
            core::mem::swap(&mut prev, &mut cur);
        }
        (prev[n] as usize).min(max.saturating_add(1))
    })
}

/// Words up to this length have their rows on the stack.
const STACK_ROWS: usize = 72;

/// Runs `f` with three zeroed rows of `n + 1` cells (on the stack for the
/// words of a dictionary, on the heap beyond [`STACK_ROWS`]).
fn with_rows<T: Copy + Default, R>(
    n: usize,
    f: impl FnOnce(&mut [T], &mut [T], &mut [T]) -> R,
) -> R {
    if n < STACK_ROWS {
        let mut rows = [[T::default(); STACK_ROWS]; 3];
        let [a, b, c] = &mut rows;
        f(&mut a[..=n], &mut b[..=n], &mut c[..=n])
    } else {
        let mut rows = alloc::vec![T::default(); 3 * (n + 1)];
        let (a, rest) = rows.split_at_mut(n + 1);
        let (b, c) = rest.split_at_mut(n + 1);
        f(a, b, c)
    }
}

/// The weighted distance used to rank corrections: as
/// [`damerau_levenshtein`], but substituting a neighbouring key costs 0.6 and
/// transposing two letters 0.8 (the slips of typing). Returns a value above
/// `max` when the distance exceeds it.
pub fn typing_distance(a: &[u8], b: &[u8], max: f32) -> f32 {
    weighted(
        a,
        b,
        max,
        |x, y| {
            if adjacent(x, y) {
                ADJACENT_KEY_COST
            } else {
                1.0
            }
        },
        TRANSPOSITION_COST,
    )
}

/// Cost of substituting a neighbouring key in [`typing_distance`].
const ADJACENT_KEY_COST: f32 = 0.6;
/// Cost of transposing two letters in [`typing_distance`].
const TRANSPOSITION_COST: f32 = 0.8;
/// The cheapest edit of [`typing_distance`] (insertions, deletions and
/// other substitutions cost 1): a distance `d` of [`damerau_levenshtein`]
/// bounds the typing distance from below by `MIN_EDIT_COST · d`.
pub const MIN_EDIT_COST: f32 = ADJACENT_KEY_COST;

fn weighted(a: &[u8], b: &[u8], max: f32, sub: impl Fn(u8, u8) -> f32, transpose: f32) -> f32 {
    if a.len().abs_diff(b.len()) as f32 > max {
        return max + 1.0;
    }
    let n = b.len();
    with_rows(n, |r2, r1, r0| {
        let (mut prev2, mut prev, mut cur): (&mut [f32], &mut [f32], &mut [f32]) = (r2, r1, r0);
        for (j, p) in prev.iter_mut().enumerate() {
            *p = j as f32;
        }
        for i in 1..=a.len() {
            cur[0] = i as f32;
            let mut row_min = cur[0];
            for j in 1..=n {
                let cost = if a[i - 1] == b[j - 1] {
                    0.0
                } else {
                    sub(a[i - 1], b[j - 1])
                };
                let mut v = (prev[j] + 1.0)
                    .min(cur[j - 1] + 1.0)
                    .min(prev[j - 1] + cost);
                if i > 1
                    && j > 1
                    && a[i - 1] == b[j - 2]
                    && a[i - 2] == b[j - 1]
                    && a[i - 1] != b[j - 1]
                {
                    v = v.min(prev2[j - 2] + transpose);
                }
                cur[j] = v;
                row_min = row_min.min(v);
            }
            if row_min > max {
                return max + 1.0;
            }
            core::mem::swap(&mut prev2, &mut prev);
            core::mem::swap(&mut prev, &mut cur);
        }
        prev[n]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook optimal-string-alignment table, filled whole (no early
    /// stop, no bit tricks): the oracle of the two fast forms.
    fn osa_table(a: &[u8], b: &[u8]) -> usize {
        let (m, n) = (a.len(), b.len());
        let mut d = alloc::vec![alloc::vec![0usize; n + 1]; m + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=m {
            for j in 1..=n {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[m][n]
    }

    #[test]
    fn bit_parallel_and_table_agree_with_the_textbook_table() {
        let mut rng = crate::testing::XorShift(0x5eed_d157);
        // Small alphabets make repeats and transpositions common; lengths
        // cross the 64-byte pattern limit (then the table is used).
        for round in 0..20_000 {
            let alphabet: &[u8] = match round % 3 {
                0 => b"ab",
                1 => b"abcd",
                _ => b"abcdefghijklmnopqrstuvwxyz",
            };
            let len = |rng: &mut crate::testing::XorShift| {
                if round % 50 == 0 {
                    60 + rng.below(12) as usize
                } else {
                    rng.below(12) as usize
                }
            };
            let (la, lb) = (len(&mut rng), len(&mut rng));
            let a: alloc::vec::Vec<u8> = (0..la)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            let mut b = a.clone();
            // b: a after a few random edits, or an unrelated string.
            if round % 4 == 0 {
                b = (0..lb)
                    .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                    .collect();
            } else {
                for _ in 0..rng.below(4) {
                    let c = alphabet[rng.below(alphabet.len() as u64) as usize];
                    let at = rng.below(b.len() as u64 + 1) as usize;
                    match rng.below(4) {
                        0 => b.insert(at, c),
                        1 if at < b.len() => drop(b.remove(at)),
                        2 if at < b.len() => b[at] = c,
                        _ if at + 1 < b.len() => b.swap(at, at + 1),
                        _ => {}
                    }
                }
            }
            let want = osa_table(&a, &b);
            for max in [0, 1, 2, 3, 5, usize::MAX] {
                let capped = want.min(max.saturating_add(1));
                let ab = (core::str::from_utf8(&a), core::str::from_utf8(&b));
                assert_eq!(
                    damerau_levenshtein_dp(&a, &b, max),
                    capped,
                    "table {ab:?} max {max}"
                );
                assert_eq!(damerau_levenshtein(&a, &b, max), capped, "{ab:?} max {max}");
                if let Some(p) = Pattern::new(&a) {
                    assert_eq!(p.distance(&b, max), capped, "pattern {ab:?} max {max}");
                }
            }
        }
    }

    #[test]
    fn a_pattern_holds_64_bytes_and_any_byte() {
        let a: alloc::vec::Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37)).collect();
        let p = Pattern::new(&a).expect("64 bytes fit");
        assert!(Pattern::new(&[0u8; 65]).is_none());
        let mut b = a.clone();
        b.swap(62, 63);
        b[0] = 0xff;
        assert_eq!(
            p.distance(&b, 10),
            2,
            "a substitution and a transposition at the top bit"
        );
        assert_eq!(p.distance(&a, 0), 0);
        assert_eq!(
            damerau_levenshtein(&[7u8; 100], &[7u8; 97], 5),
            3,
            "beyond 64 bytes"
        );
    }

    #[test]
    fn distances() {
        let d = |a: &str, b: &str| damerau_levenshtein(a.as_bytes(), b.as_bytes(), 10);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("recieve", "receive"), 1, "one transposition");
        assert_eq!(
            d("ca", "abc"),
            3,
            "optimal string alignment, not unrestricted"
        );
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("same", "same"), 0);
        assert_eq!(
            damerau_levenshtein(b"abcdef", b"uvwxyz", 2),
            3,
            "stops above max"
        );
        assert!(adjacent(b's', b'd') && adjacent(b'g', b'b') && !adjacent(b'a', b'l'));
        let t = |a: &str, b: &str| typing_distance(a.as_bytes(), b.as_bytes(), 3.0);
        assert!(t("tge", "the") < t("tze", "the"), "g is next to h");
        assert!((t("teh", "the") - 0.8).abs() < 1e-6);
        assert!(MIN_EDIT_COST <= ADJACENT_KEY_COST.min(TRANSPOSITION_COST).min(1.0));
    }
}
