//! The data neardup ships, embedded for the surfaces that run without files
//! beside them (the CLI, Python); the npm package ships the same files
//! (`neardup/model.json`, `neardup/multiref.json`,
//! `neardup/dictionary-en.bin`) and the page fetches them from the package.
//! One copy of each, in `assets/` (feature `assets`).

/// The default verdict model (SPEC.md §11, format 3): SVMs trained by
/// `neardup train --clough ../shared/data/clough-abc` on the
/// Clough–Stevenson corpus (Raveena & Nandini 2014; Clough & Stevenson
/// 2011). Load it with [`crate::verdict::SvmModel::from_json`].
pub const MODEL_JSON: &str = include_str!("../assets/model.json");

/// The default multireference reference (SPEC.md §12): trained by the
/// genetic algorithm of Mohammadi & Khasteh 2020 (`neardup multiref
/// train`). Load it with [`crate::multiref::ReferenceFile::from_json`].
pub const REFERENCE_JSON: &str = include_str!("../assets/multiref.json");

/// The English dictionary for `word:K+correct` and spelling correction
/// (SPEC.md §13): 82,765 words with their frequencies, built by
/// `scripts/make-dictionary.sh` (licence: `assets/dictionary-en.LICENSE`).
/// Load it with [`crate::spell::Dictionary::from_bytes`].
pub const DICTIONARY_EN: &[u8] = include_bytes!("../assets/dictionary-en.bin");
