//! Springs and joints: adding, reading and removing them. Every call checks its input first and
//! leaves the world unchanged when it fails.

use crate::body::BodyHandle;
use crate::dynamics::joints::{Joint, JointHandle, JointKind, Motor};
use crate::dynamics::springs::{Spring, SpringHandle};
use crate::error::{Error, Result};
use crate::limits;
use crate::math::{DQuat, DVec3};
use crate::world::World;

/// Where a spring or joint is attached: body a at a body-frame anchor, and body b at a
/// body-frame anchor or, with no b, a world point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attachment {
    pub a: BodyHandle,
    pub b: Option<BodyHandle>,
    pub anchor_a: DVec3,
    pub anchor_b: DVec3,
}

impl Attachment {
    /// Attached at one world point, fixed to both bodies from now on.
    pub fn at_world_point(
        world: &World,
        a: BodyHandle,
        b: Option<BodyHandle>,
        point: DVec3,
    ) -> Result<Attachment> {
        limits::coordinate3("anchor", point)?;
        let local = |h: BodyHandle| -> Result<DVec3> {
            let body = world.body(h)?;
            Ok(body.local_point(point))
        };
        let anchor_a = local(a)?;
        let anchor_b = match b {
            Some(b) => local(b)?,
            None => point,
        };
        Ok(Attachment {
            a,
            b,
            anchor_a,
            anchor_b,
        })
    }
}

/// A mouse joint's softness: undamped frequency (Hz), damping ratio (1 is critical) and the
/// most force it pulls with (N; None: no cap).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MouseOptions {
    pub frequency: f64,
    pub damping_ratio: f64,
    pub max_force: Option<f64>,
}

impl Default for MouseOptions {
    /// About what a hand does: 5 Hz, a little under critical damping, as Box2D's mouse joint.
    fn default() -> MouseOptions {
        MouseOptions {
            frequency: 5.0,
            damping_ratio: 0.7,
            max_force: None,
        }
    }
}

/// A hinge's options: angle limits (rad, lower <= upper, within [-pi, pi]) and a motor.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HingeOptions {
    pub limits: Option<(f64, f64)>,
    pub motor: Option<Motor>,
}

impl World {
    /// The attached bodies are in the world; what the link holds is checked by its own
    /// `check`, the one the scene loader makes too.
    fn check_attachment(&self, at: &Attachment) -> Result<()> {
        self.body(at.a)?;
        if let Some(b) = at.b {
            self.body(b)?;
        }
        Ok(())
    }

    /// The anchors' current world positions.
    fn anchors_now(&self, at: &Attachment) -> Result<(DVec3, DVec3)> {
        let pa = self.body(at.a)?.world_point(at.anchor_a);
        let pb = match at.b {
            Some(b) => self.body(b)?.world_point(at.anchor_b),
            None => at.anchor_b,
        };
        Ok((pa, pb))
    }

    /// In a 2D world a link lies in the plane: anchors with no z, a hinge turning about z.
    pub(crate) fn check_planar_link(
        &self,
        anchor_a: DVec3,
        anchor_b: DVec3,
        kind: Option<&JointKind>,
    ) -> Result<()> {
        if !self.state.settings.planar {
            return Ok(());
        }
        crate::in_plane::check_vector("anchor_a", anchor_a)?;
        crate::in_plane::check_vector("anchor_b", anchor_b)?;
        if let Some(JointKind::Pulley {
            ground_a, ground_b, ..
        }) = kind
        {
            crate::in_plane::check_vector("ground_a", *ground_a)?;
            crate::in_plane::check_vector("ground_b", *ground_b)?;
        }
        if let Some(JointKind::Slider { axis_a, .. }) = kind {
            crate::in_plane::check_vector("axis", *axis_a)?;
        }
        if let Some(JointKind::Hinge { axis_a, axis_b, .. }) = kind {
            for axis in [axis_a, axis_b] {
                if axis.x != 0.0 || axis.y != 0.0 {
                    return Err(Error::invalid(
                        "axis",
                        format!("{:?}", axis.to_array()),
                        "a hinge of a 2D world turns about z",
                    ));
                }
            }
        }
        Ok(())
    }

