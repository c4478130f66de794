//! The time a search gets on a match clock: a time for all of a side's moves in one game,
//! planned move by move. The Gomocup brain plans from what its manager says (`INFO
//! timeout_turn`, `timeout_match`, `time_left`); the engine side of the command line, a
//! tournament or the TUI from its own `match_ms` and the time its moves took. The plan's
//! constants are Rapfi's (search/timecontrol.cpp, config.cpp), measured here in
//! docs/performance.md, waves 37 and 41.

use std::time::Duration;

/// Time per move when the manager never says (`INFO timeout_turn`).
pub const DEFAULT_TURN: Duration = Duration::from_secs(5);
/// Time per move for `timeout_turn 0` ("as fast as possible"): a shallow search.
pub const FASTEST_TURN: Duration = Duration::from_millis(20);
/// Kept back from every turn limit for starting the search, answering and a loaded
/// machine's scheduling delays; a twentieth of the turn when that is more (and never more
/// than half the turn). The engine reads its clock every 256 nodes, about a millisecond,
/// and answers within a few milliseconds of its budget. A tenth until wave 37: at 1 s a move
/// that left the search 900 ms where Rapfi thinks 970 (docs/performance.md, "Wave 37").
pub const TURN_MARGIN: Duration = Duration::from_millis(40);
/// The turn limit is kept back by at least this fraction of it ([`TURN_MARGIN`]).
pub const TURN_MARGIN_SHARE: u32 = 20;
/// Kept back from the match's remaining time.
pub const MATCH_MARGIN: Duration = Duration::from_millis(500);
/// The match time left is ample when the turn limit for this many more moves (or the empty
/// points, when fewer) fits in it: every move then gets its turn limit. The constants of
/// the match clock are Rapfi's (search/timecontrol.cpp, config.cpp), whose time control
/// has played Gomocup's clocks for years.
pub const MOVE_HORIZON: u32 = 64;
/// Under a match clock no move may take more than the time left over this many moves (or
/// the empty points, when fewer).
pub const MATCH_SPACE_MIN: u32 = 7;
/// Under a match clock a move aims for no more than the time left over this many moves
/// (or the empty points, when fewer) ... Rapfi's 22 left more than half the clock unused in
/// games of about 25 moves a side (median against Rapfi): at 2 s a turn and 12 s a game 12
/// used 270 ms a move and scored 94 of 240 against Rapfi where 22 used 240 and scored 91.5
/// and the plan before (the time left over 20, whole) 228 and 84 (docs/performance.md,
/// "Wave 41").
pub const MATCH_SPACE: u32 = 12;
/// ... nor more than its hard limit over this (the search's growth per iteration) ...
pub const BRANCH_FACTOR: f64 = 1.7;
/// ... nor more than this share of its hard limit.
pub const TARGET_OF_LIMIT: f64 = 0.9;
/// `time_left` when the match has no time limit (the protocol's 2^31 - 1), as read here and
/// as told to an external brain with no match clock.
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;
/// The least time a search is given (half the turn when that is less): enough for a
/// shallow answer.
pub const MIN_TURN: Duration = Duration::from_millis(5);

/// A side on a match clock (a brain, or an engine side of the command line, a tournament or
/// the TUI) loses the game once its moves took more than the match time and this much: the
/// time its answers spend in pipes and the scheduler, counted against it by the program
/// that keeps the clock and not by the player itself.
pub const MATCH_GRACE: Duration = Duration::from_millis(200);

/// Where an engine side stands on its match clock before a move: how far into the game, and
/// how much of its match time its moves of this game took. A search off the clock (a hint,
/// a tree to browse) reads it without charging it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockReading {
    /// Moves played in the game so far.
    pub ply: usize,
    /// The time the side's own moves of this game took.
    pub used: Duration,
}

