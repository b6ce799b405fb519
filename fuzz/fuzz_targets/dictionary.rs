//! A spelling dictionary (`Dictionary::from_bytes`). Whatever the bytes: no
//! panic, no allocation beyond the limits `scripts/fuzz.sh` sets; a
//! dictionary that loads re-encodes to the same bytes and corrects a word.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::spell::Dictionary;

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = Dictionary::from_bytes(data) {
        assert_eq!(d.to_bytes(), data);
        let _ = d.candidates("recieve", 5);
    }
});
