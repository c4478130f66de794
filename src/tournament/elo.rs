//! Match statistics: win/draw/loss tallies, the Elo difference a score stands for with its
//! 95% error margin, and the sequential probability ratio test (SPRT) the tuner accepts
//! changes with. Pure arithmetic: no games, no I/O.

use serde::Serialize;

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval is the
/// mean ± this many standard errors.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side of a match (or of one entrant over a tournament).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// A tally from its three counts.
    pub fn new(wins: u32, draws: u32, losses: u32) -> Self {
        Self {
            wins,
            draws,
            losses,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: 1 per win, ½ per draw.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Points per game, 0..=1; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.points() / f64::from(games))
    }

    /// The same games seen from the other side.
    pub fn reversed(&self) -> Self {
        Self::new(self.losses, self.draws, self.wins)
    }

    /// Adds one game scored `points` (1, ½ or 0) for this side.
    pub fn record(&mut self, points: GamePoints) {
        match points {
            GamePoints::Win => self.wins += 1,
            GamePoints::Draw => self.draws += 1,
            GamePoints::Loss => self.losses += 1,
        }
    }

    /// Adds another tally to this one.
    pub fn add(&mut self, other: &Self) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// The variance of a single game's points around the mean score (0 before any game):
    /// the spread the error margin and the SPRT are computed from.
    pub fn variance(&self) -> f64 {
        let Some(mean) = self.score() else {
            return 0.0;
        };
        let n = f64::from(self.games());
        (f64::from(self.wins) * (1.0 - mean).powi(2)
            + f64::from(self.draws) * (0.5 - mean).powi(2)
            + f64::from(self.losses) * mean.powi(2))
            / n
    }
}

/// One game's result for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamePoints {
    /// 1 point.
    Win,
    /// ½ point.
    Draw,
    /// 0 points.
    Loss,
}

/// The Elo difference at which the stronger side is expected to score `score` (0..=1) per
/// game: `-400 log10(1/score - 1)`. ±infinity at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score per game of a side `elo` points stronger: the inverse of
/// [`elo_from_score`].
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% error margin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The Elo difference the observed score stands for (±infinity after a clean sweep).
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo (infinity when the interval reaches a
    /// score of 0 or 1).
    pub margin: f64,
    /// The interval's ends in Elo.
    pub low: f64,
    /// The interval's upper end in Elo.
    pub high: f64,
}

impl EloEstimate {
    /// The Elo difference of the side whose results are `tally`; `None` before any game.
    ///
    /// The margin is the usual normal approximation (as in cutechess-cli): the standard
    /// error of the mean score is the per-game standard deviation (draws counted as ½)
    /// over √games; the 95% interval of the score, mean ± 1.96 standard errors, is mapped to
    /// Elo, and the margin is half its width. Games played in colour-swapped pairs are
    /// treated as independent, which overstates the error slightly when a pair's two games
    /// tend to cancel out: the margin errs on the safe side.
    pub fn from_tally(tally: &Tally) -> Option<Self> {
        let mean = tally.score()?;
        let standard_error = (tally.variance() / f64::from(tally.games())).sqrt();
        let low = elo_from_score(mean - Z_95 * standard_error);
        let high = elo_from_score(mean + Z_95 * standard_error);
        Some(Self {
            elo: elo_from_score(mean),
            margin: (high - low) / 2.0,
            low,
            high,
        })
    }

    /// True when the whole interval lies above 0: the side is stronger at 95% confidence.
    pub fn is_significantly_positive(&self) -> bool {
        self.low > 0.0
    }
}

/// Formats an Elo value for tables: `+108`, `-43`, `+inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0.0 turns a rounded -0 into +0.
        let rounded = elo.round() + 0.0;
        format!("{rounded:+.0}")
    }
}

/// Formats an error margin: `± 68`, `± inf`.
pub fn format_margin(margin: f64) -> String {
    if margin.is_finite() {
        format!("± {margin:.0}")
    } else {
        "± inf".to_string()
    }
}

/// What a sequential test concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtDecision {
    /// H1 accepted: the side is at least `elo1` stronger (up to the error rates).
    Accept,
    /// H0 accepted: the side is not stronger than `elo0`.
    Reject,
    /// Neither bound reached yet: play on.
    Continue,
}

/// A sequential probability ratio test of H0: "Elo = `elo0`" against H1: "Elo = `elo1`",
/// with false-acceptance rate `alpha` and false-rejection rate `beta`.
///
/// The log-likelihood ratio uses the normal (generalised SPRT) approximation of Michel Van
/// den Bergh, also used by Fishtest: with `s0`, `s1` the expected scores at `elo0`, `elo1`,
/// the mean score `x` and the per-game variance `v` of `n` games,
/// `LLR = n (s1 - s0) (2x - s0 - s1) / (2v)`. The test stops at `LLR >= ln((1-beta)/alpha)`
/// (accept H1) or `LLR <= ln(beta/(1-alpha))` (accept H0). Since `LLR > 0` only when the
/// mean score is above `(s0 + s1)/2`, which is above ½ whenever `elo1 > elo0 >= 0`, an
/// accepted side has always scored more than half the points.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo under H0 (usually 0: no better).
    pub elo0: f64,
    /// Elo under H1 (the smallest gain worth detecting).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// No decision before this many games: a handful of games cannot estimate the variance.
    pub min_games: u32,
}

impl Default for Sprt {
    fn default() -> Self {
        Self {
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.05,
            min_games: 16,
        }
    }
}

/// The smallest per-game variance the LLR is computed with: a run of equal results (all
/// wins, all draws) has no spread yet, and dividing by zero would decide on nothing.
const MIN_VARIANCE: f64 = 0.01;

