//! Error types shared by the library. Every message says what was wrong and what was expected.

use thiserror::Error;

/// A move written in a game's notation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read move `{text}`: {expected}")]
pub struct ParseMoveError {
    /// What the user typed.
    pub text: String,
    /// What the notation expects, e.g. "a column letter a..o and a row number 1..15, like h8".
    pub expected: String,
}

impl ParseMoveError {
    /// A parse error for `text`, saying what was `expected`.
    pub fn new(text: &str, expected: impl Into<String>) -> Self {
        Self {
            text: text.to_string(),
            expected: expected.into(),
        }
    }
}

/// A well-formed move that the rules do not allow in this position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// The move in the game's notation.
    pub mv: String,
    /// Why it is not allowed here.
    pub reason: String,
}

/// A configuration value (from a file, the command line or the setup screen) that is refused.
///
/// Shown as `file: key = value: expected`, or `file: where: what` when there is no single
/// value to quote (a syntax error, an unknown key).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct ConfigError {
    /// Where the value came from: a file name, `command line` or `setup`.
    pub source_name: String,
    /// Dotted key, e.g. `kalah.pits`.
    pub key: String,
    /// The refused value as written.
    pub value: String,
    /// What is allowed, e.g. `must be 1..=12`.
    pub expected: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}: {}: {}", self.source_name, self.key, self.expected)
        } else {
            write!(
                f,
                "{}: {} = {}: {}",
                self.source_name, self.key, self.value, self.expected
            )
        }
    }
}

impl ConfigError {
    /// A refused value.
    pub fn new(
        source_name: impl Into<String>,
        key: impl Into<String>,
        value: impl std::fmt::Display,
        expected: impl Into<String>,
    ) -> Self {
        Self {
            source_name: source_name.into(),
            key: key.into(),
            value: value.to_string(),
            expected: expected.into(),
        }
    }

    /// A refused engine setting from `source`, its key under `prefix` (`players.first`;
    /// empty for none).
    pub fn from_field(
        source_name: impl Into<String>,
        prefix: &str,
        error: crate::engine::settings::FieldError,
    ) -> Self {
        let key = if prefix.is_empty() {
            error.key
        } else {
            format!("{prefix}.{}", error.key)
        };
        Self {
            source_name: source_name.into(),
            key,
            value: error.value,
            expected: error.expected,
        }
    }
}

/// A line of moves (`--moves`, a saved game) that could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveListError {
    /// Move number `index` (1-based) could not be parsed.
    #[error("move {index} ({text}): {error}")]
    Parse {
        /// 1-based index in the list.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it could not be read.
        error: ParseMoveError,
    },
    /// Move number `index` (1-based) is not legal in the position it was played in.
    #[error("move {index} ({text}): {error}")]
    Illegal {
        /// 1-based index in the list.
        index: usize,
        /// The move as written.
        text: String,
        /// Why the rules refuse it.
        error: IllegalMove,
    },
}
