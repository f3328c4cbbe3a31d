//! Time under the script's control. A world only ever moves by whole steps of dt, and
//! `World::time` stays the number of steps times dt; the clock decides how many steps a
//! stretch of time comes to, and keeps what it could not step for the next call:
//! - a run of `seconds` of simulated time steps the nearest whole number of steps to the time
//!   asked so far, so any sequence of runs ends within dt/2 of the sum of their lengths (100
//!   runs of 0.01 s at dt = 0.004 s end at 1.0 s, and a run shorter than dt steps once the
//!   carried time reaches half a step);
//! - `advance` is the game loop's accumulator: real seconds times the time scale, whole steps
//!   down (the world is never ahead of the real clock), the remainder kept, and the fraction of
//!   a step left returned so a renderer can draw between the last two states.
//!
//! The carried time is part of the world's state: snapshots and scene files keep it, so a
//! restored world's runs step as the original's did.

use crate::error::{Error, Result};
use crate::world::World;

/// The slowest and the fastest time scale of `advance`: slow motion 64 times slower than real
/// time to 64 times faster.
pub const TIME_SCALES: (f64, f64) = (1.0 / 64.0, 64.0);

/// A run or an advance may not ask for more steps than this: days of simulated time in one call
/// are a mistake in units more often than a plan (a long run is a loop of calls).
pub const MOST_STEPS: f64 = 1e9;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Simulated seconds asked for and not stepped (negative: stepped ahead of what was asked,
    /// by at most half a step).
    pub carried: f64,
    /// Simulated seconds per real second in `advance`.
    pub time_scale: f64,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            carried: 0.0,
            time_scale: 1.0,
        }
    }
}

impl Clock {
    /// Checks a clock read from a file.
    pub fn check(&self, dt: f64) -> Result<()> {
        check_scale(self.time_scale)?;
        if !(self.carried.is_finite() && self.carried.abs() < dt.max(1e-300) * MOST_STEPS) {
            return Err(Error::invalid(
                "carried",
                self.carried,
                "must be a finite number of seconds",
            ));
        }
        Ok(())
    }
}

/// What `World::advance_steps` decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advance {
    /// Whole steps to take now.
    pub steps: u64,
    /// The fraction of a step the clock is past the state those steps reach, in [0, 1).
    pub fraction: f64,
}

fn check_scale(scale: f64) -> Result<()> {
    let (lo, hi) = TIME_SCALES;
    if !(scale >= lo && scale <= hi) {
        return Err(Error::invalid(
            "time_scale",
            scale,
            "must be between 1/64 (slow motion) and 64",
        ));
    }
    Ok(())
}

/// Checks a duration that comes to `seconds * steps_per_second` steps.
fn check_seconds(param: &str, seconds: f64, steps_per_second: f64) -> Result<()> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(Error::invalid(
            param,
            seconds,
            "must be a finite number >= 0",
        ));
    }
    if seconds * steps_per_second > MOST_STEPS {
        return Err(Error::invalid(
            param,
            seconds,
            &format!("comes to more than {MOST_STEPS:e} steps; run it in parts"),
        ));
    }
    Ok(())
}

impl World {
    /// The time carried from earlier runs and advances that no step has taken yet (s).
    pub fn carried_time(&self) -> f64 {
        self.state.clock.carried
    }

    /// Simulated seconds per real second in `advance_steps`.
    pub fn time_scale(&self) -> f64 {
        self.state.clock.time_scale
    }

    pub fn set_time_scale(&mut self, scale: f64) -> Result<()> {
        check_scale(scale)?;
        self.state.clock.time_scale = scale;
        Ok(())
    }

    /// How many steps a run of `seconds` of simulated time takes: the nearest whole number to
    /// the time carried plus `seconds`, in steps of dt; the rest is carried to the next call.
    /// The caller then takes the steps.
    pub fn run_steps(&mut self, seconds: f64) -> Result<u64> {
        let (steps, carried) = self.plan_run(seconds)?;
        self.state.clock.carried = carried;
        Ok(steps)
    }

