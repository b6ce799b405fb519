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
/// is known to exceed `max`. Time `O(|a| · |b|)`, memory `O(|b|)`.
pub fn damerau_levenshtein(a: &[u8], b: &[u8], max: usize) -> usize {
    if a.len().abs_diff(b.len()) > max {
        return max + 1;
    }
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
                return max + 1;
            }
            core::mem::swap(&mut prev2, &mut prev);
            core::mem::swap(&mut prev, &mut cur);
        }
        (prev[n] as usize).min(max + 1)
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
        |x, y| if adjacent(x, y) { 0.6 } else { 1.0 },
        0.8,
    )
}

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
    }
}
