//! Arrow columns in and out, through pyarrow's own buffers (no Python object
//! per value): string, binary and integer arrays are read from their offsets
//! and data buffers (one copy of each buffer), and results are built with
//! `pyarrow.Array.from_buffers`. The layouts are the Arrow columnar format's
//! (<https://arrow.apache.org/docs/format/Columnar.html>): validity bitmaps
//! least-significant bit first, offsets of `n + 1` entries, fixed-size binary
//! as one data buffer of `n · width` bytes.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

/// The Arrow type name of `v` (`"string"`, `"binary"`, `"int64"`,
/// `"fixed_size_binary[536]"`), or None when it is not a pyarrow array or
/// chunked array.
pub fn type_of(v: &Bound<'_, PyAny>) -> Option<String> {
    (v.hasattr("buffers").ok()? || v.hasattr("chunks").ok()?).then_some(())?;
    Some(v.getattr("type").ok()?.str().ok()?.to_string())
}

/// A pyarrow `ChunkedArray` as one array (its chunks combined); other
/// values as they are.
fn one_array<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if v.hasattr("chunks")? && v.hasattr("combine_chunks")? {
        v.call_method0("combine_chunks")
    } else {
        Ok(v.clone())
    }
}

/// The whole of a pyarrow buffer as bytes (empty for None).
fn buffer(b: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if b.is_none() {
        return Ok(Vec::new());
    }
    let bytes = b.call_method0("to_pybytes")?;
    Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
}

/// Values of variable or fixed width, as one data buffer and `n + 1` byte
/// offsets into it.
pub struct Blobs {
    data: Vec<u8>,
    offsets: Vec<usize>,
}

impl Blobs {
    /// Number of values.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Value `i`.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.data[self.offsets[i]..self.offsets[i + 1]]
    }
}

/// A pyarrow `string`/`binary` (or `large_`) or `fixed_size_binary` array
/// (or a chunked one) as [`Blobs`]. `TypeError` for another type,
/// `ValueError` naming `name` for a null value or a damaged offset.
pub fn read_blobs(array: &Bound<'_, PyAny>, name: &str) -> PyResult<Blobs> {
    let array = one_array(array)?;
    let kind = type_of(&array)
        .ok_or_else(|| PyTypeError::new_err(format!("{name} must be a pyarrow array")))?;
    let n: usize = array.len()?;
    let null_count: usize = array.getattr("null_count")?.extract()?;
    if null_count > 0 {
        return Err(crate::errors::InputError::new_err(format!(
            "{name} has {null_count} null values"
        )));
    }
    let offset: usize = array.getattr("offset")?.extract()?;
    let buffers = array.call_method0("buffers")?;
    if let Some(width) = kind
        .strip_prefix("fixed_size_binary[")
        .and_then(|w| w.strip_suffix(']'))
    {
        let width: usize = width
            .parse()
            .map_err(|_| PyTypeError::new_err(format!("{name}: unknown type {kind}")))?;
        let data = buffer(&buffers.get_item(1)?)?;
        let start = offset * width;
        let data = data
            .get(start..start + n * width)
            .ok_or_else(|| {
                crate::errors::InputError::new_err(format!("{name}: the data buffer is too short"))
            })?
            .to_vec();
        let offsets = (0..=n).map(|i| i * width).collect();
        return Ok(Blobs { data, offsets });
    }
    let large = match kind.as_str() {
        "string" | "utf8" | "binary" => false,
        "large_string" | "large_utf8" | "large_binary" => true,
        _ => {
            return Err(PyTypeError::new_err(format!(
                "{name} must be a pyarrow string or binary array, got {kind}"
            )))
        }
    };
    let (raw, data) = (
        buffer(&buffers.get_item(1)?)?,
        buffer(&buffers.get_item(2)?)?,
    );
    let width = if large { 8 } else { 4 };
    let mut offsets = Vec::with_capacity(n + 1);
    for i in offset..=offset + n {
        let s = raw.get(i * width..(i + 1) * width).ok_or_else(|| {
            crate::errors::InputError::new_err(format!("{name}: the offsets buffer is too short"))
        })?;
        let o = if large {
            i64::from_le_bytes(s.try_into().unwrap_or_default())
        } else {
            i64::from(i32::from_le_bytes(s.try_into().unwrap_or_default()))
        };
        let o = usize::try_from(o)
            .ok()
            .filter(|&o| o <= data.len() && offsets.last().is_none_or(|&l| l <= o))
            .ok_or_else(|| {
                crate::errors::InputError::new_err(format!(
                    "{name}[{}]: offsets out of range",
                    i - offset
                ))
            })?;
        offsets.push(o);
    }
    Ok(Blobs { data, offsets })
}

