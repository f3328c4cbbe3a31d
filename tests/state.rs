//! A world's state kept whole: snapshots and scene files repeat a run bit for bit, handles
//! never come to name another body, and a file is checked exactly as the API checks.

mod common;
use common::*;
use glam::DVec3;
use rigidlab::dynamics::joints::Motor;
use rigidlab::dynamics::loads::Lasting;
use rigidlab::scene::SceneIo;
use rigidlab::world_links::{Attachment, HingeOptions, MouseOptions};
use rigidlab::{BodyDesc, BodyHandle, IntegratorKind, MassSpec, Shape, World};

const G: DVec3 = DVec3::new(0.0, -9.81, 0.0);

fn cube(w: &mut World, at: DVec3) -> BodyHandle {
    let mut d = BodyDesc::new(Shape::cuboid(DVec3::splat(0.1)).unwrap());
    d.mass = MassSpec::Mass(1.0);
    d.position = at;
    w.add_body(d).unwrap()
}

/// Everything a step reads: contacts, a spring, a hinge with limits and a motor, a rope, a
/// timed load, a ball on a stack.
fn busy_world() -> World {
    let mut w = world(G, 1.0 / 240.0, IntegratorKind::Verlet);
    floor(&mut w);
    let base = cube(&mut w, DVec3::new(0.0, 0.1, 0.0));
    let top = cube(&mut w, DVec3::new(0.02, 0.3, 0.0));
    sphere(
        &mut w,
        0.05,
        0.5,
        DVec3::new(0.0, 0.8, 0.01),
        DVec3::ZERO,
        Some(0.7),
    );
    let arm = cube(&mut w, DVec3::new(1.0, 1.0, 0.0));
    let bob = cube(&mut w, DVec3::new(1.5, 1.0, 0.0));
    let options = HingeOptions {
        limits: Some((-1.0, 1.0)),
        motor: Some(Motor {
            speed: 2.0,
            max_torque: 0.5,
        }),
    };
    w.add_hinge_joint(arm, None, DVec3::new(0.9, 1.0, 0.0), DVec3::Z, options)
        .unwrap();
    let rope = Attachment::at_world_point(&w, bob, Some(arm), DVec3::new(1.25, 1.0, 0.0)).unwrap();
    w.add_rope_joint(rope, Some(0.6)).unwrap();
    let spring = Attachment {
        a: top,
        b: None,
        anchor_a: DVec3::ZERO,
        anchor_b: DVec3::new(0.0, 1.0, 0.0),
    };
    w.add_spring(spring, 5.0, 0.3, Some(0.5)).unwrap();
    w.apply_load(
        base,
        DVec3::new(0.4, 0.0, 0.0),
        None,
        DVec3::ZERO,
        Lasting::For(0.5),
    )
    .unwrap();
    w
}

fn states(w: &World) -> Vec<[f64; 13]> {
    w.bodies()
        .bodies()
        .iter()
        .map(|b| {
            let mut s = [0.0; 13];
            s[..3].copy_from_slice(&b.position.to_array());
            s[3..7].copy_from_slice(&b.orientation.to_array());
            s[7..10].copy_from_slice(&b.velocity.to_array());
            s[10..].copy_from_slice(&b.angular_velocity.to_array());
            s
        })
        .collect()
}

fn run(w: &mut World, steps: usize) -> Vec<Vec<[f64; 13]>> {
    (0..steps)
        .map(|_| {
            w.step().unwrap();
            states(w)
        })
        .collect()
}

#[test]
fn a_restored_snapshot_repeats_the_run_bit_for_bit() {
    let mut w = busy_world();
    run(&mut w, 60);
    let snap = w.snapshot();
    let first = run(&mut w, 120);
    w.restore(&snap);
    assert_eq!(w.time(), snap.time());
    assert_eq!(run(&mut w, 120), first);
}

#[test]
fn a_saved_scene_repeats_the_run_bit_for_bit() {
    let mut w = busy_world();
    run(&mut w, 60);
    let mut copy = World::from_json(&w.to_json()).unwrap();
    assert_eq!(copy.to_json(), w.to_json());
    assert_eq!(run(&mut copy, 120), run(&mut w, 120));
}

