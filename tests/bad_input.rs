//! Bad and unusual input: each gives a sensible report or a clear error, and
//! nothing panics or hangs.

use neardup::{compare, CompareConfig, ErrorKind};

fn opts() -> CompareConfig {
    CompareConfig::default()
}

#[test]
fn empty_and_whitespace_texts_are_clear_errors() {
    for (a, b, which) in [
        ("", "some text here", "a"),
        ("some text here", "", "b"),
        ("   \n\t  ", "some text", "a"),
        ("some text", "!!! ... ???", "b"),
        ("🙂🙂🙂", "some text", "a"),
    ] {
        let e = compare(a, b, &opts()).unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::EmptyText { which });
        assert!(e
            .to_string()
            .contains(&format!("text {which} has no words")));
    }
}

#[test]
fn ten_megabyte_text_is_compared() {
    // 10 MB of varied prose-like text: a pseudo-random word sequence.
    let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon",
    ];
    let mut x = 0x9e3779b97f4a7c15u64;
    let mut big = String::with_capacity(10 << 20);
    while big.len() < 10 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        big.push_str(words[(x % words.len() as u64) as usize]);
        big.push(' ');
    }
    // Whole words from the middle.
    let start = big[1000..].find(' ').unwrap() + 1001;
    let end = big[..5000].rfind(' ').unwrap();
    let copied = &big[start..end];
    let r = compare(copied, &big, &opts()).unwrap();
    assert_eq!(r.measures.score, 1.0);
    assert!(r.measures.tokens_b > 1_000_000);
}

#[test]
fn too_large_is_refused_before_work() {
    let big = "word ".repeat(1000);
    let e = compare(&big, "word", &opts().max_bytes(100)).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::TooLarge {
            which: "a",
            len: 5000,
            max: 100
        }
    ));
}

#[test]
fn nul_bytes_separate_words() {
    let r = compare("copied\0text\0is\0here", "copied text is here", &opts()).unwrap();
    assert_eq!(r.measures.score, 1.0);
    assert_eq!(r.measures.tokens_a, 4);
}

#[test]
fn emoji_cjk_and_rtl_give_sensible_reports() {
    let src = "日本語の文章を書くのは楽しいです。毎日少しずつ練習します。";
    let sus = "私は毎日少しずつ練習します。";
    let r = compare(sus, src, &opts()).unwrap();
    assert!(r.measures.score > 0.5, "{r:?}");
    let p = &r.passages[0];
    assert_eq!(&sus[p.a.start..p.a.end], "毎日少しずつ練習します");
    assert_eq!(&src[p.b.start..p.b.end], "毎日少しずつ練習します");

    let src = "مرحبا بالعالم، هذا اختبار بسيط للنص العربي";
    let r = compare("هذا اختبار بسيط للنص", src, &opts()).unwrap();
    assert_eq!(r.measures.score, 1.0);

    let r = compare("I 😀 love family time 🎉", "We love family time!", &opts()).unwrap();
    assert_eq!(r.measures.shared_shingles, 1);
    for p in &r.passages {
        // Ranges fall on char boundaries of the originals.
        assert!("I 😀 love family time 🎉".get(p.a.start..p.a.end).is_some());
    }
}

#[test]
fn pathological_repetition_does_not_hang() {
    let a = "the ".repeat(200_000);
    let r = compare(&a, &a, &opts()).unwrap();
    assert_eq!(r.measures.score, 1.0);
    assert_eq!(r.passages.len(), 1);
}

#[test]
fn invalid_options_are_clear_errors() {
    for (o, name) in [
        (opts().word_k(0), "word_k"),
        (opts().word_k(33), "word_k"),
        (opts().char_q(0), "char_q"),
        (opts().span_gap(65), "span_gap"),
        (opts().max_bytes(0), "max_bytes"),
    ] {
        let e = compare("a b c", "a b c", &o).unwrap_err();
        // The option is named in the error's kind, and its message in each
        // binding's idiom.
        assert!(
            matches!(e.kind(), ErrorKind::InvalidOption { option, .. } if *option == name),
            "{e}"
        );
        assert!(e
            .to_string()
            .starts_with(&format!("invalid option {name}: must be in ")));
        let flag = format!("--{}", name.replace('_', "-"));
        assert!(e
            .message_with(|n| format!("--{}", n.replace('_', "-")))
            .contains(&flag));
    }
}

