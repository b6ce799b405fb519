//! `compare` on two texts cut from the input at the first NUL: no panic;
//! every measure in [0, 1]; passages inside both texts, on character
//! boundaries, in order and non-overlapping in a.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::{compare, CompareConfig};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (a, b) = text.split_once('\0').unwrap_or((&text, &text));
    let config = CompareConfig::default().word_k(1 + (data.len() % 4) as u32);
    let Ok(r) = compare(a, b, &config) else {
        return;
    };
    let m = &r.measures;
    for v in [
        m.score,
        m.resemblance,
        m.containment,
        m.dice,
        m.char_resemblance,
        m.coverage_a,
        m.coverage_b,
    ] {
        assert!((0.0..=1.0).contains(&v), "{v}");
    }
    let mut end = 0;
    for p in &r.passages {
        assert!(p.a.start >= end && p.a.start < p.a.end && p.a.end <= a.len());
        assert!(p.b.start < p.b.end && p.b.end <= b.len());
        assert!(a.is_char_boundary(p.a.start) && a.is_char_boundary(p.a.end));
        assert!(b.is_char_boundary(p.b.start) && b.is_char_boundary(p.b.end));
        end = p.a.end;
    }
});
