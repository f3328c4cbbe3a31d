//! Surface materials: restitution, static/kinetic friction and tangential restitution, and how two
//! bodies' values combine.
//!
//! A body's coefficient may be left unset (`None`). A pair then takes the value of the body that
//! has one, so `add_sphere(..., restitution=0.8)` dropped on a plain floor bounces with e = 0.8.
//! When both bodies set a coefficient the world's combine rule mixes them (default: the
//! average); `World::set_pair` overrides any of the three for one pair of bodies. When neither sets
//! it, the world default applies (restitution 0, friction 0.5, static friction = friction,
//! tangential restitution 0). Tangential restitution combines by the restitution rule.

use crate::error::{check_non_negative, Error, Result};

/// How two bodies' coefficients combine into the pair's coefficient.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CombineRule {
    #[default]
    Average,
    Min,
    Max,
    Multiply,
}

impl CombineRule {
    pub const NAMES: &'static str = "'average', 'min', 'max', 'multiply'";

    pub fn parse(param: &str, name: &str) -> Result<CombineRule> {
        match name {
            "average" => Ok(CombineRule::Average),
            "min" => Ok(CombineRule::Min),
            "max" => Ok(CombineRule::Max),
            "multiply" => Ok(CombineRule::Multiply),
            _ => Err(Error::UnknownName {
                param: param.into(),
                what: "combine rule".into(),
                value: name.into(),
                choices: Self::NAMES.into(),
            }),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CombineRule::Average => "average",
            CombineRule::Min => "min",
            CombineRule::Max => "max",
            CombineRule::Multiply => "multiply",
        }
    }

    pub fn combine(self, a: f64, b: f64) -> f64 {
        match self {
            CombineRule::Average => 0.5 * (a + b),
            CombineRule::Min => a.min(b),
            CombineRule::Max => a.max(b),
            CombineRule::Multiply => a * b,
        }
    }
}

/// A body's own coefficients; `None` defers to the other body (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Material {
    pub restitution: Option<f64>,
    /// Kinetic (sliding) friction coefficient.
    pub friction: Option<f64>,
    /// Static friction coefficient; unset means equal to `friction`.
    pub static_friction: Option<f64>,
    /// Tangential restitution beta in [-1, 1]: in an impact, the slip of the two surfaces at the
    /// contact turns into -beta times itself as far as friction can hold (Walton's model; see
    /// dynamics/impact.rs). 0 stops the slip, 1 reverses it (perfectly rough: no energy lost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tangential_restitution: Option<f64>,
}

impl Material {
    /// Checks the coefficients: restitution in [0, 1], frictions finite and >= 0, tangential
    /// restitution in [-1, 1].
    pub fn new(
        restitution: Option<f64>,
        friction: Option<f64>,
        static_friction: Option<f64>,
    ) -> Result<Material> {
        Material {
            restitution,
            friction,
            static_friction,
            tangential_restitution: None,
        }
        .checked()
    }

    /// This material, once its coefficients are checked (see `new`).
    pub fn checked(self) -> Result<Material> {
        if let Some(e) = self.restitution {
            check_non_negative("restitution", e)?;
            if e > 1.0 {
                return Err(Error::invalid("restitution", e, "must lie in [0, 1]"));
            }
        }
        if let Some(mu) = self.friction {
            check_non_negative("friction", mu)?;
        }
        if let Some(mu) = self.static_friction {
            check_non_negative("static_friction", mu)?;
        }
        if let Some(beta) = self.tangential_restitution {
            if !(-1.0..=1.0).contains(&beta) {
                return Err(Error::invalid(
                    "tangential_restitution",
                    beta,
                    "must lie in [-1, 1]",
                ));
            }
        }
        Ok(self)
    }

    fn static_or_kinetic(&self) -> Option<f64> {
        self.static_friction.or(self.friction)
    }
}

/// The world-wide material settings: defaults and combine rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaterialRules {
    pub default_restitution: f64,
    pub default_friction: f64,
    pub restitution_rule: CombineRule,
    pub friction_rule: CombineRule,
}

impl Default for MaterialRules {
    fn default() -> Self {
        MaterialRules {
            default_restitution: 0.0,
            default_friction: 0.5,
            restitution_rule: CombineRule::Average,
            friction_rule: CombineRule::Average,
        }
    }
}

