//! Golden vectors of SPEC.md: normalisation, token ranges, word and character
//! shingle hashes. The same file is checked natively and on wasm32, so the
//! values are proven bit-identical on both.
//!
//! The golden files are written only by the ignored `write_*` tests, run on
//! demand by `scripts/bless.sh` after a deliberate change: they go through
//! [`bless`], which refuses to change the bytes of a spec-bound file (one
//! named `-v{SPEC_VERSION}`) unless `SPEC_VERSION` was bumped, so that a
//! persisted value can never change silently. The tests that check the files
//! never write them.

use neardup::hash::Spec;
use neardup::shingle::{char_shingles, token_hashes, word_shingles};
use serde::{Deserialize, Serialize};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Writes golden file `name` (in `tests/golden/`) for `scripts/bless.sh`.
/// A file named `…-v{N}.json` holds values persisted under spec version N:
/// when N is the current `SPEC_VERSION` and the file exists with other bytes,
/// this refuses (panics, naming the file) unless `allow_same_version` — for
/// files bound to a shipped model or reference rather than to the spec
/// (`verdict-v1`, `multiref-v1`), which change when those are retrained.
#[cfg(not(target_arch = "wasm32"))]
pub fn bless(name: &str, content: &str, allow_same_version: bool) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    let same_version = Spec::ALL
        .iter()
        .any(|s| name.ends_with(&format!("-v{}.json", s.number())));
    if let Ok(old) = std::fs::read_to_string(&path) {
        // An empty file is a new one (`include_str!` needs the file to exist).
        if !old.is_empty() && old != content && same_version && !allow_same_version {
            panic!(
                "refusing to bless {name}: its bytes would change under the same spec version; \
                 a change of persisted values needs a new spec version (SPEC.md) and a new file"
            );
        }
    }
    std::fs::write(&path, content).unwrap();
}

/// The golden file of each spec version.
const GOLDENS: [(Spec, &str); 2] = [
    (Spec::V1, include_str!("golden/spec-v1.json")),
    (Spec::V2, include_str!("golden/spec-v2.json")),
];

#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct Golden {
    pub spec_version: u32,
    pub cases: Vec<Case>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct Case {
    pub name: String,
    pub input: String,
    /// The seed as a decimal string (u64 does not fit a JSON number safely).
    pub seed: String,
    pub normalized: String,
    /// Byte ranges of the tokens in `input`.
    pub tokens: Vec<[usize; 2]>,
    pub word_k: usize,
    /// Hex, 16 digits each.
    pub word_shingles: Vec<String>,
    pub char_q: usize,
    pub char_shingles: Vec<String>,
}

fn hex(v: &[u64]) -> Vec<String> {
    v.iter().map(|h| format!("{h:016x}")).collect()
}

/// Computes a case from its inputs with the crate (spec version 1).
pub fn compute(name: &str, input: &str, seed: u64, word_k: usize, char_q: usize) -> Case {
    compute_with(
        neardup::Normalization::default(),
        Spec::V1,
        name,
        input,
        seed,
        word_k,
        char_q,
    )
}

/// [`compute`] under normalisation `how` and spec version `spec`.
pub fn compute_with(
    how: neardup::Normalization,
    spec: Spec,
    name: &str,
    input: &str,
    seed: u64,
    word_k: usize,
    char_q: usize,
) -> Case {
    let n = how.normalize(input);
    Case {
        name: name.into(),
        input: input.into(),
        seed: seed.to_string(),
        normalized: n.text().into(),
        tokens: n
            .tokens()
            .iter()
            .map(|t| [t.orig.start, t.orig.end])
            .collect(),
        word_k,
        word_shingles: hex(&word_shingles(
            &token_hashes(&n, seed, spec),
            word_k,
            seed,
            spec,
        )),
        char_q,
        char_shingles: hex(&char_shingles(&n, char_q, seed, spec)),
    }
}

/// Every word length from 1 to 24 bytes, at the text's ends and far from
/// them, hashes under spec version 2 as the reference C library's XXH3-64
/// does (`golden/token-lengths-v2.json`, written by the `xxhash` Python
/// package, not by neardup): the short-token path of `hash::v2`, with its
/// reads either side of a token, on every length class.
#[test]
fn word_lengths_hash_as_the_reference_xxh3() {
    #[derive(Deserialize)]
    struct Lengths {
        text: String,
        word_k: usize,
        cases: Vec<LengthCase>,
    }
    #[derive(Deserialize)]
    struct LengthCase {
        seed: String,
        word_shingles: Vec<String>,
    }
    let golden: Lengths =
        serde_json::from_str(include_str!("golden/token-lengths-v2.json")).expect("parses");
    let n = neardup::normalize(&golden.text);
    let lengths: std::collections::BTreeSet<usize> = n.token_strs().map(str::len).collect();
    assert_eq!(lengths, (1..=24).collect());
    assert_eq!(golden.cases.len(), 3);
    for case in &golden.cases {
        let seed: u64 = case.seed.parse().expect("seed");
        let got = word_shingles(
            &token_hashes(&n, seed, Spec::V2),
            golden.word_k,
            seed,
            Spec::V2,
        );
        assert_eq!(hex(&got), case.word_shingles, "seed {seed}");
    }
}

#[test]
fn golden_vectors_hold() {
    let default = neardup::Normalization::default();
    for (spec, file) in GOLDENS {
        let golden: Golden = serde_json::from_str(file).expect("golden file parses");
        assert_eq!(golden.spec_version, u32::from(spec.number()));
        assert!(golden.cases.len() >= 10);
        for case in &golden.cases {
            let seed: u64 = case.seed.parse().expect("seed");
            let (k, q) = (case.word_k, case.char_q);
            let got = compute_with(default, spec, &case.name, &case.input, seed, k, q);
            assert_eq!(&got, case, "{spec} golden case {}", case.name);
        }
    }
}

/// The spec re-implemented from SPEC.md §3 without the crate's hash module,
/// on an ASCII case (where normalisation is lower-casing and splitting).
#[test]
fn spec_reimplementation_agrees() {
    fn fnv1a(seed: u64, bytes: &[u8]) -> u64 {
        let mut h = 0xcbf29ce484222325u64 ^ seed;
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
        h
    }
    fn fmix(mut k: u64) -> u64 {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51afd7ed558ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ceb9fe1a85ec53);
        k ^ (k >> 33)
    }
    let seed = 42u64;
    let words = ["the", "cat", "sat", "on", "the", "mat"];
    let t: Vec<u64> = words
        .iter()
        .map(|w| fmix(fnv1a(seed, w.as_bytes())))
        .collect();
    let want: Vec<u64> = t
        .windows(2)
        .map(|w| fmix(fmix(seed ^ w[0]) ^ w[1]))
        .collect();
    let n = neardup::normalize("The cat sat, on THE mat!");
    let v1 = Spec::V1;
    assert_eq!(
        word_shingles(&token_hashes(&n, seed, v1), 2, seed, v1),
        want
    );
    let text = "the cat sat on the mat";
    let want_c: Vec<u64> = (0..=text.len() - 4)
        .map(|i| fmix(fnv1a(seed, &text.as_bytes()[i..i + 4])))
        .collect();
    assert_eq!(char_shingles(&n, 4, seed, v1), want_c);
}

