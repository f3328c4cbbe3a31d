//! Speed caps: a body may be given a largest speed and a largest angular speed, as games and
//! the simulators they grew from allow (a projectile that must not tunnel, a wheel that must
//! not spin up without bound). They act after the velocity solve: a body faster than its cap
//! has its velocity scaled down to it, in its own direction, and moves from the next step on
//! at the capped velocity. A cap only ever takes energy away (the kinetic energy above
//! m v_max^2 / 2 is lost where it acts) and changes nothing while the body is slower.

use crate::error::{Error, Result};
use crate::math::DVec3;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpeedCaps {
    /// Largest speed of the centre of mass (m/s); None: no cap.
    pub linear: Option<f64>,
    /// Largest angular speed (rad/s); None: no cap.
    pub angular: Option<f64>,
}

impl SpeedCaps {
    /// Checks a cap: None, or a number >= 0 (infinity allowed: no cap in effect).
    pub fn check(param: &str, cap: Option<f64>) -> Result<Option<f64>> {
        match cap {
            Some(c) if c.is_nan() || c < 0.0 => Err(Error::invalid(
                param,
                c,
                "must be a number >= 0, or None for no cap",
            )),
            _ => Ok(cap),
        }
    }

    /// Whether no cap acts (an infinite cap is none).
    pub fn is_none(&self) -> bool {
        !self.linear.is_some_and(f64::is_finite) && !self.angular.is_some_and(f64::is_finite)
    }

    /// The velocities (v, w) within the caps.
    pub fn apply(&self, v: DVec3, w: DVec3) -> (DVec3, DVec3) {
        (cap(v, self.linear), cap(w, self.angular))
    }
}

fn cap(v: DVec3, most: Option<f64>) -> DVec3 {
    match most {
        Some(m) if v.length() > m => v * (m / v.length()),
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_scales_a_faster_velocity_down_along_itself_and_leaves_a_slower_one() {
        let caps = SpeedCaps {
            linear: Some(5.0),
            angular: None,
        };
        let (v, w) = caps.apply(DVec3::new(6.0, 8.0, 0.0), DVec3::new(0.0, 0.0, 100.0));
        assert!((v - DVec3::new(3.0, 4.0, 0.0)).length() < 1e-15);
        assert_eq!(w, DVec3::new(0.0, 0.0, 100.0));
        let slow = DVec3::new(1.0, -2.0, 0.5);
        assert_eq!(caps.apply(slow, slow).0, slow);
    }

    #[test]
    fn a_cap_is_a_number_at_least_zero() {
        assert!(SpeedCaps::check("max_speed", Some(-1.0)).is_err());
        assert!(SpeedCaps::check("max_speed", Some(f64::NAN)).is_err());
        assert_eq!(SpeedCaps::check("max_speed", Some(0.0)).unwrap(), Some(0.0));
        assert_eq!(SpeedCaps::check("max_speed", None).unwrap(), None);
    }
}
