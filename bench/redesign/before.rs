//! `compare` + the learned verdict on one Clough–Stevenson pair (g0pA task b
//! against its source), 2,000 times, through the public API of commit
//! 6523509 (before issue 8's redesign). `scripts/bench-redesign.sh` copies it
//! into that commit's worktree as an example; the twin `after.rs` does the
//! same through today's API. Prints the sum of the scores and decision
//! values, which must be equal in both builds.
//!
//! Usage: `redesign DATA_DIR MODEL_JSON` (the shared data folder; the
//! verdict model, the same file for both builds).
use std::hint::black_box;

fn main() {
    let usage = "usage: redesign DATA_DIR MODEL_JSON";
    let dir = std::env::args().nth(1).expect(usage);
    let model_path = std::env::args().nth(2).expect(usage);
    let read = |f: &str| {
        let path = format!("{dir}/clough-abc/texts/{f}");
        String::from_utf8_lossy(&std::fs::read(&path).expect(&path)).into_owned()
    };
    let (a, b) = (read("g0pA_taskb.txt"), read("orig_taskb.txt"));
    let model = neardup::verdict::SvmModel::from_json(
        &std::fs::read_to_string(&model_path).expect(&model_path),
    )
    .expect("model");
    let options = neardup::CompareOptions::default();
    let mut sum = 0.0;
    for _ in 0..2000 {
        let r = neardup::compare(black_box(&a), black_box(&b), &options).expect("compare");
        let v = model.judge(black_box(&a), black_box(&b)).expect("verdict");
        sum += r.measures.score + v.binary_decision + v.class_decisions.iter().sum::<f64>();
    }
    println!("{sum:.1}");
}
