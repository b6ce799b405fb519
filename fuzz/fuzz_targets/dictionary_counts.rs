//! A dictionary built from a `word count` list (`neardup spell
//! --from-counts`, `Dictionary::from_counts`). Whatever the words and
//! counts: no panic; a built dictionary round-trips through its bytes,
//! holds at most `MAX_WORDS` words, and corrects any query.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::spell::{Dictionary, MAX_WORDS};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let counts: Vec<(&str, u64)> = text
        .lines()
        .filter_map(|l| {
            let (w, c) = l.split_once(' ')?;
            Some((w, c.parse().ok()?))
        })
        .collect();
    let Ok(d) = Dictionary::from_counts(counts.iter().copied()) else {
        return;
    };
    assert!(d.len() >= 1 && d.len() <= MAX_WORDS);
    let bytes = d.to_bytes();
    let back = Dictionary::from_bytes(&bytes).expect("a dictionary reads its own bytes");
    assert_eq!(back.to_bytes(), bytes);
    for q in text.split_whitespace().take(8) {
        let _ = back.correct(q);
        let _ = back.candidates(q, 3);
    }
});
