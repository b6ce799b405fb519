//! The bucket store under every index: bucket key → the documents holding
//! it, in the order of their positions — LSH's buckets (Indyk & Motwani
//! 1998) for every kind of key: MinHash bands, SimHash and multiref tables
//! (one key per table), the exact join's prefix shingles (a varying number
//! of keys). Two documents are candidates when they share a bucket.
//!
//! **Chains.** A bucket's documents form a circular chain through one `u32`
//! array (`next`); the store finds a bucket by its *last* link, whose `next`
//! is the first. So adding at the end, reading from the start and knowing
//! the bucket's length all need no list of their own, and a bucket with one
//! document costs one table entry and one link, with no allocation.
//! Positions increase along a chain from its first link to its last: a
//! document added below the last of a bucket is linked in its place.
//!
//! **Two layouts.**
//!
//! * [`Buckets::tables`]: `k` keys per document, the `j`-th in table `j`
//!   (bands, permuted-block tables). A table entry is a 4-byte position,
//!   and the link of position `p` in table `j` is `next[p · k + j]`. **Keys
//!   are not stored**: a probe that meets an entry with the same 7 bits of
//!   hash (hashbrown's control byte) confirms it by recomputing key `j` of
//!   the position there, from the sketch the caller holds (`key(p, j)`),
//!   so a lookup stays exact, never a candidate by a collision of stored
//!   bits. A full table is rebuilt twice as large by reading the positions
//!   in order (sequential reads of the sketches), its old table freed
//!   first: about `5 · k` bytes of table a document (5–10 with the spare
//!   room) and `4 · k` of links.
//! * [`Buckets::keyed`]: keys of any number per document (the exact join's
//!   prefixes): a map from the key (8 bytes) to its bucket's last link, and
//!   per link its next link and its document.
//!
//! The keys themselves are the caller's (stable 64-bit hashes, SPEC.md); the
//! store never hashes with anything but them.

use alloc::vec::Vec;
use hashbrown::hash_table::Entry;
use hashbrown::{HashMap, HashTable};

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

/// Not linked / end.
const NONE: u32 = u32::MAX;

/// The candidate index: buckets of positions (module docs).
#[derive(Clone, Debug)]
pub(crate) struct Buckets {
    store: Store,
}

#[derive(Clone, Debug)]
enum Store {
    /// One table per key index; `next[p · k + j]` is position `p`'s next
    /// position in its bucket of table `j` ([`NONE`]: not linked).
    Tables {
        tables: Vec<HashTable<u32>>,
        next: Vec<u32>,
    },
    /// Key → last link; per link its next link and its position.
    Keyed {
        last: Map<u64, u32>,
        next: Vec<u32>,
        owner: Vec<u32>,
    },
}

impl Buckets {
    /// `k` keys a document, the `j`-th in table `j`, keys recomputed from
    /// the caller's sketches (module docs).
    pub(crate) fn tables(k: usize) -> Self {
        Self::tables_for(k, 0)
    }

    /// [`Buckets::tables`] with room for `n` documents (a snapshot read:
    /// no table grows).
    pub(crate) fn tables_for(k: usize, n: usize) -> Self {
        Buckets {
            store: Store::Tables {
                tables: (0..k).map(|_| HashTable::with_capacity(n)).collect(),
                next: Vec::with_capacity(n.saturating_mul(k)),
            },
        }
    }

    /// Keys of any number a document, stored.
    pub(crate) fn keyed() -> Self {
        Buckets {
            store: Store::Keyed {
                last: Map::default(),
                next: Vec::new(),
                owner: Vec::new(),
            },
        }
    }

    /// The same layout, empty.
    pub(crate) fn emptied(&self) -> Self {
        match &self.store {
            Store::Tables { tables, .. } => Self::tables(tables.len()),
            Store::Keyed { .. } => Self::keyed(),
        }
    }

