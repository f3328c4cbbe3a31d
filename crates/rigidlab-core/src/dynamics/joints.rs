//! Joints: constraints between two bodies, or between a body and the fixed world, solved
//! with the contacts (see joint_solver.rs).

use crate::body::{BodyHandle, BodySet};
use crate::dynamics::springs::check_ends;
use crate::error::{check_finite, check_finite3, Error, Result};
use crate::limits;
use crate::math::{DQuat, DVec3};

/// A handle to a joint, for reading and removing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JointHandle(pub u64);

/// A motor: a hinge's drives the relative angular speed about its axis towards `speed`
/// (rad/s) with at most `max_torque` (N m); a slider's drives the relative speed along its
/// axis towards `speed` (m/s) with at most `max_torque` newtons of force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    pub speed: f64,
    pub max_torque: f64,
}

impl Motor {
    /// A target speed and a torque within the engine's ranges.
    pub fn check(&self) -> Result<()> {
        limits::within(
            "motor speed",
            self.speed,
            -limits::ANGULAR_SPEED,
            limits::ANGULAR_SPEED,
        )?;
        limits::within("motor max_torque", self.max_torque, 0.0, limits::LOAD)?;
        Ok(())
    }
}

/// Hinge limits (lower, upper), radians: -pi <= lower <= upper <= pi.
pub fn check_hinge_limits((lo, hi): (f64, f64)) -> Result<()> {
    check_finite("limits", lo)?;
    check_finite("limits", hi)?;
    if lo > hi || lo < -std::f64::consts::PI || hi > std::f64::consts::PI {
        return Err(Error::invalid(
            "limits",
            format!("({lo}, {hi})"),
            "must be (lower, upper) with -pi <= lower <= upper <= pi",
        ));
    }
    Ok(())
}

/// A direction a joint keeps in a body's frame: of unit length (1e-6: as saved).
fn check_unit(param: &str, v: DVec3) -> Result<()> {
    if !v.is_finite() || (v.length() - 1.0).abs() > 1e-6 {
        return Err(Error::invalid(
            param,
            format!("{:?}", v.to_array()),
            "must be a unit vector",
        ));
    }
    Ok(())
}

#[derive(Clone, Debug, PartialEq)]
pub enum JointKind {
    /// The anchors stay `length` apart (a rigid massless rod).
    Distance { length: f64 },
    /// The anchors stay at most `max_length` apart (a rope, which can go slack).
    Rope { max_length: f64 },
    /// The anchors coincide; any rotation is free (ball and socket).
    Ball,
    /// The anchors coincide and the bodies turn only about a common axis. The axis and a
    /// reference direction perpendicular to it are kept in each body's frame (b's in the world
    /// frame when b is the world); the hinge angle is a's reference against b's about the
    /// axis, zero when the joint was made. Limits bound that angle and the motor drives a's
    /// angular speed relative to b's about the axis.
    Hinge {
        axis_a: DVec3,
        axis_b: DVec3,
        reference_a: DVec3,
        reference_b: DVec3,
        limits: Option<(f64, f64)>,
        motor: Option<Motor>,
    },
    /// The anchors coincide and the relative orientation q_a^-1 q_b stays `relative`.
    Fixed { relative: DQuat },
    /// A soft pull of a's anchor towards a world point (b is the world; its anchor is the
    /// target): a spring and a damper acting alike in every direction, as stiff and as damped
    /// for any body (an undamped frequency in Hz and a damping ratio, of the anchor against
    /// the body's effective mass there), with at most `max_force` newtons. What a hand or a
    /// mouse does with a body: it follows the target without the hard joint's jolts. Only the
    /// point is held: the body turns freely about it, as on a pivot.
    Mouse {
        frequency: f64,
        damping_ratio: f64,
        max_force: Option<f64>,
    },
    /// A rope over two fixed pulleys at world points `ground_a` and `ground_b`, from a's anchor
    /// to b's: la + ratio lb <= length, la and lb the anchors' distances from their pulleys.
    /// It pulls when taut (with `ratio` times the tension on b) and goes slack otherwise: an
    /// Atwood machine, or with a ratio other than 1 a block and tackle.
    Pulley {
        ground_a: DVec3,
        ground_b: DVec3,
        ratio: f64,
        length: f64,
    },
    /// A prismatic joint: b keeps the orientation `relative` against a (q_a^-1 q_b) and its
    /// anchor on the line through a's anchor along `axis_a` (a's frame), so they only slide
    /// along it. Limits bound the travel, how far a's anchor has slid along the axis from b's
    /// (m; 0 where the joint was made), and the motor drives its rate (m/s).
    Slider {
        axis_a: DVec3,
        relative: DQuat,
        limits: Option<(f64, f64)>,
        motor: Option<Motor>,
    },
}

