//! Clusters of near-duplicates: union–find (disjoint sets) with path halving
//! and union by size (Tarjan 1975) over the pairs an index finds.

use alloc::vec::Vec;

/// Disjoint sets over `0..n`, each knowing its least member (the
/// representative the dedup pipeline keeps: the first document added).
#[derive(Clone, Debug, Default)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
    least: Vec<u32>,
}

impl UnionFind {
    /// `n` singleton sets. `n` must fit in `u32`.
    pub fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: alloc::vec![1; n],
            least: (0..n as u32).collect(),
        }
    }

    /// Adds a singleton set `{len}`; returns its member. The caller keeps
    /// the count below `u32::MAX`.
    pub fn push(&mut self) -> u32 {
        let x = self.parent.len() as u32;
        self.parent.push(x);
        self.size.push(1);
        self.least.push(x);
        x
    }

    /// Number of members, `n`.
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// `true` when it has no member.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The least member of `x`'s set.
    pub fn least(&mut self, x: u32) -> u32 {
        let r = self.find(x);
        self.least[r as usize]
    }

    /// The representative of `x`'s set.
    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        x
    }

    /// The representative of `x`'s set, without shortening paths (for
    /// readers that cannot mutate).
    pub fn root(&self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    /// Merges the sets of `a` and `b`.
    pub fn union(&mut self, a: u32, b: u32) {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            core::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb as usize] = ra;
        self.size[ra as usize] += self.size[rb as usize];
        self.least[ra as usize] = self.least[ra as usize].min(self.least[rb as usize]);
    }

    /// Number of members of `x`'s set.
    pub fn set_size(&mut self, x: u32) -> u32 {
        let r = self.find(x);
        self.size[r as usize]
    }

    /// The sets with at least two members, each sorted, ordered by their
    /// smallest member.
    pub fn clusters(&mut self) -> Vec<Vec<u32>> {
        let n = self.parent.len();
        let mut by_root: Vec<(u32, u32)> = (0..n as u32).map(|x| (self.find(x), x)).collect();
        by_root.sort_unstable();
        let mut out: Vec<Vec<u32>> = Vec::new();
        let mut i = 0;
        while i < by_root.len() {
            let mut j = i;
            while j < by_root.len() && by_root[j].0 == by_root[i].0 {
                j += 1;
            }
            if j - i >= 2 {
                out.push(by_root[i..j].iter().map(|&(_, x)| x).collect());
            }
            i = j;
        }
        out.sort_unstable_by_key(|c| c[0]);
        out
    }
}

/// Connected components of the graph whose edges are `pairs` of ids: each
/// component sorted, components ordered by their first id; ids in no pair
/// are left out.
pub fn cluster_ids<'a>(pairs: &[(&'a str, &'a str)]) -> Vec<Vec<&'a str>> {
    let mut ids: Vec<&str> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    ids.sort_unstable();
    ids.dedup();
    let index = |id: &str| ids.binary_search(&id).unwrap_or(0) as u32;
    let mut uf = UnionFind::new(ids.len());
    for &(a, b) in pairs {
        uf.union(index(a), index(b));
    }
    uf.clusters()
        .into_iter()
        .map(|c| c.into_iter().map(|i| ids[i as usize]).collect())
        .collect()
}

/// Clusters of an index's pairs ([`super::Pair`]): see [`cluster_ids`].
pub fn cluster_pairs<'a>(pairs: &[super::Pair<'a>]) -> Vec<Vec<&'a str>> {
    let edges: Vec<(&str, &str)> = pairs.iter().map(|p| (p.a, p.b)).collect();
    cluster_ids(&edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clusters_of_pairs() {
        let mut uf = UnionFind::new(7);
        for (a, b) in [(0, 3), (3, 5), (1, 6), (5, 0)] {
            uf.union(a, b);
        }
        assert_eq!(uf.clusters(), [alloc::vec![0, 3, 5], alloc::vec![1, 6]]);
        assert_eq!(
            cluster_ids(&[("x", "b"), ("c", "d"), ("b", "a")]),
            [alloc::vec!["a", "b", "x"], alloc::vec!["c", "d"]]
        );
    }
}