/// The coefficients a contact between two bodies uses (all zero by default, until the world
/// sets them from the bodies' materials).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairCoefficients {
    pub restitution: f64,
    pub friction: f64,
    pub static_friction: f64,
    pub tangential_restitution: f64,
}

fn mix(rule: CombineRule, a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(rule.combine(a, b)),
        (x, None) | (None, x) => x,
    }
}

impl MaterialRules {
    /// The coefficients for a pair, with `pair` (from `set_pair`) taking precedence.
    pub fn coefficients(
        &self,
        a: &Material,
        b: &Material,
        pair: Option<&Material>,
    ) -> PairCoefficients {
        let pair = pair.copied().unwrap_or_default();
        let restitution = pair
            .restitution
            .or_else(|| mix(self.restitution_rule, a.restitution, b.restitution))
            .unwrap_or(self.default_restitution);
        let friction = pair
            .friction
            .or_else(|| mix(self.friction_rule, a.friction, b.friction))
            .unwrap_or(self.default_friction);
        let static_friction = pair
            .static_friction
            .or(pair.friction)
            .or_else(|| {
                mix(
                    self.friction_rule,
                    a.static_or_kinetic(),
                    b.static_or_kinetic(),
                )
            })
            .unwrap_or(friction);
        let tangential_restitution = pair
            .tangential_restitution
            .or_else(|| {
                mix(
                    self.restitution_rule,
                    a.tangential_restitution,
                    b.tangential_restitution,
                )
            })
            .unwrap_or(0.0);
        PairCoefficients {
            restitution,
            friction,
            static_friction,
            tangential_restitution,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(e: Option<f64>, mu: Option<f64>, mus: Option<f64>) -> Material {
        Material::new(e, mu, mus).unwrap()
    }

    #[test]
    fn unset_coefficients_defer_to_the_other_body() {
        let rules = MaterialRules::default();
        let c = rules.coefficients(&m(Some(0.8), Some(0.3), None), &Material::default(), None);
        assert_eq!(
            (c.restitution, c.friction, c.static_friction),
            (0.8, 0.3, 0.3)
        );
        let c = rules.coefficients(&Material::default(), &Material::default(), None);
        assert_eq!(
            (c.restitution, c.friction, c.static_friction),
            (0.0, 0.5, 0.5)
        );
    }

    #[test]
    fn combine_rules_and_pair_overrides() {
        let (a, b) = (
            m(Some(0.2), Some(0.4), Some(0.6)),
            m(Some(0.6), Some(0.2), None),
        );
        for (rule, e, mu, mus) in [
            (CombineRule::Average, 0.4, 0.3, 0.4),
            (CombineRule::Min, 0.2, 0.2, 0.2),
            (CombineRule::Max, 0.6, 0.4, 0.6),
            (CombineRule::Multiply, 0.12, 0.08, 0.12),
        ] {
            let rules = MaterialRules {
                restitution_rule: rule,
                friction_rule: rule,
                ..Default::default()
            };
            let c = rules.coefficients(&a, &b, None);
            assert!(
                (c.restitution - e).abs() < 1e-12
                    && (c.friction - mu).abs() < 1e-12
                    && (c.static_friction - mus).abs() < 1e-12,
                "{rule:?}: {c:?}"
            );
        }
        let pair = m(Some(1.0), Some(0.9), None);
        let c = MaterialRules::default().coefficients(&a, &b, Some(&pair));
        assert_eq!(
            (c.restitution, c.friction, c.static_friction),
            (1.0, 0.9, 0.9)
        );
    }

    #[test]
    fn invalid_coefficients_name_the_parameter() {
        for (e, mu, mus, param) in [
            (Some(1.5), None, None, "restitution"),
            (Some(-0.1), None, None, "restitution"),
            (None, Some(f64::NAN), None, "friction"),
            (None, None, Some(-1.0), "static_friction"),
        ] {
            let err = Material::new(e, mu, mus).unwrap_err().to_string();
            assert!(err.starts_with(param), "{err}");
        }
        for beta in [1.5, -1.01, f64::NAN] {
            let m = Material {
                tangential_restitution: Some(beta),
                ..Default::default()
            };
            let err = m.checked().unwrap_err().to_string();
            assert!(err.starts_with("tangential_restitution"), "{err}");
        }
    }
}
