//! The one framing of every persisted value (signatures, fingerprints, index
//! snapshots): shared by every sketch and index.
//!
//! Every persisted value is: a 4-byte magic, a `u16` format version, the
//! `u16` spec version ([`Spec`]: 1, or 2 for the sketches that may be made
//! under version 2), the payload, and a CRC-32 (IEEE,
//! `crc32fast`) of everything before it. Integers and floats are
//! little-endian; lengths are `u32` or `u64`, never `usize`. Readers check the
//! magic, both versions, the checksum, every length, and that nothing trails.

use crate::error::{Error, ErrorKind};
use crate::hash::Spec;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Appends little-endian values to a buffer.
pub(crate) struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// A value made under spec version 1 (everything but the sketches that
    /// record their own version).
    pub(crate) fn new(magic: &[u8; 4], format_version: u16) -> Self {
        Self::with_spec(magic, format_version, Spec::V1)
    }
    /// A value made under spec version `spec`.
    pub(crate) fn with_spec(magic: &[u8; 4], format_version: u16, spec: Spec) -> Self {
        let mut w = Writer { buf: Vec::new() };
        w.buf.extend_from_slice(magic);
        w.u16(format_version);
        w.u16(spec.number());
        w
    }
    pub(crate) fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn f64(&mut self, v: f64) {
        self.buf.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    pub(crate) fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.buf.extend_from_slice(s.as_bytes());
    }
    /// Appends the checksum and returns the bytes.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        let crc = crc32fast::hash(&self.buf);
        self.u32(crc);
        self.buf
    }
}

/// Reads what [`Writer`] wrote, with an error for every inconsistency.
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
    what: &'static str,
    spec: Spec,
}

impl<'a> Reader<'a> {
    /// Checks magic, versions and checksum; positions after the header.
    pub(crate) fn open(
        bytes: &'a [u8],
        magic: &[u8; 4],
        format_version: u16,
        what: &'static str,
    ) -> Result<Self, Error> {
        Self::open_versions(bytes, magic, format_version..=format_version, what).map(|(r, _)| r)
    }

    /// [`Reader::open`] for a value written in any of the format versions
    /// `formats`; returns the reader and the version found. Only spec
    /// version 1 is accepted.
    pub(crate) fn open_versions(
        bytes: &'a [u8],
        magic: &[u8; 4],
        formats: core::ops::RangeInclusive<u16>,
        what: &'static str,
    ) -> Result<(Self, u16), Error> {
        Self::open_specs(bytes, magic, formats, what, Spec::V1)
    }

    /// [`Reader::open_versions`] for a value made under any spec version up
    /// to `newest`; [`Reader::spec`] tells which.
    pub(crate) fn open_specs(
        bytes: &'a [u8],
        magic: &[u8; 4],
        formats: core::ops::RangeInclusive<u16>,
        what: &'static str,
        newest: Spec,
    ) -> Result<(Self, u16), Error> {
        if bytes.len() < 12 {
            return Err(corrupt(what, format!("{} bytes is too short", bytes.len())));
        }
        if &bytes[..4] != magic {
            return Err(corrupt(
                what,
                "wrong magic bytes (not this kind of value)".into(),
            ));
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if !formats.contains(&version) {
            return Err(Error::new(ErrorKind::Version {
                what,
                found: version as u32,
                supported: *formats.end() as u32,
            }));
        }
        let found = u16::from_le_bytes([bytes[6], bytes[7]]);
        let spec = match Spec::from_number(u64::from(found)) {
            Ok(spec) if spec <= newest => spec,
            _ => {
                return Err(Error::new(ErrorKind::Version {
                    what: "shingle specification",
                    found: u32::from(found),
                    supported: u32::from(newest.number()),
                }))
            }
        };
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        if crc32fast::hash(body) != stored {
            return Err(corrupt(
                what,
                "checksum mismatch (damaged or truncated)".into(),
            ));
        }
        Ok((
            Reader {
                buf: body,
                at: 8,
                what,
                spec,
            },
            version,
        ))
    }

    /// The spec version the value was made under.
    pub(crate) fn spec(&self) -> Spec {
        self.spec
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.buf.len() - self.at < n {
            return Err(corrupt(self.what, format!("truncated at byte {}", self.at)));
        }
        let s = &self.buf[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    pub(crate) fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u16(&mut self) -> Result<u16, Error> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    pub(crate) fn u32(&mut self) -> Result<u32, Error> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub(crate) fn u64(&mut self) -> Result<u64, Error> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    pub(crate) fn f64(&mut self) -> Result<f64, Error> {
        Ok(f64::from_bits(self.u64()?))
    }
    pub(crate) fn str(&mut self) -> Result<String, Error> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        core::str::from_utf8(b)
            .map(String::from)
            .map_err(|_| corrupt(self.what, "a string is not valid UTF-8".into()))
    }
    /// Bytes left before the checksum.
    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.at
    }

    /// Reads a `u64` count of items that take at least `min_bytes` each,
    /// refusing counts the remaining bytes cannot hold (so that a damaged
    /// header never makes a reader allocate).
    pub(crate) fn count(&mut self, min_bytes: usize) -> Result<usize, Error> {
        let count = self.u64()?;
        if count > (self.remaining() / min_bytes.max(1)) as u64 {
            return Err(corrupt(
                self.what,
                format!("{count} items cannot fit in the data"),
            ));
        }
        Ok(count as usize)
    }
    /// Fails unless everything was read.
    pub(crate) fn end(self) -> Result<(), Error> {
        if self.at != self.buf.len() {
            return Err(corrupt(
                self.what,
                format!(
                    "{} unexpected bytes after the data",
                    self.buf.len() - self.at
                ),
            ));
        }
        Ok(())
    }
}

pub(crate) fn corrupt(what: &'static str, msg: String) -> Error {
    Error::corrupt(what, msg)
}
