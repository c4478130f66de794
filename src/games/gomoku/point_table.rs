//! The point table: what each empty point is worth to a side by the combination of shapes
//! its stone would make there in the four directions (their multiset: which shapes, in any
//! order of directions), once for the side to move and once for the side that just moved.
//! The evaluation adds it, summed over the empty points and scaled by `point_table`
//! percent of `[gomoku.patterns]`, on top of the line shapes and the `point_*` potential.
//! `play` and `undo` keep the sums ([`super::Gomoku::point_table_sums`]) when told to.
//!
//! The values were fitted (`examples/gomoku_point_fit.rs`, docs/performance.md "Wave 30")
//! to a strong engine's depth-10 values (Rapfi, read as win chances) of positions of match
//! games, on top of the evaluation with the default weights: 14,175 quiet positions (no
//! four to move, no open four to face, no open three to move) within 1,500 of even, of
//! 26,519 labelled; log loss, combinations seen in at least 100 training positions. At full strength
//! the table lost in play (its values describe a deep search's view, which our search
//! partly sees already); at 20 - 30 % it wins against the evaluation without it. A refit
//! on 70 % more labels (wave 31) scored no better in play, and was not kept.

use super::eval::PointKey;

/// One fitted combination: the shapes a stone would make at a point in its four directions
/// ([`super::shape::Shape`] numbers, weakest first: 0 none .. 7 five), what such a point of
/// the side to move is worth to it, and what one of the side that just moved is worth to
/// the side to move. Combinations not listed are worth 0.
const ROWS: [([u8; 4], i16, i16); 58] = [
    ([0, 0, 0, 1], 5, -1),
    ([0, 0, 0, 2], 21, -15),
    ([0, 0, 0, 3], 21, -16),
    ([0, 0, 0, 4], 88, -72),
    ([0, 0, 0, 5], 76, -86),
    ([0, 0, 0, 6], -39, -104),
    ([0, 0, 0, 7], 0, -116),
    ([0, 0, 1, 1], 3, -4),
    ([0, 0, 1, 2], 17, -11),
    ([0, 0, 1, 3], 32, -28),
    ([0, 0, 1, 4], 94, -102),
    ([0, 0, 1, 5], 115, -136),
    ([0, 0, 1, 6], -109, -43),
    ([0, 0, 1, 7], 0, -102),
    ([0, 0, 2, 2], 21, -23),
    ([0, 0, 2, 3], 54, -52),
    ([0, 0, 2, 4], 131, -132),
    ([0, 0, 2, 5], 149, -165),
    ([0, 0, 2, 6], 0, -78),
    ([0, 0, 2, 7], 0, -89),
    ([0, 0, 3, 3], 48, -65),
    ([0, 0, 3, 4], 97, -138),
    ([0, 0, 3, 5], 108, -175),
    ([0, 0, 3, 6], 0, -28),
    ([0, 0, 4, 4], 38, -86),
    ([0, 0, 4, 5], 0, -123),
    ([0, 1, 1, 1], -24, -6),
    ([0, 1, 1, 2], 16, -45),
    ([0, 1, 1, 3], 40, -57),
    ([0, 1, 1, 4], 112, -107),
    ([0, 1, 1, 5], 125, -96),
    ([0, 1, 2, 2], 49, -39),
    ([0, 1, 2, 3], 64, -67),
    ([0, 1, 2, 4], 141, -169),
    ([0, 1, 2, 5], 147, -196),
    ([0, 1, 2, 6], 0, -26),
    ([0, 1, 3, 3], 81, -74),
    ([0, 1, 3, 4], 117, -124),
    ([0, 1, 3, 5], 55, -78),
    ([0, 1, 4, 4], 0, -53),
    ([0, 2, 2, 2], 39, -52),
    ([0, 2, 2, 3], 84, -98),
    ([0, 2, 2, 4], 152, -182),
    ([0, 2, 2, 5], 119, -182),
    ([0, 2, 3, 3], 110, -95),
    ([0, 2, 3, 4], 117, -147),
    ([0, 2, 3, 5], 83, -147),
    ([1, 1, 1, 1], 28, 0),
    ([1, 1, 1, 2], 17, -15),
    ([1, 1, 1, 3], 18, -47),
    ([1, 1, 1, 4], 0, -55),
    ([1, 1, 2, 2], 45, -85),
    ([1, 1, 2, 3], 80, -114),
    ([1, 1, 2, 4], 105, -108),
    ([1, 2, 2, 2], 28, -79),
    ([1, 2, 2, 3], 51, -54),
    ([1, 2, 2, 4], 38, -93),
    ([1, 2, 3, 4], 0, -92),
];

/// The values of every [`PointKey`] (four 3-bit shapes): `[to the mover, to the waiting
/// side]`, each as the side to move sees it (16 KB: 16-bit values keep it in the cache).
static POINT_VALUES: [[i16; 2]; 1 << 12] = point_values();

/// The values of the point with key `key` (see [`POINT_VALUES`]).
#[inline]
pub(super) fn point_values_of(key: PointKey) -> [i32; 2] {
    let [mover, waiting] = POINT_VALUES[key & 0o7777];
    [i32::from(mover), i32::from(waiting)]
}

/// The four shapes of a key, weakest first.
const fn sorted_shapes(key: PointKey) -> [u8; 4] {
    let mut shapes = [0u8; 4];
    let mut d = 0;
    while d < 4 {
        shapes[d] = ((key >> (3 * d)) & 7) as u8;
        d += 1;
    }
    // Insertion sort: a const fn has no `sort`.
    let mut i = 1;
    while i < 4 {
        let mut j = i;
        while j > 0 && shapes[j - 1] > shapes[j] {
            let t = shapes[j];
            shapes[j] = shapes[j - 1];
            shapes[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    shapes
}

const fn point_values() -> [[i16; 2]; 1 << 12] {
    let mut table = [[0; 2]; 1 << 12];
    let mut key = 0;
    while key < table.len() {
        let shapes = sorted_shapes(key);
        let mut r = 0;
        while r < ROWS.len() {
            let (row, mover, waiting) = ROWS[r];
            if row[0] == shapes[0]
                && row[1] == shapes[1]
                && row[2] == shapes[2]
                && row[3] == shapes[3]
            {
                table[key] = [mover, waiting];
            }
            r += 1;
        }
        key += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_distinct_sorted_combinations_and_none_is_worth_nothing() {
        for (i, (shapes, _, _)) in ROWS.iter().enumerate() {
            assert!(shapes.windows(2).all(|w| w[0] <= w[1]), "{shapes:?}");
            assert!(shapes.iter().all(|&s| s < 8), "{shapes:?}");
            assert!(
                ROWS[..i].iter().all(|(other, _, _)| other != shapes),
                "{shapes:?}"
            );
        }
        assert_eq!(point_values_of(0), [0, 0]);
    }

    #[test]
    fn every_order_of_directions_has_its_combination_value() {
        // An open three in one direction and an open two in another, in every placement.
        let row = ROWS
            .iter()
            .find(|(s, _, _)| *s == [0, 0, 2, 4])
            .map(|r| [i32::from(r.1), i32::from(r.2)]);
        let Some(expected) = row else {
            panic!("the table has no row 0024")
        };
        for three in 0..4 {
            for two in (0..4).filter(|&d| d != three) {
                let key = 4 << (3 * three) | 2 << (3 * two);
                assert_eq!(point_values_of(key), expected, "three {three}, two {two}");
            }
        }
    }
}
