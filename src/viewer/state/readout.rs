//! What the viewer reads out of the world for the HUD and the camera: the HUD's lines, the
//! selected body's, whether the scene is planar, and its bounds.

use glam::DVec3;

use super::{Mode, ViewerState};
use crate::shape::Shape;

impl ViewerState {
    /// Whether the world lies in the x-y plane: every solid at z = 0 moving only in that plane,
    /// and gravity in it, so a 2D view shows everything.
    pub fn is_planar(&self) -> bool {
        let w = &self.world;
        let solids: Vec<_> = w
            .bodies()
            .bodies()
            .iter()
            .filter(|b| !matches!(b.shape, Shape::Plane))
            .collect();
        let flat = |v: DVec3| v.z.abs() < 1e-9;
        !solids.is_empty()
            && w.settings().gravity.z == 0.0
            && solids.iter().all(|b| {
                flat(b.position)
                    && flat(b.velocity)
                    && b.angular_velocity.x.abs() < 1e-9
                    && b.angular_velocity.y.abs() < 1e-9
            })
    }

    /// The box around every solid shown and every spring and joint anchor (planes left out).
    pub fn bounds(&self) -> Option<(DVec3, DVec3)> {
        let mut out: Option<(DVec3, DVec3)> = None;
        let mut add = |lo: DVec3, hi: DVec3| {
            out = Some(out.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        };
        let bodies = self.world.bodies();
        for (row, b) in bodies.bodies().iter().enumerate() {
            if matches!(b.shape, Shape::Plane) || !self.present.get(row).copied().unwrap_or(true) {
                continue;
            }
            let a = b.shape.aabb(b.position, b.orientation);
            add(a.min, a.max);
        }
        let springs = self
            .world
            .springs()
            .iter()
            .filter_map(|s| s.world_anchors(bodies));
        for (a, b) in springs.chain(
            self.world
                .joints()
                .iter()
                .filter_map(|j| j.world_anchors(bodies)),
        ) {
            add(a.min(b), a.max(b));
        }
        out
    }

    /// The HUD's lines.
    pub fn hud_lines(&self, fps: f64) -> Vec<String> {
        let mode = match self.mode {
            Mode::Simulation => "simulation",
            Mode::Stream => "live from Python",
            Mode::Replay => "replay",
        };
        let mut lines = vec![
            format!(
                "{}  [{mode}]{}",
                self.title,
                if self.paused { "  PAUSED" } else { "" }
            ),
            format!(
                "FPS {fps:.0}   t = {:.3} s   real-time factor {:.2}   time scale {}",
                self.world.time(),
                self.real_time_factor(),
                format_scale(self.time_scale)
            ),
            format!(
                "bodies {}   contacts {}   dt {:.5} s   steps/frame {}",
                self.present.iter().filter(|&&p| p).count(),
                self.contacts.len(),
                self.world.settings().dt,
                self.steps_last_frame
            ),
        ];
        if let Some(e) = self.energy {
            lines.push(format!(
                "energy {:.4} J: kinetic {:.4} (translation {:.4}, rotation {:.4})",
                e[5], e[2], e[0], e[1]
            ));
            lines.push(format!(
                "       gravitational {:.4}, elastic {:.4}",
                e[3], e[4]
            ));
        }
        if self.mode == Mode::Replay {
            lines.push(format!("frame {} / {}", self.cursor + 1, self.replay_len()));
        }
        if let Some(e) = &self.stream_error {
            lines.push(format!("stream: {e}"));
        }
        lines
    }

    /// The selected body's description.
    pub fn selection_lines(&self) -> Vec<String> {
        let Some(b) = self
            .selected
            .and_then(|id| self.handle(id))
            .and_then(|h| self.world.body(h).ok())
        else {
            return Vec::new();
        };
        let name = b
            .name
            .as_deref()
            .map(|n| format!(" '{n}'"))
            .unwrap_or_default();
        let m = &b.material;
        let coefficient = |c: Option<f64>| c.map_or("default".to_string(), |c| format!("{c}"));
        let v = b.velocity;
        let w = b.angular_velocity;
        let ke = 0.5 * b.mass() * v.length_squared() + 0.5 * w.dot(b.inertia_world() * w);
        let mass = if b.mass().is_finite() {
            format!("{:.4} kg", b.mass())
        } else {
            "infinite".into()
        };
        vec![
            format!(
                "body {}{name}: {} {}, {}",
                b.id,
                b.kind.name(),
                b.shape.type_name(),
                mass
            ),
            format!(
                "position ({:.3}, {:.3}, {:.3}) m",
                b.position.x, b.position.y, b.position.z
            ),
            format!(
                "velocity ({:.3}, {:.3}, {:.3}) m/s, |v| = {:.3}",
                v.x,
                v.y,
                v.z,
                v.length()
            ),
            format!(
                "angular velocity ({:.3}, {:.3}, {:.3}) rad/s",
                w.x, w.y, w.z
            ),
            format!("kinetic energy {ke:.4} J"),
            format!(
                "restitution {}, friction {} (static {})",
                coefficient(m.restitution),
                coefficient(m.friction),
                coefficient(m.static_friction)
            ),
            format!(
                "tangential restitution {}",
                coefficient(m.tangential_restitution)
            ),
        ]
    }
}

fn format_scale(s: f64) -> String {
    if s >= 1.0 {
        format!("{s}x")
    } else {
        format!("1/{}x", (1.0 / s).round())
    }
}
