//! A reference library for class sets: the phrase postings of sources,
//! model answers and past classes, kept in one versioned, checksummed file
//! (with, as an option, the texts themselves, so that a match can be
//! compared in full: [`Library::keep_texts`]), against which a new class is
//! checked one way — a student's text against every library text, library
//! texts never paired with each other — and to which a class can be added
//! afterwards. JPlag's most requested features (a saved index, one-way
//! checks against a large reference set); the fingerprints are those of
//! [`super::class_pairs`] (winnowed character grams, Schleimer, Wilkerson &
//! Aiken 2003), of which one in [`SAMPLE`] is kept by its hash (MOSS's
//! "0 mod p" selection, the same paper), so that a library of 50,000 essays
//! keeps about 2 KB of an essay of 1,000 words.
//!
//! Format (SPEC.md framing: magic `NDLB`, format 1, the spec version, a
//! CRC-32): `char_q` u8, `window` u8, `word_k` u8, `seed` u64, flags u8
//! (1 quotations left out, 2 reference lists left out, 4 diacritics folded,
//! 8 unmasked: SPEC.md §1 step 0; a library written before it holds 0 there),
//! `sample` u32; the
//! texts: a u64 count, then per text its name (u32 length, UTF-8) and its
//! number of fingerprints (u32); the postings: a u64 count, then each
//! `(fingerprint u64, text u32)`, sorted. Format 2 (flag 16, written only
//! when a text is kept, so that a library of postings alone is format 1 byte
//! for byte) follows the postings with each text's kept text: a u8 (1 kept,
//! 0 not), then the text (u32 length, UTF-8) when kept.

use super::{ClassSetConfig, Text};
use crate::compare::check_size;
use crate::error::Error;
use crate::index::snapshot::{corrupt, Reader, Writer};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One fingerprint in this many is kept, by its hash (`h % SAMPLE == 0`),
/// in a library and in the texts checked against it.
pub const SAMPLE: u64 = 8;

/// A library match is listed only when the student's text and the library
/// text share at least this many (sampled) fingerprints. Chosen on data
/// (`neardup eval --library`, EVALUATION.md "Library matches"): on the
/// Clough–Stevenson answers against a library of their three sources and
/// 2,000 unrelated docs-bench texts, every chance match of an original
/// answer shares exactly two, and every copied answer found shares three
/// or more.
pub const MIN_SHARED: u32 = 3;

/// A fingerprint held by more library texts than this is common wording of
/// the library (a stock phrase), not evidence: it is skipped in a check.
pub const MAX_HOLDERS: usize = 1000;

const MAGIC: &[u8; 4] = b"NDLB";
/// A library of postings alone.
const FORMAT: u16 = 1;
/// A library that keeps texts (flag 16).
const FORMAT_TEXTS: u16 = 2;
/// The flag of a library that keeps texts.
const KEEPS_TEXTS: u8 = 16;

/// The phrase postings of a set of reference texts; see the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct Library {
    config: ClassSetConfig,
    names: Vec<String>,
    /// Fingerprints kept of each text.
    sizes: Vec<u32>,
    /// `(fingerprint, text)`, sorted.
    postings: Vec<(u64, u32)>,
    /// Each text as added, when texts are kept (empty for a library that
    /// never kept one; `None` for a text added while they were not).
    texts: Vec<Option<String>>,
    /// Whether [`Library::add`] keeps the texts it adds.
    keep: bool,
}

/// A student's text found in a library text.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
#[cfg_attr(feature = "wasm-bindings", derive(tsify::Tsify))]
pub struct LibraryMatch {
    /// The student's text, by its position in the texts checked.
    pub student: u32,
    /// The library text, by its position in [`Library::names`].
    pub text: u32,
    /// Fingerprints the two share (of those kept).
    pub shared: u32,
    /// The share of the student's fingerprints found in the library text,
    /// in [0, 1]: the pair's score.
    pub containment: f64,
    /// The share of the library text's fingerprints found in the student's.
    pub containment_library: f64,
}

impl Library {
    /// An empty library that fingerprints texts as `config` does (its
    /// shingles, seed and exclusions; character grams or word shingles).
    ///
    /// # Errors
    /// As [`ClassSetConfig::check`].
    pub fn new(config: &ClassSetConfig) -> Result<Library, Error> {
        config.check()?;
        Ok(Library {
            config: *config,
            names: Vec::new(),
            sizes: Vec::new(),
            postings: Vec::new(),
            texts: Vec::new(),
            keep: false,
        })
    }

