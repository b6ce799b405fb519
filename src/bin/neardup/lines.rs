//! The one bounded line reader of every command (issue 26): a line is held
//! only up to `--max-bytes`; a longer one is read to its end and dropped.
//! Depends on `std`, `anyhow` and `memchr` only, so that `fuzz/` runs it as
//! it is.

use anyhow::{Context, Result};
use std::io::BufRead;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The default of `--max-bytes`: the largest line, and so the largest
/// document, any command reads (64 MiB, the default largest text of
/// `compare`).
pub const DEFAULT_MAX_BYTES: usize = 64 << 20;

static MAX_BYTES: AtomicUsize = AtomicUsize::new(DEFAULT_MAX_BYTES);

/// Sets the largest line and document every reader accepts (`--max-bytes`).
pub fn set_max_bytes(bytes: usize) {
    MAX_BYTES.store(bytes, Ordering::Relaxed);
}

/// The largest line and document every reader accepts, in bytes.
pub fn max_bytes() -> usize {
    MAX_BYTES.load(Ordering::Relaxed)
}

/// A line too long to be read: its length in bytes (at least).
#[derive(Debug, Clone, Copy)]
pub struct TooLong(pub usize);

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the line is {} bytes long, more than the limit of {} bytes (--max-bytes)",
            self.0,
            max_bytes()
        )
    }
}

impl std::error::Error for TooLong {}

/// Calls `each` with every line of `reader` (1-based number, the line
/// without its `\n`), holding at most [`max_bytes`] of a line in memory: a
/// longer line is read to its end and dropped, and `each` gets
/// `Err(TooLong)` for it. Memory is bounded whatever the input (a stream
/// without newlines, a compression bomb); time is linear in its length.
pub fn for_each_line(
    reader: &mut dyn BufRead,
    mut each: impl FnMut(usize, Result<&[u8], TooLong>) -> Result<()>,
) -> Result<()> {
    let limit = max_bytes();
    let mut line: Vec<u8> = Vec::new();
    let mut n = 0;
    loop {
        // A line whole in the reader's buffer is handed over from there,
        // not copied.
        let chunk = reader.fill_buf().context("cannot read the input")?;
        if chunk.is_empty() {
            return Ok(());
        }
        // (At most `limit` bytes before its newline: no longer line.)
        if let Some(i) = memchr::memchr(b'\n', &chunk[..chunk.len().min(limit + 1)]) {
            n += 1;
            each(n, Ok(&chunk[..i]))?;
            reader.consume(i + 1);
            continue;
        }
        line.clear();
        let (mut any, mut over) = (false, 0usize);
        loop {
            let chunk = reader.fill_buf().context("cannot read the input")?;
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, end) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let body = if end { take - 1 } else { take };
            if over == 0 && line.len() + body <= limit {
                line.extend_from_slice(&chunk[..body]);
            } else {
                if over == 0 {
                    over = line.len();
                    line = Vec::new();
                }
                over = over.saturating_add(body);
            }
            reader.consume(take);
            if end {
                break;
            }
        }
        if !any {
            return Ok(());
        }
        n += 1;
        if over > 0 {
            each(n, Err(TooLong(over)))?;
        } else {
            each(n, Ok(&line))?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    /// Every line comes out whole, numbered and in order whatever the
    /// reader's buffer size (lines inside one buffer's worth and lines
    /// across its end, empty lines), the last one with or without its
    /// newline.
    #[test]
    fn lines_come_out_whole_whatever_the_buffer() {
        let lines: Vec<String> = (0..40).map(|i| "ab".repeat((i * 7) % 23)).collect();
        for end in ["", "\n"] {
            let data = lines.join("\n") + end;
            for cap in 1..=64 {
                let mut reader = BufReader::with_capacity(cap, data.as_bytes());
                let mut got = Vec::new();
                for_each_line(&mut reader, |n, line| {
                    got.push((n, line.expect("under the limit").to_vec()));
                    Ok(())
                })
                .expect("read");
                let want: Vec<(usize, Vec<u8>)> = lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (i + 1, l.as_bytes().to_vec()))
                    .collect();
                assert_eq!(got, want, "buffer of {cap} bytes, ending {end:?}");
            }
        }
    }
}
