//! Where a step's time goes: wall-clock seconds of each stage of the last step, so a script
//! can see what a scene costs and why (as Box2D's b2Profile does).

use quanta::Instant;

/// Seconds spent in each stage of the last step (all zero after a step of a world at rest,
/// which runs no stage).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTimes {
    pub broad_phase: f64,
    pub narrow_phase: f64,
    pub integrate: f64,
    pub solve: f64,
    pub correct: f64,
    pub finish: f64,
    pub sleep: f64,
    pub total: f64,
}

impl StepTimes {
    /// The stages by name, in step order, then the total.
    pub fn named(&self) -> [(&'static str, f64); 8] {
        [
            ("broad_phase", self.broad_phase),
            ("narrow_phase", self.narrow_phase),
            ("integrate", self.integrate),
            ("solve", self.solve),
            ("correct", self.correct),
            ("finish", self.finish),
            ("sleep", self.sleep),
            ("total", self.total),
        ]
    }
}

/// How many stages `StepTimes` times.
const STAGES: usize = 7;

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

    /// Marks the end of the next stage.
    pub fn lap(&mut self) {
        if let Some(mark) = self.marks.get_mut(self.count) {
            *mark = Instant::now();
            self.count += 1;
        }
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
            broad_phase: stage(1),
            narrow_phase: stage(2),
            integrate: stage(3),
            solve: stage(4),
            correct: stage(5),
            finish: stage(6),
            sleep: stage(7),
            total: (self.marks[last] - self.marks[0]).as_secs_f64(),
        }
    }
}