    /// Whether the texts added from now on are kept (default `false`; a
    /// library read from bytes keeps texts when it already holds one). A
    /// kept text lets a class compare a match with it in full (verdict,
    /// passages: [`super::run::ClassRun::compare`]) at the cost of the
    /// text's UTF-8 bytes in the file, and makes the file format 2.
    pub fn keep_texts(&mut self, keep: bool) {
        self.keep = keep;
    }

    /// Library text `i`'s text, when it was kept; `None` when it was not
    /// or `i` ≥ [`Library::len`].
    pub fn text(&self, i: usize) -> Option<&str> {
        self.texts.get(i)?.as_deref()
    }

    /// Library text `i`'s kept text with the ranges a class with `options`
    /// leaves out of it (its quotations and reference list, UTF-8 bytes):
    /// what a match with it is compared in full with
    /// ([`super::run::ClassRun::compare`], the page's class view). `None`
    /// when the text was not kept.
    pub fn kept(
        &self,
        i: usize,
        options: &ClassSetConfig,
    ) -> Option<(&str, Vec<crate::text::TextRange>)> {
        let t = self.text(i)?;
        Some((t, super::own_exclusions(t, options)))
    }

    /// The kept texts by position (a text not kept, or past the end of a
    /// slice shorter than [`Library::len`], has none): what an evidence
    /// pack shows of the matches ([`super::run::PackInput::library_texts`]).
    pub fn texts(&self) -> &[Option<String>] {
        &self.texts
    }

    /// `true` when any text is kept.
    pub fn keeps_texts(&self) -> bool {
        self.texts.iter().any(Option::is_some)
    }

    /// The options texts are fingerprinted with.
    pub fn config(&self) -> &ClassSetConfig {
        &self.config
    }

    /// The texts' names, in the order added.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Number of texts.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// `true` when no text was added.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Number of postings (the file holds 12 bytes for each).
    pub fn postings(&self) -> usize {
        self.postings.len()
    }