impl ClockReading {
    /// The plan for a side with `limit` for all its moves and `turn` a move (`None`: no
    /// limit a move), in a game that can last `moves_left` more moves (`None`: unknown).
    pub fn plan(&self, limit: Duration, turn: Option<Duration>, moves_left: Option<usize>) -> Plan {
        let clock = Clock {
            turn: Some(turn.unwrap_or(limit)),
            time_left: Some(self.time_left_ms(limit)),
            match_limit: limit.as_millis() as u64,
        };
        clock.plan(self.ply, moves_left.unwrap_or(usize::MAX))
    }

    /// The reading once a move that took `spent` is charged.
    #[must_use]
    pub fn after(self, spent: Duration) -> Self {
        Self {
            used: self.used.saturating_add(spent),
            ..self
        }
    }

    /// What is left of the match time `limit` in ms as the Gomocup protocol's `time_left`
    /// says it: negative once over.
    pub fn time_left_ms(&self, limit: Duration) -> i64 {
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        ms(limit)
            .saturating_sub(ms(self.used))
            .max(-UNLIMITED_TIME_LEFT)
    }

    /// What is left of the match time `limit` (nothing once it is used up).
    pub fn left(&self, limit: Duration) -> Duration {
        limit.saturating_sub(self.used)
    }

    /// True once the side's moves took all of its match time `limit`: a human's clock, which
    /// no pipe delays, has run out.
    pub fn run_out(&self, limit: Duration) -> bool {
        self.used >= limit
    }

    /// True once the side's moves took its match time `limit` and [`MATCH_GRACE`] more.
    pub fn over(&self, limit: Duration) -> bool {
        self.used >= limit + MATCH_GRACE
    }

    /// Why the side lost on time, once it did ([`Self::over`]): `ran out of its match time:
    /// its moves took 60213 ms of 60000 ms`.
    pub fn lost_on_time(&self, limit: Duration) -> Option<String> {
        self.over(limit).then(|| {
            format!(
                "ran out of its match time: its moves took {} ms of {} ms",
                self.used.as_millis(),
                limit.as_millis()
            )
        })
    }
}

/// Time left on a match clock as a player reads it: `41.2 s left` under a minute, `3:05
/// left` from a minute on; rounded up, as a countdown is, so a fresh clock reads its whole
/// time and `0.0 s left` means it has run out.
pub fn clock_text(left: Duration) -> String {
    let tenths = left.as_millis().div_ceil(100);
    if tenths < 600 {
        format!("{}.{} s left", tenths / 10, tenths % 10)
    } else {
        let seconds = left.as_millis().div_ceil(1000);
        format!("{}:{:02} left", seconds / 60, seconds % 60)
    }
}

/// A match time as a player reads it: `1 min`, `90 s`, `2.5 s`.
pub fn match_time_text(time: Duration) -> String {
    let ms = time.as_millis();
    if ms.is_multiple_of(60_000) && ms > 0 {
        format!("{} min", ms / 60_000)
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", time.as_secs_f64())
    }
}

/// What a side knows about its time: the turn limit, and the match clock if there is one
/// (as the Gomocup protocol says them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `timeout_turn`, once given.
    pub turn: Option<Duration>,
    /// `time_left`, once given: the match's remaining time in ms (negative when over).
    pub time_left: Option<i64>,
    /// `timeout_match` in ms; 0 = no limit.
    pub match_limit: u64,
}

/// The time the next search gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The most it may take (the search's time limit).
    pub time: Duration,
    /// Under a match clock that is not ample, the time it aims for (the search's target,
    /// [`crate::engine::limits::Limits::target`]); `None`: it may use `time` whole.
    pub target: Option<Duration>,
}

