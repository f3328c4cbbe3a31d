//! Running time backwards. Newton's laws are symmetric in time, and so are velocity Verlet and
//! symplectic Euler (through its adjoint): a world of bodies moved only by gravity, springs
//! without damping and constant forces can be stepped back, each backward step undoing one
//! forward step to round-off (integrator.rs, `step_back`). What is not symmetric is refused
//! with the reason: explicit Euler and RK4, and anything that takes energy or makes a step
//! depend on more than the state (contacts and friction, joints, damping and drag, loads that
//! expire, bodies asleep). Those worlds go back through their history instead (history.rs).

use crate::body::BodyKind;
use crate::dynamics::integrator::IntegratorKind;
use crate::error::{Error, Result};
use crate::world::World;

impl World {
    /// Why this world cannot be stepped back, if it cannot.
    fn irreversible(&self) -> Option<String> {
        let s = &self.state;
        let kind = s.settings.integrator;
        if !matches!(
            kind,
            IntegratorKind::Verlet | IntegratorKind::SymplecticEuler
        ) {
            return Some(format!(
                "the '{}' integrator is not symmetric in time (run backwards it does not \
                 retrace its path; 'verlet' and 'symplectic_euler' do)",
                kind.name()
            ));
        }
        if !s.joints.is_empty() {
            return Some("it has joints, whose impulses do not run backwards".into());
        }
        if s.contacts.manifolds.iter().any(|m| !m.points.is_empty()) {
            return Some("bodies are in contact: impacts and friction take energy".into());
        }
        if s.springs.iter().any(|sp| sp.damping != 0.0) {
            return Some("a spring is damped: damping takes energy".into());
        }
        if !s.loads.is_empty() {
            return Some("loads are applied: they expire in time".into());
        }
        for b in s.bodies.bodies() {
            if b.kind != BodyKind::Dynamic {
                continue;
            }
            if b.linear_damping != 0.0 || b.angular_damping != 0.0 || b.quadratic_drag != 0.0 {
                return Some(format!(
                    "body {} is damped: damping and drag take energy",
                    b.id
                ));
            }
            if !b.is_awake() {
                return Some(format!("body {} is asleep: it rests on others", b.id));
            }
            if !b.caps.is_none() {
                return Some(format!("body {} has a speed cap, which takes energy", b.id));
            }
        }
        None
    }

    /// Steps the world back by `n` steps of dt: each undoes one forward step to round-off
    /// (velocity Verlet or symplectic Euler, with no contact, joint, damping, drag, load, cap
    /// or sleeping body; see the module's comment). Contacts are not looked for on the way
    /// back. At most as many steps as the world has taken since its time began. A world that
    /// cannot be stepped back is left as it is and the error says why and what works.
    pub fn step_back(&mut self, n: u64) -> Result<()> {
        if n > self.state.steps_since_base {
            return Err(Error::invalid(
                "n",
                format!("-{n}"),
                &format!(
                    "the world has taken {} steps since its time began; it cannot step back further",
                    self.state.steps_since_base
                ),
            ));
        }
        if n == 0 {
            return Ok(());
        }
        if let Some(why) = self.irreversible() {
            return Err(Error::invalid(
                "n",
                format!("-{n}"),
                &format!(
                    "this world cannot be stepped back: {why}. Run it with \
                     World(history=seconds) and use rewind() instead"
                ),
            ));
        }
        self.check_start()?;
        self.unstage();
        self.history_edited();
        for _ in 0..n {
            self.gather_state();
            self.integrate_smooth_forces(true)?;
            self.finish_step_back();
        }
        Ok(())
    }
}