#[cfg(not(target_arch = "wasm32"))]
/// The inputs of the golden file: (name, text, seed, word k, char q).
pub const INPUTS: &[(&str, &str, u64, usize, usize)] = &[
    (
        "ascii",
        "The quick brown fox jumps over the lazy dog.",
        0,
        3,
        5,
    ),
    (
        "punctuation-case",
        "Don't PANIC: it’s -- only a TEST, isn't it?",
        0,
        2,
        4,
    ),
    ("short-than-k", "Hello, world", 0, 5, 20),
    ("one-char", "x", 0, 3, 5),
    ("empty", "", 0, 3, 5),
    ("whitespace-only", " \t\r\n  \u{3000} ", 0, 3, 5),
    ("nfkc", "ﬁne ＦＵＬＬ-width ① ㎏ Å", 0, 1, 3),
    ("casefold", "STRASSE Straße ΣΟΦΟΣ σοφος İstanbul", 0, 2, 3),
    ("cjk", "日本語の文章を書く。中文文本", 0, 2, 2),
    ("korean", "한국어 문장 입니다", 0, 2, 3),
    ("hebrew", "שָׁלוֹם עולם, זה מבחן", 0, 2, 3),
    ("arabic", "مرحبا بالعالم، هذا اختبار", 0, 2, 3),
    ("devanagari", "नमस्ते दुनिया यह परीक्षा है", 0, 2, 3),
    ("emoji", "I 😀 love 👩‍👩‍👧 family time 🎉!", 0, 2, 3),
    ("nul-and-controls", "a\u{0}b c\u{7}d e", 0, 2, 3),
    ("numbers", "Version 3.14 costs $1,000.50 in 2024", 0, 2, 4),
    (
        "seed-large",
        "The quick brown fox jumps over the lazy dog.",
        12345678901234567890,
        3,
        5,
    ),
    (
        "seed-one",
        "The quick brown fox jumps over the lazy dog.",
        1,
        3,
        5,
    ),
    ("crlf", "line one\r\nline two\r\n\r\nline three", 0, 2, 5),
];

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn golden_file_is_complete() {
    for (spec, file) in GOLDENS {
        let want = spec_golden(spec);
        let have: Golden = serde_json::from_str(file).unwrap();
        let names = |g: &Golden| g.cases.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(&have),
            names(&want),
            "{spec}: golden inputs changed; bless deliberately"
        );
    }
}

/// Writes `tests/golden/spec-v1.json` and `spec-v2.json` (`scripts/bless.sh`).
#[cfg(not(target_arch = "wasm32"))]
#[test]
#[ignore = "writes tests/golden/spec-v*.json; run by scripts/bless.sh"]
fn write_spec_golden() {
    for spec in Spec::ALL {
        bless(
            &format!("spec-v{}.json", spec.number()),
            &(serde_json::to_string_pretty(&spec_golden(spec)).unwrap() + "\n"),
            false,
        );
    }
}

/// The spec's golden cases as this build computes them under `spec`.
#[cfg(not(target_arch = "wasm32"))]
fn spec_golden(spec: Spec) -> Golden {
    Golden {
        spec_version: u32::from(spec.number()),
        cases: INPUTS
            .iter()
            .map(|&(name, input, seed, k, q)| {
                compute_with(
                    neardup::Normalization::default(),
                    spec,
                    name,
                    input,
                    seed,
                    k,
                    q,
                )
            })
            .collect(),
    }
}

