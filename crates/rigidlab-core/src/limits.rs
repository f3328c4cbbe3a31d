//! The ranges of values rigidlab simulates, and the checks that hold every input to them.
//!
//! f64 carries about 16 significant digits and overflows past 1e308. A value that is finite
//! can still be one the step cannot carry: a radius of 1e-300 gives an inertia of 0 and an
//! infinite spin from any touch, a drag of 1e300 an infinite force, a position of 1e300 a
//! broad-phase cell index that does not exist. Each range below is wide beyond any lab, and
//! chosen so that what the step forms from it (m v^2, I w, r x J, impulses over the solver's
//! sums) stays far inside f64. The API and the scene loader check against the same ranges, and
//! the step stops with an error naming the body if its state leaves them anyway (an explicit
//! integrator made unstable by a large damping, say).

use crate::error::{check_finite, check_finite3, number, Error, Result};
use crate::math::{DQuat, DVec3};

/// Smallest and largest size (radius, half extent, ...) of a body, m. 1e-9 m keeps a body's
/// inertia (m r^2, ~1e-42 kg m^2 for a nanometre grain of water) far above f64's smallest
/// numbers; 1e9 m is beyond any planet a lab would model.
pub const LENGTH: (f64, f64) = (1e-9, 1e9);
/// Largest coordinate of a position or anchor, m. The spacing of f64 numbers at 1e11 is
/// 1.5e-5 m, a seventh of the contact slop: further out, contacts could not be resolved.
pub const COORDINATE: f64 = 1e11;
/// Smallest and largest mass, kg (a dust grain to a large ship, and the inertias they give).
pub const MASS: (f64, f64) = (1e-15, 1e15);
/// Largest speed, m/s: a third of the speed of light, where rigid-body mechanics has long
/// stopped describing anything.
pub const SPEED: f64 = 1e8;
/// Largest angular speed, rad/s (the fastest ultracentrifuges turn at 1e4 rad/s).
pub const ANGULAR_SPEED: f64 = 1e8;
/// Largest acceleration of gravity, m/s^2 (a white dwarf's surface: about 1e6).
pub const GRAVITY: f64 = 1e7;
/// Largest factor on the world's gravity for one body.
pub const GRAVITY_SCALE: f64 = 1e6;
/// Largest coefficient of damping, drag or a spring's stiffness or damping (SI units).
pub const COEFFICIENT: f64 = 1e15;
/// Largest force (N), torque (N m) or impulse (N s) applied by a script.
pub const LOAD: f64 = 1e18;
/// Largest distance between two points (a spring's rest length, a joint's length), m.
pub const SPAN: f64 = 4.0 * COORDINATE;
/// Time step bounds, s.
pub const DT: (f64, f64) = (1e-9, 10.0);

fn range_message(lo: f64, hi: f64) -> String {
    format!("must lie in [{}, {}]", number(lo), number(hi))
}

/// A size: finite and within `LENGTH`.
pub fn length(param: &str, x: f64) -> Result<f64> {
    check_finite(param, x)?;
    if (LENGTH.0..=LENGTH.1).contains(&x) {
        Ok(x)
    } else {
        Err(Error::invalid(
            param,
            number(x),
            &range_message(LENGTH.0, LENGTH.1),
        ))
    }
}

/// Each component of a vector of sizes within `LENGTH`.
pub fn lengths3(param: &str, v: DVec3) -> Result<DVec3> {
    check_finite3(param, v)?;
    if v.to_array()
        .iter()
        .all(|x| (LENGTH.0..=LENGTH.1).contains(x))
    {
        Ok(v)
    } else {
        Err(Error::invalid(
            param,
            format!("{:?}", v.to_array()),
            &format!("every component {}", range_message(LENGTH.0, LENGTH.1)),
        ))
    }
}

/// A value in [lo, hi].
pub fn within(param: &str, x: f64, lo: f64, hi: f64) -> Result<f64> {
    check_finite(param, x)?;
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(Error::invalid(param, number(x), &range_message(lo, hi)))
    }
}

/// A vector whose every component lies within [-max, max].
pub fn bounded3(param: &str, v: DVec3, max: f64) -> Result<DVec3> {
    check_finite3(param, v)?;
    if v.abs().max_element() <= max {
        Ok(v)
    } else {
        Err(Error::invalid(
            param,
            format!("{:?}", v.to_array()),
            &format!("every component must lie within +-{}", number(max)),
        ))
    }
}

/// A position or anchor.
pub fn coordinate3(param: &str, v: DVec3) -> Result<DVec3> {
    bounded3(param, v, COORDINATE)
}

/// A non-negative coefficient (damping, drag, stiffness).
pub fn coefficient(param: &str, x: f64) -> Result<f64> {
    within(param, x, 0.0, COEFFICIENT)
}

/// A body's mass m, from `param` given as `given` (a mass, or a density).
pub fn mass(param: &str, given: f64, m: f64) -> Result<f64> {
    if (MASS.0..=MASS.1).contains(&m) {
        Ok(m)
    } else {
        Err(Error::invalid(
            param,
            number(given),
            &format!(
                "gives a mass of {} kg; masses {}",
                number(m),
                range_message(MASS.0, MASS.1)
            ),
        ))
    }
}

/// A unit quaternion from any finite one (x, y, z, w) not near zero (a quaternion of length
/// below 1e-9 is taken for a mistake, not a rotation). A very long one is first scaled by its
/// largest component, so that no square overflows.
pub fn orientation(param: &str, q: DQuat) -> Result<DQuat> {
    let big = q.to_array().iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if !q.is_finite() || big < 1e-9 {
        return Err(Error::invalid(
            param,
            format!("{:?}", q.to_array()),
            "must be a finite, non-zero quaternion (x, y, z, w)",
        ));
    }
    let q = if big < 1e100 { q } else { q * (1.0 / big) };
    Ok(q.normalize())
}

/// A unit vector along any finite direction not near zero (shorter than 1e-12 is taken for a
/// mistake); a very long one is scaled first, so that no square overflows.
pub fn direction(param: &str, v: DVec3) -> Result<DVec3> {
    let big = v.abs().max_element();
    if !v.is_finite() || big < 1e-12 {
        return Err(Error::invalid(
            param,
            format!("{:?}", v.to_array()),
            "must be a finite, non-zero vector",
        ));
    }
    Ok((v / big).normalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_out_of_range_name_the_parameter() {
        assert!(length("radius", 1e-300)
            .unwrap_err()
            .to_string()
            .starts_with("radius"));
        assert!(length("radius", 0.1).is_ok());
        assert!(coordinate3("position", DVec3::new(0.0, 1e300, 0.0))
            .unwrap_err()
            .to_string()
            .starts_with("position"));
        assert!(coefficient("quadratic_drag", 1e300).is_err());
        assert!(coefficient("quadratic_drag", -1.0).is_err());
        assert!(mass("density", f64::NAN, f64::NAN).is_err());
        assert!(lengths3("half_extents", DVec3::splat(1e-300)).is_err());
        assert!(direction("axis", DVec3::ZERO).is_err());
        assert!(direction("axis", DVec3::new(f64::NAN, 1.0, 0.0)).is_err());
        let huge = direction("axis", DVec3::new(0.0, 1e300, 1e300)).unwrap();
        assert!((huge - DVec3::new(0.0, 1.0, 1.0) / 2f64.sqrt()).length() < 1e-15);
    }
}
