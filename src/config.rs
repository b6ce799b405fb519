//! The configuration idiom of the crate (regex-automata's and linfa's): a
//! `XConfig` struct with public fields, `Default`, by-value setters
//! generated here, and one `check()` that validates every field once, before
//! any work or allocation.
//!
//! Option names are snake_case in Rust, the CLI (as `--word-k`) and Python;
//! the JSON and JavaScript spelling is camelCase (serde's `rename_all =
//! "camelCase"` on every configuration): [`camel_case`] maps one to the other
//! for the bindings.

use alloc::string::String;

/// An option name in the configurations' JSON spelling: `word_k` → `wordK`
/// (each `_` dropped and the next character upper-cased), as serde's
/// `rename_all = "camelCase"` spells the fields.
pub fn camel_case(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut up = false;
    for c in snake.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Generates by-value setters `fn field(mut self, v: T) -> Self` for the
/// named fields of a configuration struct, each documented. A field written
/// `field: ?T` is an `Option<T>` (given or not): its setter takes
/// `impl Into<Option<T>>`, so `.threshold(0.8)` and `.threshold(None)` both
/// read naturally.
macro_rules! setters {
    ($ty:ty { $($body:tt)* }) => {
        impl $ty {
            $crate::config::setters!(@items $($body)*);
        }
    };
    (@items) => {};
    (@items $(#[$doc:meta])* $field:ident : ? $t:ty $(, $($rest:tt)*)?) => {
        $(#[$doc])*
        #[must_use]
        pub fn $field(mut self, value: impl Into<Option<$t>>) -> Self {
            self.$field = value.into();
            self
        }
        $crate::config::setters!(@items $($($rest)*)?);
    };
    (@items $(#[$doc:meta])* $field:ident : $t:ty $(, $($rest:tt)*)?) => {
        $(#[$doc])*
        #[must_use]
        pub fn $field(mut self, value: $t) -> Self {
            self.$field = value;
            self
        }
        $crate::config::setters!(@items $($($rest)*)?);
    };
}

pub(crate) use setters;