    fn take_handle(&mut self) -> u64 {
        self.state.next_handle += 1;
        self.state.next_handle - 1
    }

    /// Adds a damped linear spring; rest_length None takes the anchors' current distance.
    pub fn add_spring(
        &mut self,
        at: Attachment,
        stiffness: f64,
        damping: f64,
        rest_length: Option<f64>,
    ) -> Result<SpringHandle> {
        self.check_attachment(&at)?;
        let rest_length = match rest_length {
            Some(l) => l,
            None => {
                let (pa, pb) = self.anchors_now(&at)?;
                (pb - pa).length()
            }
        };
        let spring = Spring {
            handle: SpringHandle(self.state.next_handle),
            a: at.a,
            b: at.b,
            anchor_a: at.anchor_a,
            anchor_b: at.anchor_b,
            stiffness,
            damping,
            rest_length,
        };
        spring.check()?;
        self.check_planar_link(spring.anchor_a, spring.anchor_b, None)?;
        self.take_handle();
        self.state.springs.push(spring.clone());
        self.content_changed();
        Ok(spring.handle)
    }

    pub fn spring(&self, h: SpringHandle) -> Option<&Spring> {
        self.state.springs.iter().find(|s| s.handle == h)
    }

    /// Changes a spring's stiffness, damping and rest length.
    pub fn set_spring(
        &mut self,
        h: SpringHandle,
        stiffness: f64,
        damping: f64,
        rest_length: f64,
    ) -> Result<()> {
        let s = self
            .state
            .springs
            .iter_mut()
            .find(|s| s.handle == h)
            .ok_or(Error::RemovedLink { what: "spring" })?;
        let changed = Spring {
            stiffness,
            damping,
            rest_length,
            ..s.clone()
        };
        changed.check()?;
        *s = changed;
        self.content_changed();
        Ok(())
    }

    /// Removes a spring; false if it was already gone.
    pub fn remove_spring(&mut self, h: SpringHandle) -> bool {
        let before = self.state.springs.len();
        self.state.springs.retain(|s| s.handle != h);
        let removed = self.state.springs.len() != before;
        if removed {
            self.content_changed();
        }
        removed
    }

    /// Adds the joint if it passes its check (the world is unchanged if not).
    fn push_joint(&mut self, at: Attachment, kind: JointKind) -> Result<JointHandle> {
        let joint = Joint {
            handle: JointHandle(self.state.next_handle),
            a: at.a,
            b: at.b,
            kind,
            anchor_a: at.anchor_a,
            anchor_b: at.anchor_b,
            impulse: DVec3::ZERO,
            angular_impulse: DVec3::ZERO,
            collide: false,
        };
        joint.check()?;
        self.check_planar_link(joint.anchor_a, joint.anchor_b, Some(&joint.kind))?;
        self.take_handle();
        let handle = joint.handle;
        self.state.joints.push(joint);
        self.content_changed();
        Ok(handle)
    }

    /// Sets whether a joint's two bodies collide with each other.
    pub fn set_joint_collide(&mut self, h: JointHandle, collide: bool) -> Result<()> {
        let j = self
            .state
            .joints
            .iter_mut()
            .find(|j| j.handle == h)
            .ok_or(Error::RemovedLink { what: "joint" })?;
        if j.collide != collide {
            j.collide = collide;
            self.content_changed();
        }
        Ok(())
    }

    /// A rigid rod between the anchors; length None takes their current distance.
    pub fn add_distance_joint(
        &mut self,
        at: Attachment,
        length: Option<f64>,
    ) -> Result<JointHandle> {
        self.check_attachment(&at)?;
        let length = self.length_or_now(&at, length)?;
        self.push_joint(at, JointKind::Distance { length })
    }