impl Clock {
    /// The time to give the next search, `ply` moves into a game that can last `moves_left`
    /// more at most (the empty points of a board):
    /// the turn limit kept back from it by a margin; under a match clock whose time left
    /// does not cover [`MOVE_HORIZON`] such turns, no more than the time left over
    /// [`MATCH_SPACE_MIN`] moves, and a target of the time left over [`MATCH_SPACE`] moves
    /// or less (a little more early in the game, less late), which the search shortens when
    /// its best move holds and stretches when it changes.
    pub fn plan(&self, ply: usize, moves_left: usize) -> Plan {
        let turn = self.turn.unwrap_or(DEFAULT_TURN);
        if turn.is_zero() {
            return Plan {
                time: FASTEST_TURN,
                target: None,
            };
        }
        let floor = MIN_TURN.min(turn / 2);
        let margin = TURN_MARGIN.max(turn / TURN_MARGIN_SHARE);
        let budget = turn.saturating_sub(margin).max(turn / 2);
        let match_limited = self.match_limit > 0
            || self
                .time_left
                .is_some_and(|left| left < UNLIMITED_TIME_LEFT);
        let left = self
            .time_left
            .filter(|_| match_limited)
            .map(|left| Duration::from_millis(left.max(0) as u64).saturating_sub(MATCH_MARGIN));
        let moves_left = u32::try_from(moves_left).unwrap_or(u32::MAX).max(1);
        let Some(left) = left.filter(|&left| budget * moves_left.min(MOVE_HORIZON) >= left) else {
            return Plan {
                time: budget.max(floor),
                target: None,
            };
        };
        let time = budget.min(left / moves_left.min(MATCH_SPACE_MIN));
        let target = time
            .mul_f64(TARGET_OF_LIMIT)
            .min(time.mul_f64(move_importance(ply) / BRANCH_FACTOR))
            .min(left / moves_left.min(MATCH_SPACE));
        Plan {
            time: time.max(floor),
            target: Some(target.max(floor)),
        }
    }
}