#[test]
fn a_world_made_from_a_state_runs_as_the_world_it_came_from() {
    // The whole state, checked and taken as it is (contacts with their warm starts, sleep):
    // the run goes on bit for bit.
    let mut w = busy_world();
    run(&mut w, 30);
    let mut again = World::from_state(w.state().clone()).unwrap();
    assert_eq!(run(&mut w, 60), run(&mut again, 60));
    // A state a world could not hold is refused, naming the place.
    let mut bad = w.state().clone();
    bad.next_id = 0;
    let e = World::from_state(bad).err().unwrap().to_string();
    assert!(e.starts_with("world state: bodies[0]: id"), "{e}");
    let mut bad = w.state().clone();
    bad.joints[0].handle.0 = bad.springs[0].handle.0;
    let e = World::from_state(bad).err().unwrap().to_string();
    assert!(e.contains("joints[0]: handle"), "{e}");
}

#[test]
fn a_handle_made_after_a_snapshot_never_names_another_body() {
    let mut w = busy_world();
    let snap = w.snapshot();
    let late = sphere(
        &mut w,
        0.1,
        1.0,
        DVec3::new(3.0, 1.0, 0.0),
        DVec3::ZERO,
        None,
    );
    w.restore(&snap);
    assert!(
        w.body(late).is_err(),
        "a body made after the snapshot is gone"
    );
    // New bodies take slots again, the late handle's among them: it still names none.
    let fresh: Vec<BodyHandle> = (0..4)
        .map(|i| cube(&mut w, DVec3::new(5.0 + i as f64, 1.0, 0.0)))
        .collect();
    assert!(w.body(late).is_err());
    assert!(!fresh.contains(&late));
    let ids: Vec<u64> = fresh.iter().map(|&h| w.body(h).unwrap().id).collect();
    let late_id_was = snap.body_count() as u64;
    assert!(
        ids.iter().all(|&id| id > late_id_was),
        "ids only grow: {ids:?}"
    );
}

/// The message of an API error, and that of loading the world's file with `edit` made to its
/// JSON: the file's error must hold the API's, with where in the file it is.
fn twins(api: rigidlab::Error, w: &World, edit: impl Fn(&mut serde_json::Value)) {
    let mut doc: serde_json::Value = serde_json::from_str(&w.to_json()).unwrap();
    edit(&mut doc);
    let file = World::from_json(&doc.to_string())
        .err()
        .expect("the edited file is refused");
    let (api, file) = (api.to_string(), file.to_string());
    assert!(file.ends_with(&api), "API: {api}\nfile: {file}");
}

