//! Recording inside the engine: while the world runs, a recording samples the chosen
//! quantities every k steps into flat arrays, so a long run costs no Python per step.

use std::sync::{Arc, Mutex};

use crate::body::BodyHandle;
use crate::error::{Error, Result};
use crate::math::DVec3;
use crate::observer::StepObserver;
use crate::scene::SceneIo;
use crate::world::World;

/// What a recording keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantities {
    pub positions: bool,
    pub orientations: bool,
    pub velocities: bool,
    pub angular_velocities: bool,
    /// The six energy terms of `World::energy`.
    pub energy: bool,
    pub momentum: bool,
    /// About the world origin.
    pub angular_momentum: bool,
    /// The number of contact points.
    pub contacts: bool,
    /// Where the contact points are (world points, as many as there are at each sample): not
    /// among `all`, as a heap's thousands of points at every sample would swamp the rest.
    pub contact_points: bool,
}

impl Quantities {
    pub const NAMES: &'static str = "'positions', 'orientations', 'velocities', 'angular_velocities', 'energy', 'momentum', 'angular_momentum', 'contacts', 'contact_points'";

    pub fn all() -> Quantities {
        Quantities {
            positions: true,
            orientations: true,
            velocities: true,
            angular_velocities: true,
            energy: true,
            momentum: true,
            angular_momentum: true,
            contacts: true,
            contact_points: false,
        }
    }

    pub fn none() -> Quantities {
        Quantities {
            positions: false,
            orientations: false,
            velocities: false,
            angular_velocities: false,
            energy: false,
            momentum: false,
            angular_momentum: false,
            contacts: false,
            contact_points: false,
        }
    }

    /// Each quantity's name with whether it is kept, in the order recordings list them.
    fn flags(&self) -> [(&'static str, bool); 9] {
        [
            ("positions", self.positions),
            ("orientations", self.orientations),
            ("velocities", self.velocities),
            ("angular_velocities", self.angular_velocities),
            ("energy", self.energy),
            ("momentum", self.momentum),
            ("angular_momentum", self.angular_momentum),
            ("contacts", self.contacts),
            ("contact_points", self.contact_points),
        ]
    }

    /// The names of the quantities kept.
    pub fn names(&self) -> Vec<&'static str> {
        self.flags()
            .into_iter()
            .filter_map(|(n, on)| on.then_some(n))
            .collect()
    }

    /// Whether the quantity `name` is kept.
    pub fn has(&self, name: &str) -> bool {
        self.flags().iter().any(|&(n, on)| on && n == name)
    }

    /// Adds a quantity by name.
    pub fn add(&mut self, param: &str, name: &str) -> Result<()> {
        let flag = match name {
            "positions" => &mut self.positions,
            "orientations" => &mut self.orientations,
            "velocities" => &mut self.velocities,
            "angular_velocities" => &mut self.angular_velocities,
            "energy" => &mut self.energy,
            "momentum" => &mut self.momentum,
            "angular_momentum" => &mut self.angular_momentum,
            "contacts" => &mut self.contacts,
            "contact_points" => &mut self.contact_points,
            _ => {
                return Err(Error::UnknownName {
                    param: param.into(),
                    what: "quantity".into(),
                    value: name.into(),
                    choices: Self::NAMES.into(),
                })
            }
        };
        *flag = true;
        Ok(())
    }
}

/// The energy terms in the order a recording keeps them.
pub const ENERGY_TERMS: [&str; 6] = [
    "translational",
    "rotational",
    "kinetic",
    "gravitational",
    "elastic",
    "total",
];

/// Samples of a run. Per-body arrays are flat, row-major (sample, body, component); bodies are
/// those of the world when recording began, in row order; a body removed since reads NaN.
#[derive(Debug)]
pub struct Recording {
    pub every: u64,
    pub quantities: Quantities,
    pub body_ids: Vec<u64>,
    /// The world when recording began (its bodies' shapes and materials), for replay.
    pub start: Box<crate::scene::SceneFile>,
    /// The world's revision when recording began.
    pub start_revision: u64,
    handles: Vec<BodyHandle>,
    steps_since_sample: u64,
    pub active: bool,
    pub time: Vec<f64>,
    pub positions: Vec<f64>,
    pub orientations: Vec<f64>,
    /// In a 2D world, with the orientations: each body's angle (rad, whole turns counted).
    pub angles: Vec<f64>,
    pub velocities: Vec<f64>,
    pub angular_velocities: Vec<f64>,
    /// One vector per term of ENERGY_TERMS.
    pub energy: [Vec<f64>; 6],
    pub momentum: Vec<f64>,
    pub angular_momentum: Vec<f64>,
    pub contacts: Vec<u64>,
    /// The contact points of every sample, one after the other (x, y, z each), and how many
    /// each sample has.
    pub contact_points: Vec<f64>,
    pub contact_point_counts: Vec<u64>,
}