/// A pyarrow string array as Rust strings. `ValueError` naming `name[i]`
/// for a value that is not UTF-8.
pub fn read_strings(array: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<String>> {
    let blobs = read_blobs(array, name)?;
    (0..blobs.len())
        .map(|i| {
            String::from_utf8(blobs.get(i).to_vec()).map_err(|_| {
                crate::errors::InputError::new_err(format!("{name}[{i}] is not valid UTF-8"))
            })
        })
        .collect()
}

/// A pyarrow `int64` or `uint64` array (or a chunked one) of non-negative
/// values below 2^63 as `u64`s. `TypeError` for another type, `ValueError`
/// for a null, negative or (uint64) too large value, naming `name`.
pub fn read_positions(array: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<u64>> {
    let (kind, values) = read_words(array, name)?;
    if let Some(i) = values.iter().position(|v| v >> 63 == 1) {
        return Err(crate::errors::InputError::new_err(if kind == "int64" {
            format!("{name}[{i}] is negative")
        } else {
            format!(
                "{name}[{i}] is {}, not below 2^63 (positions are int64)",
                values[i]
            )
        }));
    }
    Ok(values)
}

/// A pyarrow `int64` or `uint64` array (or a chunked one) without nulls as
/// the 64 bits of each value, with its type. `TypeError` for another type,
/// `ValueError` for a null, naming `name`.
pub fn read_words(array: &Bound<'_, PyAny>, name: &str) -> PyResult<(String, Vec<u64>)> {
    let array = one_array(array)?;
    let kind = type_of(&array)
        .ok_or_else(|| PyTypeError::new_err(format!("{name} must be a pyarrow array")))?;
    if kind != "int64" && kind != "uint64" {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a pyarrow int64 or uint64 array, got {kind}"
        )));
    }
    if array.getattr("null_count")?.extract::<usize>()? > 0 {
        return Err(crate::errors::InputError::new_err(format!(
            "{name} has null values"
        )));
    }
    let n: usize = array.len()?;
    let offset: usize = array.getattr("offset")?.extract()?;
    let data = buffer(&array.call_method0("buffers")?.get_item(1)?)?;
    let data = data.get(offset * 8..(offset + n) * 8).ok_or_else(|| {
        crate::errors::InputError::new_err(format!("{name}: the data buffer is too short"))
    })?;
    let values = data
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
        .collect();
    Ok((kind, values))
}

fn pyarrow(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("pyarrow").map_err(|_| {
        PyErr::new::<pyo3::exceptions::PyImportError, _>(
            "the batch kernels need pyarrow: pip install pyarrow",
        )
    })
}

/// `bytes` as a pyarrow buffer.
fn py_buffer<'py>(pa: &Bound<'py, PyModule>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    pa.call_method1("py_buffer", (PyBytes::new(pa.py(), bytes),))
}

/// An array of `type_name` (a pyarrow type) and `n` values from its buffers.
fn from_buffers<'py>(
    pa: &Bound<'py, PyModule>,
    data_type: Bound<'py, PyAny>,
    n: usize,
    buffers: Vec<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let list = PyList::new(pa.py(), buffers)?;
    pa.getattr("Array")?
        .call_method1("from_buffers", (data_type, n, list))
}