/// Golden vectors of the normalisation with diacritics folded (SPEC.md §1,
/// `foldDiacritics`): tokens, word and character shingles, and the text as
/// the default normalisation gives it (`unfolded`), from which
/// `tests/spec_reference.py` folds each token by the spec's rule alone.
mod fold {
    use super::{compute, compute_with, Case, Spec};
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/fold-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Golden {
        spec_version: u32,
        normalization: String,
        cases: Vec<FoldCase>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct FoldCase {
        #[serde(flatten)]
        case: Case,
        unfolded: String,
    }

    const FOLD: neardup::Normalization = neardup::Normalization::folding(true);

    #[cfg(not(target_arch = "wasm32"))]
    const INPUTS: &[(&str, &str)] = &[
        ("ascii_unchanged", "The quick brown fox, don't panic."),
        (
            "german_umlauts",
            "Müller's Mädchen übten; GRÖSSE und Größe, Öl, Äpfel",
        ),
        (
            "spanish",
            "Canción del niño: ¿Qué corazón? Mañana, pingüino",
        ),
        ("french", "Garçon, où est le café crème? Noël à l'hôpital"),
        ("greek_tonos", "Ελληνικά: ένα, δύο, τρία· ΆΈΉ"),
        ("cyrillic", "Йод и ёлка, Ёж"),
        (
            "undecomposed_letters",
            "Łódź Ørsted Þórr Æsir œuvre đa ħ ı ŧ",
        ),
        (
            "combining_sequences",
            "q\u{308}uux a\u{308}b e\u{301}te n\u{303}",
        ),
        ("vietnamese", "Tiếng Việt rất đẹp, người ơi"),
        ("other_scripts_keep_marks", "שָׁלוֹם नमस्ते العَرَبِيَّة 日本語"),
        ("mixed_with_ligature", "ﬁancé Ｍädchen ⅸ"),
    ];

    #[cfg(not(target_arch = "wasm32"))]
    fn golden() -> Golden {
        Golden {
            spec_version: neardup::SPEC_VERSION,
            normalization: FOLD.name().into(),
            cases: INPUTS
                .iter()
                .map(|&(name, input)| FoldCase {
                    case: compute_with(FOLD, Spec::V1, name, input, 0, 3, 5),
                    unfolded: compute(name, input, 0, 3, 5).normalized,
                })
                .collect(),
        }
    }

    #[test]
    fn fold_golden_vectors_hold() {
        let golden: Golden = serde_json::from_str(GOLDEN).expect("golden file parses");
        assert_eq!(golden.spec_version, neardup::SPEC_VERSION);
        assert_eq!(golden.normalization, FOLD.name());
        assert!(golden.cases.len() >= 10);
        for g in &golden.cases {
            let c = &g.case;
            let seed: u64 = c.seed.parse().expect("seed");
            let got = compute_with(FOLD, Spec::V1, &c.name, &c.input, seed, c.word_k, c.char_q);
            assert_eq!(&got, c, "fold golden case {}", c.name);
            let plain = compute(&c.name, &c.input, seed, c.word_k, c.char_q);
            assert_eq!(plain.normalized, g.unfolded, "unfolded {}", c.name);
            // Folding never moves a token in the original text.
            assert_eq!(plain.tokens, c.tokens, "token ranges of {}", c.name);
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn fold_golden_file_is_complete() {
        let have: Golden = serde_json::from_str(GOLDEN).unwrap();
        let names = |g: &Golden| {
            g.cases
                .iter()
                .map(|c| c.case.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(&have),
            names(&golden()),
            "fold inputs changed; bless deliberately"
        );
    }

    /// Writes `tests/golden/fold-v1.json` (`scripts/bless.sh fold`).
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/fold-v1.json; run by scripts/bless.sh"]
    fn write_fold_golden() {
        super::bless(
            "fold-v1.json",
            &(serde_json::to_string_pretty(&golden()).unwrap() + "\n"),
            false,
        );
    }
}

/// Golden vectors of the unmasked normalisation (SPEC.md §1, step 0, issue
/// 47): tokens (ranges into the tricked text), shingles, what was undone
/// (counts and ranges), and the text as the plain normalisation gives it;
/// a dedup configuration made with the default (unmasked) and its
/// snapshot; a library of the default configuration — natively and on
/// wasm32.
mod unmask {
    use super::{compute, compute_with, Case, Spec};
    use neardup::classset::library::Library;
    use neardup::classset::ClassSetConfig;
    use neardup::dedup::{DedupConfig, Deduplicator};
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/unmask-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Golden {
        spec_version: u32,
        normalization: String,
        cases: Vec<UnmaskCase>,
        /// `Deduplicator` with `{}` (unmasked by default) of the inputs:
        /// its snapshot, hex.
        dedup_snapshot: String,
        /// A library of the default class-set configuration of the first
        /// three inputs, hex.
        library: String,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct UnmaskCase {
        #[serde(flatten)]
        case: Case,
        lookalikes: u64,
        invisible: u64,
        ranges: Vec<[usize; 2]>,
        plain: String,
    }

    const UNMASK: neardup::Normalization = neardup::Normalization::folding(false).unmasking(true);

    const INPUTS: &[(&str, &str)] = &[
        ("ascii_unchanged", "The quick brown fox, don't panic."),
        (
            "cyrillic_lookalikes",
            "Thе сору оf а tеxt іs stіll а сору, рlеаsе.",
        ),
        ("whole_cyrillic_words", "a copy: сору, рор, ахе and аре"),
        ("zero_width_space", "co\u{200B}py th\u{200B}is te\u{200B}xt"),
        ("soft_hyphen", "pla\u{AD}gia\u{AD}rism is co\u{AD}pying"),
        (
            "omicron_and_joiners",
            "c\u{200D}ο\u{200D}py t\u{200D}ο sh\u{200D}ο\u{200D}w",
        ),
        ("uppercase_and_marks", "ТНЕ АВС, Ёlka аnd cоpy"),
        (
            "bidi_and_tags",
            "a\u{202E}b\u{202C}c w\u{E0041}ord \u{2066}x\u{2069}",
        ),
        (
            "russian_unchanged",
            "Наследование — это способ создавать новые классы, с Python и C++.",
        ),
        (
            "greek_unchanged",
            "Η κληρονομικότητα είναι ένας τρόπος, ο λόγος.",
        ),
        (
            "serbian_cyrillic",
            "Наслеђивање је начин да се формирају нове класе.",
        ),
        (
            "maths_with_greek",
            "Let α be the angle and β the slope, π r² the area.",
        ),
        ("persian_zwnj", "می\u{200C}خواهم بروم"),
        ("emoji_zwj", "family 👩\u{200D}👩\u{200D}👧 day"),
        ("latin_lookalikes_of_latin_kept", "rn m l I 1 0 O modern"),
    ];

    fn golden() -> Golden {
        let texts: Vec<&str> = INPUTS.iter().map(|&(_, t)| t).collect();
        // Made under spec version 1, the default then (issue 50: now 2).
        let mut d = Deduplicator::new(&DedupConfig::default().spec(Spec::V1)).unwrap();
        for (i, t) in texts.iter().enumerate() {
            d.add(&format!("t{i}"), t).unwrap();
        }
        let mut lib = Library::new(&ClassSetConfig::default()).unwrap();
        let named: Vec<(String, &str)> = texts[..3]
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("t{i}"), *t))
            .collect();
        let named: Vec<(&str, &str)> = named.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        lib.add(&named).unwrap();
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
        Golden {
            spec_version: neardup::SPEC_VERSION,
            normalization: UNMASK.name().into(),
            cases: INPUTS
                .iter()
                .map(|&(name, input)| {
                    let n = UNMASK.normalize(input);
                    let o = n.obfuscation();
                    UnmaskCase {
                        case: compute_with(UNMASK, Spec::V1, name, input, 0, 3, 5),
                        lookalikes: o.lookalikes,
                        invisible: o.invisible,
                        ranges: o.ranges.iter().map(|r| [r.start, r.end]).collect(),
                        plain: compute(name, input, 0, 3, 5).normalized,
                    }
                })
                .collect(),
            dedup_snapshot: hex(&d.to_bytes()),
            library: hex(&lib.to_bytes()),
        }
    }

    #[test]
    fn unmask_golden_vectors_hold() {
        let want: Golden = serde_json::from_str(GOLDEN).expect("golden file parses");
        assert_eq!(want.normalization, "nfkc-casefold-unmasked");
        let got = golden();
        assert_eq!(got.cases.len(), want.cases.len());
        for (g, w) in got.cases.iter().zip(&want.cases) {
            assert_eq!(g, w, "unmask golden case {}", w.case.name);
        }
        assert_eq!(got, want);
        // The tricked texts read as their honest form; the others as ever.
        let case = |name: &str| want.cases.iter().find(|c| c.case.name == name).unwrap();
        assert_eq!(
            case("cyrillic_lookalikes").case.normalized,
            "the copy of a text is still a copy please"
        );
        assert_eq!(case("zero_width_space").case.normalized, "copy this text");
        for name in [
            "ascii_unchanged",
            "russian_unchanged",
            "greek_unchanged",
            "serbian_cyrillic",
            "maths_with_greek",
        ] {
            let c = case(name);
            assert_eq!(c.case.normalized, c.plain, "{name}");
            assert_eq!((c.lookalikes, c.invisible), (0, 0), "{name}");
        }
        // The snapshot and the library read back to the same bytes.
        let unhex = |h: &str| -> Vec<u8> {
            (0..h.len() / 2)
                .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
                .collect()
        };
        let d = Deduplicator::from_bytes(&unhex(&want.dedup_snapshot), None, None).unwrap();
        assert!(d.config().unmasks());
        let lib = Library::from_bytes(&unhex(&want.library)).unwrap();
        assert!(lib.config().unmask);
        assert_eq!(lib.to_bytes(), unhex(&want.library));
    }

    /// Writes `tests/golden/unmask-v1.json` (`scripts/bless.sh unmask`).
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/unmask-v1.json; run by scripts/bless.sh"]
    fn write_unmask_golden() {
        super::bless(
            "unmask-v1.json",
            &(serde_json::to_string_pretty(&golden()).unwrap() + "\n"),
            false,
        );
    }
}

/// Golden MinHash signatures and an LSH snapshot: the bytes must be identical
/// natively and on wasm32.
mod sketches {
    use neardup::hash::Spec;
    use neardup::minhash::{
        LshConfig, MinHashConfig, MinHashLsh, MinHashScheme, MinHasher, Signature,
    };
    use neardup::shingle::Shingling;
    use neardup::simhash::{
        Fingerprint, SimHashConfig, SimHashIndex, SimHashIndexConfig, Weighting,
    };
    use neardup::NearDupIndex;
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/sketches-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Sketches {
        pub minhash: Vec<MinHashCase>,
        pub lsh: LshCase,
        /// The same documents in an index of one-permutation signatures.
        pub lsh_oph: LshCase,
        pub simhash: Vec<SimHashCase>,
        pub simhash_index: SimHashIndexCase,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct SimHashCase {
        pub text: String,
        pub shingle: String,
        pub weights: String,
        pub seed: String,
        /// The fingerprint, 16 hex digits.
        pub fingerprint: String,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct SimHashIndexCase {
        pub max_k: u32,
        pub fingerprints: Vec<(String, String)>,
        pub removed: String,
        /// `SimHashIndex::table_keys` of each fingerprint (the edge
        /// Worker stores them), 16 hex digits each.
        pub table_keys: Vec<Vec<String>>,
        /// `SimHashIndex::to_bytes`, hex.
        pub snapshot: String,
    }

    fn simhash_case(text: &str, shingle: &str, weights: &str, seed: u64) -> SimHashCase {
        simhash_case_in(Spec::V1, text, shingle, weights, seed)
    }

    /// [`simhash_case`] under spec version `spec`.
    pub fn simhash_case_in(
        spec: Spec,
        text: &str,
        shingle: &str,
        weights: &str,
        seed: u64,
    ) -> SimHashCase {
        let config = SimHashConfig {
            shingle: shingle.parse().unwrap(),
            weights: if weights == "tf" {
                Weighting::Tf
            } else {
                Weighting::Binary
            },
            seed,
            spec,
        };
        SimHashCase {
            text: text.into(),
            shingle: shingle.into(),
            weights: weights.into(),
            seed: seed.to_string(),
            fingerprint: format!("{:016x}", config.fingerprint(text).unwrap().value()),
        }
    }

    fn simhash_index_case(max_k: u32, fps: &[(&str, u64)], removed: &str) -> SimHashIndexCase {
        let mut index = SimHashIndex::new(&SimHashIndexConfig::default().max_k(max_k)).unwrap();
        for (id, fp) in fps {
            index.insert(id, Fingerprint::from_value(*fp)).unwrap();
        }
        let table_keys = fps
            .iter()
            .map(|(_, fp)| {
                let keys = index.table_keys(&Fingerprint::from_value(*fp)).unwrap();
                keys.iter().map(|k| format!("{k:016x}")).collect()
            })
            .collect();
        index.remove(removed);
        SimHashIndexCase {
            max_k,
            fingerprints: fps
                .iter()
                .map(|(id, fp)| (id.to_string(), format!("{fp:016x}")))
                .collect(),
            removed: removed.into(),
            table_keys,
            snapshot: hex(&index.to_bytes()),
        }
    }

    fn classic() -> String {
        "classic".into()
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct MinHashCase {
        pub text: String,
        pub num_perm: usize,
        pub seed: String,
        /// `"classic"` (the cases written before schemes existed) or `"oph"`.
        #[serde(default = "classic")]
        pub scheme: String,
        pub shingle: String,
        /// `Signature::to_bytes`, hex.
        pub bytes: String,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct LshCase {
        #[serde(default = "classic")]
        pub scheme: String,
        pub threshold: f64,
        pub num_perm: usize,
        pub docs: Vec<(String, String)>,
        pub removed: String,
        pub bands: usize,
        /// `MinHashLsh::band_keys` of each document (the edge Worker stores
        /// them), 16 hex digits each.
        pub band_keys: Vec<Vec<String>>,
        /// `MinHashLsh::to_bytes`, hex.
        pub snapshot: String,
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    fn minhash_case(
        text: &str,
        num_perm: usize,
        seed: u64,
        shingle: &str,
        scheme: &str,
    ) -> MinHashCase {
        minhash_case_in(Spec::V1, text, num_perm, seed, shingle, scheme)
    }

    /// [`minhash_case`] under spec version `spec`.
    pub fn minhash_case_in(
        spec: Spec,
        text: &str,
        num_perm: usize,
        seed: u64,
        shingle: &str,
        scheme: &str,
    ) -> MinHashCase {
        let sh: Shingling = shingle.parse().unwrap();
        let config = MinHashConfig {
            num_perm: num_perm as u32,
            seed,
            shingle: sh,
            scheme: scheme.parse().unwrap(),
            spec,
        };
        let sig = MinHasher::new(&config).unwrap().signature_of_text(text);
        MinHashCase {
            text: text.into(),
            num_perm,
            seed: seed.to_string(),
            scheme: scheme.into(),
            shingle: shingle.into(),
            bytes: hex(&sig.to_bytes()),
        }
    }

    fn lsh_case(
        scheme: &str,
        threshold: f64,
        num_perm: usize,
        docs: &[(&str, &str)],
        removed: &str,
    ) -> LshCase {
        lsh_case_in(Spec::V1, scheme, threshold, num_perm, docs, removed)
    }

    /// [`lsh_case`] under spec version `spec`.
    pub fn lsh_case_in(
        spec: Spec,
        scheme: &str,
        threshold: f64,
        num_perm: usize,
        docs: &[(&str, &str)],
        removed: &str,
    ) -> LshCase {
        let h = MinHasher::new(&MinHashConfig {
            num_perm: num_perm as u32,
            seed: 0,
            shingle: Shingling::Words(3),
            scheme: scheme.parse::<MinHashScheme>().unwrap(),
            spec,
        })
        .unwrap();
        let mut lsh = MinHashLsh::new(
            &LshConfig::default()
                .threshold(threshold)
                .num_perm(num_perm as u32),
        )
        .unwrap();
        let mut band_keys = Vec::new();
        for (id, text) in docs {
            let sig = h.signature_of_text(text);
            let keys = lsh.band_keys(&sig).unwrap();
            band_keys.push(keys.iter().map(|k| format!("{k:016x}")).collect());
            lsh.insert(id, sig).unwrap();
        }
        lsh.remove(removed);
        LshCase {
            scheme: scheme.into(),
            threshold,
            num_perm,
            docs: docs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            removed: removed.into(),
            bands: lsh.params().bands(),
            band_keys,
            snapshot: hex(&lsh.to_bytes()),
        }
    }

    fn recompute_lsh(g: &LshCase) -> LshCase {
        let docs: Vec<(&str, &str)> = g
            .docs
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        lsh_case(&g.scheme, g.threshold, g.num_perm, &docs, &g.removed)
    }

    fn compute(golden: &Sketches) -> Sketches {
        Sketches {
            minhash: golden
                .minhash
                .iter()
                .map(|c| {
                    minhash_case(
                        &c.text,
                        c.num_perm,
                        c.seed.parse().unwrap(),
                        &c.shingle,
                        &c.scheme,
                    )
                })
                .collect(),
            lsh: recompute_lsh(&golden.lsh),
            lsh_oph: recompute_lsh(&golden.lsh_oph),
            simhash: golden
                .simhash
                .iter()
                .map(|c| simhash_case(&c.text, &c.shingle, &c.weights, c.seed.parse().unwrap()))
                .collect(),
            simhash_index: {
                let g = &golden.simhash_index;
                let fps: Vec<(&str, u64)> = g
                    .fingerprints
                    .iter()
                    .map(|(id, fp)| (id.as_str(), u64::from_str_radix(fp, 16).unwrap()))
                    .collect();
                simhash_index_case(g.max_k, &fps, &g.removed)
            },
        }
    }

    #[test]
    fn sketch_golden_vectors_hold() {
        let golden: Sketches = serde_json::from_str(GOLDEN).expect("golden sketches parse");
        assert!(golden.minhash.len() >= 4 && golden.simhash.len() >= 4);
        assert_eq!(compute(&golden), golden);
        for c in &golden.minhash {
            let bytes: Vec<u8> = (0..c.bytes.len() / 2)
                .map(|i| u8::from_str_radix(&c.bytes[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            assert_eq!(Signature::from_bytes(&bytes).unwrap().to_bytes(), bytes);
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    const LSH_DOCS: &[(&str, &str)] = &[
        ("a", "one two three four five six seven"),
        ("b", "one two three four five six eight"),
        ("c", "completely different words are here now"),
        ("d", "to be removed from the index later"),
    ];

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/sketches-v1.json; run by scripts/bless.sh"]
    fn write_sketch_golden() {
        let seed_cases = Sketches {
            minhash: {
                let mut cases = Vec::new();
                for scheme in ["classic", "oph"] {
                    let fox = "The quick brown fox jumps over the lazy dog.";
                    cases.extend([
                        minhash_case(fox, 16, 0, "word:3", scheme),
                        minhash_case(fox, 16, 12345678901234567890, "word:3", scheme),
                        minhash_case("日本語の文章を書く。中文文本", 8, 0, "char:2", scheme),
                        minhash_case("", 4, 0, "word:5", scheme),
                        minhash_case("Hello, world", 32, 7, "char:5", scheme),
                    ]);
                }
                // Few shingles in many bins (most densified), and many
                // shingles in few bins, with a bin count not a power of two.
                cases.push(minhash_case(
                    "one two three four five six",
                    64,
                    3,
                    "word:2",
                    "oph",
                ));
                cases.push(minhash_case(
                    "The quick brown fox jumps over the lazy dog, and the dog sleeps on.",
                    7,
                    0,
                    "char:3",
                    "oph",
                ));
                cases
            },
            lsh: lsh_case("classic", 0.5, 16, LSH_DOCS, "d"),
            lsh_oph: lsh_case("oph", 0.5, 16, LSH_DOCS, "d"),
            simhash: vec![
                simhash_case(
                    "The quick brown fox jumps over the lazy dog.",
                    "word:3",
                    "tf",
                    0,
                ),
                simhash_case(
                    "The quick brown fox jumps over the lazy dog.",
                    "word:1",
                    "binary",
                    0,
                ),
                simhash_case(
                    "The quick brown fox jumps over the lazy dog.",
                    "char:5",
                    "tf",
                    12345678901234567890,
                ),
                simhash_case("日本語の文章を書く。中文文本", "char:2", "tf", 0),
                simhash_case("", "word:3", "tf", 0),
                simhash_case("la la la la la la", "word:1", "tf", 3),
            ],
            simhash_index: simhash_index_case(
                3,
                &[
                    ("a", 0x0123_4567_89ab_cdef),
                    ("b", 0x0123_4567_89ab_cdee),
                    ("c", 0xfedc_ba98_7654_3210),
                    ("d", 0x0000_0000_0000_0000),
                ],
                "d",
            ),
        };
        crate::golden::bless(
            "sketches-v1.json",
            &(serde_json::to_string_pretty(&seed_cases).unwrap() + "\n"),
            false,
        );
    }
}

/// Golden sketches under spec version 2 (`sketches-v2.json`): MinHash
/// signatures in both schemes, an LSH snapshot, SimHash fingerprints —
/// the bytes record version 2, and are identical natively and on wasm32.
mod sketches_v2 {
    use super::sketches::{
        lsh_case_in, minhash_case_in, simhash_case_in, LshCase, MinHashCase, SimHashCase,
    };
    use neardup::hash::Spec;
    use neardup::minhash::Signature;
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/sketches-v2.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Sketches {
        spec_version: u32,
        minhash: Vec<MinHashCase>,
        lsh_oph: LshCase,
        simhash: Vec<SimHashCase>,
    }

    fn compute(g: &Sketches) -> Sketches {
        let v2 = Spec::V2;
        let docs: Vec<(&str, &str)> = g
            .lsh_oph
            .docs
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let l = &g.lsh_oph;
        Sketches {
            spec_version: 2,
            minhash: g
                .minhash
                .iter()
                .map(|c| {
                    let seed = c.seed.parse().unwrap();
                    minhash_case_in(v2, &c.text, c.num_perm, seed, &c.shingle, &c.scheme)
                })
                .collect(),
            lsh_oph: lsh_case_in(v2, &l.scheme, l.threshold, l.num_perm, &docs, &l.removed),
            simhash: g
                .simhash
                .iter()
                .map(|c| {
                    let seed = c.seed.parse().unwrap();
                    simhash_case_in(v2, &c.text, &c.shingle, &c.weights, seed)
                })
                .collect(),
        }
    }

    fn unhex(h: &str) -> Vec<u8> {
        (0..h.len() / 2)
            .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn sketch_v2_golden_vectors_hold() {
        let golden: Sketches = serde_json::from_str(GOLDEN).expect("golden sketches parse");
        assert_eq!(golden.spec_version, 2);
        assert!(golden.minhash.len() >= 4 && golden.simhash.len() >= 3);
        assert_eq!(compute(&golden), golden);
        for c in &golden.minhash {
            let bytes = unhex(&c.bytes);
            // The header's spec version (bytes 6..8, SPEC.md §4) is 2.
            assert_eq!(&bytes[6..8], &[2, 0]);
            let sig = Signature::from_bytes(&bytes).unwrap();
            assert_eq!(sig.spec(), Spec::V2);
            assert_eq!(sig.to_bytes(), bytes);
        }
        assert_eq!(&unhex(&golden.lsh_oph.snapshot)[6..8], &[2, 0]);
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/sketches-v2.json; run by scripts/bless.sh"]
    fn write_sketch_v2_golden() {
        let v2 = Spec::V2;
        let fox = "The quick brown fox jumps over the lazy dog.";
        let mut minhash = Vec::new();
        for scheme in ["classic", "oph"] {
            minhash.extend([
                minhash_case_in(v2, fox, 16, 0, "word:3", scheme),
                minhash_case_in(v2, fox, 16, 12345678901234567890, "word:5", scheme),
                minhash_case_in(v2, "日本語の文章を書く。中文文本", 8, 0, "char:2", scheme),
                minhash_case_in(v2, "", 4, 0, "word:5", scheme),
                minhash_case_in(v2, "Hello, world", 32, 7, "char:5", scheme),
            ]);
        }
        let docs = [
            ("a", "one two three four five six seven"),
            ("b", "one two three four five six eight"),
            ("c", "completely different words are here now"),
            ("d", "to be removed from the index later"),
        ];
        let cases = Sketches {
            spec_version: 2,
            minhash,
            lsh_oph: lsh_case_in(v2, "oph", 0.5, 16, &docs, "d"),
            simhash: vec![
                simhash_case_in(v2, fox, "word:3", "tf", 0),
                simhash_case_in(v2, fox, "char:5", "binary", 12345678901234567890),
                simhash_case_in(v2, "日本語の文章を書く。中文文本", "char:2", "tf", 0),
                simhash_case_in(v2, "la la la la la la", "word:1", "tf", 3),
            ],
        };
        crate::golden::bless(
            "sketches-v2.json",
            &(serde_json::to_string_pretty(&cases).unwrap() + "\n"),
            false,
        );
    }
}

/// Verdict models give the same similarity vectors, decision values,
/// classes and probabilities natively and on wasm32: the shipped model
/// (format 3, `verdict-v3.json`; re-bless after retraining `assets/model.json`)
/// and the models shipped before it, format 2 (`model-format2.json`) and
/// format 1 (`model-format1.json`), whose `verdict-v2.json` and
/// `verdict-v1.json` were written by the builds that trained them: old
/// models still load and decide as they did.
#[cfg(feature = "serde")]
mod verdict {
    use neardup::verdict::{SvmModel, MODEL_FORMAT};
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const MODEL: &str = include_str!("../assets/model.json");
    const GOLDEN: &str = include_str!("golden/verdict-v3.json");
    const MODEL_V2: &str = include_str!("golden/model-format2.json");
    const GOLDEN_V2: &str = include_str!("golden/verdict-v2.json");
    const MODEL_V1: &str = include_str!("golden/model-format1.json");
    const GOLDEN_V1: &str = include_str!("golden/verdict-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Case {
        pub a: String,
        pub b: String,
        pub vector: Vec<f64>,
        pub decisions: Vec<f64>,
        pub class: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub copied_probability: Option<f64>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub probabilities: Vec<(String, f64)>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub between: Option<(String, String)>,
    }

    fn compute(model: &SvmModel, a: &str, b: &str) -> Case {
        let v = model.judge_texts(a, b).unwrap();
        Case {
            a: a.into(),
            b: b.into(),
            decisions: model.decision_function(&v.vector).unwrap(),
            vector: v.vector,
            class: v.class,
            copied_probability: v.copied_probability,
            probabilities: v.probabilities,
            between: v.between,
        }
    }

    fn check(model: &str, golden: &str, machines: usize) {
        let model = SvmModel::from_json(model).expect("the model loads");
        let golden: Vec<Case> = serde_json::from_str(golden).expect("golden verdicts parse");
        assert!(golden.len() >= 3);
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-12;
        for g in &golden {
            let c = compute(&model, &g.a, &g.b);
            // serde_json reads a float back to within an ulp, not always
            // exactly (no `float_roundtrip`): compare to 1e-14, relative.
            assert_eq!(c.vector.len(), g.vector.len(), "vector of {:?}", g.a);
            for (x, y) in c.vector.iter().zip(&g.vector) {
                assert!(
                    (x - y).abs() <= 1e-14 * y.abs().max(1.0),
                    "vector of {:?}: {x} vs {y}",
                    g.a
                );
            }
            assert_eq!(
                c.decisions.len(),
                g.decisions.len(),
                "decisions of {:?}",
                g.a
            );
            assert_eq!(g.decisions.len(), machines, "machines of the model");
            for (x, y) in c.decisions.iter().zip(&g.decisions) {
                assert!(close(*x, *y), "decision {x} vs {y}");
            }
            assert_eq!(c.class, g.class);
            assert_eq!(
                c.copied_probability.is_some(),
                g.copied_probability.is_some()
            );
            if let (Some(x), Some(y)) = (c.copied_probability, g.copied_probability) {
                assert!(close(x, y), "copied probability {x} vs {y}");
            }
            assert_eq!(c.probabilities.len(), g.probabilities.len());
            for ((cx, x), (cy, y)) in c.probabilities.iter().zip(&g.probabilities) {
                assert_eq!(cx, cy);
                assert!(close(*x, *y), "probability of {cx}: {x} vs {y}");
            }
            assert_eq!(c.between, g.between);
        }
    }

    #[test]
    fn verdict_golden_vectors_hold() {
        assert!(MODEL.contains(&format!("\"format\": {MODEL_FORMAT}")));
        // The binary machine and three "at least" grade machines.
        check(MODEL, GOLDEN, 4);
        let golden: Vec<Case> = serde_json::from_str(GOLDEN).unwrap();
        assert!(golden.iter().all(|g| g.probabilities.len() == 4));
    }

    #[test]
    fn a_format_2_model_still_loads_and_decides_as_it_did() {
        assert!(MODEL_V2.contains("\"format\": 2") && !MODEL_V2.contains("\"ends\""));
        check(MODEL_V2, GOLDEN_V2, 4);
    }

    #[test]
    fn a_format_1_model_still_loads_and_decides_as_it_did() {
        assert!(MODEL_V1.contains("\"format\": 1"));
        // The binary machine and four one-vs-rest machines, no probabilities.
        check(MODEL_V1, GOLDEN_V1, 5);
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/verdict-v3.json; run by scripts/bless.sh"]
    fn write_verdict_golden() {
        let model = SvmModel::from_json(MODEL).unwrap();
        let src = "PageRank is a link analysis algorithm used by the Google Internet search engine that assigns a numerical weighting to each element of a hyperlinked set of documents, with the purpose of measuring its relative importance within the set.";
        let cases = vec![
            compute(&model, src, src),
            compute(
                &model,
                "Google's PageRank gives every page of a linked set a number that measures how important it is, by analysing the links.",
                src,
            ),
            compute(&model, "Inheritance lets one class reuse the methods of another.", src),
            compute(
                &model,
                "PageRank is a link analysis algorithm used by Google that gives a numerical weight to each element of a set of linked documents, to measure how important it is within the set.",
                src,
            ),
        ];
        crate::golden::bless(
            "verdict-v3.json",
            &(serde_json::to_string_pretty(&cases).unwrap() + "\n"),
            true,
        );
    }
}

/// Golden multireference signatures: a small reference and the bytes of
/// the signatures of a few texts, identical natively and on wasm32.
#[cfg(feature = "serde")]
mod multiref {
    use neardup::multiref::{similarity, ReferenceFile};
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/multiref-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Golden {
        pub reference: serde_json::Value,
        pub cases: Vec<Case>,
        /// Similarity of the first two cases' signatures, as f64 bits (hex).
        pub similarity_bits: String,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Case {
        pub text: String,
        /// `MultiRefSignature::to_bytes`, hex.
        pub bytes: String,
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    fn compute(reference_json: &str, texts: &[&str]) -> Golden {
        let (_, r) = ReferenceFile::from_json(reference_json).expect("reference");
        let sigs: Vec<_> = texts.iter().map(|t| r.signature(t)).collect();
        Golden {
            reference: serde_json::from_str(reference_json).unwrap(),
            cases: texts
                .iter()
                .zip(&sigs)
                .map(|(t, s)| Case {
                    text: t.to_string(),
                    bytes: hex(&s.to_bytes()),
                })
                .collect(),
            similarity_bits: format!("{:016x}", similarity(&sigs[0], &sigs[1]).unwrap().to_bits()),
        }
    }

    #[test]
    fn multiref_golden_vectors_hold() {
        let golden: Golden = serde_json::from_str(GOLDEN).expect("golden multiref parses");
        let texts: Vec<&str> = golden.cases.iter().map(|c| c.text.as_str()).collect();
        let got = compute(&golden.reference.to_string(), &texts);
        assert_eq!(got, golden);
        assert!(golden.cases.len() >= 4);
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/multiref-v1.json; run by scripts/bless.sh"]
    fn write_multiref_golden() {
        let src = "Near-duplicate detection compares the cosine of character 3-gram vectors with a reference text cut into partitions; ünïcödé and 日本語 text too.";
        let chars: Vec<char> = neardup::normalize(src).text().chars().collect();
        let grams: Vec<String> = chars.windows(3).map(|w| w.iter().collect()).collect();
        let reference = serde_json::json!({
            "format": 1, "partitions": 8, "grams": grams,
            "thresholds": {"t1": 0.97, "t2": 0.93}
        });
        let golden = compute(
            &reference.to_string(),
            &[
                "Near-duplicate detection compares cosines of character 3-grams.",
                "Near duplicate detection compared the cosine of character trigrams.",
                "A different text about gardens, rain and soil.",
                "",
                "ünïcödé 日本語",
            ],
        );
        crate::golden::bless(
            "multiref-v1.json",
            &(serde_json::to_string_pretty(&golden).unwrap() + "\n"),
            true,
        );
    }
}

/// Phonetic codes and phonetic shingles (SPEC.md §13):
/// `tests/golden/phonetic-v1.json`, the same natively, on wasm32 and in Node.
pub mod phonetic {
    use neardup::phonetic::{encode, Algorithm};
    use neardup::{Document, Shingling};
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/phonetic-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Golden {
        /// Per word, its code by each algorithm (keyed by name).
        pub codes: Vec<std::collections::BTreeMap<String, String>>,
        pub shingles: Vec<ShingleCase>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct ShingleCase {
        pub text: String,
        pub shingle: String,
        pub seed: u64,
        /// Shingle hashes by position, 16 hex digits each.
        pub hashes: Vec<String>,
    }

    pub fn codes(word: &str) -> std::collections::BTreeMap<String, String> {
        let mut m: std::collections::BTreeMap<String, String> = Algorithm::ALL
            .iter()
            .map(|&a| (a.name().to_string(), encode(a, word)))
            .collect();
        let mut letters = Vec::new();
        neardup::phonetic::fold(word, &mut letters);
        if !letters.is_empty() {
            let (_, alternate) =
                neardup::phonetic::double_metaphone::double_metaphone(&letters, None);
            m.insert("metaphone_alternate".into(), alternate);
        }
        m.insert("word".into(), word.into());
        m
    }

    pub fn shingle_case(text: &str, shingle: &str, seed: u64) -> ShingleCase {
        let s: Shingling = shingle.parse().expect("shingle spec");
        ShingleCase {
            text: text.into(),
            shingle: shingle.into(),
            seed,
            hashes: Document::new(text, seed)
                .shingles(s)
                .iter()
                .map(|h| format!("{h:016x}"))
                .collect(),
        }
    }

    #[test]
    fn phonetic_golden_vectors_hold() {
        let golden: Golden = serde_json::from_str(GOLDEN).expect("golden phonetic parses");
        for c in &golden.codes {
            assert_eq!(&codes(&c["word"]), c);
        }
        for c in &golden.shingles {
            assert_eq!(&shingle_case(&c.text, &c.shingle, c.seed), c);
        }
        assert!(golden.codes.len() >= 20 && golden.shingles.len() >= 5);
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/phonetic-v1.json; run by scripts/bless.sh"]
    fn write_phonetic_golden() {
        let words = [
            "Robert",
            "Rupert",
            "Ashcraft",
            "Tymczak",
            "Pfister",
            "Guillaume",
            "Kneves",
            "Wright",
            "Rodgers",
            "Rogers",
            "Hodgins",
            "Houghton",
            "Knight",
            "Xavier",
            "Whitney",
            "nation",
            "Barthélémy",
            "Straße",
            "Łódź",
            "ﬁsh",
            "o'neil",
            "東京",
            "λόγος",
            "1984",
            "hs",
            "a",
            "recieve",
            "receive",
            "seperate",
            "separate",
            "Smith",
            "Schmidt",
            "Williams",
            "Caesar",
            "Thompson",
            "Müller",
            "laugh",
            "gnome",
        ];
        let text = "The comittee recieved a seperate report about the goverment's tax.";
        let golden = Golden {
            codes: words.iter().map(|w| codes(w)).collect(),
            shingles: vec![
                shingle_case(text, "phonetic:soundex:3", 0),
                shingle_case(text, "phonetic:phonex:2", 0),
                shingle_case(text, "phonetic:dsound:3", 7),
                shingle_case(text, "phonetic:soundd:1", 0),
                shingle_case("東京 café 1984 naïve", "phonetic:dsound:2", 0),
                shingle_case("", "phonetic:soundex:3", 0),
                shingle_case(text, "phonetic:phonix:3", 0),
                shingle_case(text, "phonetic:metaphone:2", 5),
            ],
        };
        crate::golden::bless(
            "phonetic-v1.json",
            &(serde_json::to_string_pretty(&golden).unwrap() + "\n"),
            false,
        );
    }
}

/// The dedup pipeline's persisted values (SPEC.md §14): sketch bytes, bucket
/// keys, verification and deduplicator snapshots, checked natively and on
/// wasm32 (and from Node by tests/js/dedup.test.mjs).
pub mod dedup {
    use neardup::dedup::{DedupConfig, Deduplicator, Stages};
    use neardup::hash::Spec;
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/dedup-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Golden {
        pub texts: Vec<String>,
        pub cases: Vec<Case>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Case {
        /// The configuration, as the JS options object.
        pub config: serde_json::Value,
        /// `Sketch::to_bytes` of each text, hex.
        pub sketches: Vec<String>,
        /// `Stages::keys` of each sketch, 16 hex digits each.
        pub keys: Vec<Vec<String>>,
        /// `Stages::verify` of every pair `i < j`: `"i j"` → the similarity's
        /// f64 bits (hex), or `none`.
        pub verify: Vec<String>,
        /// `Deduplicator::to_bytes` after adding every text as `t0`, `t1`, …
        pub snapshot: String,
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// A golden case's configuration: the file is version 1's, so a case
    /// that names no spec was made under version 1 (a new configuration's
    /// default is 2: issue 50) where the option applies.
    pub fn version_1(c: DedupConfig) -> DedupConfig {
        match c.spec.is_none() && c.applies("spec").is_ok() {
            true => c.spec(Spec::V1),
            false => c,
        }
    }

    pub fn compute(config: &serde_json::Value, texts: &[String]) -> Case {
        let c = version_1(serde_json::from_value(config.clone()).expect("config"));
        compute_with_stages(&c, Stages::new(&c).expect("stages"), config, texts)
    }

    /// [`compute`] with the stages given (tf-idf frequencies included).
    pub fn compute_with_stages(
        c: &DedupConfig,
        stages: Stages,
        config: &serde_json::Value,
        texts: &[String],
    ) -> Case {
        let sketches: Vec<_> = texts.iter().map(|t| stages.sketch(t).unwrap()).collect();
        let mut verify = Vec::new();
        for i in 0..texts.len() {
            for j in i + 1..texts.len() {
                let v = stages.verify(&sketches[i], &sketches[j]).unwrap();
                verify.push(match v {
                    Some(v) => format!("{i} {j} {:016x}", v.similarity.to_bits()),
                    None => format!("{i} {j} none"),
                });
            }
        }
        let _ = c;
        let mut d = Deduplicator::from_stages(stages.clone()).unwrap();
        for (i, t) in texts.iter().enumerate() {
            d.add(&format!("t{i}"), t).unwrap();
        }
        Case {
            config: config.clone(),
            sketches: sketches.iter().map(|s| hex(&s.to_bytes())).collect(),
            keys: sketches
                .iter()
                .map(|s| {
                    let keys = stages.keys(s).unwrap();
                    keys.iter().map(|k| format!("{k:016x}")).collect()
                })
                .collect(),
            verify,
            snapshot: hex(&d.to_bytes()),
        }
    }

    #[test]
    fn dedup_golden_vectors_hold() {
        let golden: Golden = serde_json::from_str(GOLDEN).expect("golden dedup parses");
        assert!(golden.cases.len() >= 5 && golden.texts.len() >= 4);
        let got: Vec<Case> = golden
            .cases
            .iter()
            .map(|c| compute(&c.config, &golden.texts))
            .collect();
        assert_eq!(got.len(), golden.cases.len());
        for (g, want) in got.iter().zip(&golden.cases) {
            assert_eq!(g, want, "{}", want.config);
        }
        // Snapshots read back to the same bytes.
        for case in &golden.cases {
            let bytes: Vec<u8> = (0..case.snapshot.len() / 2)
                .map(|i| u8::from_str_radix(&case.snapshot[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            let d = Deduplicator::from_bytes(&bytes, None, None).unwrap();
            assert_eq!(hex(&d.to_bytes()), case.snapshot);
        }
    }

    /// Writes the golden file; run on demand by `scripts/bless.sh`.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/dedup-v1.json; run by scripts/bless.sh"]
    fn write_dedup_golden() {
        let texts: Vec<String> = [
            "Near-duplicate detection finds documents that are almost the same, copies with small edits.",
            "Near duplicate detection finds documents which are almost the same: copies with tiny edits.",
            "A different text about gardens, rain and soil, ünïcödé and 日本語 too.",
            "",
        ]
        .map(String::from)
        .to_vec();
        let configs = [
            // Made before the unmasked normalisation: each records it off.
            serde_json::json!({"unmask": false}),
            serde_json::json!({"scheme": "classic", "numPerm": 16, "verify": true, "shingle": "word:2", "seed": 7, "unmask": false}),
            serde_json::json!({"method": "simhash", "k": 16, "threshold": 0.3, "unmask": false}),
            serde_json::json!({"method": "simhash", "k": 16, "verify": false, "weights": "binary", "shingle": "word:1", "unmask": false}),
            serde_json::json!({"method": "exact", "shingle": "word:1", "threshold": 0.6, "unmask": false}),
        ];
        let golden = Golden {
            cases: configs.iter().map(|c| compute(c, &texts)).collect(),
            texts,
        };
        crate::golden::bless(
            "dedup-v1.json",
            &(serde_json::to_string_pretty(&golden).unwrap() + "\n"),
            false,
        );
    }
}

/// Golden vectors of tf-idf weights (SPEC.md §14): the document frequencies'
/// bytes and digest, the sketches, keys and verification of a SimHash
/// configuration with tf-idf weights, and its snapshot (format 2) —
/// natively and on wasm32.
pub mod tfidf {
    use super::dedup::{compute_with_stages, Case};
    use neardup::dedup::{Deduplicator, Stages};
    use neardup::tfidf::DocumentFrequencies;
    use serde::{Deserialize, Serialize};
    use std::sync::Arc;

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/dedup-tfidf-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    pub struct Golden {
        pub texts: Vec<String>,
        /// `DocumentFrequencies::to_bytes` of the texts, hex.
        pub frequencies: String,
        /// `DocumentFrequencies::digest`, 16 hex digits.
        pub digest: String,
        pub cases: Vec<Case>,
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    fn compute(texts: Vec<String>) -> Golden {
        let configs = [
            // Made before the unmasked normalisation: each records it off.
            serde_json::json!({"method": "simhash", "weights": "tfidf", "k": 16, "unmask": false}),
            serde_json::json!({"method": "simhash", "weights": "tfidf", "k": 16, "verify": false, "shingle": "word:2", "seed": 5, "unmask": false}),
        ];
        let mut frequencies = None;
        let cases = configs
            .iter()
            .map(|config| {
                let c = super::dedup::version_1(serde_json::from_value(config.clone()).unwrap());
                let stages = Stages::new(&c).unwrap();
                let mut df = DocumentFrequencies::new();
                for t in &texts {
                    stages.count(&mut df, t).unwrap();
                }
                frequencies.get_or_insert((hex(&df.to_bytes()), format!("{:016x}", df.digest())));
                compute_with_stages(
                    &c,
                    stages.with_frequencies(Arc::new(df)).unwrap(),
                    config,
                    &texts,
                )
            })
            .collect();
        let (frequencies, digest) = frequencies.unwrap();
        Golden {
            texts,
            frequencies,
            digest,
            cases,
        }
    }

    #[test]
    fn tfidf_golden_vectors_hold() {
        let golden: Golden = serde_json::from_str(GOLDEN).expect("golden tf-idf parses");
        assert_eq!(compute(golden.texts.clone()), golden);
        // The frequencies and the snapshots read back to the same bytes.
        let unhex = |h: &str| -> Vec<u8> {
            (0..h.len() / 2)
                .map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).unwrap())
                .collect()
        };
        let df = DocumentFrequencies::from_bytes(&unhex(&golden.frequencies)).unwrap();
        assert_eq!(format!("{:016x}", df.digest()), golden.digest);
        for case in &golden.cases {
            let d = Deduplicator::from_bytes(&unhex(&case.snapshot), None, None).unwrap();
            assert_eq!(hex(&d.to_bytes()), case.snapshot);
            assert_eq!(&case.snapshot[8..12], "0200", "format 2");
        }
    }

    /// Writes the golden file; run on demand by `scripts/bless.sh`.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/dedup-tfidf-v1.json; run by scripts/bless.sh"]
    fn write_tfidf_golden() {
        let texts: Vec<String> = [
            "Near-duplicate detection finds documents that are almost the same, copies with small edits.",
            "Near duplicate detection finds documents which are almost the same: copies with tiny edits.",
            "A different text about gardens, rain and soil, ünïcödé and 日本語 too.",
            "The same words again and again: the the the detection detection.",
            "",
        ]
        .map(String::from)
        .to_vec();
        crate::golden::bless(
            "dedup-tfidf-v1.json",
            &(serde_json::to_string_pretty(&compute(texts)).unwrap() + "\n"),
            false,
        );
    }
}

/// A class-set library (`classset::library`, format 1) is the same bytes on
/// every platform, reads back to itself, and checks a class to the same
/// matches: `library-v1.json` holds a library of three texts and the
/// matches of two students against it.
#[cfg(feature = "serde")]
mod library {
    use neardup::classset::library::{Library, LibraryMatch};
    use neardup::classset::ClassSetConfig;
    use serde::{Deserialize, Serialize};

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const GOLDEN: &str = include_str!("golden/library-v1.json");

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Golden {
        bytes: String,
        matches: Vec<LibraryMatch>,
    }

    const TEXTS: [(&str, &str); 3] = [
        ("source.txt", "PageRank is a link analysis algorithm used by the Google Internet search engine that assigns a numerical weighting to each element of a hyperlinked set of documents, with the purpose of measuring its relative importance within the set."),
        ("2025/ann.txt", "Inheritance in object oriented programming lets a class reuse the fields and methods of another class, called its superclass or parent, and extend them with its own."),
        ("2025/bo – café.txt", "The vector space model represents documents and queries as vectors of term weights, and ranks documents by the cosine of the angle between their vector and the query's."),
    ];
    const STUDENTS: [&str; 2] = [
        "My answer: PageRank is a link analysis algorithm used by the Google Internet search engine that assigns a numerical weighting to each element of a set of documents.",
        "A class may inherit from another: it gets the parent's methods and can add its own, which is what object oriented languages call inheritance.",
    ];

    fn compute() -> (Vec<u8>, Vec<LibraryMatch>) {
        // Made before the unmasked normalisation: it records it off.
        let mut lib = Library::new(&ClassSetConfig::default().unmask(false)).unwrap();
        lib.add(&TEXTS).unwrap();
        // Two shared fingerprints, as `check` listed before MIN_SHARED was
        // chosen on data (3): the golden holds the check's figures on
        // native and wasm32, whatever the listing rule.
        let matches = lib.check_sharing(&STUDENTS, 0.0, 2).unwrap();
        (lib.to_bytes(), matches)
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn library_golden_bytes_and_matches_hold() {
        let golden: Golden = serde_json::from_str(GOLDEN).unwrap();
        let (bytes, matches) = compute();
        assert_eq!(hex(&bytes), golden.bytes);
        assert_eq!(matches, golden.matches);
        assert!(!matches.is_empty() && matches[0].student == 0 && matches[0].text == 0);
        let back = Library::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.names()[2], "2025/bo – café.txt");
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    #[ignore = "writes tests/golden/library-v1.json; run by scripts/bless.sh"]
    fn write_library_golden() {
        let (bytes, matches) = compute();
        let g = Golden {
            bytes: hex(&bytes),
            matches,
        };
        crate::golden::bless(
            "library-v1.json",
            &(serde_json::to_string_pretty(&g).unwrap() + "\n"),
            false,
        );
    }
}
