//! The configuration idiom of the crate (regex-automata's and linfa's): a
//! `XConfig` struct with public fields, `Default`, by-value setters
//! generated here, and one `check()` that validates every field once, before
//! any work or allocation.

/// Generates by-value setters `fn field(mut self, v: T) -> Self` for the
/// named fields of a configuration struct, each documented.
macro_rules! setters {
    ($ty:ty { $($(#[$doc:meta])* $field:ident: $t:ty),* $(,)? }) => {
        impl $ty {
            $(
                $(#[$doc])*
                #[must_use]
                pub fn $field(mut self, value: $t) -> Self {
                    self.$field = value;
                    self
                }
            )*
        }
    };
}

pub(crate) use setters;
