//! Helpers of the unit tests only.

/// Marsaglia's xorshift64 (13, 7, 17): a small deterministic generator for
/// randomised tests, so that a failure reproduces.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next value.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next value modulo `n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Asserts that reading damaged bytes failed as a decoder promises: a
/// `Corrupt` error (a damaged or truncated body, a bad checksum, wrong
/// magic), or a `Version` error when the damage hit a version field — never
/// another kind, never success.
#[track_caller]
pub(crate) fn assert_damaged<T: core::fmt::Debug>(
    result: Result<T, crate::Error>,
    what: core::fmt::Arguments<'_>,
) {
    match result {
        Err(e) => assert!(
            matches!(
                e.kind(),
                crate::ErrorKind::Corrupt { .. } | crate::ErrorKind::Version { .. }
            ),
            "{what}: {e} is not Corrupt or Version"
        ),
        Ok(v) => panic!("{what}: damaged bytes were read as {v:?}"),
    }
}

/// Fails unless `file` (the text of `src/text/NAME`, by `include_str!`) is
/// `want`, the table derived now from `source` (a crate): the derived file is
/// written to `target/NAME` to be reviewed and copied over.
#[cfg(feature = "std")]
pub(crate) fn assert_generated(name: &str, file: &str, want: &str, source: &str) {
    if file != want {
        let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("target")
            .join(name);
        std::fs::write(&out, want).unwrap();
        panic!(
            "src/text/{name} is not what {source} gives: the file it should be \
             is {}; review it and copy it over",
            out.display()
        );
    }
}
