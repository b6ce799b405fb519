//! The CLI's one line reader (`src/bin/neardup/lines.rs`, compiled here as
//! it is), over plain bytes and over the same bytes as a gzip stream (as
//! `dedup x.gz` reads them). Whatever the bytes: no panic; no line longer
//! than the limit is ever handed out; over plain bytes, the lines and the
//! lengths of the dropped ones add up to the input exactly.
#![no_main]

#[path = "../../src/bin/neardup/lines.rs"]
#[allow(dead_code)]
mod lines;

use libfuzzer_sys::fuzz_target;
use std::io::BufReader;

fuzz_target!(|data: &[u8]| {
    let Some((&limit, data)) = data.split_first() else {
        return;
    };
    let limit = usize::from(limit) + 1;
    lines::set_max_bytes(limit);
    // Small reads make lines cross buffer boundaries.
    let mut reader = BufReader::with_capacity(7, data);
    let mut total = 0usize;
    let mut count = 0usize;
    lines::for_each_line(&mut reader, |n, line| {
        count += 1;
        assert_eq!(n, count);
        match line {
            Ok(l) => {
                assert!(l.len() <= limit);
                assert!(!l.contains(&b'\n'));
                total += l.len();
            }
            Err(lines::TooLong(len)) => {
                assert!(len > limit);
                total += len;
            }
        }
        Ok(())
    })
    .expect("reading a slice cannot fail");
    let newlines = data.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(total + newlines, data.len());
    assert_eq!(
        count,
        newlines + usize::from(!data.ends_with(b"\n") && !data.is_empty())
    );

    // The same bytes as a (damaged or valid) gzip stream: an error or
    // lines, each within the limit.
    let gz = flate2::bufread::MultiGzDecoder::new(data);
    let mut reader = BufReader::with_capacity(64, gz);
    let _ = lines::for_each_line(&mut reader, |_, line| {
        if let Ok(l) = line {
            assert!(l.len() <= limit);
        }
        Ok(())
    });
});
