//! The script of a character (UAX #24, `Script` property), for the unmasked
//! normalisation's choice of a text's main script ([`super::unmask`]).
//!
//! The `unicode-script` crate answers from a table of 12-byte ranges (28 KB
//! of the WebAssembly module, 10 KB gzipped). The same runs here take 4
//! bytes each: `start << 8 | script`, a run lasting to the next one's start,
//! every code point covered (code points of no script are `Unknown`). The
//! table, `script_tables.rs`, is derived from `unicode-script` by the test
//! `the_script_table_is_uax24s`, which holds it to the crate for every code
//! point; the `Script` values are the crate's.

use unicode_script::Script;

#[path = "script_tables.rs"]
#[rustfmt::skip]
mod tables;

/// The UAX #24 script of `c`, as `unicode_script::UnicodeScript::script`
/// gives it (`Common`, `Inherited` and `Unknown` included).
pub(super) fn script(c: char) -> Script {
    let key = (c as u32) << 8 | 0xFF;
    // The last run starting at or before `c`; the first run starts at 0.
    let at = tables::RUNS.partition_point(|&run| run <= key);
    let index = tables::RUNS[at.saturating_sub(1)] & 0xFF;
    tables::SCRIPTS[index as usize]
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;
    use unicode_script::{Script, UnicodeScript};

    /// `script_tables.rs` as derived from `unicode-script` now: the scripts
    /// in order of first appearance, and the runs of code points of one
    /// script (the gaps between `char`s, the surrogates, joined to the run
    /// before them).
    fn tables_from_uax24() -> String {
        use core::fmt::Write;
        let mut scripts: Vec<Script> = Vec::new();
        let mut runs: Vec<u32> = Vec::new();
        let mut last: Option<Script> = None;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let s = c.script();
            if last == Some(s) {
                continue;
            }
            last = Some(s);
            let index = match scripts.iter().position(|&t| t == s) {
                Some(i) => i,
                None => {
                    scripts.push(s);
                    scripts.len() - 1
                }
            };
            runs.push((c as u32) << 8 | index as u32);
        }
        assert!(scripts.len() <= 256, "{} scripts", scripts.len());
        let mut out = String::new();
        out.push_str(
            "//! The runs of code points of one UAX #24 script, derived from the\n\
             //! `unicode-script` crate by the test `the_script_table_is_uax24s` of\n\
             //! `script.rs`, which holds them to it for every code point. Generated:\n\
             //! do not edit. When the crate's data changes, that test fails and\n\
             //! writes the new file to `target/script_tables.rs`.\n\n\
             use unicode_script::Script;\n\n",
        );
        let _ = writeln!(
            out,
            "/// The scripts of [`RUNS`], by index.\n\
             pub(super) const SCRIPTS: [Script; {}] = [",
            scripts.len()
        );
        for row in scripts.chunks(6) {
            let row: Vec<String> = row
                .iter()
                .map(|s| alloc::format!("Script::{s:?}"))
                .collect();
            let _ = writeln!(out, "    {},", row.join(", "));
        }
        let _ = writeln!(
            out,
            "];\n\n/// Each run as `first code point << 8 | index of its script in\n\
             /// [`SCRIPTS`]`, ascending; a run lasts to the next one's first code point.\n\
             pub(super) const RUNS: [u32; {}] = [",
            runs.len()
        );
        for row in runs.chunks(8) {
            let row: Vec<String> = row.iter().map(|e| alloc::format!("0x{e:08X}")).collect();
            let _ = writeln!(out, "    {},", row.join(", "));
        }
        out.push_str("];\n");
        out
    }

    /// The table answers as `unicode-script` for every code point, and the
    /// file is the one derived now.
    #[test]
    fn the_script_table_is_uax24s() {
        let want = tables_from_uax24();
        crate::testing::assert_generated(
            "script_tables.rs",
            include_str!("script_tables.rs"),
            &want,
            "unicode-script",
        );
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(super::script(c), c.script(), "U+{:04X}", c as u32);
        }
        // Not vacuous: the ends, and scripts the unmasking tells apart.
        assert_eq!(super::script('\0'), Script::Common);
        assert_eq!(super::script('a'), Script::Latin);
        assert_eq!(super::script('а'), Script::Cyrillic);
        assert_eq!(super::script('α'), Script::Greek);
        assert_eq!(super::script('\u{301}'), Script::Inherited);
        assert_eq!(super::script('\u{10FFFF}'), Script::Unknown);
    }
}