    /// What `run_steps(seconds)` would do, changing nothing: the steps, and the time then
    /// carried.
    pub fn plan_run(&self, seconds: f64) -> Result<(u64, f64)> {
        let dt = self.state.settings.dt;
        check_seconds("seconds", seconds, 1.0 / dt)?;
        let owed = self.state.clock.carried + seconds;
        let steps = (owed / dt).round().max(0.0);
        Ok((steps as u64, owed - steps * dt))
    }

    /// The game loop's accumulator: `real_seconds` of wall-clock time at the time scale,
    /// added to the time carried, come to this many whole steps (rounded down), the rest
    /// carried. With `most_steps`, a frame that would take more steps takes that many and
    /// drops the backlog (a world slower than real time then runs slower, instead of falling
    /// further behind with every frame). The caller then takes the steps.
    pub fn advance_steps(&mut self, real_seconds: f64, most_steps: Option<u64>) -> Result<Advance> {
        let dt = self.state.settings.dt;
        let clock = self.state.clock;
        check_seconds("real_seconds", real_seconds, clock.time_scale / dt)?;
        let owed = clock.carried + real_seconds * clock.time_scale;
        let mut steps = (owed / dt).floor().max(0.0);
        let mut carried = owed - steps * dt;
        if let Some(most) = most_steps {
            if steps > most as f64 {
                steps = most as f64;
                carried = 0.0;
            }
        }
        self.state.clock.carried = carried;
        Ok(Advance {
            steps: steps as u64,
            fraction: (carried / dt).clamp(0.0, 1.0 - f64::EPSILON),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::world::{Settings, World};

    fn world(dt: f64) -> World {
        World::new(Settings {
            dt,
            ..Settings::default()
        })
    }

    #[test]
    fn runs_keep_time_to_half_a_step_whatever_their_lengths() {
        let mut w = world(0.004);
        let total: u64 = (0..100).map(|_| w.run_steps(0.01).unwrap()).sum();
        assert_eq!(total, 250);
        // Shorter than a step: nothing until the carried time reaches half a step.
        let mut w = world(0.004);
        let steps: Vec<u64> = (0..6).map(|_| w.run_steps(0.001).unwrap()).collect();
        assert_eq!(steps, vec![0, 1, 0, 0, 0, 1]);
        let mut w = world(1.0 / 240.0);
        let mut asked = 0.0;
        let mut stepped = 0;
        for k in 0..1000u32 {
            let s = 1e-3 * f64::from((k * 7919) % 37);
            asked += s;
            stepped += w.run_steps(s).unwrap();
            assert!((stepped as f64 / 240.0 - asked).abs() <= 0.5 / 240.0 + 1e-12);
        }
    }

    #[test]
    fn advance_takes_whole_steps_of_scaled_time_and_reports_the_fraction_left() {
        let mut w = world(0.01);
        w.set_time_scale(0.5).unwrap();
        let a = w.advance_steps(0.05, None).unwrap();
        assert_eq!(a.steps, 2);
        assert!((a.fraction - 0.5).abs() < 1e-9);
        let a = w.advance_steps(0.01, None).unwrap();
        assert_eq!(a.steps, 1);
        assert!(a.fraction.abs() < 1e-9);
        // A frame far too long takes the most steps allowed and drops the backlog.
        let a = w.advance_steps(10.0, Some(8)).unwrap();
        assert_eq!((a.steps, a.fraction), (8, 0.0));
    }

    #[test]
    fn bad_times_and_scales_are_refused_and_change_nothing() {
        let mut w = world(0.01);
        w.run_steps(0.004).unwrap();
        let carried = w.carried_time();
        for bad in [-1.0, f64::NAN, f64::INFINITY, 1e12] {
            assert!(w.run_steps(bad).is_err());
            assert!(w.advance_steps(bad, None).is_err());
        }
        for bad in [0.0, -1.0, 1.0 / 65.0, 65.0, f64::NAN] {
            assert!(w.set_time_scale(bad).is_err());
        }
        assert_eq!((w.carried_time(), w.time_scale()), (carried, 1.0));
    }
}