/// Byte strings as a pyarrow array: `fixed_size_binary[w]` when every value
/// has `w > 0` bytes, else `binary` (`large_binary` past 2 GiB).
pub fn binary_array<'py>(py: Python<'py>, values: &[Vec<u8>]) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let n = values.len();
    let data: Vec<u8> = values.concat();
    let none = py.None().into_bound(py);
    match values.first().map(Vec::len) {
        Some(w) if w > 0 && values.iter().all(|v| v.len() == w) => {
            let t = pa.call_method1("binary", (w,))?;
            from_buffers(&pa, t, n, vec![none, py_buffer(&pa, &data)?])
        }
        _ => {
            let mut ends = Vec::with_capacity(n + 1);
            let mut at = 0usize;
            ends.push(0);
            for v in values {
                at += v.len();
                ends.push(at);
            }
            let (t, offsets): (_, Vec<u8>) = if at <= i32::MAX as usize {
                let b = ends
                    .iter()
                    .flat_map(|&o| (o as i32).to_le_bytes())
                    .collect();
                (pa.call_method0("binary")?, b)
            } else {
                let b = ends
                    .iter()
                    .flat_map(|&o| (o as i64).to_le_bytes())
                    .collect();
                (pa.call_method0("large_binary")?, b)
            };
            from_buffers(
                &pa,
                t,
                n,
                vec![none, py_buffer(&pa, &offsets)?, py_buffer(&pa, &data)?],
            )
        }
    }
}

/// Optional 64-bit integers as a pyarrow `int64` array of their bits (None
/// → null).
pub fn opt_i64_array<'py>(py: Python<'py>, values: &[Option<u64>]) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let mut valid = vec![0u8; values.len().div_ceil(8)];
    let mut data = Vec::with_capacity(values.len() * 8);
    for (i, v) in values.iter().enumerate() {
        if v.is_some() {
            valid[i / 8] |= 1 << (i % 8);
        }
        data.extend_from_slice(&v.unwrap_or(0).to_le_bytes());
    }
    let t = pa.call_method0("int64")?;
    from_buffers(
        &pa,
        t,
        values.len(),
        vec![py_buffer(&pa, &valid)?, py_buffer(&pa, &data)?],
    )
}

/// 64-bit integers as a pyarrow `int64` or `uint64` array (`kind`).
pub fn u64_array<'py>(py: Python<'py>, kind: &str, values: &[u64]) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let data: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let t = pa.call_method0(kind)?;
    from_buffers(
        &pa,
        t,
        values.len(),
        vec![py.None().into_bound(py), py_buffer(&pa, &data)?],
    )
}

/// A pyarrow `list` array of `values` cut at `offsets` (`n + 1` ascending
/// positions into `values`, the first 0; 32-bit offsets, so at most 2^31
/// values).
pub fn list_array<'py>(
    py: Python<'py>,
    offsets: &[u64],
    values: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let offsets =
        u64_array(py, "int64", offsets)?.call_method1("cast", (pa.call_method0("int32")?,))?;
    pa.getattr("ListArray")?
        .call_method1("from_arrays", (offsets, values))
}

/// Booleans as a pyarrow `bool` array (bit-packed, least-significant bit
/// first).
pub fn bool_array<'py>(py: Python<'py>, values: &[bool]) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let mut bits = vec![0u8; values.len().div_ceil(8)];
    for (i, _) in values.iter().enumerate().filter(|(_, &v)| v) {
        bits[i / 8] |= 1 << (i % 8);
    }
    let t = pa.call_method0("bool_")?;
    from_buffers(
        &pa,
        t,
        values.len(),
        vec![py.None().into_bound(py), py_buffer(&pa, &bits)?],
    )
}

/// Optional floats as a pyarrow `float64` array (None → null).
pub fn f64_array<'py>(py: Python<'py>, values: &[Option<f64>]) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let mut valid = vec![0u8; values.len().div_ceil(8)];
    let mut data = Vec::with_capacity(values.len() * 8);
    for (i, v) in values.iter().enumerate() {
        if v.is_some() {
            valid[i / 8] |= 1 << (i % 8);
        }
        data.extend_from_slice(&v.unwrap_or(0.0).to_le_bytes());
    }
    let t = pa.call_method0("float64")?;
    from_buffers(
        &pa,
        t,
        values.len(),
        vec![py_buffer(&pa, &valid)?, py_buffer(&pa, &data)?],
    )
}

/// A pyarrow record batch of named columns.
pub fn record_batch<'py>(
    py: Python<'py>,
    columns: Vec<(&str, Bound<'py, PyAny>)>,
) -> PyResult<Bound<'py, PyAny>> {
    let pa = pyarrow(py)?;
    let (names, arrays): (Vec<&str>, Vec<Bound<'py, PyAny>>) = columns.into_iter().unzip();
    pa.getattr("RecordBatch")?.call_method1(
        "from_arrays",
        (PyList::new(py, arrays)?, PyList::new(py, names)?),
    )
}