    /// The kept fingerprints of `text`, distinct, sorted.
    fn fingerprints(&self, text: &str) -> Vec<u64> {
        let mut v = Text::read(text, &self.config).shingles;
        v.retain(|h| h % SAMPLE == 0);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Adds named texts (a name may repeat: each text is its own entry).
    ///
    /// # Errors
    /// [`crate::ErrorKind::TooLarge`] (`"library text"`) for a text over the
    /// configuration's `max_bytes`; [`crate::ErrorKind::InvalidOption`] (`texts`)
    /// when the library would hold more than `u32::MAX` texts. Nothing is
    /// added on an error.
    pub fn add(&mut self, texts: &[(&str, &str)]) -> Result<(), Error> {
        for (_, t) in texts {
            check_size(t, "library text", self.config.max_bytes)?;
        }
        if self.names.len() + texts.len() > u32::MAX as usize {
            return Err(Error::option(
                "texts",
                "a library holds at most 2^32 − 1 texts",
            ));
        }
        for (name, text) in texts {
            let id = self.names.len() as u32;
            let f = self.fingerprints(text);
            self.sizes.push(f.len() as u32);
            self.names.push(name.to_string());
            self.postings.extend(f.into_iter().map(|h| (h, id)));
            if self.keep {
                self.texts.resize(id as usize, None);
                self.texts.push(Some(text.to_string()));
            }
        }
        self.postings.sort_unstable();
        Ok(())
    }

    /// Checks each of `students` one way against every library text: the
    /// pairs whose containment (the share of the student's fingerprints in
    /// the library text) reaches `min_containment` and that share at least
    /// [`MIN_SHARED`] fingerprints, highest containment first (then by
    /// student, text). Fingerprints in more than [`MAX_HOLDERS`] library
    /// texts are skipped. Time: the students' fingerprints' postings; the
    /// library is not scanned.
    ///
    /// # Errors
    /// [`crate::ErrorKind::TooLarge`] (`"student"`) for a text over `max_bytes`;
    /// [`crate::ErrorKind::InvalidOption`] (`min_containment`) outside [0, 1].
    pub fn check(
        &self,
        students: &[&str],
        min_containment: f64,
    ) -> Result<Vec<LibraryMatch>, Error> {
        self.check_sharing(students, min_containment, MIN_SHARED)
    }

    /// [`Library::check`] with another least number of shared fingerprints
    /// (`min_shared` ≥ 1): what `neardup eval --library` measures the
    /// choice of [`MIN_SHARED`] with.
    ///
    /// # Errors
    /// As [`Library::check`]; [`crate::ErrorKind::InvalidOption`]
    /// (`min_shared`) for 0.
    pub fn check_sharing(
        &self,
        students: &[&str],
        min_containment: f64,
        min_shared: u32,
    ) -> Result<Vec<LibraryMatch>, Error> {
        crate::error::check_range("min_containment", min_containment, 0.0..=1.0)?;
        crate::error::check_range("min_shared", min_shared, 1..=u32::MAX)?;
        for t in students {
            check_size(t, "student", self.config.max_bytes)?;
        }
        let mut out = Vec::new();
        let mut counts: hashbrown::HashMap<u32, u32, fnv::FnvBuildHasher> = Default::default();
        for (s, text) in students.iter().enumerate() {
            let f = self.fingerprints(text);
            counts.clear();
            for h in &f {
                let from = self.postings.partition_point(|&(x, _)| x < *h);
                let to = from + self.postings[from..].partition_point(|&(x, _)| x <= *h);
                if to - from > MAX_HOLDERS {
                    continue;
                }
                for &(_, t) in &self.postings[from..to] {
                    *counts.entry(t).or_insert(0) += 1;
                }
            }
            for (&t, &shared) in &counts {
                let containment = shared as f64 / f.len().max(1) as f64;
                if shared >= min_shared && containment >= min_containment {
                    out.push(LibraryMatch {
                        student: s as u32,
                        text: t,
                        shared,
                        containment,
                        containment_library: shared as f64 / self.sizes[t as usize].max(1) as f64,
                    });
                }
            }
        }
        out.sort_by(|x, y| {
            y.containment
                .total_cmp(&x.containment)
                .then(x.student.cmp(&y.student))
                .then(x.text.cmp(&y.text))
        });
        Ok(out)
    }

    /// The library as bytes (format in the module docs): format 1 when no
    /// text is kept, else format 2.
    pub fn to_bytes(&self) -> Vec<u8> {
        let c = &self.config;
        let texts = self.keeps_texts();
        let mut w = Writer::new(MAGIC, if texts { FORMAT_TEXTS } else { FORMAT });
        w.u8(c.char_q as u8);
        w.u8(c.window as u8);
        w.u8(c.word_k as u8);
        w.u64(c.seed);
        w.u8(c.ignore_quotes as u8
            | (c.ignore_references as u8) << 1
            | (c.fold_diacritics as u8) << 2
            | (c.unmask as u8) << 3
            | if texts { KEEPS_TEXTS } else { 0 });
        w.u32(SAMPLE as u32);
        w.u64(self.names.len() as u64);
        for (name, size) in self.names.iter().zip(&self.sizes) {
            w.str(name);
            w.u32(*size);
        }
        w.u64(self.postings.len() as u64);
        for &(h, t) in &self.postings {
            w.u64(h);
            w.u32(t);
        }
        if texts {
            for i in 0..self.names.len() {
                match self.text(i) {
                    Some(t) => {
                        w.u8(1);
                        w.str(t);
                    }
                    None => w.u8(0),
                }
            }
        }
        w.finish()
    }

    /// Reads [`Library::to_bytes`]'s bytes, checking everything: the
    /// framing, every option's range, names, that postings are sorted and
    /// name a text, and each text's count.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Corrupt`] (`"library"`) naming the first problem;
    /// [`crate::ErrorKind::Version`] for another format or spec version.
    pub fn from_bytes(bytes: &[u8]) -> Result<Library, Error> {
        let what = "library";
        let (mut r, format) = Reader::open_versions(bytes, MAGIC, FORMAT..=FORMAT_TEXTS, what)?;
        let (char_q, window, word_k) = (r.u8()? as u32, r.u8()? as u32, r.u8()? as u32);
        let seed = r.u64()?;
        let flags = r.u8()?;
        let sample = r.u32()?;
        let texts = format == FORMAT_TEXTS;
        if sample as u64 != SAMPLE || flags > 31 || (flags & KEEPS_TEXTS != 0) != texts {
            return Err(corrupt(
                what,
                alloc::format!("sample {sample}, flags {flags}"),
            ));
        }
        let config = ClassSetConfig::default()
            .char_q(char_q)
            .window(window)
            .word_k(word_k)
            .seed(seed)
            .ignore_quotes(flags & 1 != 0)
            .ignore_references(flags & 2 != 0)
            .fold_diacritics(flags & 4 != 0)
            .unmask(flags & 8 != 0);
        config
            .check()
            .map_err(|e| corrupt(what, alloc::format!("options: {e}")))?;
        let n = r.count(8)?;
        let mut names = Vec::with_capacity(n);
        let mut sizes = Vec::with_capacity(n);
        for _ in 0..n {
            names.push(r.str()?);
            sizes.push(r.u32()?);
        }
        let m = r.count(12)?;
        let mut postings = Vec::with_capacity(m);
        let mut held = alloc::vec![0u32; n];
        for _ in 0..m {
            let p = (r.u64()?, r.u32()?);
            if p.1 as usize >= n || postings.last().is_some_and(|&q| q >= p) {
                return Err(corrupt(
                    what,
                    alloc::format!("posting {} out of order or of no text", postings.len()),
                ));
            }
            held[p.1 as usize] += 1;
            postings.push(p);
        }
        let mut kept = Vec::new();
        if texts {
            for i in 0..n {
                kept.push(match r.u8()? {
                    0 => None,
                    1 => Some(r.str()?),
                    b => {
                        return Err(corrupt(
                            what,
                            alloc::format!("text {i}'s kept mark is {b}, not 0 or 1"),
                        ))
                    }
                });
            }
        }
        r.end()?;
        if held != sizes {
            return Err(corrupt(
                what,
                "a text's count differs from its postings".into(),
            ));
        }
        Ok(Library {
            config,
            names,
            sizes,
            postings,
            keep: kept.iter().any(Option::is_some),
            texts: kept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn essay(seed: u64, words: usize) -> String {
        let mut rng = crate::hash::SplitMix64::new(seed);
        (0..words)
            .map(|_| alloc::format!("w{} ", rng.next() % 3000))
            .collect()
    }

    #[test]
    fn a_class_is_checked_one_way_and_the_library_round_trips() {
        let past: Vec<String> = (0..30).map(|i| essay(i, 300)).collect();
        let mut lib = Library::new(&ClassSetConfig::default()).unwrap();
        let named: Vec<(String, &str)> = past
            .iter()
            .enumerate()
            .map(|(i, t)| (alloc::format!("2025/s{i}.txt"), t.as_str()))
            .collect();
        let refs: Vec<(&str, &str)> = named.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        lib.add(&refs).unwrap();
        // Two library texts are the same: never paired with each other.
        lib.add(&[("2025/copy.txt", &past[3])]).unwrap();
        let bytes = lib.to_bytes();
        let back = Library::from_bytes(&bytes).unwrap();
        assert_eq!(back, lib);
        // A new class: one student copied half of s7, one all of s3, one
        // wrote alone.
        let half: String = past[7].split(' ').take(150).collect::<Vec<_>>().join(" ");
        let new = [
            alloc::format!("{half} {}", essay(100, 150)),
            past[3].clone(),
            essay(101, 300),
        ];
        let students: Vec<&str> = new.iter().map(String::as_str).collect();
        let m = back.check(&students, 0.1).unwrap();
        let got: Vec<(u32, u32)> = m.iter().map(|x| (x.student, x.text)).collect();
        assert_eq!(got, [(1, 3), (1, 30), (0, 7)], "{m:?}");
        assert_eq!(m[0].containment, 1.0);
        assert!(
            (0.35..0.65).contains(&m[2].containment),
            "{}",
            m[2].containment
        );
        assert!((0.35..0.65).contains(&m[2].containment_library));
        // Added to afterwards, the library finds the new class too.
        let mut grown = back.clone();
        grown.add(&[("2026/s0.txt", &new[0])]).unwrap();
        let again = grown.check(&[&new[0]], 0.9).unwrap();
        assert_eq!((again[0].text, again[0].containment), (31, 1.0));
        assert_eq!(grown.names()[31], "2026/s0.txt");
    }

    #[test]
    fn a_library_with_diacritics_folded_keeps_the_option() {
        let config = ClassSetConfig::default().fold_diacritics(true);
        let mut lib = Library::new(&config).unwrap();
        // Long enough for more than MIN_SHARED sampled fingerprints.
        let text = "Die Mädchen übten jeden Morgen für das große Konzert der Schule, \
                    während die Lehrerin am Klavier saß und leise zählte. Später \
                    öffneten die Jungen die Türen des Saals, schoben die schweren \
                    Stühle zurück und hörten der Übung mit großer Freude zu.";
        lib.add(&[("original", text)]).unwrap();
        let back = Library::from_bytes(&lib.to_bytes()).unwrap();
        assert!(back.config().fold_diacritics);
        let typed = "Die Maedchen uebten jeden Morgen fuer das grosse Konzert der Schule, \
                     waehrend die Lehrerin am Klavier sass und leise zaehlte. Spaeter \
                     oeffneten die Jungen die Tueren des Saals, schoben die schweren \
                     Stuehle zurueck und hoerten der Uebung mit grosser Freude zu.";
        let m = back.check(&[typed], 0.5).unwrap();
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].containment, 1.0);
    }

    #[test]
    fn kept_texts_make_format_2_and_postings_alone_stay_format_1() {
        let (a, b, c) = (essay(1, 200), essay(2, 200), essay(3, 200));
        let mut plain = Library::new(&ClassSetConfig::default()).unwrap();
        plain.add(&[("a", &a), ("b", &b)]).unwrap();
        let mut kept = plain.clone();
        kept.keep_texts(true);
        kept.add(&[("c", &c)]).unwrap();
        // Postings alone: format 1, no text to give.
        let bytes = plain.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 1);
        assert!(!plain.keeps_texts());
        assert_eq!(plain.text(0), None);
        // One text kept: format 2, flag 16; the texts added before stay
        // without one.
        let bytes = kept.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 2);
        let back = Library::from_bytes(&bytes).unwrap();
        assert_eq!(
            (back.text(0), back.text(1), back.text(2), back.text(3)),
            (None, None, Some(c.as_str()), None)
        );
        assert_eq!(back.names(), kept.names());
        // Read back, it keeps what is added next.
        let mut grown = back.clone();
        grown.add(&[("a again", &a)]).unwrap();
        assert_eq!(grown.text(3), Some(a.as_str()));
        // The postings are those of the same library without texts.
        let m = back.check(&[&c], 0.5).unwrap();
        assert_eq!((m[0].text, m[0].containment), (2, 1.0));
        // A format-1 header over format-2 content, or a bad kept mark, is
        // refused by name.
        let mut as_one = bytes.clone();
        as_one[4] = 1;
        assert!(Library::from_bytes(&as_one).is_err());
        let mut lib = Library::new(&ClassSetConfig::default()).unwrap();
        lib.keep_texts(true);
        lib.add(&[("x", "a short text")]).unwrap();
        let mut w = lib.to_bytes();
        // The kept mark is the byte after the postings: 4 bytes of length
        // and the text's bytes, then the 4-byte checksum, follow it.
        let at = w.len() - 4 - "a short text".len() - 4 - 1;
        assert_eq!(w[at], 1);
        w[at] = 7;
        w.truncate(w.len() - 4);
        let crc = crc32fast::hash(&w);
        w.extend(crc.to_le_bytes());
        let e = Library::from_bytes(&w).unwrap_err().to_string();
        assert!(e.contains("text 0's kept mark is 7"), "{e}");
    }

    #[test]
    fn damaged_libraries_are_refused_by_name() {
        let mut lib = Library::new(&ClassSetConfig::default()).unwrap();
        lib.add(&[("a", &essay(1, 200)), ("b", &essay(2, 200))])
            .unwrap();
        let bytes = lib.to_bytes();
        for cut in [0, 11, bytes.len() / 2, bytes.len() - 1] {
            let e = Library::from_bytes(&bytes[..cut]).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Corrupt { .. }), "{cut}: {e}");
        }
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert!(Library::from_bytes(&flipped)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        assert!(Library::new(&ClassSetConfig::default().window(0)).is_err());
        assert!(lib.check(&["x"], 1.5).is_err());
        let big = "word ".repeat(100);
        let mut small = Library::new(&ClassSetConfig::default().max_bytes(64)).unwrap();
        assert!(small.add(&[("big", &big)]).is_err());
        assert!(small.is_empty());
    }
}
