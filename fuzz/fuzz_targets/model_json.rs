//! A verdict model JSON (`SvmModel::from_json`): no panic, no allocation
//! beyond the limits `scripts/fuzz.sh` sets; a model that loads judges two
//! texts without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use neardup::verdict::SvmModel;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    if let Ok(model) = SvmModel::from_json(text) {
        let _ = model.judge_texts("the cat sat on the mat", "a cat sat on the mat");
    }
});