#[test]
fn every_rejection_of_the_api_is_one_of_the_scene_file_too() {
    let mut w = world(G, 1.0 / 240.0, IntegratorKind::Verlet);
    let a = cube(&mut w, DVec3::ZERO);
    let b = cube(&mut w, DVec3::new(0.5, 0.0, 0.0));
    let at = |w: &World| Attachment::at_world_point(w, a, Some(b), DVec3::new(0.25, 0.0, 0.0));
    w.add_spring(at(&w).unwrap(), 10.0, 0.0, None).unwrap();
    let hinge = HingeOptions {
        limits: Some((-1.0, 1.0)),
        motor: Some(Motor {
            speed: 1.0,
            max_torque: 1.0,
        }),
    };
    w.add_hinge_joint(a, Some(b), DVec3::new(0.25, 0.0, 0.0), DVec3::Z, hinge)
        .unwrap();
    w.add_distance_joint(at(&w).unwrap(), Some(0.3)).unwrap();
    w.add_rope_joint(at(&w).unwrap(), Some(0.3)).unwrap();
    w.add_mouse_joint(a, DVec3::ZERO, DVec3::Y, MouseOptions::default())
        .unwrap();
    w.apply_load(a, DVec3::X, None, DVec3::ZERO, Lasting::UntilRemoved)
        .unwrap();
    let saved = w.to_json();
    let set = |path: &'static [&'static str], v: serde_json::Value| {
        move |doc: &mut serde_json::Value| {
            let mut node = doc;
            for key in path {
                node = match key.parse::<usize>() {
                    Ok(i) => &mut node[i],
                    Err(_) => &mut node[*key],
                };
            }
            *node = v.clone();
        }
    };

    let same = Attachment {
        b: Some(a),
        ..at(&w).unwrap()
    };
    twins(
        w.add_spring(same, 1.0, 0.0, None).unwrap_err(),
        &w,
        set(&["springs", "0", "b"], serde_json::json!(0)),
    );
    let spring = at(&w).unwrap();
    twins(
        w.add_spring(spring, -1.0, 0.0, None).unwrap_err(),
        &w,
        set(&["springs", "0", "stiffness"], serde_json::json!(-1.0)),
    );
    twins(
        w.add_spring(spring, 1.0, 1e300, None).unwrap_err(),
        &w,
        set(&["springs", "0", "damping"], serde_json::json!(1e300)),
    );
    twins(
        w.add_spring(spring, 1.0, 0.0, Some(1e300)).unwrap_err(),
        &w,
        set(&["springs", "0", "rest_length"], serde_json::json!(1e300)),
    );
    let far = Attachment {
        anchor_a: DVec3::new(1e300, 0.0, 0.0),
        ..spring
    };
    twins(
        w.add_spring(far, 1.0, 0.0, None).unwrap_err(),
        &w,
        set(
            &["springs", "0", "anchor_a"],
            serde_json::json!([1e300, 0.0, 0.0]),
        ),
    );

    let limits = |l| HingeOptions {
        limits: Some(l),
        motor: None,
    };
    let hinge_at = DVec3::new(0.25, 0.0, 0.0);
    twins(
        w.add_hinge_joint(a, Some(b), hinge_at, DVec3::Z, limits((1.0, -1.0)))
            .unwrap_err(),
        &w,
        set(
            &["joints", "0", "kind", "limits"],
            serde_json::json!([1.0, -1.0]),
        ),
    );
    twins(
        w.add_hinge_joint(a, Some(b), hinge_at, DVec3::Z, limits((-4.0, 0.0)))
            .unwrap_err(),
        &w,
        set(
            &["joints", "0", "kind", "limits"],
            serde_json::json!([-4.0, 0.0]),
        ),
    );
    let motor = |speed, max_torque| HingeOptions {
        limits: None,
        motor: Some(Motor { speed, max_torque }),
    };
    twins(
        w.add_hinge_joint(a, Some(b), hinge_at, DVec3::Z, motor(1.0, -2.0))
            .unwrap_err(),
        &w,
        set(
            &["joints", "0", "kind", "motor"],
            serde_json::json!([1.0, -2.0]),
        ),
    );
    twins(
        w.add_hinge_joint(a, Some(b), hinge_at, DVec3::Z, motor(1e300, 1.0))
            .unwrap_err(),
        &w,
        set(
            &["joints", "0", "kind", "motor"],
            serde_json::json!([1e300, 1.0]),
        ),
    );
    twins(
        w.add_hinge_joint(a, Some(a), hinge_at, DVec3::Z, HingeOptions::default())
            .unwrap_err(),
        &w,
        set(&["joints", "0", "b"], serde_json::json!(0)),
    );
    twins(
        w.add_distance_joint(at(&w).unwrap(), Some(0.0))
            .unwrap_err(),
        &w,
        set(&["joints", "1", "kind", "length"], serde_json::json!(0.0)),
    );
    twins(
        w.add_distance_joint(at(&w).unwrap(), Some(1e300))
            .unwrap_err(),
        &w,
        set(&["joints", "1", "kind", "length"], serde_json::json!(1e300)),
    );
    twins(
        w.add_rope_joint(at(&w).unwrap(), Some(-1.0)).unwrap_err(),
        &w,
        set(
            &["joints", "2", "kind", "max_length"],
            serde_json::json!(-1.0),
        ),
    );
    let mouse = |frequency, damping_ratio, max_force| MouseOptions {
        frequency,
        damping_ratio,
        max_force,
    };
    let field = |name| -> &'static [&'static str] {
        match name {
            "frequency" => &["joints", "3", "kind", "frequency"],
            "damping_ratio" => &["joints", "3", "kind", "damping_ratio"],
            _ => &["joints", "3", "kind", "max_force"],
        }
    };
    for (options, path, value) in [
        (mouse(0.0, 0.7, None), field("frequency"), 0.0),
        (mouse(1e9, 0.7, None), field("frequency"), 1e9),
        (mouse(5.0, -0.1, None), field("damping_ratio"), -0.1),
        (mouse(5.0, 0.7, Some(-1.0)), field("max_force"), -1.0),
    ] {
        let value = serde_json::json!(value);
        twins(
            w.add_mouse_joint(a, DVec3::ZERO, DVec3::Y, options)
                .unwrap_err(),
            &w,
            set(path, value),
        );
    }
    // A mouse joint holds a body to the world, never to another body.
    let mut doc: serde_json::Value = serde_json::from_str(&w.to_json()).unwrap();
    doc["joints"][3]["b"] = serde_json::json!(1);
    let err = World::from_json(&doc.to_string())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("joints[3]") && err.contains("b"), "{err}");

    let load = |w: &mut World, f: DVec3, p: Option<DVec3>| {
        w.apply_load(a, f, p, DVec3::ZERO, Lasting::UntilRemoved)
            .unwrap_err()
    };
    twins(
        load(&mut w, DVec3::splat(1e300), None),
        &w,
        set(
            &["loads", "0", "force"],
            serde_json::json!([1e300, 1e300, 1e300]),
        ),
    );
    twins(
        load(&mut w, DVec3::X, Some(DVec3::splat(1e300))),
        &w,
        set(
            &["loads", "0", "local_point"],
            serde_json::json!([1e300, 1e300, 1e300]),
        ),
    );

    assert_eq!(w.to_json(), saved, "the rejected calls changed nothing");
}