/// Sizes from a header or the arguments are checked before anything is
/// built: a model listing 20,000 features (each would re-shingle both texts),
/// an index of C(64, 16) tables, and a snapshot header announcing 2^40
/// documents are refused at once with errors that say why.
#[test]
fn sizes_are_checked_before_work() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/model.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let one = m["vector"]["features"][5].clone();
    m["vector"]["features"] = serde_json::Value::Array(vec![one; 20_000]);
    let e = neardup::verdict::SvmModel::from_json(&m.to_string()).unwrap_err();
    assert!(e.to_string().contains("features"), "{e}");
    assert!(e.to_string().contains("1..=64"), "{e}");

    let config = neardup::simhash::SimHashIndexConfig::default()
        .max_k(16)
        .blocks(Some(64));
    let e = neardup::simhash::SimHashIndex::new(&config).unwrap_err();
    assert!(e.to_string().contains("more than 1000"), "{e}");

    // A valid LSH snapshot whose document count is replaced by 2^40.
    let mut lsh = neardup::minhash::MinHashLsh::new(&Default::default()).unwrap();
    let hasher = neardup::minhash::MinHasher::new(&Default::default()).unwrap();
    neardup::NearDupIndex::insert(
        &mut lsh,
        "a",
        hasher.signature_of_text("one two three four five"),
    )
    .unwrap();
    let bytes = lsh.to_bytes();
    // magic, format (2: one-permutation), spec, num_perm, threshold, bands,
    // rows, seed, kind, size, scheme
    assert_eq!(bytes[4], 2);
    let at = 4 + 2 + 2 + 4 + 8 + 4 + 4 * lsh.params().bands() + 8 + 1 + 1 + 1;
    assert_eq!(bytes[at..at + 8], 1u64.to_le_bytes());
    let mut bad = bytes[..bytes.len() - 4].to_vec();
    bad[at..at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let crc = crc32fast::hash(&bad);
    bad.extend(crc.to_le_bytes());
    let Err(e) = neardup::minhash::MinHashLsh::from_bytes(&bad) else {
        panic!("a count of 2^40 was accepted");
    };
    assert!(matches!(e.kind(), ErrorKind::Corrupt { .. }), "{e}");
}

/// Issue 26: a dictionary over the documented maximum (2^20 words) is
/// refused from its header, before any word is read or indexed, naming the
/// limit (a 2^22-word one used to take 2 GB before failing).
#[test]
fn a_dictionary_over_the_limit_is_refused_from_its_header() {
    let dict = neardup::spell::Dictionary::from_counts([("alpha", 3), ("beta", 2)]).unwrap();
    let bytes = dict.to_bytes();
    // magic, format, spec version, then the word count.
    assert_eq!(bytes[8..12], 2u32.to_le_bytes());
    for n in [neardup::spell::MAX_WORDS as u32 + 1, 1 << 22] {
        let mut bad = bytes[..bytes.len() - 4].to_vec();
        bad[8..12].copy_from_slice(&n.to_le_bytes());
        let crc = crc32fast::hash(&bad);
        bad.extend(crc.to_le_bytes());
        let Err(e) = neardup::spell::Dictionary::from_bytes(&bad) else {
            panic!("a dictionary of {n} words was accepted");
        };
        assert!(matches!(e.kind(), ErrorKind::Corrupt { .. }), "{e}");
        assert!(
            e.to_string()
                .contains(&format!("{n} words, more than the limit of 1048576")),
            "{e}"
        );
    }
    assert_eq!(neardup::spell::MAX_WORDS, 1 << 20);
}

/// Issue 34: the one decoder of text files (the core's `decode_text`, used
/// by the CLI, the page and the bindings) is held to an independent one,
/// `encoding_rs` (Firefox's), on every single byte, on byte-order marks and
/// on random bytes: UTF-8 when valid, else Windows-1252; UTF-16 and UTF-8
/// by their marks.
#[test]
fn decode_text_agrees_with_encoding_rs() {
    use neardup::text::{decode_text, TextEncoding};
    let reference = |bytes: &[u8]| -> (String, &'static str) {
        if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
            let (t, _) = enc.decode_without_bom_handling(&bytes[bom..]);
            return (t.into_owned(), enc.name());
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => (s.to_owned(), "UTF-8"),
            Err(_) => {
                let (t, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
                (t.into_owned(), "windows-1252")
            }
        }
    };
    let check = |bytes: &[u8]| {
        let d = decode_text(bytes);
        let (text, name) = reference(bytes);
        assert_eq!(d.text, text, "{bytes:?}");
        assert_eq!(d.encoding.name(), name, "{bytes:?}");
    };
    for b in 0..=255u8 {
        check(&[b]);
        check(&[b'a', b, b'z']);
    }
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for _ in 0..20_000 {
        let len = (next() % 24) as usize;
        let mut bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        let mark: &[u8] = match next() % 4 {
            0 => &[0xFF, 0xFE],
            1 => &[0xFE, 0xFF],
            2 => &[0xEF, 0xBB, 0xBF],
            _ => &[],
        };
        bytes.splice(0..0, mark.iter().copied());
        check(&bytes);
    }
    // Valid UTF-8 stays UTF-8, whatever it holds.
    assert_eq!(
        decode_text("日本語 ok".as_bytes()).encoding,
        TextEncoding::Utf8
    );
}

