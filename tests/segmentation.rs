//! The ASCII fast path of segmentation gives exactly the tokens of
//! `unicode-segmentation` alone, on the real corpora.

use neardup::text::normalize_reference;
use neardup::{normalize, Normalized};

fn same(a: &Normalized, b: &Normalized) -> bool {
    a.text() == b.text() && a.tokens() == b.tokens()
}

#[test]
fn fast_path_equals_reference_on_clough() {
    let dir = crate::util::data_dir().join("clough-abc/texts");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(same(&normalize(&text), &normalize_reference(&text)));
        n += 1;
    }
    assert_eq!(n, 60);
}

#[test]
fn fast_path_equals_reference_on_docs_bench() {
    let path = crate::util::data_dir().join("docs-bench/docs.jsonl");
    let all = std::fs::read_to_string(path).unwrap();
    // Every 4th document keeps the debug-build test short.
    let mut n = 0;
    for line in all.lines().step_by(4) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = v["text"].as_str().unwrap();
        let (fast, slow) = (normalize(text), normalize_reference(text));
        assert!(same(&fast, &slow), "document {}", v["id"]);
        n += 1;
    }
    assert!(n > 1200);
}
