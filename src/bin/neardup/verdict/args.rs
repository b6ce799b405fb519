//! The learned verdict's options, as `train` and `eval` take them, and the
//! setup they describe.

use super::data::{classes_of, Pair, CLOUGH_GRADES};
use super::fit::Setup;
use anyhow::Result;
use clap::Args;
use neardup::verdict::{Feature, Scheme, VectorSpec};

/// How the model is built: its vector, its scheme, its calibration.
#[derive(Args, Clone)]
pub struct ModelArgs {
    /// The similarity vector's feature groups, comma-separated: base (the
    /// 13 of format 1: keywords, word 1–5 containment, word 3 and char 5
    /// resemblance, char 5 containment), reverse (word 1–5 containment of b
    /// in a), passages (longest, count, mean length, coverage by passages
    /// of ≥ 8 words), order (LCS, Greedy String Tiling), char (char 3 and 8
    /// containment), phonetic (SoundD word 3 containment); or all.
    #[arg(long, default_value = "all", value_name = "GROUPS")]
    pub features: String,
    /// How the graded classes are decided: one-vs-rest machines, or ordinal
    /// (Frank & Hall 2001: one machine per "at least this grade").
    #[arg(long, value_enum, default_value = "ordinal")]
    pub scheme: SchemeChoice,
    /// The grades, lowest first, for --scheme ordinal (default: non, heavy,
    /// light, cut when those are the labels).
    #[arg(long, value_delimiter = ',')]
    pub grades: Option<Vec<String>>,
    /// Do not calibrate the decision values (no probabilities; one-vs-rest
    /// only).
    #[arg(long)]
    pub no_calibration: bool,
    /// The feature groups the graded machines read (then linear machines),
    /// among those of --features, plus "containment" (word 1–5 containment,
    /// Clough & Stevenson's measures); default: all of --features, with the
    /// model's kernel.
    #[arg(long, value_name = "GROUPS")]
    pub graded_features: Option<String>,
    /// What decides the ordinal grades: cut points on the plagiarism score
    /// (word 3-shingle containment, which --features must include), chosen
    /// on the training pairs (the default for --scheme ordinal: nested
    /// cross-validation prefers it, EVALUATION.md), or SVMs, one per
    /// "at least this grade".
    #[arg(long, value_enum)]
    pub grades_by: Option<GradesBy>,
    /// Calibrate without the anchor pairs (each text against itself as the
    /// highest grade, against another group's source that shares no word
    /// 3-shingle with it as the lowest) that make the probabilities right
    /// at the ends (ordinal only; EVALUATION.md).
    #[arg(long)]
    pub no_anchors: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GradesBy {
    Cuts,
    Svm,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemeChoice {
    OneVsRest,
    Ordinal,
}

/// The features of a group named in --features.
pub fn feature_group(name: &str) -> Option<Vec<Feature>> {
    use Feature::*;
    Some(match name {
        "base" => VectorSpec::default().features,
        "reverse" => (1..=5).map(|n| WordContainmentOfB { n }).collect(),
        "passages" => vec![
            LongestPassage { k: 3 },
            PassageCount { k: 3 },
            MeanPassage { k: 3 },
            LongPassageCoverage { k: 3, min: 8 },
        ],
        "order" => vec![Lcs, Tiling { min: 5 }],
        "char" => vec![CharContainment { q: 3 }, CharContainment { q: 8 }],
        "phonetic" => vec![PhoneticContainment { n: 3 }],
        "containment" => (1..=5).map(|n| WordContainment { n }).collect(),
        _ => return None,
    })
}

/// Every group, in the order `all` stands for.
pub const FEATURE_GROUPS: [&str; 6] = ["base", "reverse", "passages", "order", "char", "phonetic"];

impl ModelArgs {
    /// The first option given away from its default, by name (for commands
    /// that would ignore them).
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.features != "all", "--features"),
            (self.scheme != SchemeChoice::Ordinal, "--scheme"),
            (self.grades.is_some(), "--grades"),
            (self.no_calibration, "--no-calibration"),
            (self.graded_features.is_some(), "--graded-features"),
            (self.grades_by.is_some(), "--grades-by"),
            (self.no_anchors, "--no-anchors"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }

    /// The setup these options describe for training `pairs`.
    ///
    /// # Errors
    /// A usage error for an unknown feature group, grades that are not the
    /// labels, or an ordinal model without calibration.
    pub fn setup(&self, pairs: &[Pair]) -> Result<Setup> {
        let groups = |list: &str, option: &str| -> Result<Vec<Feature>> {
            let mut features = Vec::new();
            for name in list.split(',').map(str::trim) {
                let names: Vec<&str> = if name == "all" {
                    FEATURE_GROUPS.to_vec()
                } else {
                    vec![name]
                };
                for n in names {
                    let group = feature_group(n).ok_or_else(|| {
                        crate::usage(format!(
                            "{option}: unknown group {n:?} (expected all or some of {}, containment)",
                            FEATURE_GROUPS.join(", ")
                        ))
                    })?;
                    for f in group {
                        if !features.contains(&f) {
                            features.push(f);
                        }
                    }
                }
            }
            Ok(features)
        };
        let features = groups(&self.features, "--features")?;
        let graded_features = match &self.graded_features {
            None => None,
            Some(list) => Some(
                groups(list, "--graded-features")?
                    .iter()
                    .map(|f| {
                        features.iter().position(|g| g == f).ok_or_else(|| {
                            crate::usage(format!(
                                "--graded-features: {f:?} is not among --features {}",
                                self.features
                            ))
                        })
                    })
                    .collect::<Result<Vec<usize>>>()?,
            ),
        };
        let spec = VectorSpec {
            keywords: 20,
            features,
        };
        spec.check().map_err(crate::core)?;
        let labels = classes_of(pairs);
        let (scheme, classes) = match self.scheme {
            SchemeChoice::OneVsRest => (Scheme::OneVsRest, labels),
            SchemeChoice::Ordinal => {
                let grades: Vec<String> = match &self.grades {
                    Some(g) => g.clone(),
                    None => CLOUGH_GRADES.iter().map(|g| g.to_string()).collect(),
                };
                let mut sorted = grades.clone();
                sorted.sort();
                if sorted != labels {
                    return Err(crate::usage(format!(
                        "--grades {} must list every label once, lowest grade first (labels: {})",
                        grades.join(","),
                        labels.join(",")
                    )));
                }
                (Scheme::Ordinal, grades)
            }
        };
        if self.no_calibration && scheme == Scheme::Ordinal {
            return Err(crate::usage(
                "--no-calibration: the ordinal scheme needs calibrated probabilities",
            ));
        }
        let cuts = match (self.grades_by, scheme) {
            (Some(GradesBy::Cuts), Scheme::OneVsRest) => {
                return Err(crate::usage("--grades-by cuts needs --scheme ordinal"))
            }
            (Some(GradesBy::Cuts), _) if self.graded_features.is_some() => {
                return Err(crate::usage(
                    "--graded-features: the grades are cut points on the score; use --grades-by svm",
                ))
            }
            (Some(by), _) => by == GradesBy::Cuts,
            (None, Scheme::Ordinal) => self.graded_features.is_none(),
            (None, Scheme::OneVsRest) => false,
        };
        let grade_cuts =
            if cuts {
                let score = Feature::WordContainment { n: 3 };
                Some(spec.features.iter().position(|f| *f == score).ok_or_else(|| {
                crate::usage("--grades-by cuts: --features must include word 3 containment (base)")
            })?)
            } else {
                None
            };
        Ok(Setup {
            grade_cuts,
            spec,
            scheme,
            classes,
            calibrate: !self.no_calibration,
            anchors: !self.no_anchors && scheme == Scheme::Ordinal,
            graded_features,
        })
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum KernelChoice {
    Linear,
    Rbf,
    Both,
}

impl KernelChoice {
    pub fn names(self) -> &'static [&'static str] {
        match self {
            KernelChoice::Linear => &["linear"],
            KernelChoice::Rbf => &["rbf"],
            KernelChoice::Both => &["linear", "rbf"],
        }
    }
}
