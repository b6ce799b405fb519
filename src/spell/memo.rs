//! A memo of the corrections a dictionary has found, shared by the threads
//! that correct with it: a misspelt word is searched for once a dictionary
//! rather than once a text (on docs-bench's 5,075 texts, 91,619 distinct
//! unknown words as written against 284,610 searches a text at a time;
//! BENCHMARKS.md, "Dictionary correction: a bit-parallel distance and a
//! memo a dictionary"). Words are remembered folded (lowercase Latin
//! letters, [`crate::phonetic::fold`]), on which a correction depends alone,
//! so that a key has at most [`super::MAX_WORD_LEN`] bytes.
//!
//! With feature `std` (every binding has it) the memo is a hash map (FNV:
//! deterministic, nothing stored or compared depends on it) behind a
//! `std::sync::RwLock`, holding at most [`MEMO_WORDS`] words (the first ones
//! met; later words are searched each time). Without `std` there is no lock
//! to share it with, and every word is searched. Either way a correction is
//! what [`super::Dictionary::correct`] gives: the memo changes time only.

#[cfg(feature = "std")]
use alloc::boxed::Box;
use alloc::string::String;

/// Largest number of words a memo holds: 2^17 (at most about 26 MB, with
/// words and corrections of 64 bytes; docs-bench's unknown words raise
/// `neardup dedup --shingle word:3+correct`'s peak by 7.7 MB).
pub const MEMO_WORDS: usize = 1 << 17;

#[cfg(feature = "std")]
type Map =
    hashbrown::HashMap<Box<[u8]>, Option<Box<str>>, core::hash::BuildHasherDefault<fnv::FnvHasher>>;

/// The memo (module docs). Cloning gives an empty memo.
pub(crate) struct Memo {
    #[cfg(feature = "std")]
    map: std::sync::RwLock<Map>,
    /// Most words held: [`MEMO_WORDS`] (smaller in tests).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    cap: usize,
}

impl Default for Memo {
    fn default() -> Self {
        Memo::with_cap(MEMO_WORDS)
    }
}

impl Memo {
    fn with_cap(cap: usize) -> Self {
        Memo {
            #[cfg(feature = "std")]
            map: Default::default(),
            cap,
        }
    }

    /// The correction of the word folded to `key` (at most
    /// [`super::MAX_WORD_LEN`] bytes, so that a memo's size is bounded):
    /// remembered, or `search()` remembered.
    pub(crate) fn get_or(
        &self,
        key: &[u8],
        search: impl FnOnce() -> Option<String>,
    ) -> Option<String> {
        #[cfg(feature = "std")]
        {
            // A lock poisoned by a panic elsewhere still holds corrections
            // that were whole when inserted.
            let read = self.map.read().unwrap_or_else(|e| e.into_inner());
            if let Some(fix) = read.get(key) {
                return fix.as_deref().map(String::from);
            }
            drop(read);
            let fix = search();
            let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
            if map.len() < self.cap {
                map.insert(Box::from(key), fix.as_deref().map(Box::from));
            }
            fix
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = key;
            search()
        }
    }

    /// Number of words held.
    pub(crate) fn len(&self) -> usize {
        #[cfg(feature = "std")]
        {
            self.map.read().unwrap_or_else(|e| e.into_inner()).len()
        }
        #[cfg(not(feature = "std"))]
        {
            0
        }
    }
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        Memo::with_cap(self.cap)
    }
}

impl core::fmt::Debug for Memo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Memo({} words)", self.len())
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use core::cell::Cell;

    #[test]
    fn a_word_is_searched_once_until_the_memo_is_full() {
        let memo = Memo::with_cap(2);
        let searches = Cell::new(0);
        let get = |w: &str| {
            memo.get_or(w.as_bytes(), || {
                searches.set(searches.get() + 1);
                (w != "zzz").then(|| alloc::format!("{w}!"))
            })
        };
        assert_eq!(get("abc").as_deref(), Some("abc!"));
        assert_eq!(get("abc").as_deref(), Some("abc!"));
        assert_eq!(get("zzz"), None, "no correction is remembered too");
        assert_eq!(get("zzz"), None);
        assert_eq!((searches.get(), memo.len()), (2, 2));
        // Full: a new word is searched every time, the old ones still held.
        assert_eq!(get("def").as_deref(), Some("def!"));
        assert_eq!(get("def").as_deref(), Some("def!"));
        assert_eq!(get("abc").as_deref(), Some("abc!"));
        assert_eq!((searches.get(), memo.len()), (4, 2));
        assert_eq!(memo.clone().len(), 0, "a clone starts empty");
    }
}
