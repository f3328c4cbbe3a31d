//! A world made from a whole state (`WorldState`), as the scene reader makes one: the state
//! checked as a whole for what the world's own edits keep true, then taken as it is (bodies keep
//! their sleep, manifolds their warm-start impulses).

use std::collections::{HashMap, HashSet};

use crate::body::{BodyHandle, BodyKind};
use crate::collision::manifold::MAX_POINTS;
use crate::error::{check_finite, check_non_negative, Error, Result};
use crate::limits;
use crate::world::{Settings, World, WorldState};

/// An error at a place of the state that names no single field.
fn state_error(message: String) -> Error {
    Error::State { message }
}

impl World {
    /// A world holding `state`, checked first as the world's edits would check each piece of
    /// it (the same checks, so a state holds nothing a script could not have made):
    /// - the settings, as their setters check them;
    /// - body ids unique and below `next_id`, and a body asleep only if it is dynamic;
    /// - each pair material, spring, joint and load valid, naming bodies of the state, with a
    ///   handle unique and below `next_handle`;
    /// - each contact between bodies of the state, of at most four points within the engine's
    ///   ranges; its rows and coefficients are set from the bodies.
    ///
    /// Errors name the place by the state's fields (`joints[2]: ...`). The world then starts
    /// with the bodies awake or asleep as the state has them.
    pub fn from_state(mut state: WorldState) -> Result<World> {
        check_settings(&state.settings).map_err(|e| Error::at("settings", e))?;
        check_finite("base", state.base_time).map_err(|e| Error::at("time", e))?;
        state
            .clock
            .check(state.settings.dt)
            .map_err(|e| Error::at("time", e))?;
        let ids = state.check_bodies()?;
        let pair = |field: &str, a: u64, b: u64| {
            if ids.contains(&a) && ids.contains(&b) && a < b {
                return Ok(());
            }
            let e = Error::invalid(
                "ids",
                format!("({a}, {b})"),
                "must be two different bodies of the state, the smaller first",
            );
            Err(Error::at(field, e))
        };
        for (&(a, b), m) in &state.pair_materials {
            pair("pair_materials", a, b)?;
            m.checked().map_err(|e| Error::at("pair_materials", e))?;
        }
        for &(a, b) in &state.apart {
            pair("apart", a, b)?;
        }
        for &(a, b) in &state.passing {
            pair("passing", a, b)?;
        }
        let bodies = &state.bodies;
        // Every link (spring, joint, load): a handle unique and below `next_handle`, its own
        // check, and bodies of the state at its ends.
        let mut handles = HashSet::new();
        let mut link =
            |path: String, h: u64, checked: Result<()>, ends: [Option<BodyHandle>; 2]| {
                if h >= state.next_handle || !handles.insert(h) {
                    let e = Error::invalid("handle", h, "must be unique and below next_handle");
                    return Err(Error::at(path, e));
                }
                checked.map_err(|e| Error::at(&path, e))?;
                if ends.into_iter().flatten().any(|b| bodies.get(b).is_none()) {
                    return Err(Error::at(path, Error::RemovedBody));
                }
                Ok(())
            };
        // What a 2D world's links must keep to stay in its plane, as its edits check it.
        let plane = World::new(Settings {
            planar: state.settings.planar,
            ..Settings::default()
        });
        for (i, s) in state.springs.iter().enumerate() {
            link(
                format!("springs[{i}]"),
                s.handle.0,
                s.check()
                    .and_then(|_| plane.check_planar_link(s.anchor_a, s.anchor_b, None)),
                [Some(s.a), s.b],
            )?;
        }
        for (i, j) in state.joints.iter().enumerate() {
            link(
                format!("joints[{i}]"),
                j.handle.0,
                j.check()
                    .and_then(|_| plane.check_planar_link(j.anchor_a, j.anchor_b, Some(&j.kind))),
                [Some(j.a), j.b],
            )?;
        }
        for (i, l) in state.loads.iter().enumerate() {
            let in_plane = || -> Result<()> {
                plane.planar_vector("force", l.force)?;
                plane.planar_vector("local_point", l.local_point.unwrap_or_default())?;
                plane.planar_spin("torque", l.torque)?;
                Ok(())
            };
            link(
                format!("loads[{i}]"),
                l.handle.0,
                l.check().and_then(|_| in_plane()),
                [Some(l.body), None],
            )?;
        }
        let rows: HashMap<BodyHandle, usize> = (0..bodies.len())
            .map(|row| (bodies.handles()[row], row))
            .collect();
        let settings = &state.settings;
        for (i, m) in state.contacts.manifolds.iter_mut().enumerate() {
            let path = format!("contacts[{i}]");
            let (Some(&row_a), Some(&row_b)) = (rows.get(&m.a), rows.get(&m.b)) else {
                return Err(Error::at(&path, Error::RemovedBody));
            };
            if m.points.len() > MAX_POINTS {
                let e = Error::invalid(
                    "points",
                    m.points.len(),
                    "a manifold holds at most 4 points",
                );
                return Err(Error::at(&path, e));
            }
            if !m.normal.is_finite() || (m.normal.length() - 1.0).abs() > 1e-6 {
                let e = Error::invalid(
                    "normal",
                    format!("{:?}", m.normal.to_array()),
                    "must be a unit vector",
                );
                return Err(Error::at(&path, e));
            }
            for (k, p) in m.points.iter().enumerate() {
                let check = || -> Result<()> {
                    use limits::{bounded3, coordinate3, within, LENGTH, LOAD, SPAN, SPEED};
                    bounded3("local_a", p.local_a, LENGTH.1)?;
                    bounded3("local_b", p.local_b, LENGTH.1)?;
                    coordinate3("point", p.point)?;
                    within("separation", p.separation, -SPAN, SPAN)?;
                    within("normal_impulse", p.normal_impulse, -LOAD, LOAD)?;
                    within("impact_impulse", p.impact_impulse, -LOAD, LOAD)?;
                    bounded3("tangent_impulse", p.tangent_impulse, LOAD)?;
                    within("approach_speed", p.approach_speed, 0.0, SPEED)?;
                    Ok(())
                };
                check().map_err(|e| Error::at(format!("{path}.points[{k}]"), e))?;
            }
            (m.row_a, m.row_b) = (row_a, row_b);
            let all = bodies.bodies();
            m.coefficients =
                settings
                    .materials
                    .coefficients(&all[row_a].material, &all[row_b].material, None);
        }
        let mut w = World::new(state.settings.clone());
        w.state = state;
        w.revision += 1;
        Ok(w)
    }
}

