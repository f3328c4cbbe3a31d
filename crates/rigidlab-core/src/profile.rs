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

/// The parts of the solve stage (`Stage::Solve`), in the order the velocity solve runs them
/// (dynamics/velocity_solve.rs): where a pile's solve goes (a landing heap's impacts, which
/// run on one thread, or its iterations, which split over threads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolvePart {
    /// Solver bodies and points from the manifolds; the joints' rows.
    Prepare,
    /// The joints held at the step's end (RATTLE's position phase).
    JointPositions,
    /// Impacts, one at a time in the order they happen within the step.
    Impacts,
    /// Contacts started from last step's impulses.
    WarmStart,
    /// The resting contacts' and joints' iterations (both rounds when static friction lets
    /// go), with the sweeps over what they left unsettled.
    Iterate,
    /// The pass that stops what the iterations left sinking, from the supports up.
    HoldUp,
    /// Impulses stored for the next step; constrained bodies moved.
    Store,
}

impl SolvePart {
    pub const ALL: [SolvePart; 7] = [
        SolvePart::Prepare,
        SolvePart::JointPositions,
        SolvePart::Impacts,
        SolvePart::WarmStart,
        SolvePart::Iterate,
        SolvePart::HoldUp,
        SolvePart::Store,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SolvePart::Prepare => "prepare",
            SolvePart::JointPositions => "joint_positions",
            SolvePart::Impacts => "impacts",
            SolvePart::WarmStart => "warm_start",
            SolvePart::Iterate => "iterate",
            SolvePart::HoldUp => "hold_up",
            SolvePart::Store => "store",
        }
    }
}

/// How many parts the solve stage has.
const SOLVE_PARTS: usize = SolvePart::ALL.len();

/// Seconds spent in each part of the last velocity solve, by `SolvePart` (all zero when the
/// last step solved nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolveTimes {
    pub parts: [f64; SOLVE_PARTS],
}

impl SolveTimes {
    /// The parts by name, in the order they run.
    pub fn named(&self) -> [(&'static str, f64); SOLVE_PARTS] {
        std::array::from_fn(|i| (SolvePart::ALL[i].name(), self.parts[i]))
    }
}

/// A stopwatch for timing N parts of some work one after another. It keeps the instants each
/// part ended at and works out the seconds only when asked: most steps' times are never read
/// (in a small world that conversion alone was a tenth of a step). The instants are quanta's:
/// the processor's time-stamp counter where it is steady (about 10 ns a reading against 25 ns
/// for the operating system's clock), else the operating system's clock.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch<const N: usize> {
    begun: Instant,
    ends: [Instant; N],
    /// Parts lapped so far.
    count: usize,
}

impl<const N: usize> Stopwatch<N> {
    pub fn start() -> Self {
        let now = Instant::now();
        Stopwatch {
            begun: now,
            ends: [now; N],
            count: 0,
        }
    }

    /// Marks the end of part `part`, which must come after the last one marked. Parts
    /// skipped take zero.
    pub fn lap(&mut self, part: usize) {
        debug_assert!(part >= self.count, "part {part} ended out of order");
        let now = Instant::now();
        let last = self
            .count
            .checked_sub(1)
            .map_or(self.begun, |i| self.ends[i]);
        self.ends[self.count..part].fill(last);
        self.ends[part] = now;
        self.count = part + 1;
    }

    /// Each part's seconds (parts not lapped take zero), and the seconds from the start to
    /// the last lap.
    pub fn seconds(&self) -> ([f64; N], f64) {
        let mut out = [0.0; N];
        let mut before = self.begun;
        for (o, &end) in out.iter_mut().zip(&self.ends[..self.count]) {
            *o = (end - before).as_secs_f64();
            before = end;
        }
        (out, (before - self.begun).as_secs_f64())
    }
}

/// The stopwatch of a step's stages (a step reads it 8 times).
#[derive(Clone, Copy, Debug)]
pub struct Laps(Stopwatch<STAGES>);

impl Laps {
    pub fn start() -> Laps {
        Laps(Stopwatch::start())
    }

    /// Marks the end of `stage`, which must be the stage after the last one marked.
    pub fn lap(&mut self, stage: Stage) {
        debug_assert_eq!(
            stage as usize, self.0.count,
            "stage {stage:?} ended out of order"
        );
        self.0.lap(stage as usize);
    }

    /// The stages' seconds, in `StepTimes` order (stages not lapped take zero).
    pub fn times(&self) -> StepTimes {
        let (stages, total) = self.0.seconds();
        StepTimes { stages, total }
    }
}

/// The stopwatch of the velocity solve's parts.
#[derive(Clone, Copy, Debug)]
pub struct SolveLaps(Stopwatch<SOLVE_PARTS>);

impl SolveLaps {
    pub fn start() -> SolveLaps {
        SolveLaps(Stopwatch::start())
    }

    /// Marks the end of `part`, which must come after the last one marked; parts skipped
    /// take zero.
    pub fn lap(&mut self, part: SolvePart) {
        self.0.lap(part as usize);
    }

    pub fn times(&self) -> SolveTimes {
        SolveTimes {
            parts: self.0.seconds().0,
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
    fn solve_parts_skipped_take_zero_and_the_parts_add_up() {
        let mut laps = SolveLaps::start();
        laps.lap(SolvePart::Prepare);
        std::thread::sleep(std::time::Duration::from_millis(2));
        laps.lap(SolvePart::Iterate);
        let times = laps.times();
        let names: Vec<&str> = times.named().iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "prepare",
                "joint_positions",
                "impacts",
                "warm_start",
                "iterate",
                "hold_up",
                "store"
            ]
        );
        let [prepare, joints, impacts, warm, iterate, hold, store] = times.parts;
        assert_eq!([joints, impacts, warm, hold, store], [0.0; 5]);
        assert!(prepare >= 0.0 && iterate >= 2e-3, "{:?}", times.parts);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "out of order")]
    fn a_stage_out_of_order_is_caught_in_debug_builds() {
        let mut laps = Laps::start();
        laps.lap(Stage::NarrowPhase);
    }
}
