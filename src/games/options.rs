//! Game options by key path, for every game at once: `kalah.linear.store = 1.5` on the
//! setup screen, `--option`-style flags and tournament entrants. An options struct is read
//! and written through its serde form, so a game declares its options once (its struct and
//! its `validate`) and never lists its keys again.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// What one top-level game option is, written beside its options struct (the game's
/// `GameOptions::DOCS`): its label on the setup screen, its help on the command line, and
/// whether it is a flag at all. Every top-level option has one (a unit test checks);
/// dotted options (evaluator weights) need none and are never flags: they are set in
/// config.toml, on the setup screen or by tournament entrants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionDoc {
    /// The option's key, as in config.toml (`empty_capture`); its flag is `--empty-capture`.
    pub key: &'static str,
    /// The setup screen's label ("Empty-pit capture").
    pub label: &'static str,
    /// One line for `--help`, without the game's name ("board side, 3..=19").
    pub help: &'static str,
    /// The flag's value name in `--help` (`BOOL`); `None`: the key in capitals.
    pub value_name: Option<&'static str>,
    /// Whether the option is a command-line flag (`depth` is not: `--depth` is the engine's).
    pub flag: bool,
}

impl OptionDoc {
    /// An option that is a flag.
    pub const fn flag(key: &'static str, label: &'static str, help: &'static str) -> Self {
        Self {
            key,
            label,
            help,
            value_name: None,
            flag: true,
        }
    }

    /// An option that is deliberately no flag.
    pub const fn no_flag(key: &'static str, label: &'static str, help: &'static str) -> Self {
        Self {
            flag: false,
            ..Self::flag(key, label, help)
        }
    }

    /// Every game's `depth`: no flag, since `--depth` is the engine setting (whose 0 means
    /// this option).
    pub const DEPTH: Self = Self::no_flag(
        "depth",
        "Default depth",
        "engine search depth when a player's own depth is 0",
    );

    /// The same, with `name` as the flag's value name.
    #[must_use]
    pub const fn value_name(self, name: &'static str) -> Self {
        Self {
            value_name: Some(name),
            ..self
        }
    }
}

/// Every option of `options` as `(dotted key, value as text)`, in declaration order; a nested
/// table (an evaluator's weights) gives `linear.store`, a list is shown as `[1, 0.5]`.
pub fn entries<T: Serialize>(options: &T) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Ok(toml::Value::Table(table)) = toml::Value::try_from(options) {
        flatten("", &table, &mut out);
    }
    out
}

fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<(String, String)>) {
    for (key, value) in table {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(inner) => flatten(&path, inner, out),
            other => out.push((path, text(other))),
        }
    }
}

/// A value as people type it: numbers without a needless `.0`, text without quotes.
fn text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(text).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// Sets the option at the dotted `key` from `value` as typed. The text is read as the
/// option's current type (a switch takes `on`/`off`/`yes`/`no` too, a list `1, 0.5` with or
/// without brackets); nothing changes on error. Ranges are the caller's to check (the
/// options' `validate`).
pub fn set<T: Serialize + DeserializeOwned>(
    options: &mut T,
    key: &str,
    value: &str,
) -> Result<(), String> {
    let value = value.trim();
    let Ok(toml::Value::Table(mut root)) = toml::Value::try_from(&*options) else {
        return Err("these options cannot be set by key".to_string());
    };
    let no_such = || {
        let keys: Vec<String> = entries(options).into_iter().map(|(k, _)| k).collect();
        format!("no option `{key}` (options: {})", keys.join(", "))
    };
    let mut table = &mut root;
    let mut segments = key.split('.').peekable();
    let slot = loop {
        let Some(segment) = segments.next() else {
            return Err(no_such());
        };
        let Some(entry) = table.get_mut(segment) else {
            return Err(no_such());
        };
        if segments.peek().is_none() {
            break entry;
        }
        match entry {
            toml::Value::Table(inner) => table = inner,
            _ => return Err(no_such()),
        }
    };
    let parsed = parse_as(slot, key, value)?;
    let previous = std::mem::replace(slot, parsed);
    let typed = |root: toml::Table| T::deserialize(toml::Value::Table(root));
    match typed(root.clone()) {
        Ok(next) => {
            *options = next;
            Ok(())
        }
        // Names of choices are lower case in files; people type `Standard` too.
        Err(_) if previous.is_str() && value.chars().any(char::is_uppercase) => {
            set(options, key, &value.to_lowercase())
        }
        Err(e) => Err(format!("{key} = {value}: {}", e.message().trim())),
    }
}

/// `value` read as the type of `current`.
fn parse_as(current: &toml::Value, key: &str, value: &str) -> Result<toml::Value, String> {
    let refuse = |what: &str| format!("{key} must be {what}, not `{value}`");
    Ok(match current {
        toml::Value::Boolean(_) => match value.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => toml::Value::Boolean(true),
            "false" | "no" | "off" | "0" => toml::Value::Boolean(false),
            _ => return Err(refuse("true or false")),
        },
        toml::Value::Integer(_) => {
            toml::Value::Integer(value.parse().map_err(|_| refuse("a whole number"))?)
        }
        toml::Value::Float(_) => {
            toml::Value::Float(number(value).ok_or_else(|| refuse("a number"))?)
        }
        toml::Value::Array(_) => {
            let inner = value.trim_start_matches('[').trim_end_matches(']');
            let items: Option<Vec<toml::Value>> = inner
                .split(',')
                .map(|item| number(item.trim()).map(toml::Value::Float))
                .collect();
            toml::Value::Array(
                items
                    .ok_or_else(|| refuse("a list of numbers separated by commas, like 1, 0.5"))?,
            )
        }
        toml::Value::Table(inner) => {
            let keys: Vec<&str> = inner.keys().map(String::as_str).collect();
            return Err(format!(
                "{key} is a group of options: set {key}.{} ...",
                keys.join(format!(", {key}.").as_str())
            ));
        }
        _ => toml::Value::String(value.to_string()),
    })
}

fn number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|f| f.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kalah::KalahOptions;

    #[test]
    fn keys_follow_the_declaration_and_nest_with_dots() {
        let keys: Vec<String> = entries(&KalahOptions::default())
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys[..4], ["pits", "stones", "empty_capture", "depth"]);
        assert!(keys.contains(&"linear.store".to_string()), "{keys:?}");
        assert!(
            keys.contains(&"tuned.opponent_pits".to_string()),
            "{keys:?}"
        );
    }

    #[test]
    fn values_are_read_as_the_option_type() {
        let mut o = KalahOptions::default();
        set(&mut o, "pits", " 4 ").unwrap();
        set(&mut o, "empty_capture", "off").unwrap();
        set(&mut o, "linear.store", "1.5").unwrap();
        set(&mut o, "linear.pits", "[0.5, 1]").unwrap();
        assert_eq!(o.pits, 4);
        assert!(!o.empty_capture);
        assert!((o.linear.store - 1.5).abs() < f64::EPSILON);
        assert_eq!(o.linear.pits, vec![0.5, 1.0]);
        let before = o.clone();
        assert_eq!(
            set(&mut o, "pits", "many").unwrap_err(),
            "pits must be a whole number, not `many`"
        );
        assert!(
            set(&mut o, "pitz", "4")
                .unwrap_err()
                .contains("no option `pitz`")
        );
        assert!(
            set(&mut o, "linear", "4")
                .unwrap_err()
                .contains("linear.store")
        );
        assert!(set(&mut o, "linear.pits", "1, x").is_err());
        assert_eq!(o, before, "a refused value changes nothing");
    }
}
