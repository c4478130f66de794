//! Boxes on offer: what the side to move can take at once (the `chains` evaluator) and the
//! box that is always worth taking (the solver's only move when there is one).

use super::{Dots, Edge, MAX_BOXES, NO_BOX};

impl Dots {
    /// Boxes the side to move can take right now: every box with three sides drawn, and the
    /// boxes that taking it opens up in turn (a whole chain), taking everything greedily.
    ///
    /// This does not decline boxes (the "double-dealing" that keeps control in a real
    /// endgame), so it counts what is on offer, not what perfect play takes.
    pub fn takeable_boxes(&self) -> u32 {
        let mut sides = self.sides;
        let mut drawn = self.drawn;
        // Each box goes on the stack at most once: when first seen with three sides or when
        // a side drawn here brings it to three. Sides only grow, so that happens once.
        let mut stack = [0u8; MAX_BOXES];
        let mut top = 0;
        for (b, &count) in sides[..self.rows() * self.cols()].iter().enumerate() {
            if count == 3 {
                stack[top] = b as u8;
                top += 1;
            }
        }
        let mut taken = 0;
        while top > 0 {
            top -= 1;
            let b = stack[top] as usize;
            if sides[b] != 3 {
                continue;
            }
            let (row, col) = (b / self.cols(), b % self.cols());
            let Some(missing) = self
                .box_edges_unchecked(row, col)
                .into_iter()
                .find(|&e| drawn[e as usize >> 6] & (1 << (e & 63)) == 0)
            else {
                continue;
            };
            drawn[missing as usize >> 6] |= 1 << (missing & 63);
            for n in self.neighbours[missing as usize] {
                if n != NO_BOX {
                    let s = &mut sides[n as usize];
                    *s += 1;
                    if *s == 4 {
                        taken += 1;
                    } else if *s == 3 {
                        stack[top] = n;
                        top += 1;
                    }
                }
            }
        }
        taken
    }

    /// The line completing a box that can be taken for free (see [`Game::solver_moves`](crate::engine::Game::solver_moves)).
    pub(super) fn free_capture(&self) -> Option<Edge> {
        if self.three_sided == 0 {
            return None;
        }
        for b in 0..self.rows() * self.cols() {
            if self.sides[b] != 3 {
                continue;
            }
            let (row, col) = (b / self.cols(), b % self.cols());
            let missing = self
                .box_edges_unchecked(row, col)
                .into_iter()
                .find(|&e| !self.is_drawn(e))?;
            let across = self.neighbours[missing as usize]
                .into_iter()
                .find(|&n| n != NO_BOX && n as usize != b);
            if across.is_none_or(|n| self.sides[n as usize] != 2) {
                return Some(missing);
            }
        }
        None
    }
}
