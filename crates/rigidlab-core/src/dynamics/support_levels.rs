//! The bodies linked through contacts to something that holds them up, found level by level
//! from it: where the passes that work from the supports up (the solve's `hold_up`, position
//! correction's lift) begin.

use crate::dynamics::by_row::ByRow;
use crate::math::DVec3;

/// The levels, in buffers kept from step to step.
#[derive(Default)]
pub struct SupportLevels {
    /// Per body row: how many contacts it lies from a support (u32::MAX: not linked to one).
    pub level: Vec<u32>,
    /// The rows linked to a support, level by level.
    pub queue: Vec<usize>,
}

impl SupportLevels {
    /// Finds the levels of `rows` bodies from the contacts `items` (`touch`: an item's two
    /// rows and its normal from the first to the second; `by_row`: the items of each row). A
    /// body is level 0 where `seed(row, other, into)` says that `other` holds it up (`into`:
    /// the normal into `row`); each movable body touching a body of one level is of the next.
    pub fn find(
        &mut self,
        rows: usize,
        items: impl Iterator<Item = u32>,
        touch: impl Fn(u32) -> (usize, usize, DVec3),
        by_row: &ByRow,
        movable: impl Fn(usize) -> bool,
        seed: impl Fn(usize, usize, DVec3) -> bool,
    ) {
        let Self { level, queue } = self;
        level.clear();
        level.resize(rows, u32::MAX);
        queue.clear();
        for item in items {
            let (a, b, n) = touch(item);
            for (row, other, into) in [(a, b, -n), (b, a, n)] {
                if level[row] == u32::MAX && seed(row, other, into) {
                    level[row] = 0;
                    queue.push(row);
                }
            }
        }
        let mut next = 0;
        while let Some(&row) = queue.get(next) {
            next += 1;
            for &item in by_row.of(row) {
                let (a, b, _) = touch(item);
                let other = if a == row { b } else { a };
                if movable(other) && level[other] == u32::MAX {
                    level[other] = level[row] + 1;
                    queue.push(other);
                }
            }
        }
    }

    /// Orders the bodies found from the lowest up, by their centres' heights along `up` (`x`:
    /// the centres; ties by row), and makes each one's level its rank in that order. A level
    /// counts contacts from a support, which is no order for a pass that works upwards: every
    /// square of a column standing beside a tall box is one contact from the floor through that
    /// box, so a pass by levels takes the whole column as one level and none of its squares
    /// rests on the one beneath.
    pub fn rank_by_height(&mut self, x: &[DVec3], up: DVec3) {
        let Self { level, queue } = self;
        queue.sort_by(|&r, &s| x[r].dot(up).total_cmp(&x[s].dot(up)).then(r.cmp(&s)));
        for (rank, &row) in queue.iter().enumerate() {
            level[row] = rank as u32;
        }
    }
}