/// Fastest response of a mouse joint (Hz): beyond what any step can resolve, the pull is as
/// hard as the soft step makes it anyway.
const MOUSE_FREQUENCY: f64 = 1e6;

/// Largest damping ratio of a mouse joint (far past critical, 1).
const MOUSE_DAMPING: f64 = 1e3;

/// Range of a pulley's ratio: a block and tackle of a million falls either way is already
/// beyond what the solver resolves in f64 against the other side.
const RATIO: (f64, f64) = (1e-6, 1e6);

impl JointKind {
    /// Checks the kind's own values against the engine's ranges.
    pub fn check(&self) -> Result<()> {
        match self {
            JointKind::Distance { length } => {
                limits::within("length", *length, 0.0, limits::SPAN)?;
                if *length < 1e-9 {
                    return Err(Error::invalid(
                        "length",
                        *length,
                        "must be positive: the anchors coincide, use a ball joint",
                    ));
                }
            }
            JointKind::Rope { max_length } => {
                limits::within("max_length", *max_length, 0.0, limits::SPAN)?;
                if *max_length <= 0.0 {
                    return Err(Error::invalid(
                        "max_length",
                        *max_length,
                        "must be positive",
                    ));
                }
            }
            JointKind::Ball => {}
            JointKind::Hinge {
                axis_a,
                axis_b,
                reference_a,
                reference_b,
                limits,
                motor,
            } => {
                for (name, v) in [
                    ("axis_a", axis_a),
                    ("axis_b", axis_b),
                    ("reference_a", reference_a),
                    ("reference_b", reference_b),
                ] {
                    check_unit(name, *v)?;
                }
                if let Some(l) = limits {
                    check_hinge_limits(*l)?;
                }
                if let Some(m) = motor {
                    m.check()?;
                }
            }
            JointKind::Fixed { relative } => {
                limits::orientation("relative", *relative)?;
            }
            JointKind::Mouse {
                frequency,
                damping_ratio,
                max_force,
            } => {
                limits::within("frequency", *frequency, 0.0, MOUSE_FREQUENCY)?;
                if *frequency <= 0.0 {
                    return Err(Error::invalid("frequency", *frequency, "must be positive"));
                }
                limits::within("damping_ratio", *damping_ratio, 0.0, MOUSE_DAMPING)?;
                if let Some(f) = max_force {
                    limits::within("max_force", *f, 0.0, limits::LOAD)?;
                }
            }
            JointKind::Pulley {
                ground_a,
                ground_b,
                ratio,
                length,
            } => {
                limits::coordinate3("ground_a", *ground_a)?;
                limits::coordinate3("ground_b", *ground_b)?;
                limits::within("ratio", *ratio, RATIO.0, RATIO.1)?;
                limits::within("length", *length, 0.0, limits::SPAN)?;
            }
            JointKind::Slider {
                axis_a,
                relative,
                limits,
                motor,
            } => {
                check_unit("axis_a", *axis_a)?;
                limits::orientation("relative", *relative)?;
                if let Some((lo, hi)) = *limits {
                    limits::within("limits", lo, -limits::SPAN, limits::SPAN)?;
                    limits::within("limits", hi, -limits::SPAN, limits::SPAN)?;
                    if lo > hi {
                        return Err(Error::invalid(
                            "limits",
                            format!("({lo}, {hi})"),
                            "must be (lower, upper) with lower <= upper (m)",
                        ));
                    }
                }
                if let Some(m) = motor {
                    m.check()?;
                }
            }
        }
        Ok(())
    }

    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Distance { .. } => "distance",
            JointKind::Rope { .. } => "rope",
            JointKind::Ball => "ball",
            JointKind::Hinge { .. } => "hinge",
            JointKind::Fixed { .. } => "fixed",
            JointKind::Mouse { .. } => "mouse",
            JointKind::Pulley { .. } => "pulley",
            JointKind::Slider { .. } => "slider",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    pub handle: JointHandle,
    pub a: BodyHandle,
    /// None: the joint holds a to the fixed world.
    pub b: Option<BodyHandle>,
    pub kind: JointKind,
    /// Body-frame anchor on a.
    pub anchor_a: DVec3,
    /// Body-frame anchor on b, or a world point when b is None.
    pub anchor_b: DVec3,
    /// Reaction impulse the joint gave b in the last step (world vector, N s); a got its
    /// opposite. Divided by dt it is the mean reaction force.
    pub impulse: DVec3,
    /// Angular reaction impulse on b in the last step (N m s), besides the moment of `impulse`.
    pub angular_impulse: DVec3,
    /// Whether a and b still collide with each other. Off by default: jointed bodies usually
    /// overlap or touch where they are joined (links of a chain, a door in its frame), and
    /// their contacts would fight the joint.
    pub collide: bool,
}

