//! The normaliser's ASCII fast paths equal the general path
//! (`normalize_reference`, unicode-segmentation and the full tables) on any
//! UTF-8 text, and token ranges lie on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::text::{normalize, normalize_reference};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    let fast = normalize(text);
    assert_eq!(fast, normalize_reference(text));
    for t in fast.tokens() {
        assert!(text.is_char_boundary(t.orig.start) && text.is_char_boundary(t.orig.end));
    }
});