#[test]
fn calls_that_change_nothing_leave_the_revision_and_sleep_alone() {
    // A box resting on the floor, and far from it a ball on a spring and an arm on a hinge.
    let mut w = world(G, 1.0 / 240.0, IntegratorKind::Verlet);
    floor(&mut w);
    cube(&mut w, DVec3::new(0.0, 0.1, 0.0));
    let ball = sphere(
        &mut w,
        0.05,
        1.0,
        DVec3::new(3.0, 1.0, 0.0),
        DVec3::ZERO,
        None,
    );
    let hand = Attachment {
        a: ball,
        b: None,
        anchor_a: DVec3::ZERO,
        anchor_b: DVec3::new(3.0, 2.0, 0.0),
    };
    let spring = w.add_spring(hand, 50.0, 0.0, Some(0.5)).unwrap();
    let arm = cube(&mut w, DVec3::new(-3.0, 1.0, 0.0));
    let hinge = w
        .add_hinge_joint(
            arm,
            None,
            DVec3::new(-3.2, 1.0, 0.0),
            DVec3::Z,
            HingeOptions::default(),
        )
        .unwrap();
    for _ in 0..480 {
        w.step().unwrap();
    }
    let asleep = |w: &World| {
        w.bodies()
            .bodies()
            .iter()
            .filter(|b| b.sleep.asleep)
            .count()
    };
    let (revision, sleeping) = (w.revision(), asleep(&w));
    assert!(sleeping > 0, "something fell asleep");
    assert!(w.set_spring(spring, -1.0, 0.0, 0.5).is_err());
    let bad_motor = Motor {
        speed: f64::NAN,
        max_torque: 1.0,
    };
    assert!(w.set_hinge_motor(hinge, Some(bad_motor)).is_err());
    assert!(!w.remove_spring(rigidlab::dynamics::springs::SpringHandle(9999)));
    assert!(!w.remove_joint(rigidlab::dynamics::joints::JointHandle(9999)));
    assert_eq!(
        w.revision(),
        revision,
        "a rejected or empty call marked the world changed"
    );
    assert_eq!(asleep(&w), sleeping, "a rejected or empty call woke bodies");
}
