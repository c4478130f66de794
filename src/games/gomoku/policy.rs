//! The ranking of candidate points (which points a playing search considers, and in what
//! order before each child is evaluated): what a stone of the mover's at a point would make
//! (attack) and what the opponent's would (defence), each a weight by the four directional
//! shapes there, taken in any order.
//!
//! The weights were learnt from a strong engine's choices (docs/performance.md, "Wave 11"):
//! a softmax over the empty points within two of a stone, with one weight per sorted
//! combination of shapes for attack and one for defence, fitted so the engine's move gets
//! the highest probability, on positions of our match games where the ranking is not
//! forced (no four on the board, no open three to answer). A combination's weight is a
//! multiple of the logarithm of its pattern score (the assignment's table) plus a
//! regularised correction learnt per combination, so combinations the games never showed
//! keep the table's order. `tools/rank-fit/` holds the scripts that fit them.

use super::eval::point_key;
use super::shape::Shape;

/// `(shapes, attack, defence)`: the four directional shapes as octal digits, strongest
/// first (`0o4210` is an open three, an open two and a closed two), and the weights of the
/// mover's and the opponent's stone making them, in hundredths of a logit. Every sorted
/// combination once, in ascending order.
#[rustfmt::skip]
const WEIGHTS: [(u16, i16, i16); 330] = [
    (0o0000, 262, 235),
    (0o1000, 316, 258),
    (0o1100, 329, 238),
    (0o1110, 343, 218),
    (0o1111, 375, 230),
    (0o2000, 447, 309),
    (0o2100, 468, 299),
    (0o2110, 478, 272),
    (0o2111, 428, 244),
    (0o2200, 604, 336),
    (0o2210, 636, 330),
    (0o2211, 650, 389),
    (0o2220, 738, 403),
    (0o2221, 803, 392),
    (0o2222, 746, 427),
    (0o3000, 462, 334),
    (0o3100, 482, 337),
    (0o3110, 530, 345),
    (0o3111, 581, 370),
    (0o3200, 643, 396),
    (0o3210, 673, 379),
    (0o3211, 700, 391),
    (0o3220, 805, 460),
    (0o3221, 841, 466),
    (0o3222, 832, 540),
    (0o3300, 664, 421),
    (0o3310, 681, 431),
    (0o3311, 647, 428),
    (0o3320, 831, 501),
    (0o3321, 843, 564),
    (0o3322, 901, 534),
    (0o3330, 795, 542),
    (0o3331, 752, 502),
    (0o3332, 853, 513),
    (0o3333, 778, 505),
    (0o4000, 653, 480),
    (0o4100, 677, 487),
    (0o4110, 703, 500),
    (0o4111, 796, 517),
    (0o4200, 825, 543),
    (0o4210, 871, 580),
    (0o4211, 918, 589),
    (0o4220, 962, 607),
    (0o4221, 1003, 588),
    (0o4222, 974, 646),
    (0o4300, 831, 570),
    (0o4310, 836, 572),
    (0o4311, 892, 665),
    (0o4320, 957, 649),
    (0o4321, 988, 687),
    (0o4322, 1038, 640),
    (0o4330, 955, 685),
    (0o4331, 969, 753),
    (0o4332, 1003, 656),
    (0o4333, 1015, 669),
    (0o4400, 1062, 679),
    (0o4410, 1109, 739),
    (0o4411, 1144, 815),
    (0o4420, 1146, 716),
    (0o4421, 1206, 823),
    (0o4422, 1174, 801),
    (0o4430, 1104, 726),
    (0o4431, 1167, 823),
    (0o4432, 1205, 790),
    (0o4433, 1213, 801),
    (0o4440, 1167, 752),
    (0o4441, 1212, 810),
    (0o4442, 1216, 803),
    (0o4443, 1223, 803),
    (0o4444, 1227, 806),
    (0o5000, 682, 513),
    (0o5100, 704, 542),
    (0o5110, 718, 571),
    (0o5111, 871, 623),
    (0o5200, 858, 634),
    (0o5210, 896, 654),
    (0o5211, 917, 668),
    (0o5220, 1016, 725),
    (0o5221, 1060, 706),
    (0o5222, 1053, 713),
    (0o5300, 891, 637),
    (0o5310, 888, 692),
    (0o5311, 971, 693),
    (0o5320, 1022, 741),
    (0o5321, 1051, 726),
    (0o5322, 1120, 645),
    (0o5330, 995, 714),
    (0o5331, 1006, 723),
    (0o5332, 967, 672),
    (0o5333, 1011, 656),
    (0o5400, 1328, 870),
    (0o5410, 1402, 887),
    (0o5411, 1365, 920),
    (0o5420, 1426, 933),
    (0o5421, 1378, 879),
    (0o5422, 1312, 880),
    (0o5430, 1361, 861),
    (0o5431, 1341, 881),
    (0o5432, 1322, 884),
    (0o5433, 1315, 864),
    (0o5440, 1341, 890),
    (0o5441, 1316, 844),
    (0o5442, 1316, 865),
    (0o5443, 1317, 862),
    (0o5444, 1319, 867),
    (0o5500, 1390, 944),
    (0o5510, 1386, 915),
    (0o5511, 1315, 889),
    (0o5520, 1363, 877),
    (0o5521, 1332, 866),
    (0o5522, 1317, 866),
    (0o5530, 1333, 903),
    (0o5531, 1330, 961),
    (0o5532, 1318, 866),
    (0o5533, 1319, 867),
    (0o5540, 1320, 868),
    (0o5541, 1320, 868),
    (0o5542, 1320, 868),
    (0o5543, 1320, 868),
    (0o5544, 1322, 869),
    (0o5550, 1324, 870),
    (0o5551, 1324, 870),
    (0o5552, 1324, 870),
    (0o5553, 1324, 870),
    (0o5554, 1326, 872),
    (0o5555, 1330, 874),
    (0o6000, 1481, 921),
    (0o6100, 1439, 921),
    (0o6110, 1472, 922),
    (0o6111, 1462, 922),
    (0o6200, 1481, 921),
    (0o6210, 1456, 922),
    (0o6211, 1420, 922),
    (0o6220, 1476, 922),
    (0o6221, 1413, 922),
    (0o6222, 1424, 922),
    (0o6300, 1471, 922),
    (0o6310, 1450, 922),
    (0o6311, 1404, 922),
    (0o6320, 1509, 922),
    (0o6321, 1425, 922),
    (0o6322, 1421, 922),
    (0o6330, 1435, 922),
    (0o6331, 1419, 922),
    (0o6332, 1392, 922),
    (0o6333, 1407, 922),
    (0o6400, 1475, 922),
    (0o6410, 1450, 922),
    (0o6411, 1417, 922),
    (0o6420, 1407, 922),
    (0o6421, 1408, 922),
    (0o6422, 1417, 922),
    (0o6430, 1411, 923),
    (0o6431, 1405, 923),
    (0o6432, 1410, 923),
    (0o6433, 1404, 923),
    (0o6440, 1405, 923),
    (0o6441, 1405, 923),
    (0o6442, 1405, 923),
    (0o6443, 1405, 924),
    (0o6444, 1406, 924),
    (0o6500, 1412, 924),
    (0o6510, 1402, 924),
    (0o6511, 1404, 924),
    (0o6520, 1392, 924),
    (0o6521, 1405, 924),
    (0o6522, 1405, 924),
    (0o6530, 1417, 924),
    (0o6531, 1406, 924),
    (0o6532, 1406, 924),
    (0o6533, 1406, 924),
    (0o6540, 1407, 925),
    (0o6541, 1407, 925),
    (0o6542, 1407, 925),
    (0o6543, 1407, 925),
    (0o6544, 1408, 926),
    (0o6550, 1409, 926),
    (0o6551, 1409, 926),
    (0o6552, 1409, 926),
    (0o6553, 1409, 926),
    (0o6554, 1410, 927),
    (0o6555, 1412, 928),
    (0o6600, 1459, 959),
    (0o6610, 1459, 959),
    (0o6611, 1459, 959),
    (0o6620, 1459, 959),
    (0o6621, 1459, 959),
    (0o6622, 1459, 959),
    (0o6630, 1459, 959),
    (0o6631, 1459, 959),
    (0o6632, 1459, 959),
    (0o6633, 1460, 960),
    (0o6640, 1460, 960),
    (0o6641, 1460, 960),
    (0o6642, 1460, 960),
    (0o6643, 1460, 960),
    (0o6644, 1461, 960),
    (0o6650, 1462, 961),
    (0o6651, 1462, 961),
    (0o6652, 1462, 961),
    (0o6653, 1462, 961),
    (0o6654, 1463, 961),
    (0o6655, 1464, 962),
    (0o6660, 1500, 986),
    (0o6661, 1500, 986),
    (0o6662, 1500, 986),
    (0o6663, 1500, 986),
    (0o6664, 1501, 986),
    (0o6665, 1502, 987),
    (0o6666, 1532, 1007),
    (0o7000, 1728, 1136),
    (0o7100, 1728, 1136),
    (0o7110, 1728, 1136),
    (0o7111, 1728, 1136),
    (0o7200, 1728, 1136),
    (0o7210, 1728, 1136),
    (0o7211, 1728, 1136),
    (0o7220, 1728, 1136),
    (0o7221, 1728, 1136),
    (0o7222, 1728, 1136),
    (0o7300, 1728, 1136),
    (0o7310, 1728, 1136),
    (0o7311, 1728, 1136),
    (0o7320, 1728, 1136),
    (0o7321, 1728, 1136),
    (0o7322, 1728, 1136),
    (0o7330, 1728, 1136),
    (0o7331, 1728, 1136),
    (0o7332, 1728, 1136),
    (0o7333, 1728, 1136),
    (0o7400, 1728, 1136),
    (0o7410, 1728, 1136),
    (0o7411, 1728, 1136),
    (0o7420, 1728, 1136),
    (0o7421, 1728, 1136),
    (0o7422, 1728, 1136),
    (0o7430, 1728, 1136),
    (0o7431, 1728, 1136),
    (0o7432, 1728, 1136),
    (0o7433, 1728, 1136),
    (0o7440, 1728, 1136),
    (0o7441, 1728, 1136),
    (0o7442, 1728, 1136),
    (0o7443, 1728, 1136),
    (0o7444, 1728, 1136),
    (0o7500, 1728, 1136),
    (0o7510, 1728, 1136),
    (0o7511, 1728, 1136),
    (0o7520, 1728, 1136),
    (0o7521, 1728, 1136),
    (0o7522, 1728, 1136),
    (0o7530, 1728, 1136),
    (0o7531, 1728, 1136),
    (0o7532, 1728, 1136),
    (0o7533, 1728, 1136),
    (0o7540, 1728, 1136),
    (0o7541, 1728, 1136),
    (0o7542, 1728, 1136),
    (0o7543, 1728, 1136),
    (0o7544, 1728, 1136),
    (0o7550, 1728, 1136),
    (0o7551, 1728, 1136),
    (0o7552, 1728, 1136),
    (0o7553, 1729, 1136),
    (0o7554, 1729, 1136),
    (0o7555, 1729, 1136),
    (0o7600, 1735, 1140),
    (0o7610, 1735, 1140),
    (0o7611, 1735, 1140),
    (0o7620, 1735, 1140),
    (0o7621, 1735, 1140),
    (0o7622, 1735, 1140),
    (0o7630, 1735, 1140),
    (0o7631, 1735, 1140),
    (0o7632, 1735, 1140),
    (0o7633, 1735, 1140),
    (0o7640, 1735, 1140),
    (0o7641, 1735, 1140),
    (0o7642, 1735, 1140),
    (0o7643, 1735, 1140),
    (0o7644, 1735, 1140),
    (0o7650, 1735, 1140),
    (0o7651, 1735, 1140),
    (0o7652, 1735, 1140),
    (0o7653, 1735, 1140),
    (0o7654, 1735, 1141),
    (0o7655, 1735, 1141),
    (0o7660, 1741, 1145),
    (0o7661, 1741, 1145),
    (0o7662, 1741, 1145),
    (0o7663, 1741, 1145),
    (0o7664, 1741, 1145),
    (0o7665, 1742, 1145),
    (0o7666, 1748, 1149),
    (0o7700, 1785, 1173),
    (0o7710, 1785, 1173),
    (0o7711, 1785, 1173),
    (0o7720, 1785, 1173),
    (0o7721, 1785, 1173),
    (0o7722, 1785, 1173),
    (0o7730, 1785, 1173),
    (0o7731, 1785, 1173),
    (0o7732, 1785, 1173),
    (0o7733, 1785, 1173),
    (0o7740, 1785, 1174),
    (0o7741, 1785, 1174),
    (0o7742, 1785, 1174),
    (0o7743, 1785, 1174),
    (0o7744, 1785, 1174),
    (0o7750, 1785, 1174),
    (0o7751, 1785, 1174),
    (0o7752, 1785, 1174),
    (0o7753, 1785, 1174),
    (0o7754, 1785, 1174),
    (0o7755, 1786, 1174),
    (0o7760, 1790, 1176),
    (0o7761, 1790, 1176),
    (0o7762, 1790, 1176),
    (0o7763, 1790, 1177),
    (0o7764, 1790, 1177),
    (0o7765, 1790, 1177),
    (0o7766, 1794, 1179),
    (0o7770, 1826, 1200),
    (0o7771, 1826, 1200),
    (0o7772, 1826, 1200),
    (0o7773, 1826, 1200),
    (0o7774, 1826, 1200),
    (0o7775, 1826, 1200),
    (0o7776, 1829, 1203),
    (0o7777, 1857, 1221),
];

