//! Graded cut points on the plagiarism score: the thresholds that give the
//! most pairs their grade (the ordinal scheme's cheapest reading, and the
//! baseline of `neardup eval`).

/// Cut points `t_1 ≤ … ≤ t_K` on `scores` giving grade `k` to a score in
/// `[t_k, t_{k+1})` that are right on the most `ranks` (grades 0..=K); each
/// a midpoint between two distinct scores, or ±∞. Of several best, the
/// smallest cuts (lexicographically). Dynamic programming over the sorted
/// distinct scores: O(K·n + n log n) for n scores.
pub fn grade_cuts(scores: &[f64], ranks: &[usize], k: usize) -> Vec<f64> {
    let mut v: Vec<f64> = scores.to_vec();
    v.sort_by(f64::total_cmp);
    v.dedup();
    let d = v.len();
    // Candidate i (0..=d): −∞, the midpoints, +∞; a score of index j is at
    // or above candidate i exactly when j ≥ i.
    let cand = |i: usize| match i {
        0 => f64::NEG_INFINITY,
        i if i == d => f64::INFINITY,
        i => (v[i - 1] + v[i]) / 2.0,
    };
    // prefix[r][i]: pairs of rank r whose score index is below i.
    let mut prefix = vec![vec![0usize; d + 1]; k + 1];
    for (&x, &r) in scores.iter().zip(ranks) {
        if r <= k {
            let j = v.partition_point(|&y| y < x);
            prefix[r][j + 1] += 1;
        }
    }
    for row in &mut prefix {
        for i in 1..=d {
            row[i] += row[i - 1];
        }
    }
    // best[g][i]: the most pairs of grades g..=k right when grade g starts
    // at candidate i (grade k runs to the end).
    let mut best = vec![vec![0usize; d + 1]; k + 1];
    for i in 0..=d {
        best[k][i] = prefix[k][d] - prefix[k][i];
    }
    for g in (1..k).rev() {
        let mut reach = 0usize; // max over j ≥ i of prefix[g][j] + best[g + 1][j]
        for i in (0..=d).rev() {
            reach = reach.max(prefix[g][i] + best[g + 1][i]);
            best[g][i] = reach - prefix[g][i];
        }
    }
    // Grade 0 runs from the start: choose each cut as the smallest that
    // keeps the optimum.
    let mut cuts = Vec::with_capacity(k);
    let (mut from, mut target) = (0, usize::MAX);
    for g in 0..k {
        // The pairs right from grade g on, when grade g + 1 starts at j.
        let total = |j: usize| prefix[g][j] - prefix[g][from] + best[g + 1][j];
        if g == 0 {
            target = (0..=d).map(total).max().unwrap_or(0);
        }
        let j = (from..=d).find(|&j| total(j) == target).unwrap_or(d);
        target -= prefix[g][j] - prefix[g][from];
        cuts.push(cand(j));
        from = j;
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::grade_cuts;

    /// Every ordered choice of candidate cuts, the first best kept: the
    /// specification `grade_cuts` must equal.
    fn exhaustive(scores: &[f64], ranks: &[usize], k: usize) -> Vec<f64> {
        let mut v = scores.to_vec();
        v.sort_by(f64::total_cmp);
        v.dedup();
        let mut cands = vec![f64::NEG_INFINITY];
        cands.extend(v.windows(2).map(|w| (w[0] + w[1]) / 2.0));
        cands.push(f64::INFINITY);
        let right = |cuts: &[f64]| {
            scores
                .iter()
                .zip(ranks)
                .filter(|&(&x, &r)| cuts.iter().filter(|&&t| x >= t).count() == r)
                .count()
        };
        let mut best: Option<(usize, Vec<f64>)> = None;
        let mut idx = vec![0usize; k];
        loop {
            let cuts: Vec<f64> = idx.iter().map(|&i| cands[i]).collect();
            let r = right(&cuts);
            if best.as_ref().is_none_or(|b| r > b.0) {
                best = Some((r, cuts));
            }
            // Next non-decreasing index tuple.
            let mut p = k;
            while p > 0 && idx[p - 1] == cands.len() - 1 {
                p -= 1;
            }
            if p == 0 {
                return best.unwrap().1;
            }
            idx[p - 1] += 1;
            for q in p..k {
                idx[q] = idx[p - 1];
            }
        }
    }

    #[test]
    fn the_cuts_right_on_the_most_pairs_as_an_exhaustive_search_finds_them() {
        // By hand: scores 0.1, 0.2 (grade 0), 0.5 (1), 0.9 (2): cuts at the
        // midpoints 0.35 and 0.7.
        assert_eq!(
            grade_cuts(&[0.1, 0.2, 0.5, 0.9], &[0, 0, 1, 2], 2),
            [0.35, 0.7]
        );
        // Pseudo-random cases with ties and overlapping grades.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for case in 0..200 {
            let n = 1 + (case % 12) as usize;
            let k = 1 + (case % 3) as usize;
            let scores: Vec<f64> = (0..n).map(|_| next(8) as f64 / 8.0).collect();
            let ranks: Vec<usize> = scores
                .iter()
                .map(|&s| ((s * (k as f64 + 1.0)) as usize + next(2) as usize).min(k))
                .collect();
            assert_eq!(
                grade_cuts(&scores, &ranks, k),
                exhaustive(&scores, &ranks, k),
                "{scores:?} {ranks:?} k {k}"
            );
        }
    }
}