impl WorldState {
    /// Checks the bodies as `World::from_state` does (ids unique and below `next_id`, sleep
    /// only for dynamic bodies); returns their ids. A reader can check them before it reads
    /// what names them.
    pub fn check_bodies(&self) -> Result<HashSet<u64>> {
        let mut ids = HashSet::new();
        for (i, b) in self.bodies.bodies().iter().enumerate() {
            let path = format!("bodies[{i}]");
            if b.id >= self.next_id {
                let message = format!("must be below next_id ({})", self.next_id);
                return Err(Error::at(&path, Error::invalid("id", b.id, &message)));
            }
            if !ids.insert(b.id) {
                let e = Error::invalid("id", b.id, "is used by two bodies");
                return Err(Error::at(&path, e));
            }
            if b.planar != self.settings.planar {
                let message = if b.planar {
                    "is a body of a 2D world, in a 3D one"
                } else {
                    "is a 3D body, in a 2D world"
                };
                return Err(Error::at(
                    &path,
                    Error::invalid("planar", b.planar, message),
                ));
            }
            if b.planar {
                crate::in_plane::check_body(
                    b.position,
                    b.orientation,
                    b.velocity,
                    b.angular_velocity,
                )
                .map_err(|e| Error::at(&path, e))?;
            }
            if b.sleep.asleep && b.kind != BodyKind::Dynamic {
                let message = format!("bodies: body {} is asleep but not dynamic", b.id);
                return Err(state_error(message));
            }
            for (name, value) in [
                ("rested", b.sleep.timer),
                ("rest_speed", b.sleep.rest_speed),
            ] {
                check_non_negative(name, value)
                    .map_err(|e| state_error(format!("body {}: {e}", b.id)))?;
            }
        }
        Ok(ids)
    }
}

/// The settings as their setters (world_edit.rs) check them, on a world of their own.
fn check_settings(s: &Settings) -> Result<()> {
    let mut w = World::new(Settings {
        planar: s.planar,
        ..Settings::default()
    });
    w.set_gravity(s.gravity)?;
    w.set_dt(s.dt)?;
    w.set_solver_iterations(s.solver_iterations)?;
    w.set_solver_tolerance(s.solver_tolerance)?;
    w.set_restitution_threshold(s.restitution_threshold)?;
    check_non_negative("linear_slop", s.linear_slop)?;
    Ok(())
}
