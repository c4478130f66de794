//! Dots and Boxes' options (the `[dots]` section of `config.toml`) and their validation.

use serde::{Deserialize, Serialize};

use super::{MAX_EDGES, MAX_SIDE};
use crate::error::ConfigError;
use crate::games::GameOptions;
use crate::games::options::OptionDoc;

/// Dots and Boxes options (the `[dots]` section of `config.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DotsOptions {
    /// Rows of boxes, 1..=9.
    pub rows: u32,
    /// Columns of boxes, 1..=9.
    pub cols: u32,
    /// Engine search depth (in moves; an extra turn is a move) when a player's own depth is
    /// 0, 1..=180.
    pub depth: u32,
}

impl Default for DotsOptions {
    fn default() -> Self {
        Self {
            rows: 3,
            cols: 3,
            depth: 6,
        }
    }
}

impl DotsOptions {
    /// The first refused value as (key, value, what is allowed).
    fn check(&self) -> Result<(), (&'static str, u32, String)> {
        let side = format!("must be 1..={MAX_SIDE}");
        if !(1..=MAX_SIDE as u32).contains(&self.rows) {
            return Err(("rows", self.rows, side));
        }
        if !(1..=MAX_SIDE as u32).contains(&self.cols) {
            return Err(("cols", self.cols, side));
        }
        if !(1..=MAX_EDGES as u32).contains(&self.depth) {
            return Err(("depth", self.depth, format!("must be 1..={MAX_EDGES}")));
        }
        Ok(())
    }
}

impl GameOptions for DotsOptions {
    const DOCS: &'static [OptionDoc] = &[
        OptionDoc::flag("rows", "Rows of boxes", "rows of boxes, 1..=9"),
        OptionDoc::flag("cols", "Columns of boxes", "columns of boxes, 1..=9"),
        OptionDoc::DEPTH,
    ];

    fn validate(&self, source: &str) -> Result<(), ConfigError> {
        self.check().map_err(|(key, value, expected)| {
            ConfigError::new(source, format!("dots.{key}"), value, expected)
        })
    }

    fn default_depth(&self) -> u32 {
        self.depth
    }
}
