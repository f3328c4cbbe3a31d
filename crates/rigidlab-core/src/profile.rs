//! Where a step's time goes: wall-clock seconds of each stage of the last step, so a script
//! can see what a scene costs and why (as Box2D's b2Profile does).

use quanta::Instant;

/// The stages of a step, in the order it runs them: the one list that world.rs's `step` runs,
/// the timers report and lib.rs describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Candidate pairs from the bodies' bounding boxes.
    BroadPhase,
    /// Contact manifolds of the candidate pairs, matched to last step's; sleeping islands
    /// that awake bodies touch wake.
    NarrowPhase,
    /// The smooth forces (gravity, damping and drag, springs, loads, the gyroscopic term)
    /// integrated by the world's integrator.
    Integrate,
    /// Joints and contacts: impacts in time order, then resting contacts and joints
    /// together; positions moved by the constrained velocities.
    Solve,
    /// Leftover penetration removed from positions only.
    Correct,
    /// Time advanced, finished loads expired, observers (recordings) told.
    Finish,
    /// Islands that rested long enough fall asleep.
    Sleep,
}

impl Stage {
    pub const ALL: [Stage; 7] = [
        Stage::BroadPhase,
        Stage::NarrowPhase,
        Stage::Integrate,
        Stage::Solve,
        Stage::Correct,
        Stage::Finish,
        Stage::Sleep,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stage::BroadPhase => "broad_phase",
            Stage::NarrowPhase => "narrow_phase",
            Stage::Integrate => "integrate",
            Stage::Solve => "solve",
            Stage::Correct => "correct",
            Stage::Finish => "finish",
            Stage::Sleep => "sleep",
        }
    }
}

/// Seconds spent in each stage of the last step, by `Stage` (all zero after a step of a world
/// at rest, which runs no stage), and in the whole step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTimes {
    pub stages: [f64; STAGES],
    pub total: f64,
}

impl StepTimes {
    /// Seconds of one stage.
    pub fn of(&self, stage: Stage) -> f64 {
        self.stages[stage as usize]
    }

    /// The stages by name, in step order, then the total.
    pub fn named(&self) -> [(&'static str, f64); STAGES + 1] {
        let mut out = [("total", self.total); STAGES + 1];
        for (slot, stage) in out.iter_mut().zip(Stage::ALL) {
            *slot = (stage.name(), self.of(stage));
        }
        out
    }
}

/// How many stages a step has.
const STAGES: usize = Stage::ALL.len();

/// A stopwatch for timing a step's stages one after another. It keeps the instants each stage
/// ended at and works out the seconds only when asked: most steps' times are never read (in a
/// small world that conversion alone was a tenth of a step). The instants are quanta's: the
/// processor's time-stamp counter where it is steady (about 10 ns a reading against 25 ns for
/// the operating system's clock; a step reads it 8 times), else the operating system's clock.
#[derive(Clone, Copy, Debug)]
pub struct Laps {
    marks: [Instant; STAGES + 1],
    count: usize,
}

impl Laps {
    pub fn start() -> Laps {
        Laps {
            marks: [Instant::now(); STAGES + 1],
            count: 1,
        }
    }

    /// Marks the end of `stage`, which must be the stage after the last one marked.
    pub fn lap(&mut self, stage: Stage) {
        debug_assert_eq!(
            stage as usize + 1,
            self.count,
            "stage {stage:?} ended out of order"
        );
        self.marks[stage as usize + 1] = Instant::now();
        self.count = stage as usize + 2;
    }

    /// The stages' seconds, in `StepTimes` order (stages not lapped take zero).
    pub fn times(&self) -> StepTimes {
        let last = self.count - 1;
        let stage = |i: usize| {
            if i <= last {
                (self.marks[i] - self.marks[i - 1]).as_secs_f64()
            } else {
                0.0
            }
        };
        StepTimes {
            stages: std::array::from_fn(|i| stage(i + 1)),
            total: (self.marks[last] - self.marks[0]).as_secs_f64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_are_timed_by_name_in_step_order() {
        let mut laps = Laps::start();
        for stage in Stage::ALL {
            laps.lap(stage);
        }
        let times = laps.times();
        let named = times.named();
        let names: Vec<&str> = named.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "broad_phase",
                "narrow_phase",
                "integrate",
                "solve",
                "correct",
                "finish",
                "sleep",
                "total"
            ]
        );
        assert!(named.iter().all(|(_, s)| *s >= 0.0));
        let sum: f64 = times.stages.iter().sum();
        assert!((sum - times.total).abs() <= 1e-9 * times.total.max(1e-9));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "out of order")]
    fn a_stage_out_of_order_is_caught_in_debug_builds() {
        let mut laps = Laps::start();
        laps.lap(Stage::NarrowPhase);
    }
}