/// Added to every value so the sum of two weights is positive.
const OFFSET: i32 = 10_000;

/// A point's attack (index 0) and defence (index 1) weight plus half of [`OFFSET`], indexed
/// by the point key of its four directional shapes (3 bits a direction, in any order).
static RANK: [[u16; 1 << 12]; 2] = rank_table();

pub(super) const fn rank_table() -> [[u16; 1 << 12]; 2] {
    let mut table = [[0; 1 << 12]; 2];
    let mut key = 0;
    while key < 1 << 12 {
        // The four shapes sorted strongest first, as one octal number.
        let mut s = [key & 7, key >> 3 & 7, key >> 6 & 7, key >> 9 & 7];
        let mut i = 0;
        while i < 4 {
            let mut j = i + 1;
            while j < 4 {
                if s[j] > s[i] {
                    let t = s[i];
                    s[i] = s[j];
                    s[j] = t;
                }
                j += 1;
            }
            i += 1;
        }
        let sorted = (s[0] << 9 | s[1] << 6 | s[2] << 3 | s[3]) as u16;
        let (mut lo, mut hi) = (0, WEIGHTS.len());
        while lo < hi {
            let mid = usize::midpoint(lo, hi);
            if WEIGHTS[mid].0 < sorted {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        // Every sorted combination is listed (a test checks), so `lo` is its row.
        if lo < WEIGHTS.len() && WEIGHTS[lo].0 == sorted {
            table[0][key] = (WEIGHTS[lo].1 as i32 + OFFSET / 2) as u16;
            table[1][key] = (WEIGHTS[lo].2 as i32 + OFFSET / 2) as u16;
        }
        key += 1;
    }
    table
}

/// The ranking value of a point whose attack and defence point keys (the shapes of the
/// mover's and of the opponent's stone there, 3 bits a direction) are given: higher first.
#[inline]
pub(super) fn rank_value(attack: usize, defence: usize) -> u32 {
    u32::from(RANK[0][attack & 0o7777]) + u32::from(RANK[1][defence & 0o7777])
}

/// [`rank_value`] of four directional shapes for each side.
pub fn point_rank(attack: [Shape; 4], defence: [Shape; 4]) -> u32 {
    rank_value(point_key(attack), point_key(defence))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sorted_combination_is_listed_once_in_order() {
        let mut expected = Vec::new();
        for a in 0..8u16 {
            for b in 0..=a {
                for c in 0..=b {
                    for d in 0..=c {
                        expected.push(a << 9 | b << 6 | c << 3 | d);
                    }
                }
            }
        }
        expected.sort_unstable();
        let listed: Vec<u16> = WEIGHTS.iter().map(|w| w.0).collect();
        assert_eq!(listed, expected);
        assert!(
            WEIGHTS
                .iter()
                .all(|&(_, a, d)| (a as i32).abs() < OFFSET / 2 && (d as i32).abs() < OFFSET / 2)
        );
    }

    #[test]
    fn the_order_of_the_directions_does_not_matter() {
        use Shape::*;
        let a = [OpenThree, None, OpenTwo, ClosedTwo];
        let b = [ClosedTwo, OpenTwo, None, OpenThree];
        assert_eq!(point_rank(a, [None; 4]), point_rank(b, [None; 4]));
        assert_eq!(point_rank([None; 4], a), point_rank([None; 4], b));
    }

    #[test]
    fn stronger_shapes_rank_higher() {
        use Shape::*;
        let none = [None; 4];
        let ladder = [
            [OpenTwo, None, None, None],
            [OpenThree, None, None, None],
            [OpenThree, OpenThree, None, None],
            [ClosedFour, OpenThree, None, None],
            [OpenFour, None, None, None],
        ];
        for pair in ladder.windows(2) {
            assert!(
                point_rank(pair[1], none) > point_rank(pair[0], none),
                "{pair:?}"
            );
            assert!(
                point_rank(none, pair[1]) > point_rank(none, pair[0]),
                "{pair:?}"
            );
        }
    }
}