/// The spec version in a header (bytes 6–7, SPEC.md §4): a version this
/// build does not know, or version 2 where only version 1 exists (document
/// frequencies), is a `Version` error naming the shingle specification; a
/// signature of each version reads back as itself, and the two are refused
/// as incompatible, never compared.
#[test]
fn spec_versions_in_headers_are_checked() {
    use neardup::classset::library::Library;
    use neardup::dedup::{DedupConfig, DedupMethod, Stages, Weights};
    use neardup::hash::Spec;
    use neardup::minhash::{MinHashConfig, MinHasher, Signature};
    use neardup::tfidf::DocumentFrequencies;

    fn with_spec(bytes: &[u8], spec: u16) -> Vec<u8> {
        let mut b = bytes.to_vec();
        b[6..8].copy_from_slice(&spec.to_le_bytes());
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]).to_le_bytes();
        b[n..].copy_from_slice(&crc);
        b
    }
    let text = "the quick brown fox jumps over the lazy dog again and again";
    let sig = |spec| {
        MinHasher::new(&MinHashConfig::default().spec(spec))
            .unwrap()
            .signature_of_text(text)
    };
    let (one, two) = (sig(Spec::V1), sig(Spec::V2));
    for s in [&one, &two] {
        assert_eq!(&Signature::from_bytes(&s.to_bytes()).unwrap(), s);
    }
    assert!(matches!(
        one.jaccard(&two).unwrap_err().kind(),
        ErrorKind::Incompatible { .. }
    ));
    // The same values under another version's header are another signature.
    let relabelled = Signature::from_bytes(&with_spec(&one.to_bytes(), 2)).unwrap();
    assert_eq!(relabelled.spec(), Spec::V2);
    assert!(one.jaccard(&relabelled).is_err());
    let three = Signature::from_bytes(&with_spec(&one.to_bytes(), 3)).unwrap_err();
    match three.kind() {
        ErrorKind::Version {
            what,
            found,
            supported,
        } => {
            assert_eq!((*what, *found, *supported), ("shingle specification", 3, 2));
        }
        k => panic!("{k:?}"),
    }
    // A class library exists in version 1 only.
    let library = Library::new(&Default::default()).unwrap().to_bytes();
    match Library::from_bytes(&with_spec(&library, 2))
        .unwrap_err()
        .kind()
    {
        ErrorKind::Version {
            found, supported, ..
        } => assert_eq!((*found, *supported), (2, 1)),
        k => panic!("{k:?}"),
    }
    // Document frequencies record the version of their terms: counted by
    // stages of version 2, they are version 2's, refused by stages of
    // version 1 and by a table of version 1, and read back as version 2.
    let tfidf = DedupConfig::default()
        .method(DedupMethod::SimHash)
        .weights(Weights::Tfidf);
    let (v1, v2) = (
        Stages::new(&tfidf.spec(Spec::V1)).unwrap(),
        Stages::new(&tfidf.spec(Spec::V2)).unwrap(),
    );
    let (mut d1, mut d2) = (DocumentFrequencies::new(), DocumentFrequencies::new());
    v1.count(&mut d1, text).unwrap();
    v2.count(&mut d2, text).unwrap();
    assert_eq!((d1.spec(), d2.spec()), (Spec::V1, Spec::V2));
    let incompatible = |e: neardup::Error| matches!(e.kind(), ErrorKind::Incompatible { .. });
    assert!(incompatible(v1.count(&mut d2, text).unwrap_err()));
    assert!(incompatible(d1.clone().merge(&d2).unwrap_err()));
    let back = DocumentFrequencies::from_bytes(&d2.to_bytes()).unwrap();
    assert_eq!(back.spec(), Spec::V2);
    assert!(v2.with_frequencies(back.clone().into()).is_ok());
    assert!(incompatible(
        v1.with_frequencies(back.into()).err().unwrap()
    ));
}
