//! The cost of the unmasked normalisation (SPEC.md §1 step 0) on honest
//! text, for BENCHMARKS.md: normalises every document of a JSONL file
//! (`{"text": …}` per line) once, as `mode` says — `plain`, `unmasked`, or
//! `read` (only reads the file: the baseline to subtract) — so that
//! `valgrind --tool=callgrind` counts the instructions of each.
//!
//!   cargo build --release --example unmask_cost --features serde
//!   valgrind --tool=callgrind ./target/release/examples/unmask_cost FILE MODE

use neardup::Normalization;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(mode)) = (args.next(), args.next()) else {
        eprintln!("usage: unmask_cost FILE plain|unmasked|read");
        std::process::exit(2);
    };
    let how = match mode.as_str() {
        "plain" => Some(Normalization::default()),
        "unmasked" => Some(Normalization::default().unmasking(true)),
        "read" => None,
        _ => {
            eprintln!("unmask_cost: MODE is plain, unmasked or read, got {mode:?}");
            std::process::exit(2);
        }
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("unmask_cost: cannot read {path}: {e}");
        std::process::exit(2);
    });
    let mut tokens = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let t = v["text"].as_str().expect("a text field");
        if let Some(how) = how {
            tokens += how.normalize(t).len();
        }
    }
    println!("{tokens} tokens");
}
