//! A finished recording as plain data: a header (what was recorded, every how many steps, of
//! which bodies, and the world when it began) and its arrays. This is the form a recording
//! takes in a .npz file and in a pickle. Reading one back checks the header and every array's
//! size against it, so a corrupt or foreign file is refused naming what is wrong.

use serde::{Deserialize, Serialize};

use crate::recorder::{Quantities, Recording, ENERGY_TERMS};
use crate::scene::{SceneFile, SceneIo};
use crate::world::World;

/// The header's format name and version: a file from a newer rigidlab is refused by version.
pub const FORMAT: &str = "rigidlab-recording";
pub const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordingHeader {
    pub format: String,
    pub version: u32,
    pub every: u64,
    /// The recorded quantities by name (World.record's names).
    pub quantities: Vec<String>,
    pub body_ids: Vec<u64>,
    /// The energy terms, in the order of the energy array's columns.
    pub energy_terms: Vec<String>,
    /// The world when recording began (for replay and the bodies' names), and its revision
    /// (which replay frames carry).
    pub start: SceneFile,
    #[serde(default)]
    pub start_revision: u64,
}

/// A recording's arrays, flat and row-major: per body (sample, body, component), per world
/// (sample, component). Those of quantities not recorded are empty.
#[derive(Default)]
pub struct RecordingArrays {
    pub time: Vec<f64>,
    pub positions: Vec<f64>,
    pub orientations: Vec<f64>,
    /// In a 2D world, recorded with the orientations.
    pub angles: Vec<f64>,
    pub velocities: Vec<f64>,
    pub angular_velocities: Vec<f64>,
    /// (sample, term), the terms in ENERGY_TERMS order.
    pub energy: Vec<f64>,
    pub momentum: Vec<f64>,
    pub angular_momentum: Vec<f64>,
    pub contacts: Vec<u64>,
    /// (point, component) over all samples, and each sample's number of points (see
    /// `Recording::contact_points`).
    pub contact_points: Vec<f64>,
    pub contact_point_counts: Vec<u64>,
}

impl RecordingArrays {
    /// The array of numbers named `name` (LAYOUT's names but contacts, which are counts).
    pub fn numbers_mut(&mut self, name: &str) -> Option<&mut Vec<f64>> {
        Some(match name {
            "time" => &mut self.time,
            "positions" => &mut self.positions,
            "orientations" => &mut self.orientations,
            "angles" => &mut self.angles,
            "velocities" => &mut self.velocities,
            "angular_velocities" => &mut self.angular_velocities,
            "energy" => &mut self.energy,
            "momentum" => &mut self.momentum,
            "angular_momentum" => &mut self.angular_momentum,
            _ => return None,
        })
    }
}

/// The array names of a recording and how many numbers each holds per sample and body
/// (`per_body`) or per sample.
pub const LAYOUT: [(&str, usize, bool); 9] = [
    ("positions", 3, true),
    ("orientations", 4, true),
    ("angles", 1, true),
    ("velocities", 3, true),
    ("angular_velocities", 3, true),
    ("energy", ENERGY_TERMS.len(), false),
    ("momentum", 3, false),
    ("angular_momentum", 3, false),
    ("contacts", 1, false),
];

impl RecordingHeader {
    /// The header as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a header serialises")
    }

    /// A header from JSON text, checked: format, version, quantities, energy terms.
    pub fn from_json(text: &str) -> Result<RecordingHeader, String> {
        let h: RecordingHeader = serde_json::from_str(text)
            .map_err(|e| format!("header: not a recording header ({e})"))?;
        if h.format != FORMAT {
            return Err(format!("header: format {:?} is not {FORMAT:?}", h.format));
        }
        if h.version > VERSION {
            return Err(format!(
                "header: version {} is newer than this rigidlab reads ({VERSION})",
                h.version
            ));
        }
        if h.every == 0 {
            return Err("header: every must be at least 1 (got 0)".into());
        }
        if h.energy_terms != ENERGY_TERMS {
            return Err(format!(
                "header: energy terms {:?} are not {ENERGY_TERMS:?}",
                h.energy_terms
            ));
        }
        h.recorded()?;
        let ids: Vec<u64> = h.start.bodies.iter().map(|b| b.id).collect();
        if ids != h.body_ids {
            return Err("header: body_ids are not the bodies of the start scene".into());
        }
        // The start scene is a whole world: checked as one (sizes, materials, joints).
        World::from_scene(h.start.clone()).map_err(|e| format!("header: start scene: {e}"))?;
        Ok(h)
    }

    /// The recorded quantities.
    pub fn recorded(&self) -> Result<Quantities, String> {
        let mut q = Quantities::none();
        for name in &self.quantities {
            q.add("quantities", name)
                .map_err(|e| format!("header: {e}"))?;
        }
        Ok(q)
    }

    /// Whether the array `name` is part of a recording with this header (a 2D world's angles
    /// come with its orientations).
    pub fn has(&self, name: &str) -> bool {
        let q = self.recorded().unwrap_or(Quantities::none());
        match name {
            "angles" => q.orientations && self.start.settings.planar,
            _ => q.has(name),
        }
    }

    /// The shape of the array `name` in a recording of `samples` samples.
    pub fn shape(&self, name: &str, samples: usize) -> Vec<usize> {
        let (_, k, per_body) = LAYOUT
            .iter()
            .find(|(n, _, _)| *n == name)
            .expect("a recording array's name");
        let mut shape = vec![samples];
        if *per_body {
            shape.push(self.body_ids.len());
        }
        if *k > 1 {
            shape.push(*k);
        }
        shape
    }
}

