//! The engine's error type. Every variant names the parameter (or handle) at fault and the bad
//! value, so the Python layer can pass the message on unchanged.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    /// A value outside its domain: negative size, NaN, dynamic plane, ...
    #[error("{param}: {message} (got {value})")]
    InvalidValue {
        param: String,
        value: String,
        message: String,
    },
    /// A name that is not one of the accepted choices.
    #[error("{param}: unknown {what} '{value}'; expected one of {choices}")]
    UnknownName {
        param: String,
        what: String,
        value: String,
        choices: String,
    },
    /// A handle whose body has been removed from the world.
    #[error("the body has been removed from the world")]
    RemovedBody,
    /// A handle whose spring or joint has been removed.
    #[error("the {what} has been removed from the world")]
    RemovedLink { what: &'static str },
    /// A scene file that cannot be read: the message says what is wrong and where.
    #[error("scene file: {message}")]
    Scene { message: String },
    /// A world state that is not one a world can hold (`World::from_state`): the message says
    /// what is wrong and where, by the state's fields (`joints[2]: ...`).
    #[error("world state: {message}")]
    State { message: String },
    /// A step whose result left the ranges the engine simulates (see limits.rs); the bodies
    /// and the time stay as they were before that step.
    #[error(
        "{body}: its {quantity} would become {value} in the step from t = {time} s, outside the \
         range the engine simulates; every body was left as it was before that step. (The motion \
         is unstable at this step: large damping, drag, stiffness or forces on a light body; a \
         smaller dt helps.)"
    )]
    Diverged {
        body: String,
        quantity: &'static str,
        value: String,
        time: f64,
    },
    /// A step of a world that asks before contacts (`World::ask_before_contact`) while
    /// contacts it would begin have no answer; nothing has changed.
    #[error(
        "{count} contacts this step would begin wait for an answer: list them with \
         World::new_contacts and answer each with World::decide_contact"
    )]
    Undecided { count: usize },
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// `e` at a place of a world state (a field, an element of a list).
    pub fn at(path: impl std::fmt::Display, e: Error) -> Error {
        Error::State {
            message: format!("{path}: {e}"),
        }
    }

    pub fn invalid(param: &str, value: impl std::fmt::Display, message: &str) -> Error {
        Error::InvalidValue {
            param: param.to_string(),
            value: value.to_string(),
            message: message.to_string(),
        }
    }
}

/// A number as an error message shows it: plainly, or in exponent form when very large or
/// small (1e300, not 301 digits).
pub fn number(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// Checks that x is finite; the error names `param`.
pub fn check_finite(param: &str, x: f64) -> Result<f64> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Error::invalid(param, number(x), "must be a finite number"))
    }
}

/// Checks that x is finite and strictly positive.
pub fn check_positive(param: &str, x: f64) -> Result<f64> {
    check_finite(param, x)?;
    if x > 0.0 {
        Ok(x)
    } else {
        Err(Error::invalid(param, number(x), "must be positive"))
    }
}

/// Checks that x is finite and not negative.
pub fn check_non_negative(param: &str, x: f64) -> Result<f64> {
    check_finite(param, x)?;
    if x >= 0.0 {
        Ok(x)
    } else {
        Err(Error::invalid(param, number(x), "must not be negative"))
    }
}

/// Checks every component of a vector is finite.
pub fn check_finite3(param: &str, v: glam::DVec3) -> Result<glam::DVec3> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::invalid(
            param,
            format!("{:?}", v.to_array()),
            "must be finite",
        ))
    }
}
