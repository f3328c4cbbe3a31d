//! What the HUD draws over time: the energy terms' history, the bodies' trails, and the real-time
//! factor.

use std::collections::{HashMap, VecDeque};

use glam::DVec3;

use crate::world::World;

/// A bounded history of the energy terms for the live graph.
pub struct History {
    capacity: usize,
    pub time: VecDeque<f64>,
    pub energy: VecDeque<[f64; 6]>,
}

impl History {
    pub fn new(capacity: usize) -> History {
        History {
            capacity,
            time: VecDeque::with_capacity(capacity),
            energy: VecDeque::with_capacity(capacity),
        }
    }

    pub fn push(&mut self, t: f64, e: [f64; 6]) {
        if self.time.back().is_some_and(|&last| t < last) {
            self.clear();
        }
        if self.time.len() == self.capacity {
            self.time.pop_front();
            self.energy.pop_front();
        }
        self.time.push_back(t);
        self.energy.push_back(e);
    }

    pub fn clear(&mut self) {
        self.time.clear();
        self.energy.clear();
    }
}

/// The last positions of every body, a bounded number each.
#[derive(Default)]
pub struct Trails {
    pub points: HashMap<u64, VecDeque<DVec3>>,
}

pub const TRAIL_LENGTH: usize = 240;

impl Trails {
    pub(super) fn push(&mut self, w: &World, present: &[bool]) {
        for (row, b) in w.bodies().bodies().iter().enumerate() {
            if !b.is_dynamic() || !present.get(row).copied().unwrap_or(true) {
                continue;
            }
            let trail = self
                .points
                .entry(b.id)
                .or_insert_with(|| VecDeque::with_capacity(TRAIL_LENGTH));
            if trail.len() == TRAIL_LENGTH {
                trail.pop_front();
            }
            trail.push_back(b.position);
        }
    }
}

/// Real-time factor over the last half second of real time.
#[derive(Default)]
pub(super) struct RealTimeFactor {
    samples: VecDeque<(f64, f64)>,
    real: f64,
    sim: f64,
}

impl RealTimeFactor {
    pub(super) fn add(&mut self, real: f64, sim: f64) {
        self.samples.push_back((real, sim));
        self.real += real;
        self.sim += sim;
        while self.real > 0.5 && self.samples.len() > 1 {
            let (r, s) = self.samples.pop_front().unwrap_or_default();
            self.real -= r;
            self.sim -= s;
        }
    }

    pub(super) fn value(&self) -> f64 {
        if self.real > 0.0 {
            self.sim / self.real
        } else {
            0.0
        }
    }
}