/// How much a move `ply` stones into the game matters, about 1: a little more in the
/// opening, less from the 50th stone on (Rapfi's `moveImportance`, "made from pure
/// experience").
fn move_importance(ply: usize) -> f64 {
    let ply = ply as f64;
    let basic = (1.0 + ((ply - 50.0) / 8.0).exp()).powf(-0.08);
    let opening = 0.1 * (-0.04 * ply).exp();
    (basic + opening).max(0.01)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_keeps_a_margin_from_every_limit() {
        let clock = |turn: Option<u64>, left: Option<i64>, limit: u64| Clock {
            turn: turn.map(Duration::from_millis),
            time_left: left,
            match_limit: limit,
        };
        let ms = Duration::from_millis;
        let fixed = |time: Duration| Plan { time, target: None };
        assert_eq!(clock(None, None, 0).plan(0, 225), fixed(ms(4750)));
        assert_eq!(clock(Some(1000), None, 0).plan(0, 225), fixed(ms(950)));
        assert_eq!(clock(Some(300), None, 0).plan(0, 225), fixed(ms(260)));
        assert_eq!(clock(Some(80), None, 0).plan(0, 225), fixed(ms(40)));
        assert_eq!(clock(Some(0), None, 0).plan(0, 225), fixed(FASTEST_TURN));
        // Unlimited match time is sent as 2^31 - 1 and does not count.
        let unlimited = clock(Some(1000), Some(UNLIMITED_TIME_LEFT), 0);
        assert_eq!(unlimited.plan(0, 225), fixed(ms(950)));
        // Ample match time (99.5 s for 64 turns of 950 ms): every move its turn.
        assert_eq!(
            clock(Some(1000), Some(100_000), 180_000).plan(20, 205),
            fixed(ms(950))
        );
        // 5.5 s left, 500 ms kept back: no more than 5 s / 7, aiming for 5 s / 12 (under
        // 714 ms / 1.7).
        assert_eq!(
            clock(Some(1000), Some(5_500), 180_000).plan(20, 205),
            Plan {
                time: ms(5_000) / 7,
                target: Some(ms(5_000) / 12)
            }
        );
        // 3.5 s left: no move takes more than a seventh of 3 s.
        assert_eq!(
            clock(Some(1000), Some(3_500), 180_000).plan(20, 205).time,
            ms(3_000) / 7
        );
        // Four points left and 2.5 s: each gets no more than half a second, and aims for
        // far less so late in a game (its importance is about 0.18).
        let late = clock(Some(1000), Some(2_500), 180_000).plan(221, 4);
        assert_eq!(late.time, ms(500));
        assert!(
            late.target.is_some_and(|t| t > ms(40) && t < ms(60)),
            "{late:?}"
        );
        let over = clock(Some(1000), Some(-50), 180_000).plan(20, 205);
        assert_eq!((over.time, over.target), (MIN_TURN, Some(MIN_TURN)));
        for turn in [1, 10, 50, 100, 200, 1000, 5000, 30_000] {
            for left in [None, Some(0), Some(700), Some(20_000), Some(600_000)] {
                for stones in [0, 30, 100, 224] {
                    let plan = clock(Some(turn), left, 180_000).plan(stones, 225 - stones);
                    assert!(plan.time < ms(turn), "{turn} {left:?}: {plan:?}");
                    assert!(plan.target.is_none_or(|t| t <= plan.time), "{plan:?}");
                }
            }
        }
    }

    #[test]
    fn an_engine_side_spreads_its_match_time_over_the_moves_left() {
        let ms = Duration::from_millis;
        let fresh = ClockReading {
            ply: 0,
            used: Duration::ZERO,
        };
        // 60 s for the game and no limit a move: no move may take more than what is left
        // (less 500 ms) over 7, and it aims for far less.
        let plan = fresh.plan(ms(60_000), None, None);
        assert_eq!(plan.time, ms(59_500) / 7);
        assert!(
            plan.target.is_some_and(|t| t <= ms(59_500) / 12),
            "{plan:?}"
        );
        // A limit a move caps it; ample time gives every move that limit.
        assert_eq!(fresh.plan(ms(60_000), Some(ms(1_000)), None).time, ms(950));
        assert_eq!(
            fresh.plan(ms(600_000), Some(ms(1_000)), None),
            Plan {
                time: ms(950),
                target: None
            }
        );
        // Late, with four moves left in the game, the last of the time is shared by them.
        let late = ClockReading {
            ply: 40,
            used: ms(58_000),
        };
        assert_eq!(late.plan(ms(60_000), None, Some(4)).time, ms(1_500) / 4);
        // Past its time: the least a search is given, and the clock says it is over once
        // past the grace.
        let over = ClockReading {
            ply: 40,
            used: ms(61_000),
        };
        assert_eq!(over.plan(ms(60_000), None, None).time, MIN_TURN);
        assert!(!late.over(ms(60_000)));
        assert!(
            !ClockReading {
                used: ms(60_150),
                ..late
            }
            .over(ms(60_000))
        );
        assert!(over.over(ms(60_000)));
        assert_eq!(late.lost_on_time(ms(60_000)), None);
        assert_eq!(
            over.lost_on_time(ms(60_000)).as_deref(),
            Some("ran out of its match time: its moves took 61000 ms of 60000 ms")
        );
    }

    #[test]
    fn clock_text_reads_as_a_clock() {
        let ms = Duration::from_millis;
        assert_eq!(clock_text(ms(41_200)), "41.2 s left");
        assert_eq!(clock_text(ms(41_290)), "41.3 s left");
        assert_eq!(clock_text(ms(59_900)), "59.9 s left");
        assert_eq!(clock_text(ms(59_901)), "1:00 left");
        assert_eq!(clock_text(ms(60_000)), "1:00 left");
        assert_eq!(clock_text(ms(185_000)), "3:05 left");
        assert_eq!(clock_text(ms(185_400)), "3:06 left");
        assert_eq!(clock_text(ms(1)), "0.1 s left");
        assert_eq!(clock_text(Duration::ZERO), "0.0 s left");
        assert_eq!(match_time_text(ms(60_000)), "1 min");
        assert_eq!(match_time_text(ms(90_000)), "90 s");
        assert_eq!(match_time_text(ms(2_500)), "2.5 s");
    }

    #[test]
    fn moves_matter_about_alike_until_late_in_the_game() {
        assert!((move_importance(0) - 1.1).abs() < 0.01);
        assert!((move_importance(50) - 0.96).abs() < 0.01);
        assert!((move_importance(100) - 0.61).abs() < 0.01);
        for ply in 0..225 {
            assert!(move_importance(ply + 1) <= move_importance(ply), "{ply}");
        }
    }
}
