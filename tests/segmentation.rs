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

/// A document made for word shingles (its tokens hashed straight from the
/// normaliser) has the token hashes of the document normalised at once, on
/// every text of the real corpora, unmasked or not.
#[test]
fn word_hashes_from_the_normaliser_equal_the_tokens_hashes_on_the_corpora() {
    use neardup::hash::Spec;
    use neardup::{Document, Normalization, Shingling};
    let mut texts: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(crate::util::data_dir().join("clough-abc/texts")).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        texts.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    let all =
        std::fs::read_to_string(crate::util::data_dir().join("docs-bench/docs.jsonl")).unwrap();
    for line in all.lines().step_by(4) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        texts.push(v["text"].as_str().unwrap().to_string());
    }
    assert!(texts.len() > 1260);
    for text in &texts {
        for unmask in [false, true] {
            let how = Normalization::default().unmasking(unmask);
            let lazy = Document::for_shingling(text, 3, how, Spec::V2, Shingling::Words(5));
            let eager = Document::with_spec(text, 3, how, Spec::V2);
            assert_eq!(lazy.token_hashes(), eager.token_hashes(), "{text:.80}");
        }
    }
}
