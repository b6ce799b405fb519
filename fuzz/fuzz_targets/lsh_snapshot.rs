//! A MinHash LSH index snapshot (`MinHashLsh::from_bytes`). Whatever the bytes: no panic, no
//! allocation beyond the limits `scripts/fuzz.sh` sets, and anything that
//! decodes encodes to bytes that decode to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::minhash::MinHashLsh;

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = MinHashLsh::from_bytes(data) {
        let again = MinHashLsh::from_bytes(&value.to_bytes()).expect("re-encoded bytes decode");
        assert_eq!(again.to_bytes(), value.to_bytes());
    }
});
