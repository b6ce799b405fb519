//! The wasm binding, run on wasm32 under Node by wasm-bindgen-test.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test as test;

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).expect("property")
}

fn message(e: JsValue) -> String {
    let e: js_sys::Error = e.dyn_into().expect("an Error");
    e.message().into()
}

fn s(text: &str) -> JsValue {
    JsValue::from_str(text)
}

#[test]
fn compare_reports_utf16_ranges() {
    let a = "😀 café copied words here";
    let b = "x copied words here";
    let r = neardup::wasm::compare(s(a), s(b), None).expect("report");
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
    let e = neardup::wasm::compare(s(""), s("text"), None).unwrap_err();
    assert!(message(e).contains("text a has no words"));
    let opts = js_sys::JSON::parse(r#"{"wordk": 3}"#).unwrap();
    let e = neardup::wasm::compare(s("x y"), s("x y"), Some(opts)).unwrap_err();
    assert!(message(e).contains("unknown field `wordk`"));
    let opts = js_sys::JSON::parse(r#"{"wordK": 99}"#).unwrap();
    let e = neardup::wasm::compare(s("x y"), s("x y"), Some(opts)).unwrap_err();
    assert_eq!(
        message(e),
        "invalid option wordK: must be in 1..=32, got 99"
    );
}

#[test]
fn wrong_types_are_type_errors_naming_the_parameter() {
    for (bad, got) in [
        (JsValue::from_f64(123.0), "number"),
        (JsValue::UNDEFINED, "undefined"),
        (JsValue::NULL, "null"),
        (js_sys::Object::new().into(), "object"),
    ] {
        let e = neardup::wasm::compare(s("x"), bad, None).unwrap_err();
        assert!(e.is_instance_of::<js_sys::TypeError>());
        assert_eq!(message(e), format!("b must be a string, got {got}"));
    }
    // The module still works.
    assert!(neardup::wasm::compare(s("x y"), s("x y"), None).is_ok());
}