    /// `true` when position `position` with `more` keys still fits (links
    /// are numbered by `u32` in the keyed layout).
    pub(crate) fn has_room(&self, position: u32, more: usize) -> bool {
        match &self.store {
            Store::Tables { tables, .. } => {
                (position as u64 + 1) * (tables.len() as u64) < usize::MAX as u64
            }
            Store::Keyed { next, .. } => next.len() + more < NONE as usize,
        }
    }

    /// Adds position `p` to the buckets of `keys` (one per table in the
    /// tables layout). `key(q, j)` recomputes key `j` of a position `q`
    /// already linked.
    pub(crate) fn add(&mut self, p: u32, keys: &[u64], key: impl Fn(u32, usize) -> u64) {
        match &mut self.store {
            Store::Tables { tables, next } => {
                let k = tables.len();
                if keys.is_empty() {
                    return; // a document without shingles
                }
                debug_assert_eq!(keys.len(), k);
                let at = p as usize * k;
                if next.len() < at + k {
                    next.resize(at + k, NONE);
                }
                for (j, &h) in keys.iter().enumerate() {
                    if tables[j].len() == tables[j].capacity() {
                        grow(tables, next, j, &key);
                    }
                    let link = |q: u32| q as usize * k + j;
                    let hash = |&q: &u32| key(q, j);
                    match tables[j].entry(h, |&q| key(q, j) == h, hash) {
                        Entry::Occupied(mut e) => {
                            let last = *e.get();
                            if insert(next, link, last, p) {
                                *e.get_mut() = p;
                            }
                        }
                        Entry::Vacant(e) => {
                            e.insert(p);
                            next[link(p)] = p;
                        }
                    }
                }
            }
            Store::Keyed { last, next, owner } => {
                for &h in keys {
                    let l = next.len() as u32;
                    next.push(l);
                    owner.push(p);
                    match last.get_mut(&h) {
                        Some(tail) if owner[*tail as usize] <= p => {
                            // The common case: after the last.
                            next[l as usize] = next[*tail as usize];
                            next[*tail as usize] = l;
                            *tail = l;
                        }
                        Some(tail) => {
                            let (t, o) = (*tail, &*owner);
                            insert_keyed(next, o, t, l);
                        }
                        None => {
                            last.insert(h, l);
                        }
                    }
                }
            }
        }
    }

    /// Appends to `out` the positions in the buckets of `keys` that are
    /// below `before` (all with `u32::MAX`): of the first `cap` of each
    /// bucket, in the order of positions (once per shared key), those that
    /// `keep` (a caller's cheap test, applied after the cap is counted, so
    /// it never changes which documents are the first `cap`).
    pub(crate) fn candidates(
        &self,
        keys: &[u64],
        before: u32,
        cap: usize,
        key: impl Fn(u32, usize) -> u64,
        keep: impl Fn(u32) -> bool,
        out: &mut Vec<u32>,
    ) {
        for (j, &h) in keys.iter().enumerate() {
            let mut taken = 0;
            self.walk(j, h, &key, |p| {
                if p >= before || taken >= cap {
                    return false;
                }
                if keep(p) {
                    out.push(p);
                }
                taken += 1;
                true
            });
        }
    }

    /// Calls `f` with the positions of bucket `h` of table `j` (the keyed
    /// layout ignores `j`) from the first, while it returns `true`.
    fn walk(
        &self,
        j: usize,
        h: u64,
        key: &impl Fn(u32, usize) -> u64,
        mut f: impl FnMut(u32) -> bool,
    ) {
        match &self.store {
            Store::Tables { tables, next } => {
                let k = tables.len();
                let Some(&last) = tables[j].find(h, |&q| key(q, j) == h) else {
                    return;
                };
                let mut p = next[last as usize * k + j];
                loop {
                    if !f(p) || p == last {
                        return;
                    }
                    p = next[p as usize * k + j];
                }
            }
            Store::Keyed { last, next, owner } => {
                let Some(&tail) = last.get(&h) else {
                    return;
                };
                let mut l = next[tail as usize];
                loop {
                    if !f(owner[l as usize]) || l == tail {
                        return;
                    }
                    l = next[l as usize];
                }
            }
        }
    }