/// A pose of one side of a joint: a body's, or the world's (origin, identity).
pub(crate) fn side_pose(bodies: &BodySet, h: Option<BodyHandle>) -> Option<(DVec3, DQuat)> {
    match h {
        Some(h) => bodies.get(h).map(|b| (b.position, b.orientation)),
        None => Some((DVec3::ZERO, DQuat::IDENTITY)),
    }
}

/// How far `value` (a hinge's angle, a slider's travel) is beyond `limits` (0 within them).
pub(crate) fn beyond(value: f64, limits: Option<(f64, f64)>) -> f64 {
    match limits {
        Some((lo, _)) if value < lo => value - lo,
        Some((_, hi)) if value > hi => value - hi,
        _ => 0.0,
    }
}

/// The hinge angle of a against b about the axis (rad, in (-pi, pi]), from the two sides'
/// poses: how far a has turned about the axis relative to b since the joint was made.
pub(crate) fn hinge_angle(
    qa: DQuat,
    qb: DQuat,
    axis_a: DVec3,
    reference_a: DVec3,
    reference_b: DVec3,
) -> f64 {
    let (axis, ra, rb) = (qa * axis_a, qa * reference_a, qb * reference_b);
    rb.cross(ra).dot(axis).atan2(ra.dot(rb))
}

impl Joint {
    /// Checks what the joint holds against the engine's ranges: the one check of a joint,
    /// made from the API and from a scene file alike.
    pub fn check(&self) -> Result<()> {
        check_ends(self.a, self.b)?;
        if matches!(self.kind, JointKind::Pulley { .. }) && self.b.is_none() {
            return Err(Error::invalid(
                "b",
                "None",
                "a pulley's rope runs between two bodies: give b",
            ));
        }
        if matches!(self.kind, JointKind::Mouse { .. }) && self.b.is_some() {
            return Err(Error::invalid(
                "b",
                "a body",
                "a mouse joint pulls a body towards a world point: b must be None",
            ));
        }
        limits::coordinate3("anchor_a", self.anchor_a)?;
        limits::coordinate3("anchor_b", self.anchor_b)?;
        self.kind.check()?;
        check_finite3("impulse", self.impulse)?;
        check_finite3("angular_impulse", self.angular_impulse)?;
        Ok(())
    }

    /// The anchors' world positions, or None if a body is gone.
    pub fn world_anchors(&self, bodies: &BodySet) -> Option<(DVec3, DVec3)> {
        let (xa, qa) = side_pose(bodies, Some(self.a))?;
        let (xb, qb) = side_pose(bodies, self.b)?;
        Some((xa + qa * self.anchor_a, xb + qb * self.anchor_b))
    }

    /// A slider's travel (m): how far a's anchor has slid along the axis from b's; None for
    /// other joints.
    pub fn translation(&self, bodies: &BodySet) -> Option<f64> {
        let JointKind::Slider { axis_a, .. } = &self.kind else {
            return None;
        };
        let (_, qa) = side_pose(bodies, Some(self.a))?;
        let (pa, pb) = self.world_anchors(bodies)?;
        Some((pa - pb).dot(qa * *axis_a))
    }

    /// The hinge angle (rad) for a hinge, None otherwise.
    pub fn angle(&self, bodies: &BodySet) -> Option<f64> {
        let JointKind::Hinge {
            axis_a,
            reference_a,
            reference_b,
            ..
        } = &self.kind
        else {
            return None;
        };
        let (_, qa) = side_pose(bodies, Some(self.a))?;
        let (_, qb) = side_pose(bodies, self.b)?;
        Some(hinge_angle(qa, qb, *axis_a, *reference_a, *reference_b))
    }
}