    /// `length` if given, else how far apart the anchors are now.
    fn length_or_now(&self, at: &Attachment, length: Option<f64>) -> Result<f64> {
        match length {
            Some(l) => Ok(l),
            None => {
                let (pa, pb) = self.anchors_now(at)?;
                Ok((pb - pa).length())
            }
        }
    }

    /// A rope from a's anchor over fixed pulleys at world points `ground_a` and `ground_b` to
    /// b's anchor (see `JointKind::Pulley`); length None takes the rope's length now.
    pub fn add_pulley_joint(
        &mut self,
        at: Attachment,
        ground_a: DVec3,
        ground_b: DVec3,
        ratio: f64,
        length: Option<f64>,
    ) -> Result<JointHandle> {
        self.check_attachment(&at)?;
        self.planar_vector("ground_a", ground_a)?;
        self.planar_vector("ground_b", ground_b)?;
        let length = match length {
            Some(l) => l,
            None => {
                let (pa, pb) = self.anchors_now(&at)?;
                (pa - ground_a).length() + ratio * (pb - ground_b).length()
            }
        };
        let kind = JointKind::Pulley {
            ground_a,
            ground_b,
            ratio,
            length,
        };
        self.push_joint(at, kind)
    }

    /// What a joint at a world point along a world axis (a hinge, a slider) is made from: its
    /// attachment there, the unit axis, and the orientations of a and of b (the world's: the
    /// identity).
    fn axis_joint(
        &self,
        a: BodyHandle,
        b: Option<BodyHandle>,
        anchor: DVec3,
        axis: DVec3,
    ) -> Result<(Attachment, DVec3, DQuat, DQuat)> {
        let at = Attachment::at_world_point(self, a, b, anchor)?;
        self.check_attachment(&at)?;
        let axis = limits::direction("axis", axis)?;
        let qa = self.body(a)?.orientation;
        let qb = match b {
            Some(b) => self.body(b)?.orientation,
            None => DQuat::IDENTITY,
        };
        Ok((at, axis, qa, qb))
    }

    /// A slider at a world point, sliding along a world axis (see `JointKind::Slider`); the
    /// limits and motor are along the axis (m, m/s and N).
    pub fn add_slider_joint(
        &mut self,
        a: BodyHandle,
        b: Option<BodyHandle>,
        anchor: DVec3,
        axis: DVec3,
        options: HingeOptions,
    ) -> Result<JointHandle> {
        let (at, axis, qa, qb) = self.axis_joint(a, b, anchor, axis)?;
        self.planar_vector("axis", axis)?;
        let kind = JointKind::Slider {
            axis_a: qa.inverse() * axis,
            relative: qa.inverse() * qb,
            limits: options.limits,
            motor: options.motor,
        };
        self.push_joint(at, kind)
    }

    /// A rope: the anchors stay at most max_length apart; None takes their current distance.
    pub fn add_rope_joint(
        &mut self,
        at: Attachment,
        max_length: Option<f64>,
    ) -> Result<JointHandle> {
        self.check_attachment(&at)?;
        let max_length = self.length_or_now(&at, max_length)?;
        self.push_joint(at, JointKind::Rope { max_length })
    }

    /// A ball-and-socket joint at a world point.
    pub fn add_ball_joint(
        &mut self,
        a: BodyHandle,
        b: Option<BodyHandle>,
        anchor: DVec3,
    ) -> Result<JointHandle> {
        let at = Attachment::at_world_point(self, a, b, anchor)?;
        self.check_attachment(&at)?;
        self.push_joint(at, JointKind::Ball)
    }

    /// A hinge at a world point, turning about a world axis.
    pub fn add_hinge_joint(
        &mut self,
        a: BodyHandle,
        b: Option<BodyHandle>,
        anchor: DVec3,
        axis: DVec3,
        options: HingeOptions,
    ) -> Result<JointHandle> {
        let (at, axis, qa, qb) = self.axis_joint(a, b, anchor, axis)?;
        let reference = axis.any_orthonormal_vector();
        let kind = JointKind::Hinge {
            axis_a: qa.inverse() * axis,
            axis_b: qb.inverse() * axis,
            reference_a: qa.inverse() * reference,
            reference_b: qb.inverse() * reference,
            limits: options.limits,
            motor: options.motor,
        };
        self.push_joint(at, kind)
    }