    /// The positions of every bucket of table `j` holding two or more, in
    /// the order of positions, one bucket at a time (tables layout; the
    /// keyed layout has one table, `j` = 0).
    pub(crate) fn for_each_shared(&self, j: usize, mut f: impl FnMut(&[u32])) {
        let mut bucket = Vec::new();
        match &self.store {
            Store::Tables { tables, next } => {
                let k = tables.len();
                for &last in tables[j].iter() {
                    let mut p = next[last as usize * k + j];
                    if p == last {
                        continue;
                    }
                    bucket.clear();
                    loop {
                        bucket.push(p);
                        if p == last {
                            break;
                        }
                        p = next[p as usize * k + j];
                    }
                    f(&bucket);
                }
            }
            Store::Keyed { last, next, owner } => {
                for &tail in last.values() {
                    let mut l = next[tail as usize];
                    if l == tail {
                        continue;
                    }
                    bucket.clear();
                    loop {
                        bucket.push(owner[l as usize]);
                        if l == tail {
                            break;
                        }
                        l = next[l as usize];
                    }
                    f(&bucket);
                }
            }
        }
    }

    /// Takes position `p` out of the buckets of `keys` (the keys it was
    /// added with, `key(p, j)` still giving them). Time: the length of those
    /// buckets. Returns `true` when one of them held more than `cap`
    /// documents (a later one now moves into the first `cap`).
    pub(crate) fn remove(
        &mut self,
        p: u32,
        keys: &[u64],
        cap: usize,
        key: impl Fn(u32, usize) -> u64,
    ) -> bool {
        let mut crowded = false;
        match &mut self.store {
            Store::Tables { tables, next } => {
                let k = tables.len();
                for (j, &h) in keys.iter().enumerate() {
                    let link = |q: u32| q as usize * k + j;
                    if next.get(link(p)).is_none_or(|&n| n == NONE) {
                        continue;
                    }
                    let Ok(mut e) = tables[j].find_entry(h, |&q| key(q, j) == h) else {
                        continue;
                    };
                    let last = *e.get();
                    let (len, prev) = unlink(next, link, last, p);
                    crowded |= len > cap;
                    if p == last {
                        if prev == p {
                            e.remove();
                        } else {
                            *e.get_mut() = prev;
                        }
                    }
                }
            }
            Store::Keyed { last, next, owner } => {
                for &h in keys {
                    let Some(&tail) = last.get(&h) else {
                        continue;
                    };
                    // The link of `p` in this bucket, and its predecessor.
                    let (mut prev, mut l, mut len, mut found) =
                        (tail, next[tail as usize], 0, None);
                    loop {
                        len += 1;
                        if found.is_none() && owner[l as usize] == p {
                            found = Some((prev, l));
                        }
                        if l == tail {
                            break;
                        }
                        prev = l;
                        l = next[l as usize];
                    }
                    crowded |= len > cap;
                    let Some((prev, l)) = found else {
                        continue;
                    };
                    if prev == l {
                        last.remove(&h);
                    } else {
                        next[prev as usize] = next[l as usize];
                        if l == tail {
                            last.insert(h, prev);
                        }
                    }
                    next[l as usize] = NONE;
                }
            }
        }
        crowded
    }
}

/// Links position `p` into the chain whose last is `last`, keeping the
/// positions increasing; `true` when `p` becomes the last.
fn insert(next: &mut [u32], link: impl Fn(u32) -> usize, last: u32, p: u32) -> bool {
    if p > last {
        next[link(p)] = next[link(last)];
        next[link(last)] = p;
        return true;
    }
    // Below the last (a reused slot): after the last position below it
    // (after the last link itself when `p` is below the first).
    let mut q = last;
    loop {
        let n = next[link(q)];
        if n > p {
            break;
        }
        q = n;
    }
    next[link(p)] = next[link(q)];
    next[link(q)] = p;
    false
}

