//! Dots and Boxes' position hash, folded over the board's symmetries: one hash per
//! symmetric image, updated with one load per image when a line is drawn, and the smallest
//! of them as the position's hash.

use super::{Dots, Edge, MAX_EDGES, MAX_SIDE};
use crate::games::zobrist_keys;

/// Key `edge` for a drawn line. Neither the boxes won (banked points, see [`Game::banked`](crate::engine::Game::banked))
/// nor the side to move are hashed: what is still to be won from a position depends on its
/// lines alone, whoever is to move, so the transposition table keeps one entry for both.
pub(super) static KEYS: [u64; MAX_EDGES] = zobrist_keys(4);

/// The board's symmetries: the identity, the two mirrors, the half turn, and on square
/// boards the four that swap rows and columns.
pub(super) const SYMMETRIES: usize = 8;

/// `SYMMETRY[size][s][edge]`: the line that `edge` becomes under symmetry `s` on the board
/// `size = (rows - 1) * MAX_SIDE + cols - 1`. Built once, on first use.
pub(super) static SYMMETRY: std::sync::LazyLock<Vec<[[Edge; MAX_EDGES]; SYMMETRIES]>> =
    std::sync::LazyLock::new(|| {
        let mut tables = Vec::with_capacity(MAX_SIDE * MAX_SIDE);
        for rows in 1..=MAX_SIDE {
            for cols in 1..=MAX_SIDE {
                tables.push(symmetry_table(rows, cols));
            }
        }
        tables
    });

/// `SYMMETRY_KEYS[size][s][edge]`: the hash key of `edge`'s image under symmetry `s`
/// (`KEYS[SYMMETRY[size][s][edge]]`), so that drawing a line updates each image's hash with
/// one load.
pub(super) static SYMMETRY_KEYS: std::sync::LazyLock<Vec<[[u64; MAX_EDGES]; SYMMETRIES]>> =
    std::sync::LazyLock::new(|| {
        SYMMETRY
            .iter()
            .map(|perms| {
                let mut keys = [[0; MAX_EDGES]; SYMMETRIES];
                for (row, perm) in keys.iter_mut().zip(perms) {
                    for (key, &image) in row.iter_mut().zip(perm) {
                        *key = KEYS[image as usize];
                    }
                }
                keys
            })
            .collect()
    });

/// The permutations of the lines of a `rows` x `cols` board under its symmetries; the
/// row-column swaps of a non-square board are left as the identity (and never used).
fn symmetry_table(rows: usize, cols: usize) -> [[Edge; MAX_EDGES]; SYMMETRIES] {
    let mut table = [[0; MAX_EDGES]; SYMMETRIES];
    let board = Geometry { rows, cols };
    for (s, perm) in table.iter_mut().enumerate() {
        for (e, image) in perm.iter_mut().enumerate().take(board.edge_count()) {
            *image = if s >= 4 && rows != cols {
                e as Edge
            } else {
                board.transform(e, s) as Edge
            };
        }
    }
    table
}

/// Line numbering of a board, without a position: what the symmetry tables need.
#[derive(Clone, Copy)]
struct Geometry {
    rows: usize,
    cols: usize,
}

impl Geometry {
    fn edge_count(self) -> usize {
        2 * self.rows * self.cols + self.rows + self.cols
    }

    fn horizontal_count(self) -> usize {
        (self.rows + 1) * self.cols
    }

    /// The dots a line joins, `(row, col)`.
    fn ends(self, e: usize) -> [(usize, usize); 2] {
        let horizontal = self.horizontal_count();
        if e < horizontal {
            let (row, col) = (e / self.cols, e % self.cols);
            [(row, col), (row, col + 1)]
        } else {
            let v = e - horizontal;
            let (row, col) = (v / (self.cols + 1), v % (self.cols + 1));
            [(row, col), (row + 1, col)]
        }
    }

    /// The line joining two neighbouring dots (in any order).
    fn line(self, a: (usize, usize), b: (usize, usize)) -> usize {
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        if low.0 == high.0 {
            low.0 * self.cols + low.1
        } else {
            let _ = high;
            self.horizontal_count() + low.0 * (self.cols + 1) + low.1
        }
    }

    /// Where dot `(row, col)` goes under symmetry `s` (bit 0: mirror the columns, bit 1:
    /// mirror the rows, bit 2: swap rows and columns afterwards; square boards only).
    fn dot(self, (row, col): (usize, usize), s: usize) -> (usize, usize) {
        let col = if s & 1 != 0 { self.cols - col } else { col };
        let row = if s & 2 != 0 { self.rows - row } else { row };
        if s & 4 != 0 { (col, row) } else { (row, col) }
    }

    fn transform(self, e: usize, s: usize) -> usize {
        let [a, b] = self.ends(e);
        self.line(self.dot(a, s), self.dot(b, s))
    }
}

impl Dots {
    /// Draws or erases `edge` in the hash of every symmetric image.
    #[inline]
    pub(super) fn toggle_hashes(&mut self, e: usize) {
        let images = usize::from(self.symmetries);
        for (hash, keys) in self.hashes.iter_mut().zip(self.symmetry_keys).take(images) {
            *hash ^= keys[e];
        }
    }

    /// The symmetry whose image has the smallest hash: the canonical orientation.
    #[inline]
    pub(super) fn canonical_symmetry(&self) -> usize {
        let mut best = 0;
        for s in 1..usize::from(self.symmetries) {
            if self.hashes[s] < self.hashes[best] {
                best = s;
            }
        }
        best
    }
}