    /// Welds a to b (or to the world) as they are now; the anchor is b's centre (a's with no
    /// b).
    pub fn add_fixed_joint(&mut self, a: BodyHandle, b: Option<BodyHandle>) -> Result<JointHandle> {
        let anchor = match b {
            Some(b) => self.body(b)?.position,
            None => self.body(a)?.position,
        };
        let at = Attachment::at_world_point(self, a, b, anchor)?;
        self.check_attachment(&at)?;
        let qa = self.body(a)?.orientation;
        let qb = match b {
            Some(b) => self.body(b)?.orientation,
            None => DQuat::IDENTITY,
        };
        self.push_joint(
            at,
            JointKind::Fixed {
                relative: qa.inverse() * qb,
            },
        )
    }

    /// A mouse joint: pulls a's point `point` (a world point now, fixed to a from now on)
    /// softly towards the world point `target` (see `JointKind::Mouse`).
    pub fn add_mouse_joint(
        &mut self,
        a: BodyHandle,
        point: DVec3,
        target: DVec3,
        options: MouseOptions,
    ) -> Result<JointHandle> {
        limits::coordinate3("point", point)?;
        // Kept as the world anchor (b's, the world's): named here as the caller knows it.
        limits::coordinate3("target", target)?;
        let mut at = Attachment::at_world_point(self, a, None, point)?;
        at.anchor_b = target;
        self.check_attachment(&at)?;
        let kind = JointKind::Mouse {
            frequency: options.frequency,
            damping_ratio: options.damping_ratio,
            max_force: options.max_force,
        };
        self.push_joint(at, kind)
    }

    /// Moves a mouse joint's target (a world point). Wakes the bodies, as a load does, without
    /// counting as a change of the world's content: a hand moving the target every step is
    /// the simulation going on.
    pub fn set_mouse_target(&mut self, h: JointHandle, target: DVec3) -> Result<()> {
        limits::coordinate3("target", target)?;
        let j = self
            .state
            .joints
            .iter_mut()
            .find(|j| j.handle == h)
            .ok_or(Error::RemovedLink { what: "joint" })?;
        if !matches!(j.kind, JointKind::Mouse { .. }) {
            return Err(Error::invalid(
                "target",
                j.kind.name(),
                "only a mouse joint has a target",
            ));
        }
        if j.anchor_b != target {
            j.anchor_b = target;
            self.edited();
        }
        Ok(())
    }

    pub fn joint(&self, h: JointHandle) -> Option<&Joint> {
        self.state.joints.iter().find(|j| j.handle == h)
    }

    /// Changes a hinge's motor (None switches it off).
    pub fn set_hinge_motor(&mut self, h: JointHandle, motor: Option<Motor>) -> Result<()> {
        if let Some(m) = motor {
            m.check()?;
        }
        let j = self
            .state
            .joints
            .iter_mut()
            .find(|j| j.handle == h)
            .ok_or(Error::RemovedLink { what: "joint" })?;
        match &mut j.kind {
            JointKind::Hinge { motor: m, .. } | JointKind::Slider { motor: m, .. } => {
                *m = motor;
                self.content_changed();
                Ok(())
            }
            other => Err(Error::invalid(
                "motor",
                other.name(),
                "only a hinge or a slider joint has a motor",
            )),
        }
    }

    /// Removes a joint; false if it was already gone.
    pub fn remove_joint(&mut self, h: JointHandle) -> bool {
        let before = self.state.joints.len();
        self.state.joints.retain(|j| j.handle != h);
        let removed = self.state.joints.len() != before;
        if removed {
            self.content_changed();
        }
        removed
    }

    pub fn springs(&self) -> &[Spring] {
        &self.state.springs
    }

    pub fn joints(&self) -> &[Joint] {
        &self.state.joints
    }
}
