//! Error types shared by the library. Every message says what was wrong and what was expected,
//! and quotes what it was given through [`quote`]: a save, a config or a move line may carry
//! escape sequences that would drive the terminal, or values of megabytes.

use std::fmt::Write as _;

use thiserror::Error;

/// The longest value a message quotes, in characters after escaping; a longer one keeps its
/// start and its end.
pub const MAX_QUOTED_CHARS: usize = 120;

/// The longest whole message text taken from elsewhere (a parser's message that may quote the
/// input itself).
pub const MAX_MESSAGE_CHARS: usize = 400;

/// `text` made safe to print in a message: control characters (escape sequences, carriage
/// returns and newlines that would forge lines) and invisible direction overrides written as
/// Rust escapes, and cut in the middle past [`MAX_QUOTED_CHARS`].
pub fn quote(text: &str) -> String {
    quote_within(text, MAX_QUOTED_CHARS)
}

/// [`quote`] with another length limit (at least 20 characters are kept).
pub fn quote_within(text: &str, max_chars: usize) -> String {
    let mut escaped = String::with_capacity(text.len().min(4 * max_chars));
    for c in text.chars() {
        if needs_escape(c) {
            let _ = write!(escaped, "{}", c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    let max_chars = max_chars.max(20);
    let count = escaped.chars().count();
    if count <= max_chars {
        return escaped;
    }
    let head = max_chars * 2 / 3;
    let tail = max_chars - head;
    let start: String = escaped.chars().take(head).collect();
    let end: String = escaped.chars().skip(count - tail).collect();
    format!("{start}…({} characters cut)…{end}", count - head - tail)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}'
        )
}

/// A move written in a game's notation could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read move `{}`: {}", quote(.text), quote_within(.expected, MAX_MESSAGE_CHARS))]
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
#[error("illegal move {}: {}", quote(.mv), quote_within(.reason, MAX_MESSAGE_CHARS))]
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
        write!(f, "{}: {}", quote(&self.source_name), self.field_text())
    }
}

impl ConfigError {
    /// The message without its source (`dots.rows = 0: must be 1..=9`), for a caller that
    /// names the file itself.
    pub fn field_text(&self) -> String {
        let key = quote(&self.key);
        let expected = quote_within(&self.expected, MAX_MESSAGE_CHARS);
        if self.value.is_empty() {
            format!("{key}: {expected}")
        } else {
            format!("{key} = {}: {expected}", quote(&self.value))
        }
    }

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

    /// Reads a settings file's text; an unreadable file is an error naming it.
    pub fn read_file(path: &std::path::Path) -> Result<(String, String), Self> {
        let name = path.display().to_string();
        match crate::files::read_text(path, crate::files::MAX_SETTINGS_BYTES) {
            Ok(text) => Ok((text, name)),
            Err(e) => Err(Self::new(
                name,
                "(file)",
                "",
                format!("cannot be read: {e}"),
            )),
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
    #[error("move {index} ({}): {error}", quote(.text))]
    Parse {
        /// 1-based index in the list.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it could not be read.
        error: ParseMoveError,
    },
    /// Move number `index` (1-based) is not legal in the position it was played in.
    #[error("move {index} ({}): {error}", quote(.text))]
    Illegal {
        /// 1-based index in the list.
        index: usize,
        /// The move as written.
        text: String,
        /// Why the rules refuse it.
        error: IllegalMove,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        let planted = "\u{1b}[2J\u{1b}]0;PWNED\u{7}";
        let quoted = quote(planted);
        assert!(!quoted.chars().any(char::is_control), "{quoted:?}");
        assert_eq!(quoted, "\\u{1b}[2J\\u{1b}]0;PWNED\\u{7}");
        assert_eq!(quote("line\nforged"), "line\\nforged");
        assert_eq!(quote("a\u{202E}b"), "a\\u{202e}b");
        assert_eq!(quote("h8 é ✓"), "h8 é ✓");
    }

    #[test]
    fn long_values_keep_their_start_and_end() {
        let long = format!("start{}end", "x".repeat(10_000));
        let quoted = quote(&long);
        assert!(quoted.starts_with("startxx"), "{quoted}");
        assert!(quoted.ends_with("xxend"), "{quoted}");
        assert!(quoted.contains("characters cut"), "{quoted}");
        assert!(quoted.chars().count() < MAX_QUOTED_CHARS + 40, "{quoted}");
        let exact = "y".repeat(MAX_QUOTED_CHARS);
        assert_eq!(quote(&exact), exact);
    }

    #[test]
    fn every_error_quoting_input_escapes_it() {
        let planted = "\u{1b}[2J";
        let messages = [
            ParseMoveError::new(planted, "a cell like b2").to_string(),
            IllegalMove {
                mv: planted.to_string(),
                reason: planted.to_string(),
            }
            .to_string(),
            ConfigError::new(planted, planted, planted, planted).to_string(),
            MoveListError::Parse {
                index: 1,
                text: planted.to_string(),
                error: ParseMoveError::new(planted, "x"),
            }
            .to_string(),
        ];
        for message in messages {
            assert!(!message.contains('\u{1b}'), "{message:?}");
            assert!(message.contains("\\u{1b}[2J"), "{message:?}");
        }
    }
}