/// [`insert`] for the keyed layout: link `l` (of position `owner[l]`) into
/// the chain whose last link is `tail`, below it.
fn insert_keyed(next: &mut [u32], owner: &[u32], tail: u32, l: u32) {
    let p = owner[l as usize];
    let mut q = tail;
    loop {
        let n = next[q as usize];
        if owner[n as usize] > p {
            break;
        }
        q = n;
    }
    next[l as usize] = next[q as usize];
    next[q as usize] = l;
}

/// Takes `p` out of the chain whose last is `last`: the chain's length
/// before, and `p`'s predecessor (`p` itself when it was alone).
fn unlink(next: &mut [u32], link: impl Fn(u32) -> usize, last: u32, p: u32) -> (usize, u32) {
    let (mut prev, mut q, mut len, mut found) = (last, next[link(last)], 0, None);
    loop {
        len += 1;
        if q == p {
            found = Some(prev);
        }
        if q == last {
            break;
        }
        prev = q;
        q = next[link(q)];
    }
    let prev = found.unwrap_or(p);
    if prev != p {
        next[link(prev)] = next[link(p)];
    }
    next[link(p)] = NONE;
    (len, prev)
}

/// Rebuilds table `j` twice as large: its old table freed first, then every
/// linked position read in order, the last of each bucket (the largest
/// position) becoming its entry. Chains are unchanged.
fn grow(tables: &mut [HashTable<u32>], next: &[u32], j: usize, key: &impl Fn(u32, usize) -> u64) {
    let k = tables.len();
    let capacity = (tables[j].capacity() * 2).max(16);
    tables[j] = HashTable::new();
    let mut table = HashTable::with_capacity(capacity);
    for p in 0..(next.len() / k) as u32 {
        if next[p as usize * k + j] == NONE {
            continue;
        }
        let h = key(p, j);
        match table.entry(h, |&q| key(q, j) == h, |&q| key(q, j)) {
            Entry::Occupied(mut e) => *e.get_mut() = p,
            Entry::Vacant(e) => {
                e.insert(p);
            }
        }
    }
    tables[j] = table;
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// Keys of a test: position `p`'s key `j` from a fixed list.
    fn found(b: &Buckets, keys: &[u64], before: u32, cap: usize, all: &[Vec<u64>]) -> Vec<u32> {
        let mut c = Vec::new();
        b.candidates(
            keys,
            before,
            cap,
            |q, j| all[q as usize][j],
            |_| true,
            &mut c,
        );
        c
    }

    #[test]
    fn keyed_candidates_share_a_key_in_order_and_removal_unlinks() {
        let none: &[Vec<u64>] = &[];
        let mut b = Buckets::keyed();
        let k = |_: u32, _: usize| 0;
        b.add(0, &[10, 11], k);
        assert_eq!(found(&b, &[11, 12], u32::MAX, usize::MAX, none), [0]);
        b.add(1, &[11, 12], k);
        assert_eq!(
            found(&b, &[10, 11, 12], u32::MAX, usize::MAX, none),
            [0, 0, 1, 1]
        );
        b.add(2, &[10, 11, 12], k);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX, none), [0, 1, 2]);
        assert_eq!(found(&b, &[11], 2, usize::MAX, none), [0, 1]);
        assert!(!b.remove(1, &[11, 12], usize::MAX, k));
        assert_eq!(found(&b, &[11, 12], u32::MAX, usize::MAX, none), [0, 2, 2]);
        b.remove(2, &[10, 11, 12], usize::MAX, k);
        b.remove(0, &[10, 11], usize::MAX, k);
        let Store::Keyed { last, .. } = &b.store else {
            unreachable!()
        };
        assert!(last.is_empty());
        // A bucket whose last was removed takes new links again.
        b.add(3, &[11], k);
        b.add(4, &[11], k);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX, none), [3, 4]);
        // A position below the last goes in its place.
        b.add(1, &[11], k);
        assert_eq!(found(&b, &[11], u32::MAX, usize::MAX, none), [1, 3, 4]);
    }

    #[test]
    fn a_cap_takes_the_first_documents_of_each_bucket() {
        for mut b in [Buckets::keyed(), Buckets::tables(1)] {
            let mut all: Vec<Vec<u64>> = (0..10).map(|_| vec![7]).collect();
            all.push(vec![8]);
            let key = |q: u32, j: usize| all[q as usize][j];
            for p in 0..11 {
                b.add(p, &all[p as usize], key);
            }
            assert_eq!(found(&b, &[7], u32::MAX, 3, &all), [0, 1, 2]);
            assert_eq!(found(&b, &[8], u32::MAX, 3, &all), [10]);
            assert_eq!(found(&b, &[7], 2, 3, &all), [0, 1]);
            // Removing one of a crowded bucket says so; the next moves up.
            assert!(b.remove(1, &[7], 3, key));
            assert_eq!(found(&b, &[7], u32::MAX, 3, &all), [0, 2, 3]);
            assert!(!b.remove(10, &[8], 3, key));
            assert!(found(&b, &[8], u32::MAX, 3, &all).is_empty());
        }
    }

    /// Random adds and removals, against a plain list of (key, position)
    /// per table, as the tables grow from empty: candidates agree in order.
    #[test]
    fn tables_agree_with_a_plain_list_as_they_grow() {
        let k = 3;
        let n = 3000u32;
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        // Few distinct keys: buckets of one to dozens.
        let all: Vec<Vec<u64>> = (0..n)
            .map(|_| (0..k).map(|j| ((j as u64) << 32) | (rnd() % 400)).collect())
            .collect();
        let key = |q: u32, j: usize| all[q as usize][j];
        let mut b = Buckets::tables(k);
        let mut live: Vec<bool> = vec![false; n as usize];
        for p in 0..n {
            b.add(p, &all[p as usize], key);
            live[p as usize] = true;
            if rnd() % 4 == 0 {
                let q = (rnd() % (p as u64 + 1)) as u32;
                if live[q as usize] {
                    b.remove(q, &all[q as usize], usize::MAX, key);
                    live[q as usize] = false;
                }
            }
        }
        // Some removed positions come back (below the last of their buckets).
        for q in (0..n).step_by(7) {
            if !live[q as usize] {
                b.add(q, &all[q as usize], key);
                live[q as usize] = true;
            }
        }
        for probe in (0..n).step_by(13) {
            let keys = &all[probe as usize];
            let want: Vec<u32> = (0..k)
                .flat_map(|j| {
                    (0..n)
                        .filter(|&q| live[q as usize] && all[q as usize][j] == keys[j])
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(found(&b, keys, u32::MAX, usize::MAX, &all), want);
            let capped: Vec<u32> = (0..k)
                .flat_map(|j| {
                    (0..n)
                        .filter(|&q| live[q as usize] && all[q as usize][j] == keys[j])
                        .filter(|&q| q < probe)
                        .take(2)
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(found(&b, keys, probe, 2, &all), capped);
        }
        // Every shared bucket of table 1 once, in order.
        let mut seen = 0;
        b.for_each_shared(1, |bucket| {
            assert!(bucket.len() >= 2 && bucket.windows(2).all(|w| w[0] < w[1]));
            let h = all[bucket[0] as usize][1];
            assert!(bucket.iter().all(|&q| all[q as usize][1] == h));
            seen += bucket.len();
        });
        let mut counts = Map::<u64, usize>::default();
        for q in (0..n).filter(|&q| live[q as usize]) {
            *counts.entry(all[q as usize][1]).or_default() += 1;
        }
        assert_eq!(seen, counts.values().filter(|&&c| c >= 2).sum::<usize>());
    }
}
