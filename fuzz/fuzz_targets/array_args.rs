//! What the wasm binding's array and byte parameters reach once checked
//! (`wasm::bytes_arg`, `u64s_arg`, `f64s_arg`): shingle hashes into MinHash
//! and SimHash, vectors into the verdict model, values into a multiref
//! signature, bytes into the dedup stages. Whatever the values: no panic, no
//! trap; a non-finite vector or signature value is an error, never an
//! answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::dedup::{DedupConfig, Stages};
use neardup::minhash::{MinHashConfig, MinHasher};
use neardup::multiref::{MultiRefSignature, Reference};
use neardup::simhash::Fingerprint;
use neardup::verdict::SvmModel;
use std::sync::OnceLock;

fn model() -> &'static SvmModel {
    static M: OnceLock<SvmModel> = OnceLock::new();
    M.get_or_init(|| {
        SvmModel::from_json(include_str!("../../assets/model.json")).expect("the shipped model")
    })
}

fuzz_target!(|data: &[u8]| {
    let words: Vec<u64> = data
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect();
    for config in [
        MinHashConfig::default(),
        MinHashConfig::default().num_perm(16),
    ] {
        let hasher = MinHasher::new(&config).expect("config");
        let mut sig = hasher.empty();
        hasher.update(&mut sig, &words).expect("same configuration");
        assert_eq!(sig.is_empty(), words.is_empty());
    }
    let fp = Fingerprint::from_shingles(&words);
    assert_eq!(fp.is_empty(), words.is_empty());

    let floats: Vec<f64> = words.iter().map(|&w| f64::from_bits(w)).collect();
    let m = model();
    let d = m.dimension();
    if floats.len() >= d {
        let v = &floats[..d];
        match m.predict(v) {
            Ok(verdict) => {
                assert!(v.iter().all(|x| x.is_finite()));
                assert!(verdict.binary_decision.is_finite());
            }
            Err(_) => {}
        }
    }
    let reference =
        Reference::new(vec!["abc".into(), "bcd".into(), "cde".into()], 3).expect("reference");
    let values: Vec<f32> = floats.iter().take(3).map(|&x| x as f32).collect();
    if let Ok(s) = MultiRefSignature::from_values(&reference, values.clone()) {
        assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
        let _ = s.to_bytes();
    }
    static STAGES: OnceLock<Stages> = OnceLock::new();
    let stages = STAGES.get_or_init(|| Stages::new(&DedupConfig::default()).expect("config"));
    if let Ok(s) = stages.read_sketch(data) {
        let _ = stages.keys(&s);
        let _ = stages.verify(&s, &s);
    }
});
