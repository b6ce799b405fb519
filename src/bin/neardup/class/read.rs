//! `neardup class`, step 1: the files read (the core's reader, through
//! [`crate::files::read_class`]), the template, and the library loaded.

use super::ClassArgs;
use crate::files::read_class;
use crate::input::read_text;
use anyhow::Result;
use neardup::classset::library::Library;
use neardup::classset::run::{ClassNames, ClassRun};
use neardup::read::ClassTexts;

/// What a class run reads before it runs.
pub struct Inputs {
    /// The assignment's template, `""` without one.
    pub template: String,
    pub students: ClassTexts,
    pub sources: ClassTexts,
    pub library: Option<Library>,
}

impl Inputs {
    /// Reads the template, the students' and sources' files (each skipped
    /// file named on standard error) and the library.
    pub fn of(args: &ClassArgs) -> Result<Inputs> {
        let template = match &args.template {
            Some(t) => read_text(t)?,
            None => String::new(),
        };
        let students = read_class(&args.students, args.each_file)?;
        let sources = read_class(&args.sources, args.each_file)?;
        let library = match &args.library {
            Some(path) => Some(crate::library::load(path)?),
            None => None,
        };
        Ok(Inputs {
            template,
            students,
            sources,
            library,
        })
    }

    /// The texts, students' then sources', as the core's run takes them.
    pub fn texts(&self) -> Vec<&str> {
        ClassRun::texts_of(&self.students, &self.sources)
    }

    /// The names of the students, sources and library texts.
    pub fn names(&self) -> ClassNames<'_> {
        ClassNames {
            students: &self.students.names,
            sources: &self.sources.names,
            library: self.library.as_ref().map_or(&[], |l| l.names()),
        }
    }

    /// Whether a file could not be read (the exit status is then 1).
    pub fn failed(&self) -> bool {
        self.students.failed() + self.sources.failed() > 0
    }
}
