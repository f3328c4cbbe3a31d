//! Replay files: a recording saved as a stream (the scene when recording began, then one frame
//! per sample), which the viewer plays back with pause and scrubbing.

use std::io::{BufRead, BufWriter, Write};
use std::path::Path;

use super::protocol::{Frame, Message};
use crate::math::{DQuat, DVec3};
use crate::recorder::Recording;
use crate::scene::SceneFile;

/// A whole replay in memory.
pub struct Replay {
    pub revision: u64,
    pub scene: Box<SceneFile>,
    pub frames: Vec<Frame>,
}

impl Replay {
    /// The frames of a recording. Positions and orientations must have been recorded; bodies
    /// removed since recording began are left out of the frames after their removal.
    pub fn from_recording(rec: &Recording) -> Result<Replay, String> {
        let q = rec.quantities;
        if !(q.positions && q.orientations) {
            return Err("a replay needs the recording's positions and orientations: record(quantities=...) must include both".into());
        }
        let n = rec.body_count();
        let row3 = |v: &[f64], s: usize, i: usize| DVec3::from_slice(&v[(s * n + i) * 3..]);
        let frames = (0..rec.len())
            .map(|s| {
                let mut f = Frame {
                    revision: rec.start_revision,
                    time: rec.time[s],
                    ..Frame::default()
                };
                for (i, &id) in rec.body_ids.iter().enumerate() {
                    let p = row3(&rec.positions, s, i);
                    if p.is_nan() {
                        continue;
                    }
                    f.ids.push(id);
                    f.positions.push(p);
                    f.orientations
                        .push(DQuat::from_slice(&rec.orientations[(s * n + i) * 4..]));
                    if q.velocities {
                        f.velocities.push(row3(&rec.velocities, s, i));
                    }
                    if q.angular_velocities {
                        f.angular_velocities
                            .push(row3(&rec.angular_velocities, s, i));
                    }
                }
                if q.energy {
                    f.energy = Some(std::array::from_fn(|k| rec.energy[k][s]));
                }
                f
            })
            .collect();
        Ok(Replay {
            revision: rec.start_revision,
            scene: rec.start.clone(),
            frames,
        })
    }

    /// Writes the replay as JSON lines.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut out = BufWriter::new(std::fs::File::create(path)?);
        let scene = Message::Scene {
            revision: self.revision,
            scene: self.scene.clone(),
        };
        writeln!(out, "{}", scene.to_line())?;
        for f in &self.frames {
            serde_json::to_writer(&mut out, &Message::Frame(f.clone()))
                .map_err(std::io::Error::other)?;
            out.write_all(b"\n")?;
        }
        out.flush()
    }

    /// Reads a replay (or any stream saved to a file): its first scene and the frames after it.
    /// Errors name the line.
    pub fn load(path: &Path) -> Result<Replay, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut scene = None;
        let mut frames = Vec::new();
        for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{}: line {}: {e}", path.display(), i + 1))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = |e: String| format!("{}: line {}: {e}", path.display(), i + 1);
            match Message::from_line(&line).map_err(at)? {
                Message::Scene { revision, scene: s } if scene.is_none() => {
                    scene = Some((revision, s))
                }
                Message::Scene { .. } => {
                    return Err(at(
                        "a replay holds one scene; bodies were added or removed while it was saved"
                            .into(),
                    ))
                }
                Message::Frame(f) => {
                    f.check().map_err(at)?;
                    frames.push(f);
                }
                Message::End => break,
            }
        }
        let (revision, scene) =
            scene.ok_or_else(|| format!("{}: no scene: not a rigidlab replay", path.display()))?;
        if frames.is_empty() {
            return Err(format!("{}: the replay has no frames", path.display()));
        }
        let ids: std::collections::HashSet<u64> = scene.bodies.iter().map(|b| b.id).collect();
        for (k, f) in frames.iter().enumerate() {
            if let Some(id) = f.ids.iter().find(|id| !ids.contains(id)) {
                return Err(format!(
                    "{}: frame {} (t = {}) names body {id}, which its scene lacks",
                    path.display(),
                    k + 1,
                    f.time
                ));
            }
        }
        Ok(Replay {
            revision,
            scene,
            frames,
        })
    }
}