impl Recording {
    /// The header of this recording.
    pub fn header(&self) -> RecordingHeader {
        RecordingHeader {
            format: FORMAT.into(),
            version: VERSION,
            every: self.every,
            quantities: self
                .quantities
                .names()
                .iter()
                .map(|n| n.to_string())
                .collect(),
            body_ids: self.body_ids.clone(),
            energy_terms: ENERGY_TERMS.iter().map(|t| t.to_string()).collect(),
            start: (*self.start).clone(),
            start_revision: self.start_revision,
        }
    }

    /// The array `name` (one of LAYOUT's, or "time"), flat; contacts as numbers.
    pub fn array(&self, name: &str) -> Vec<f64> {
        match name {
            "time" => self.time.clone(),
            "positions" => self.positions.clone(),
            "orientations" => self.orientations.clone(),
            "angles" => self.angles.clone(),
            "velocities" => self.velocities.clone(),
            "angular_velocities" => self.angular_velocities.clone(),
            "energy" => (0..self.len())
                .flat_map(|i| self.energy.iter().map(move |term| term[i]))
                .collect(),
            "momentum" => self.momentum.clone(),
            "angular_momentum" => self.angular_momentum.clone(),
            "contacts" => self.contacts.iter().map(|&c| c as f64).collect(),
            _ => Vec::new(),
        }
    }

    /// A finished (inactive) recording from its header and arrays, every size checked.
    pub fn from_data(
        header: RecordingHeader,
        arrays: RecordingArrays,
    ) -> Result<Recording, String> {
        let quantities = header.recorded()?;
        let t = arrays.time.len();
        if arrays.time.iter().any(|x| !x.is_finite()) {
            return Err("time: must be finite".into());
        }
        let sizes = [
            ("positions", arrays.positions.len()),
            ("orientations", arrays.orientations.len()),
            ("angles", arrays.angles.len()),
            ("velocities", arrays.velocities.len()),
            ("angular_velocities", arrays.angular_velocities.len()),
            ("energy", arrays.energy.len()),
            ("momentum", arrays.momentum.len()),
            ("angular_momentum", arrays.angular_momentum.len()),
            ("contacts", arrays.contacts.len()),
        ];
        for (name, len) in sizes {
            let want = if header.has(name) {
                header.shape(name, t).iter().product()
            } else {
                0
            };
            if len != want {
                return Err(format!(
                    "{name}: expected {want} numbers ({:?} for {t} samples), got {len}",
                    if header.has(name) {
                        header.shape(name, t)
                    } else {
                        vec![0]
                    }
                ));
            }
        }
        // Contact points: as many per sample as their counts say.
        let (points, counts) = (&arrays.contact_points, &arrays.contact_point_counts);
        if quantities.contact_points {
            if counts.len() != t {
                return Err(format!(
                    "contact_point_counts: expected {t} counts (one per sample), got {}",
                    counts.len()
                ));
            }
            let total: u64 = counts.iter().sum();
            if points.len() as u64 != 3 * total {
                return Err(format!(
                    "contact_points: expected {total} points (the counts' sum) of 3 numbers, got {} numbers",
                    points.len()
                ));
            }
            if points.iter().any(|x| !x.is_finite()) {
                return Err("contact_points: must be finite".into());
            }
        } else if !points.is_empty() || !counts.is_empty() {
            return Err("contact_points: not recorded, so there must be none".into());
        }
        Ok(Recording::finished(header, quantities, arrays))
    }
}