impl Recording {
    pub fn len(&self) -> usize {
        self.time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    pub fn body_count(&self) -> usize {
        self.body_ids.len()
    }

    fn sample(&mut self, w: &World) {
        self.time.push(w.time());
        let q = self.quantities;
        let bodies = w.bodies();
        for &h in &self.handles {
            let b = bodies.get(h);
            let nan3 = [f64::NAN; 3];
            if q.positions {
                self.positions
                    .extend(b.map_or(nan3, |b| b.position.to_array()));
            }
            if q.orientations {
                self.orientations
                    .extend(b.map_or([f64::NAN; 4], |b| b.orientation.to_array()));
                if w.settings().planar {
                    self.angles.push(b.map_or(f64::NAN, |b| b.angle));
                }
            }
            if q.velocities {
                self.velocities
                    .extend(b.map_or(nan3, |b| b.velocity.to_array()));
            }
            if q.angular_velocities {
                self.angular_velocities
                    .extend(b.map_or(nan3, |b| b.angular_velocity.to_array()));
            }
        }
        if q.energy {
            let e = w.energy();
            for (v, x) in self.energy.iter_mut().zip(e.terms()) {
                v.push(x);
            }
        }
        if q.momentum {
            self.momentum.extend(w.momentum().to_array());
        }
        if q.angular_momentum {
            self.angular_momentum
                .extend(w.angular_momentum(DVec3::ZERO).to_array());
        }
        if q.contacts {
            self.contacts
                .push(w.manifolds().iter().map(|m| m.points.len() as u64).sum());
        }
        if q.contact_points {
            let before = self.contact_points.len();
            for m in w.manifolds() {
                for p in &m.points {
                    self.contact_points.extend(p.point.to_array());
                }
            }
            self.contact_point_counts
                .push(((self.contact_points.len() - before) / 3) as u64);
        }
    }
}

impl StepObserver for Recording {
    /// Counts a step; samples on every `every`-th. A stopped recording is done.
    fn after_step(&mut self, w: &World) -> bool {
        if !self.active {
            return false;
        }
        self.steps_since_sample += 1;
        if self.steps_since_sample >= self.every {
            self.steps_since_sample = 0;
            self.sample(w);
        }
        true
    }
}

/// A recording shared between the world (which fills it) and its reader.
pub type SharedRecording = Arc<Mutex<Recording>>;

impl Recording {
    /// A finished recording of what `header` describes, holding `arrays` (read back by
    /// recording_data.rs, which checks their sizes first).
    pub(crate) fn finished(
        header: crate::recording_data::RecordingHeader,
        quantities: Quantities,
        arrays: crate::recording_data::RecordingArrays,
    ) -> Recording {
        let t = arrays.time.len();
        let terms = ENERGY_TERMS.len();
        // Energy comes as (sample, term): split into one vector per term, when recorded.
        let energy = if arrays.energy.is_empty() {
            Default::default()
        } else {
            std::array::from_fn(|j| (0..t).map(|i| arrays.energy[i * terms + j]).collect())
        };
        Recording {
            every: header.every,
            quantities,
            body_ids: header.body_ids,
            start: Box::new(header.start),
            start_revision: header.start_revision,
            handles: Vec::new(),
            steps_since_sample: 0,
            active: false,
            time: arrays.time,
            positions: arrays.positions,
            orientations: arrays.orientations,
            angles: arrays.angles,
            velocities: arrays.velocities,
            angular_velocities: arrays.angular_velocities,
            energy,
            momentum: arrays.momentum,
            angular_momentum: arrays.angular_momentum,
            contacts: arrays.contacts,
            contact_points: arrays.contact_points,
            contact_point_counts: arrays.contact_point_counts,
        }
    }

    /// Starts recording `quantities` of `world` now and every `every` steps; the returned
    /// recording fills while the world steps, until stopped (`active = false`) or dropped by
    /// its reader.
    pub fn start(world: &mut World, every: u64, quantities: Quantities) -> Result<SharedRecording> {
        if every == 0 {
            return Err(Error::invalid("every", every, "must be at least 1"));
        }
        let bodies = world.bodies();
        let mut rec = Recording {
            every,
            quantities,
            body_ids: bodies.bodies().iter().map(|b| b.id).collect(),
            start: Box::new(world.to_scene()),
            start_revision: world.revision(),
            handles: bodies.handles().to_vec(),
            steps_since_sample: 0,
            active: true,
            time: Vec::new(),
            positions: Vec::new(),
            orientations: Vec::new(),
            angles: Vec::new(),
            velocities: Vec::new(),
            angular_velocities: Vec::new(),
            energy: Default::default(),
            momentum: Vec::new(),
            angular_momentum: Vec::new(),
            contacts: Vec::new(),
            contact_points: Vec::new(),
            contact_point_counts: Vec::new(),
        };
        rec.sample(world);
        let shared = Arc::new(Mutex::new(rec));
        world.observe(shared.clone());
        Ok(shared)
    }
}
