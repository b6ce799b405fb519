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

    /// Adds document `position` to the buckets of `keys` (after every
    /// document already there: positions grow along a chain).
    pub(crate) fn add(&mut self, position: u32, keys: &[u64]) {
        for &key in keys {
            let link = self.next.len() as u32;
            self.next.push(NONE);
            self.owner.push(position);
            match self.heads.get_mut(&key) {
                Some((_, last)) => {
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
    /// position is below `before` (all with `u32::MAX`): at most the first
    /// `cap` of each bucket, in the order added (once per shared key).
    pub(crate) fn candidates(
        &self,
        keys: &[u64],
        before: u32,
        cap: usize,
        candidates: &mut Vec<u32>,
    ) {
        for key in keys {
            if let Some(&(first, _)) = self.heads.get(key) {
                let mut at = first;
                let mut taken = 0;
                while at != NONE && taken < cap {
                    let p = self.owner[at as usize];
                    if p >= before {
                        // Positions grow along a chain.
                        break;
                    }
                    candidates.push(p);
                    taken += 1;
                    at = self.next[at as usize];
                }
            }
        }
    }

    /// Takes document `position` out of the buckets of `keys` (the keys it
    /// was inserted with). Time: the length of those buckets. Returns
    /// `true` when one of them held more than `cap` documents (a later one
    /// now moves into the first `cap`).
    pub(crate) fn remove(&mut self, position: u32, keys: &[u64], cap: usize) -> bool {
        let mut crowded = false;
        for key in keys {
            let Some(&(first, last)) = self.heads.get(key) else {
                continue;
            };
            let (mut prev, mut at) = (NONE, first);
            let (mut head, mut tail) = (first, last);
            let mut len = 0;
            while at != NONE {
                len += 1;
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
            crowded |= len > cap;
            if head == NONE {
                self.heads.remove(key);
            } else {
                self.heads.insert(*key, (head, tail));
            }
        }
        crowded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(b: &Buckets, keys: &[u64], before: u32, cap: usize) -> Vec<u32> {
        let mut c = Vec::new();
        b.candidates(keys, before, cap, &mut c);
        c
    }

    #[test]
    fn candidates_share_a_key_in_the_order_added_and_removal_unlinks() {
        let mut b = Buckets::default();
        b.add(0, &[10, 11]);
        assert_eq!(found(&b, &[11, 12], u32::MAX, usize::MAX), [0]);
        b.add(1, &[11, 12]);
        assert_eq!(found(&b, &[10, 11, 12], u32::MAX, usize::MAX), [0, 0, 1, 1]);
        b.add(2, &[10, 11, 12]);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX), [0, 1, 2]);
        assert_eq!(found(&b, &[11], 2, usize::MAX), [0, 1]);
        assert!(!b.remove(1, &[11, 12], usize::MAX));
        assert_eq!(found(&b, &[11, 12], u32::MAX, usize::MAX), [0, 2, 2]);
        b.remove(2, &[10, 11, 12], usize::MAX);
        b.remove(0, &[10, 11], usize::MAX);
        assert!(b.heads.is_empty());
        // A bucket whose tail was removed takes new links again.
        b.add(3, &[11]);
        b.add(4, &[11]);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX), [3, 4]);
    }

    #[test]
    fn a_cap_takes_the_first_documents_of_each_bucket() {
        let mut b = Buckets::default();
        for p in 0..10 {
            b.add(p, &[7]);
        }
        b.add(10, &[8]);
        assert_eq!(found(&b, &[7, 8], u32::MAX, 3), [0, 1, 2, 10]);
        assert_eq!(found(&b, &[7], 2, 3), [0, 1]);
        // Removing one of a crowded bucket says so; the next one moves up.
        assert!(b.remove(1, &[7], 3));
        assert_eq!(found(&b, &[7], u32::MAX, 3), [0, 2, 3]);
        assert!(!b.remove(10, &[8], 3));
    }
}
