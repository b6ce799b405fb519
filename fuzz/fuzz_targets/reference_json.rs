//! A multireference JSON (`ReferenceFile::from_json`): no panic, no
//! allocation beyond the limits `scripts/fuzz.sh` sets; a reference that
//! loads signs a text, and its signature round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::multiref::{MultiRefSignature, ReferenceFile};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if let Ok((_, reference)) = ReferenceFile::from_json(text) {
        let s = reference.signature("the cat sat on the mat");
        let again = MultiRefSignature::from_bytes(&s.to_bytes()).expect("round trip");
        assert_eq!(again, s);
    }
});
