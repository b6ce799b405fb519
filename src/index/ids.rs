//! The id/slot table every index keeps: string ids to dense `u32` slots and
//! back, with each slot's sketch, so that the indexes' own structures hold
//! 4-byte slots instead of strings.

use crate::error::{Error, ErrorKind};
use alloc::string::String;
use alloc::vec::Vec;
use hashbrown::HashMap;

type Map<K, V> = HashMap<K, V, fnv::FnvBuildHasher>;

/// Ids ↔ slots, with a value (the sketch) per live slot.
#[derive(Clone, Debug)]
pub(crate) struct IdTable<V> {
    slots: Vec<Option<(String, V)>>,
    by_id: Map<String, u32>,
    free: Vec<u32>,
    reuse: bool,
}

impl<V> IdTable<V> {
    /// An empty table with room for `n`; `reuse` hands freed slots to later
    /// inserts (else slots stay dead until [`IdTable::compact`]).
    pub(crate) fn with_capacity(n: usize, reuse: bool) -> Self {
        IdTable {
            slots: Vec::with_capacity(n),
            by_id: Map::with_capacity_and_hasher(n, Default::default()),
            free: Vec::new(),
            reuse,
        }
    }

    /// Adds `id` with `value`; returns its slot.
    pub(crate) fn insert(&mut self, id: &str, value: V) -> Result<u32, Error> {
        if self.by_id.contains_key(id) {
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
        self.by_id.insert(id.into(), slot);
        Ok(slot)
    }

    /// Removes `id`; its slot and value.
    pub(crate) fn remove(&mut self, id: &str) -> Option<(u32, V)> {
        let slot = self.by_id.remove(id)?;
        let (_, v) = self.slots[slot as usize].take()?;
        if self.reuse {
            self.free.push(slot);
        }
        Some((slot, v))
    }

    /// The slot of `id`.
    pub(crate) fn slot_of(&self, id: &str) -> Option<u32> {
        self.by_id.get(id).copied()
    }

    /// The id and value in `slot`, if live.
    #[inline]
    pub(crate) fn get(&self, slot: u32) -> Option<(&str, &V)> {
        self.slots
            .get(slot as usize)?
            .as_ref()
            .map(|(id, v)| (id.as_str(), v))
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
            .filter_map(|(s, e)| e.as_ref().map(|(id, v)| (s as u32, id.as_str(), v)))
    }

    /// Renumbers the live slots `0..len` in their order, dropping dead ones.
    pub(crate) fn compact(&mut self) {
        self.slots.retain(Option::is_some);
        self.free.clear();
        self.by_id.clear();
        for (s, e) in self.slots.iter().enumerate() {
            if let Some((id, _)) = e {
                self.by_id.insert(id.clone(), s as u32);
            }
        }
    }
}
