//! The messages of the viewer stream, one JSON object per line.

use serde::{Deserialize, Serialize};

use crate::math::{DQuat, DVec3};
use crate::scene::{SceneFile, SceneIo};
use crate::world::World;

/// One line of a stream or replay file.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    /// What the world holds. `revision` is the world's revision when it was taken; frames name
    /// the revision of the scene they belong to.
    Scene {
        revision: u64,
        scene: Box<SceneFile>,
    },
    Frame(Frame),
    /// The script is done; the last frame stays on screen.
    End,
}

/// A contact point to draw: where it is and the normal from the first body to the second.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContactMark {
    pub point: DVec3,
    pub normal: DVec3,
}

/// The state of a world at one moment: per-body arrays in the order of `ids`, which lists the
/// bodies present (a subset of the scene's, in its order).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub revision: u64,
    pub time: f64,
    pub ids: Vec<u64>,
    pub positions: Vec<DVec3>,
    pub orientations: Vec<DQuat>,
    /// Empty when not known (a replay of a recording without velocities).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub velocities: Vec<DVec3>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub angular_velocities: Vec<DVec3>,
    /// The six energy terms (translational, rotational, kinetic, gravitational, elastic,
    /// total), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<[f64; 6]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contacts: Vec<ContactMark>,
}

impl Frame {
    /// The world's current state, with its energy and contact points.
    pub fn capture(w: &World) -> Frame {
        let bodies = w.bodies().bodies();
        Frame {
            revision: w.revision(),
            time: w.time(),
            ids: bodies.iter().map(|b| b.id).collect(),
            positions: bodies.iter().map(|b| b.position).collect(),
            orientations: bodies.iter().map(|b| b.orientation).collect(),
            velocities: bodies.iter().map(|b| b.velocity).collect(),
            angular_velocities: bodies.iter().map(|b| b.angular_velocity).collect(),
            energy: Some(w.energy().terms()),
            contacts: {
                let mut marks = Vec::new();
                contact_marks(w, &mut marks);
                marks
            },
        }
    }

    /// Checks the arrays agree in length and hold usable numbers (finite, within 1e9 m or
    /// m/s, unit quaternions), so a frame from a file can be applied safely.
    pub fn check(&self) -> Result<(), String> {
        let n = self.ids.len();
        let at = |what: &str| format!("frame at t = {}: {what}", self.time);
        if !self.time.is_finite() {
            return Err("a frame's time is not a finite number".into());
        }
        let sane = |v: &DVec3| v.is_finite() && v.abs().max_element() < 1e9;
        for (name, rows) in [
            ("positions", &self.positions),
            ("velocities", &self.velocities),
            ("angular_velocities", &self.angular_velocities),
        ] {
            if let Some(k) = rows.iter().position(|v| !sane(v)) {
                return Err(at(&format!("{name}[{k}] is not finite or beyond 1e9")));
            }
        }
        if let Some(k) = self
            .orientations
            .iter()
            .position(|q| !q.is_finite() || (q.length() - 1.0).abs() > 1e-6)
        {
            return Err(at(&format!("orientations[{k}] is not a unit quaternion")));
        }
        let lens = [
            ("positions", self.positions.len(), false),
            ("orientations", self.orientations.len(), false),
            ("velocities", self.velocities.len(), true),
            ("angular_velocities", self.angular_velocities.len(), true),
        ];
        for (name, len, optional) in lens {
            if len != n && !(optional && len == 0) {
                return Err(at(&format!("{name} has {len} rows for {n} bodies")));
            }
        }
        Ok(())
    }
}

/// The world's contact points with their manifold normals, into `out` (cleared first).
pub fn contact_marks(w: &World, out: &mut Vec<ContactMark>) {
    out.clear();
    out.extend(w.manifolds().iter().flat_map(|m| {
        m.points.iter().map(move |p| ContactMark {
            point: p.point,
            normal: m.normal,
        })
    }));
}

impl Message {
    /// The scene message of a world as it is now.
    pub fn scene_of(w: &World) -> Message {
        Message::Scene {
            revision: w.revision(),
            scene: Box::new(w.to_scene()),
        }
    }

    /// One line of JSON, without the newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a stream message always serialises")
    }

    /// Reads one line; the error says what is wrong with it.
    pub fn from_line(line: &str) -> Result<Message, String> {
        serde_json::from_str(line).map_err(|e| format!("not a rigidlab stream message: {e}"))
    }
}

impl Frame {
    /// Shows this frame in a world built from its scene: poses (and velocities, when the frame
    /// has them) set by id through `rows` (id to row), the clock set to the frame's time.
    /// `present[row]` tells which bodies the frame holds; ids the world lacks are skipped and
    /// counted (the count is returned).
    pub fn apply_to(
        &self,
        w: &mut World,
        rows: &std::collections::HashMap<u64, usize>,
        present: &mut Vec<bool>,
    ) -> usize {
        let mut unknown = 0;
        w.show_moment(self.time, |bodies| {
            present.clear();
            present.resize(bodies.len(), false);
            for (k, id) in self.ids.iter().enumerate() {
                let Some(&row) = rows.get(id) else {
                    unknown += 1;
                    continue;
                };
                let b = &mut bodies[row];
                present[row] = true;
                b.position = self.positions[k];
                b.orientation = self.orientations[k];
                b.velocity = self.velocities.get(k).copied().unwrap_or(DVec3::ZERO);
                b.angular_velocity = self
                    .angular_velocities
                    .get(k)
                    .copied()
                    .unwrap_or(DVec3::ZERO);
            }
        });
        unknown
    }
}
