//! The wasm binding, run on wasm32 under Node by wasm-bindgen-test.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test as test;

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

fn message(e: wasm_bindgen::JsError) -> String {
    let v: JsValue = e.into();
    let e: js_sys::Error = v.dyn_into().expect("an Error");
    e.message().into()
}

#[test]
fn compare_reports_utf16_ranges() {
    let a = "😀 café copied words here";
    let b = "x copied words here";
    let r = neardup::wasm::compare(a, b, None).expect("report");
    assert_eq!(get(&r, "score").as_f64(), Some(0.5));
    let p0 = js_sys::Array::from(&get(&r, "passages")).get(0);
    let ra = get(&p0, "a");
    assert_eq!(get(&ra, "start").as_f64(), Some(8.0));
    assert_eq!(get(&ra, "end").as_f64(), Some(25.0));
    assert_eq!(
        get(&r, "offsets").as_string().as_deref(),
        Some("utf16-units")
    );
}

#[test]
fn errors_are_js_errors_with_messages() {
    let e = neardup::wasm::compare("", "text", None).unwrap_err();
    assert!(message(e).contains("text a has no words"));
    let opts = js_sys::JSON::parse(r#"{"wordk": 3}"#).unwrap();
    let e = neardup::wasm::compare("x y", "x y", Some(opts)).unwrap_err();
    assert!(message(e).contains("unknown field `wordk`"));
    let opts = js_sys::JSON::parse(r#"{"wordK": 99}"#).unwrap();
    let e = neardup::wasm::compare("x y", "x y", Some(opts)).unwrap_err();
    assert_eq!(
        message(e),
        "invalid option wordK: must be in 1..=32, got 99"
    );
}
