//! The candidate index of the dedup pipeline: bucket key → the documents
//! holding it, in the order added — LSH's buckets (Indyk & Motwani 1998)
//! for every method's keys (MinHash bands, SimHash and multiref tables, the
//! exact join's prefix shingles). Two documents are candidates when they
//! share a bucket, exactly as in the stage functions.
//!
//! **Layout.** A table from key to the first and last link of its bucket;
//! a bucket's links are chained through one array (`next`), each link
//! naming its document (`owner`). A key held by one document costs one
//! table entry (16 bytes and the table's spare room) and one link (8
//! bytes), with no allocation of its own. Keys are not stored: removal is
//! given them again (the method recomputes them from the body).

use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

/// End of a bucket's chain.
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(crate) struct Buckets {
    /// Key → (first link, last link) of its bucket.
    heads: Map<u64, (u32, u32)>,
    /// Per link: the next link of its bucket, or [`NONE`].
    next: Vec<u32>,
    /// Per link: the position of its document.
    owner: Vec<u32>,
}

impl Buckets {
    /// `true` when `more` links still fit (links are numbered by `u32`).
    pub(crate) fn has_room(&self, more: usize) -> bool {
        self.next.len() + more < NONE as usize
    }

    /// Adds document `position` to the buckets of `keys`, and appends to
    /// `candidates` the documents already in them (once per shared key, in
    /// the order added).
    pub(crate) fn insert(&mut self, position: u32, keys: &[u64], candidates: &mut Vec<u32>) {
        for &key in keys {
            let link = self.next.len() as u32;
            self.next.push(NONE);
            self.owner.push(position);
            match self.heads.get_mut(&key) {
                Some((first, last)) => {
                    let mut at = *first;
                    while at != NONE {
                        candidates.push(self.owner[at as usize]);
                        at = self.next[at as usize];
                    }
                    self.next[*last as usize] = link;
                    *last = link;
                }
                None => {
                    self.heads.insert(key, (link, link));
                }
            }
        }
    }

    /// Appends to `candidates` the documents in the buckets of `keys` whose
    /// position is below `before` (all with `u32::MAX`).
    pub(crate) fn candidates(&self, keys: &[u64], before: u32, candidates: &mut Vec<u32>) {
        for key in keys {
            if let Some(&(first, _)) = self.heads.get(key) {
                let mut at = first;
                while at != NONE {
                    let p = self.owner[at as usize];
                    if p >= before {
                        // Positions grow along a chain.
                        break;
                    }
                    candidates.push(p);
                    at = self.next[at as usize];
                }
            }
        }
    }

    /// Takes document `position` out of the buckets of `keys` (the keys it
    /// was inserted with). Time: the length of those buckets.
    pub(crate) fn remove(&mut self, position: u32, keys: &[u64]) {
        for key in keys {
            let Some(&(first, last)) = self.heads.get(key) else {
                continue;
            };
            let (mut prev, mut at) = (NONE, first);
            let (mut head, mut tail) = (first, last);
            while at != NONE {
                let next = self.next[at as usize];
                if self.owner[at as usize] == position {
                    if prev == NONE {
                        head = next;
                    } else {
                        self.next[prev as usize] = next;
                    }
                    if at == tail {
                        tail = prev;
                    }
                } else {
                    prev = at;
                }
                at = next;
            }
            if head == NONE {
                self.heads.remove(key);
            } else {
                self.heads.insert(*key, (head, tail));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_share_a_key_in_the_order_added_and_removal_unlinks() {
        let mut b = Buckets::default();
        let mut c = Vec::new();
        b.insert(0, &[10, 11], &mut c);
        b.insert(1, &[11, 12], &mut c);
        assert_eq!(c, [0]);
        c.clear();
        b.insert(2, &[10, 11, 12], &mut c);
        assert_eq!(c, [0, 0, 1, 1]);
        c.clear();
        b.candidates(&[11], u32::MAX, &mut c);
        assert_eq!(c, [0, 1, 2]);
        c.clear();
        b.candidates(&[11], 2, &mut c);
        assert_eq!(c, [0, 1]);
        b.remove(1, &[11, 12]);
        c.clear();
        b.candidates(&[11, 12], u32::MAX, &mut c);
        assert_eq!(c, [0, 2, 2]);
        b.remove(2, &[10, 11, 12]);
        b.remove(0, &[10, 11]);
        assert!(b.heads.is_empty());
        // A bucket whose tail was removed takes new links again.
        c.clear();
        b.insert(3, &[11], &mut c);
        b.insert(4, &[11], &mut c);
        assert_eq!(c, [3]);
    }
}
