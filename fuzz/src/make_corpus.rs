//! Writes the seed corpus of every fuzz target: valid files as the project
//! writes them (snapshots, signatures, the shipped model and reference, texts
//! from the golden vectors). `cargo run --features cli --example make-corpus
//! -- OUT_DIR REPO_DIR` (an example of the main crate: scripts/fuzz.sh).

use neardup::minhash::{LshConfig, MinHashConfig, MinHashLsh, MinHashScheme, MinHasher};
use neardup::multiref::ReferenceFile;
use neardup::simhash::{SimHashConfig, SimHashIndex, SimHashIndexConfig};
use neardup::{Document, NearDupIndex};
use std::fs;
use std::path::Path;

const TEXTS: &[&str] = &[
    "The quick brown fox jumps over the lazy dog.",
    "The quick brown fox jumped over the lazy dog!",
    "Inheritance lets a class reuse the fields and methods of another class.",
    "PageRank counts links to a page to estimate how important it is.",
    "Ｆｕｌｌｗｉｄｔｈ ﬁ ligatures, café, Straße, ΣΊΣΥΦΟΣ, 東京都の天気は晴れ",
    "can't stop e.g. 3.14 1,000;5 a:b x_y __ a.1 1.a",
    "",
];

fn write(dir: &Path, target: &str, name: &str, bytes: &[u8]) {
    let d = dir.join(target);
    fs::create_dir_all(&d).expect("corpus folder");
    fs::write(d.join(name), bytes).expect("corpus file");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (out, repo) = match args.as_slice() {
        [_, out, repo] => (Path::new(out), Path::new(repo)),
        _ => {
            eprintln!("usage: make-corpus OUT_DIR REPO_DIR");
            std::process::exit(2);
        }
    };
    let docs: Vec<Document> = TEXTS.iter().map(|t| Document::new(t, 0)).collect();

    let cases = [
        (16u32, MinHashScheme::OnePermutation),
        (128, MinHashScheme::OnePermutation),
        (16, MinHashScheme::Classic),
        (128, MinHashScheme::Classic),
    ];
    for (i, (num_perm, scheme)) in cases.into_iter().enumerate() {
        let config = MinHashConfig::default().num_perm(num_perm).scheme(scheme);
        let hasher = MinHasher::new(&config).expect("config");
        let mut lsh = MinHashLsh::new(&LshConfig::default().num_perm(num_perm)).expect("config");
        for (j, d) in docs.iter().enumerate() {
            let sig = hasher.signature_of(d).expect("signature");
            write(
                out,
                "minhash_signature",
                &format!("{scheme}{num_perm}-{j}"),
                &sig.to_bytes(),
            );
            lsh.insert(&format!("doc{j}"), sig).expect("insert");
        }
        write(out, "lsh_snapshot", &format!("lsh{i}"), &lsh.to_bytes());
    }

    let fp = SimHashConfig::default();
    for (i, max_k) in [0u32, 3].into_iter().enumerate() {
        let mut index =
            SimHashIndex::new(&SimHashIndexConfig::default().max_k(max_k)).expect("config");
        for (j, d) in docs.iter().enumerate() {
            index
                .insert(
                    &format!("doc{j}"),
                    fp.fingerprint_of(d).expect("fingerprint"),
                )
                .expect("insert");
        }
        write(
            out,
            "simhash_snapshot",
            &format!("index{i}"),
            &index.to_bytes(),
        );
    }

    let dict = neardup::spell::Dictionary::from_counts([
        ("the", 1000),
        ("receive", 50),
        ("separate", 30),
        ("committee", 20),
        ("café", 3),
    ])
    .expect("dictionary");
    write(out, "dictionary", "small", &dict.to_bytes());

    let model = fs::read(repo.join("assets/model.json")).expect("assets/model.json");
    write(out, "model_json", "model.json", &model);
    let reference =
        fs::read_to_string(repo.join("assets/multiref.json")).expect("assets/multiref.json");
    write(out, "reference_json", "multiref.json", reference.as_bytes());
    let (_, r) = ReferenceFile::from_json(&reference).expect("shipped reference");
    for (j, t) in TEXTS.iter().enumerate() {
        write(
            out,
            "multiref_signature",
            &format!("sig{j}"),
            &r.signature(t).to_bytes(),
        );
        write(out, "normalize", &format!("text{j}"), t.as_bytes());
        let pair = format!("{t}\0{}", TEXTS[(j + 1) % TEXTS.len()]);
        write(out, "compare", &format!("pair{j}"), pair.as_bytes());
    }

    // The line reader: a limit byte, then JSONL lines; and the same lines
    // gzip-compressed.
    let mut jsonl = vec![40u8];
    for (j, t) in TEXTS.iter().enumerate() {
        jsonl.extend_from_slice(format!("{{\"id\":\"d{j}\",\"text\":{t:?}}}\n").as_bytes());
    }
    write(out, "lines", "jsonl", &jsonl);
    // The record parse: a choice byte (0: top-level fields, 1: under
    // `meta`), then one line of each shape the CLI's tests read.
    let records: [&[u8]; 9] = [
        b"\x00{\"id\": \"a\", \"text\": \"the quick brown fox\"}",
        b"\x00[\"b\", \"text\"]",
        b"\x00{\"id\": null, \"text\": \"caf\\u00e9 \\n tab\\t\"}",
        b"\x00{\"id\": 1.50, \"text\": \"x\", \"text\": \"y\"}",
        b"\x00{\"id\": {\"k\": [1, 2e3]}, \"text\": \"\\ud83d\\ude00\"}",
        b"\x00{\"text\": 5}",
        b"\x00{\"id\": \"h\", \"text\": \"t\"} trailing",
        b"\x01{\"meta\": {\"text\": \"nested\", \"0\": 7}}",
        b"\x01{\"meta\": [\"id0\", \"t\"]}",
    ];
    for (j, r) in records.iter().enumerate() {
        write(out, "records", &format!("record{j}"), r);
    }
    let mut gz = flate2::write::GzEncoder::new(vec![200u8], flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &jsonl[1..]).expect("gzip");
    write(out, "lines", "jsonl-gz", &gz.finish().expect("gzip"));
    write(
        out,
        "dictionary_counts",
        "counts",
        b"the 1000\nreceive 50\nseparate 30\ncommittee 20\ncaf\xc3\xa9 3\nrecieve seperate",
    );
    let stages = neardup::dedup::Stages::new(&Default::default()).expect("stages");
    for (j, t) in TEXTS.iter().enumerate() {
        let sketch = stages.sketch(t).expect("sketch").to_bytes();
        write(out, "array_args", &format!("sketch{j}"), &sketch);
    }
}