impl Sprt {
    /// Checks the parameters; the message names the offending one.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo1 > self.elo0) {
            return Err(format!(
                "elo1 ({}) must be greater than elo0 ({})",
                self.elo1, self.elo0
            ));
        }
        if self.elo0 < 0.0 {
            return Err(format!("elo0 ({}) must be at least 0", self.elo0));
        }
        for (name, p) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} ({p}) must be between 0 and 0.5"));
            }
        }
        Ok(())
    }

    /// The lower bound: at or below it H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound: at or above it H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 after `tally` (0 before any game).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let Some(mean) = tally.score() else {
            return 0.0;
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let variance = tally.variance().max(MIN_VARIANCE);
        f64::from(tally.games()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The decision after `tally`.
    pub fn decide(&self, tally: &Tally) -> SprtDecision {
        if tally.games() < self.min_games {
            return SprtDecision::Continue;
        }
        let llr = self.llr(tally);
        if llr >= self.upper_bound() {
            SprtDecision::Accept
        } else if llr <= self.lower_bound() {
            SprtDecision::Reject
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_simple_scores() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 10:1 odds are 400 Elo by definition.
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(elo_from_score(1.0 / 11.0), -400.0, 1e-9));
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert!(elo_from_score(1.0).is_infinite() && elo_from_score(1.0) > 0.0);
        assert!(elo_from_score(0.0).is_infinite() && elo_from_score(0.0) < 0.0);
        for elo in [-300.0, -20.0, 0.0, 5.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn worked_example_60_wins_10_draws_30_losses() {
        // Score 0.65; per-game variance 0.6·0.35² + 0.1·0.15² + 0.3·0.65² = 0.2025, so the
        // standard error is 0.45/√100 = 0.045 and the 95% score interval 0.5618..0.7382.
        let t = Tally::new(60, 10, 30);
        assert_eq!(t.games(), 100);
        assert!(close(t.points(), 65.0, 1e-12));
        assert!(close(t.variance(), 0.2025, 1e-12));
        let e = EloEstimate::from_tally(&t).unwrap();
        assert!(close(e.elo, 107.538, 1e-3), "{e:?}");
        assert!(close(e.margin, 68.458, 1e-3), "{e:?}");
        assert!(e.is_significantly_positive());
        let r = EloEstimate::from_tally(&t.reversed()).unwrap();
        assert!(close(r.elo, -107.538, 1e-3));
        assert!(close(r.margin, e.margin, 1e-9));
    }

    #[test]
    fn worked_example_even_match() {
        // 30-40-30: score ½, variance 0.6·0.25 = 0.15, standard error √0.15/10 = 0.0387.
        let e = EloEstimate::from_tally(&Tally::new(30, 40, 30)).unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.margin, 53.158, 1e-3), "{e:?}");
        assert!(!e.is_significantly_positive());
    }

    #[test]
    fn sweeps_and_empty_tallies() {
        assert_eq!(EloEstimate::from_tally(&Tally::default()), None);
        let sweep = EloEstimate::from_tally(&Tally::new(10, 0, 0)).unwrap();
        assert!(sweep.elo.is_infinite() && sweep.elo > 0.0);
        let draws = EloEstimate::from_tally(&Tally::new(0, 8, 0)).unwrap();
        assert!(close(draws.elo, 0.0, 1e-12) && close(draws.margin, 0.0, 1e-12));
        assert_eq!(format_elo(sweep.elo), "+inf");
        assert_eq!(format_elo(-42.4), "-42");
        assert_eq!(format_elo(-0.3), "+0");
        assert_eq!(format_margin(68.46), "± 68");
        assert_eq!(format_margin(f64::INFINITY), "± inf");
    }

    #[test]
    fn sprt_worked_example() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            ..Sprt::default()
        };
        // s1 = 0.528751; LLR = 100 · 0.028751 · (1.3 - 1.028751) / (2 · 0.2025) = 1.9256.
        assert!(close(sprt.llr(&Tally::new(60, 10, 30)), 1.9256, 1e-3));
        assert!(close(sprt.upper_bound(), 2.944_438_979, 1e-6));
        assert!(close(sprt.lower_bound(), -2.944_438_979, 1e-6));
        assert_eq!(sprt.decide(&Tally::new(60, 10, 30)), SprtDecision::Continue);
        assert_eq!(sprt.decide(&Tally::new(120, 20, 60)), SprtDecision::Accept);
        assert_eq!(sprt.decide(&Tally::new(60, 20, 120)), SprtDecision::Reject);
        // An even score is evidence against H1 too, but only slowly.
        assert!(close(sprt.llr(&Tally::new(45, 10, 45)), -0.1837, 1e-3));
        // Too few games to decide on, however lopsided.
        assert_eq!(sprt.decide(&Tally::new(5, 0, 0)), SprtDecision::Continue);
    }

    #[test]
    fn sprt_never_accepts_a_side_that_did_not_score_more_than_half() {
        let sprt = Sprt::default();
        for wins in 0..60 {
            for draws in 0..60 {
                for losses in 0..60 {
                    let t = Tally::new(wins, draws, losses);
                    if sprt.decide(&t) == SprtDecision::Accept {
                        assert!(t.points() > f64::from(t.games()) / 2.0, "{t:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn sprt_parameters_are_checked() {
        assert!(Sprt::default().validate().is_ok());
        let bad = Sprt {
            elo1: -5.0,
            ..Sprt::default()
        };
        assert!(bad.validate().unwrap_err().contains("elo1"));
        let bad = Sprt {
            alpha: 0.0,
            ..Sprt::default()
        };
        assert!(bad.validate().unwrap_err().contains("alpha"));
    }
}
