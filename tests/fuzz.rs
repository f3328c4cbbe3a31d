//! Fuzzing the Rust API: random sequences of edits with hostile values (NaN, infinities, zeros,
//! 1e-300, 1e300, f64::MAX, negatives) mixed with ordinary ones, then steps. Every call must
//! return, either Ok or an error; an error leaves the world exactly as it was; a step leaves
//! every body finite, or refuses with `Error::Diverged` and leaves the bodies as they were.
//! (The Python API and scene files are fuzzed by tests/test_fuzz.py.)

use glam::{DQuat, DVec3};
use proptest::prelude::*;
use rigidlab::dynamics::joints::Motor;
use rigidlab::scene::SceneIo;
use rigidlab::shape::Shape;
use rigidlab::world_links::{Attachment, HingeOptions};
use rigidlab::{BodyDesc, BodyHandle, Error, World};

fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        Just(1e-300),
        Just(1e300),
        Just(f64::MAX),
        Just(-1.0),
        Just(1e9),
        -10.0..10.0f64,
        0.01..1.0f64,
    ]
}

fn vector() -> impl Strategy<Value = DVec3> {
    prop_oneof![
        (number(), number(), number()).prop_map(|(x, y, z)| DVec3::new(x, y, z)),
        (-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64).prop_map(|(x, y, z)| DVec3::new(x, y, z)),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Sphere(f64, f64, DVec3, DVec3),
    Cuboid(DVec3, DVec3, (f64, f64, f64, f64)),
    Capsule(f64, f64, DVec3),
    Position(usize, DVec3),
    Velocity(usize, DVec3),
    Spin(usize, DVec3),
    Damping(usize, f64, f64),
    Drag(usize, f64),
    GravityScale(usize, f64),
    Force(usize, DVec3, Option<DVec3>, Option<f64>),
    Impulse(usize, DVec3),
    Spring(usize, Option<usize>, f64, f64, Option<f64>),
    Hinge(
        usize,
        Option<usize>,
        DVec3,
        DVec3,
        Option<(f64, f64)>,
        Option<(f64, f64)>,
    ),
    Distance(usize, Option<usize>, DVec3, Option<f64>),
    Remove(usize),
    Dt(f64),
    Gravity(DVec3),
    Threads(usize),
    Step(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        // Ordinary bodies too, so that there is something for the edits to work on.
        1 => (0.05..0.5f64, 0.1..10.0f64, -2.0..2.0f64, -2.0..2.0f64)
            .prop_map(|(r, m, x, y)| Op::Sphere(r, m, DVec3::new(x, y, 0.0), DVec3::ZERO)),
        4 => any_op(),
    ]
}

fn any_op() -> impl Strategy<Value = Op> {
    let body = 0..6usize;
    prop_oneof![
        (number(), number(), vector(), vector()).prop_map(|(r, m, p, v)| Op::Sphere(r, m, p, v)),
        (vector(), vector(), (number(), number(), number(), number()))
            .prop_map(|(h, p, q)| Op::Cuboid(h, p, q)),
        (number(), number(), vector()).prop_map(|(r, h, p)| Op::Capsule(r, h, p)),
        (body.clone(), vector()).prop_map(|(b, v)| Op::Position(b, v)),
        (body.clone(), vector()).prop_map(|(b, v)| Op::Velocity(b, v)),
        (body.clone(), vector()).prop_map(|(b, v)| Op::Spin(b, v)),
        (body.clone(), number(), number()).prop_map(|(b, l, a)| Op::Damping(b, l, a)),
        (body.clone(), number()).prop_map(|(b, c)| Op::Drag(b, c)),
        (body.clone(), number()).prop_map(|(b, s)| Op::GravityScale(b, s)),
        (
            body.clone(),
            vector(),
            proptest::option::of(vector()),
            proptest::option::of(number())
        )
            .prop_map(|(b, f, p, d)| Op::Force(b, f, p, d)),
        (body.clone(), vector()).prop_map(|(b, j)| Op::Impulse(b, j)),
        (
            body.clone(),
            proptest::option::of(body.clone()),
            number(),
            number(),
            proptest::option::of(number())
        )
            .prop_map(|(a, b, k, c, l)| Op::Spring(a, b, k, c, l)),
        (
            body.clone(),
            proptest::option::of(body.clone()),
            vector(),
            vector(),
            proptest::option::of((number(), number())),
            proptest::option::of((number(), number()))
        )
            .prop_map(|(a, b, p, x, l, m)| Op::Hinge(a, b, p, x, l, m)),
        (
            body.clone(),
            proptest::option::of(body.clone()),
            vector(),
            proptest::option::of(number())
        )
            .prop_map(|(a, b, p, l)| Op::Distance(a, b, p, l)),
        body.clone().prop_map(Op::Remove),
        number().prop_map(Op::Dt),
        vector().prop_map(Op::Gravity),
        prop_oneof![Just(0usize), Just(1), Just(2), Just(1_000_000)].prop_map(Op::Threads),
        (1..20u8).prop_map(Op::Step),
    ]
}

/// Applies one operation; `handles` are the bodies made so far (some may be removed).
fn apply(w: &mut World, handles: &mut Vec<BodyHandle>, op: &Op) -> Result<(), Error> {
    // Any body made so far (removed ones too: their handles must be refused).
    let h = |i: usize| match handles.len() {
        0 => BodyHandle {
            index: 999,
            generation: 0,
        },
        n => handles[i % n],
    };
    let solid = |shape: Shape, mass: f64, position: DVec3| BodyDesc {
        mass: rigidlab::MassSpec::Mass(mass),
        position,
        ..BodyDesc::new(shape)
    };
    match *op {
        Op::Sphere(r, m, p, v) => {
            let desc = BodyDesc {
                velocity: v,
                ..solid(Shape::sphere(r)?, m, p)
            };
            handles.push(w.add_body(desc)?);
        }
        Op::Cuboid(half, p, (x, y, z, s)) => {
            let desc = BodyDesc {
                orientation: DQuat::from_xyzw(x, y, z, s),
                ..solid(Shape::cuboid(half)?, 1.0, p)
            };
            handles.push(w.add_body(desc)?);
        }
        Op::Capsule(r, hh, p) => handles.push(w.add_body(solid(Shape::capsule(r, hh)?, 1.0, p))?),
        Op::Position(b, v) => w.set_position(h(b), v)?,
        Op::Velocity(b, v) => w.set_velocity(h(b), v)?,
        Op::Spin(b, v) => w.set_angular_velocity(h(b), v)?,
        Op::Damping(b, l, a) => w.set_damping(h(b), l, a)?,
        Op::Drag(b, c) => w.set_quadratic_drag(h(b), c)?,
        Op::GravityScale(b, s) => w.set_gravity_scale(h(b), s)?,
        Op::Force(b, f, p, d) => {
            w.apply_force(h(b), f, p, d)?;
        }
        Op::Impulse(b, j) => w.apply_impulse(h(b), j, None)?,
        Op::Spring(a, b, k, c, l) => {
            let at = Attachment {
                a: h(a),
                b: b.map(h),
                anchor_a: DVec3::ZERO,
                anchor_b: DVec3::ZERO,
            };
            w.add_spring(at, k, c, l)?;
        }
        Op::Hinge(a, b, p, axis, limits, motor) => {
            let options = HingeOptions {
                limits,
                motor: motor.map(|(speed, max_torque)| Motor { speed, max_torque }),
            };
            w.add_hinge_joint(h(a), b.map(h), p, axis, options)?;
        }
        Op::Distance(a, b, p, l) => {
            let at = Attachment {
                a: h(a),
                b: b.map(h),
                anchor_a: DVec3::ZERO,
                anchor_b: p,
            };
            w.add_distance_joint(at, l)?;
        }
        Op::Remove(b) => {
            w.remove(h(b))?;
        }
        Op::Dt(dt) => w.set_dt(dt)?,
        Op::Gravity(g) => w.set_gravity(g)?,
        Op::Threads(n) => w.set_threads(Some(n))?,
        Op::Step(n) => w.step_n(u64::from(n))?,
    }
    Ok(())
}

/// The bodies' state, bit for bit.
fn bodies(w: &World) -> Vec<[u64; 13]> {
    w.bodies()
        .bodies()
        .iter()
        .map(|b| {
            let mut s = [0u64; 13];
            let values = b
                .position
                .to_array()
                .into_iter()
                .chain(b.orientation.to_array())
                .chain(b.velocity.to_array())
                .chain(b.angular_velocity.to_array());
            for (x, v) in s.iter_mut().zip(values) {
                *x = v.to_bits();
            }
            s
        })
        .collect()
}

fn finite(w: &World) -> bool {
    w.bodies().bodies().iter().all(|b| {
        b.position.is_finite()
            && b.orientation.is_finite()
            && b.velocity.is_finite()
            && b.angular_velocity.is_finite()
    })
}

proptest! {
    // Fixed seed: the same cases on every run, so CI is reproducible (change it to explore).
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(37),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_sequence_of_calls_errs_cleanly_or_stays_finite(ops in proptest::collection::vec(op(), 1..24)) {
        let mut w = World::default();
        let mut handles = Vec::new();
        for op in &ops {
            if let Op::Step(n) = *op {
                // One step at a time: a refused step keeps the bodies of the step before it.
                for _ in 0..n {
                    let state = bodies(&w);
                    match w.step() {
                        Ok(()) => prop_assert!(finite(&w), "a step left a non-finite state"),
                        Err(Error::Diverged { .. }) => {
                            prop_assert_eq!(bodies(&w), state);
                            let again = matches!(w.step(), Err(Error::Diverged { .. }));
                            prop_assert!(again, "a refused step was taken on retry");
                            return Ok(());
                        }
                        Err(e) => prop_assert!(false, "step: {}", e),
                    }
                }
                continue;
            }
            let (before, state) = (w.to_json_compact(), bodies(&w));
            match apply(&mut w, &mut handles, op) {
                Ok(()) => {}
                Err(Error::Diverged { .. }) => {
                    // A refused step: the bodies as they were, and the next step refuses too.
                    prop_assert_eq!(bodies(&w), state);
                    let again = matches!(w.step(), Err(Error::Diverged { .. }));
                    prop_assert!(again, "a refused step was taken on retry");
                    return Ok(());
                }
                Err(e) => {
                    prop_assert!(!e.to_string().is_empty());
                    prop_assert_eq!(w.to_json_compact(), before, "{:?} changed the world: {}", op, e);
                }
            }
            prop_assert!(finite(&w), "{:?} left a non-finite state", op);
        }
        match w.step_n(10) {
            Ok(()) => prop_assert!(finite(&w)),
            Err(e) => {
                let diverged = matches!(e, Error::Diverged { .. });
                prop_assert!(diverged, "step: {}", e);
            }
        }
    }
}
