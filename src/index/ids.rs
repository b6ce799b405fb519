//! The id/slot table every index keeps: string ids to dense `u32` slots and
//! back, with each slot's sketch, so that the indexes' own structures hold
//! 4-byte slots instead of strings.
//!
//! Each id is held once, in its slot: the lookup table holds only slots,
//! found by the id's FNV-1a hash and confirmed by comparing the id in the
//! slot (4 bytes an entry, where a map of `String → u32` held a second copy
//! of every id: about 50 bytes a document). The hash is of the id's bytes,
//! deterministic and never stored.

use crate::error::{Error, ErrorKind};
use alloc::boxed::Box;
use alloc::vec::Vec;
use core::hash::Hasher;
use hashbrown::HashTable;

/// Ids ↔ slots, with a value (the sketch) per live slot.
#[derive(Clone, Debug)]
pub(crate) struct IdTable<V> {
    slots: Vec<Option<(Box<str>, V)>>,
    /// Live slots, by the FNV-1a hash of their id.
    by_id: HashTable<u32>,
    free: Vec<u32>,
    reuse: bool,
}

/// The lookup table's hash of an id (FNV-1a of its bytes).
fn hash_id(id: &str) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(id.as_bytes());
    h.finish()
}

impl<V> IdTable<V> {
    /// An empty table with room for `n`; `reuse` hands freed slots to later
    /// inserts (else they stay dead: slots keep the order of insertion).
    pub(crate) fn with_capacity(n: usize, reuse: bool) -> Self {
        IdTable {
            slots: Vec::with_capacity(n),
            by_id: HashTable::with_capacity(n),
            free: Vec::new(),
            reuse,
        }
    }

    /// Room for `additional` more ids without growing (the lookup table
    /// would otherwise be rebuilt at each doubling, hashing every id held
    /// again). Best effort: where the memory cannot be had, nothing is
    /// reserved and the table grows as it fills.
    pub(crate) fn reserve(&mut self, additional: usize) {
        if self.slots.try_reserve(additional).is_err() {
            return;
        }
        let slots = &self.slots;
        let _ = self
            .by_id
            .try_reserve(additional, |&s| Self::hash_slot(slots, s));
    }

    /// Adds `id` with `value`; returns its slot.
    pub(crate) fn insert(&mut self, id: &str, value: V) -> Result<u32, Error> {
        if self.slot_of(id).is_some() {
            return Err(Error::new(ErrorKind::DuplicateId { id: id.into() }));
        }
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = Some((id.into(), value));
                s
            }
            None => {
                if self.slots.len() >= u32::MAX as usize {
                    return Err(Error::new(ErrorKind::IndexFull));
                }
                self.slots.push(Some((id.into(), value)));
                (self.slots.len() - 1) as u32
            }
        };
        let slots = &self.slots;
        self.by_id
            .insert_unique(hash_id(id), slot, |&s| Self::hash_slot(slots, s));
        Ok(slot)
    }

    /// Removes `id`; its slot and value.
    pub(crate) fn remove(&mut self, id: &str) -> Option<(u32, V)> {
        let slots = &self.slots;
        let entry = self
            .by_id
            .find_entry(hash_id(id), |&s| Self::holds(slots, s, id))
            .ok()?;
        let (slot, _) = entry.remove();
        let (_, v) = self.slots[slot as usize].take()?;
        if self.reuse {
            self.free.push(slot);
        }
        Some((slot, v))
    }

    /// The slot of `id`.
    pub(crate) fn slot_of(&self, id: &str) -> Option<u32> {
        self.by_id
            .find(hash_id(id), |&s| Self::holds(&self.slots, s, id))
            .copied()
    }

    /// Whether live slot `s` holds `id`.
    fn holds(slots: &[Option<(Box<str>, V)>], s: u32, id: &str) -> bool {
        matches!(slots.get(s as usize), Some(Some((held, _))) if &**held == id)
    }

    /// The hash of the id in slot `s` (for the table's rehashing: every
    /// slot in the table is live).
    fn hash_slot(slots: &[Option<(Box<str>, V)>], s: u32) -> u64 {
        slots
            .get(s as usize)
            .and_then(Option::as_ref)
            .map_or(0, |(id, _)| hash_id(id))
    }

    /// The id and value in `slot`, if live.
    #[inline]
    pub(crate) fn get(&self, slot: u32) -> Option<(&str, &V)> {
        self.slots
            .get(slot as usize)?
            .as_ref()
            .map(|(id, v)| (&**id, v))
    }

    /// The value of `id`.
    pub(crate) fn value_of(&self, id: &str) -> Option<&V> {
        self.get(self.slot_of(id)?).map(|(_, v)| v)
    }

    /// Number of live ids.
    pub(crate) fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Number of slots, live or dead.
    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Live `(slot, id, value)` in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, &str, &V)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(s, e)| e.as_ref().map(|(id, v)| (s as u32, &**id, v)))
    }
}
