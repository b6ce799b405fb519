// Whether this runtime runs WebAssembly SIMD (the 128-bit vector
// instructions of WebAssembly 2.0, in every current browser, Node and
// workerd). The entries load the module built with them
// (`neardup_simd_bg.wasm`: normalisation classifies 64 bytes at a time)
// where it does, the baseline module (`neardup_bg.wasm`) elsewhere; both
// give the same results, bit for bit.
//
// The probe is the smallest module using a SIMD instruction, encoded by hand
// from the binary format of the WebAssembly core specification: a function
// of type () -> v128 whose body is `i32.const 0; i8x16.splat; end`. A runtime
// without SIMD finds it invalid.
const PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: one type, () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function, of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b, // code: no locals, i32.const 0, i8x16.splat, end
]);

/** True where WebAssembly SIMD is available (`WebAssembly.validate` of a SIMD probe). */
export const simd = typeof WebAssembly === 'object' && WebAssembly.validate(PROBE);
