//! The viewer's state machine without a window: a recorded stream fed through the stream
//! reader, replays, the fixed-step clock, and the edits and mouse joint of the sandbox.
#![cfg(feature = "viewer")]

mod common;

use std::io::Write;
use std::time::{Duration, Instant};

use glam::DVec3;
use rigidlab::recorder::{Quantities, Recording};
use rigidlab::scene::SceneIo;
use rigidlab::stream::reader::StreamReader;
use rigidlab::stream::replay::Replay;
use rigidlab::stream::{Frame, Message};
use rigidlab::viewer::state::{Command, Mode, Tool, ViewerState};
use rigidlab::{IntegratorKind, World};

fn bouncing_world() -> World {
    let mut w = common::world(
        DVec3::new(0.0, -9.81, 0.0),
        1.0 / 240.0,
        IntegratorKind::Verlet,
    );
    common::floor(&mut w);
    common::sphere(
        &mut w,
        0.1,
        1.0,
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::ZERO,
        Some(0.8),
    );
    common::sphere(
        &mut w,
        0.1,
        2.0,
        DVec3::new(0.5, 0.5, 0.0),
        DVec3::new(0.3, 0.0, 0.0),
        Some(0.5),
    );
    w
}

/// A script's stream: scene, a frame per step, a body added, a body removed, then End. Returns
/// the lines and the world as the script left it.
fn recorded_stream() -> (Vec<String>, World) {
    let mut w = bouncing_world();
    let mut lines = vec![Message::scene_of(&w).to_line()];
    let mut revision = w.revision();
    let mut step = |w: &mut World, lines: &mut Vec<String>| {
        w.step().unwrap();
        if w.revision() != revision {
            revision = w.revision();
            lines.push(Message::scene_of(w).to_line());
        }
        lines.push(Message::Frame(Frame::capture(w)).to_line());
    };
    for _ in 0..100 {
        step(&mut w, &mut lines);
    }
    common::sphere(
        &mut w,
        0.05,
        0.5,
        DVec3::new(-0.5, 2.0, 0.0),
        DVec3::ZERO,
        None,
    );
    for _ in 0..100 {
        step(&mut w, &mut lines);
    }
    let first = w.bodies().handles()[1];
    w.remove(first).unwrap();
    for _ in 0..100 {
        step(&mut w, &mut lines);
    }
    lines.push(Message::End.to_line());
    (lines, w)
}

fn assert_shows(state: &ViewerState, w: &World) {
    let shown = state.world.bodies().bodies();
    let truth = w.bodies().bodies();
    assert_eq!(shown.len(), truth.len());
    for (a, b) in shown.iter().zip(truth) {
        assert_eq!(a.id, b.id);
        assert_eq!(a.position, b.position);
        assert_eq!(a.orientation, b.orientation);
        assert_eq!(a.velocity, b.velocity);
    }
    assert_eq!(state.world.time(), w.time());
}

#[test]
fn a_recorded_stream_through_the_reader_ends_on_the_scripts_last_state() {
    let (lines, w) = recorded_stream();
    let path = std::env::temp_dir().join(format!("rigidlab-stream-{}.jsonl", std::process::id()));
    let mut f = std::fs::File::create(&path).unwrap();
    for l in &lines {
        writeln!(f, "{l}").unwrap();
    }
    drop(f);
    let reader = StreamReader::spawn(std::fs::File::open(&path).unwrap());
    let mut state = ViewerState::stream();
    assert_eq!(state.mode, Mode::Stream);
    let start = Instant::now();
    while !state.ended {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the reader never reached the end"
        );
        state.receive_inbox(reader.take());
        std::thread::sleep(Duration::from_millis(1));
    }
    std::fs::remove_file(&path).ok();
    assert_shows(&state, &w);
    assert_eq!(state.present, vec![true; w.bodies().len()]);
    assert!(state.note.as_deref().unwrap_or("").contains("ended"));
    // The energy shown is the script's.
    let e = w.energy();
    assert_eq!(state.energy.unwrap()[5], e.total);
}

#[test]
fn every_frame_is_shown_exactly_and_bodies_appear_and_vanish_with_the_scene() {
    let (lines, _) = recorded_stream();
    let mut state = ViewerState::stream();
    let mut counts = Vec::new();
    for l in &lines {
        let msg = Message::from_line(l).unwrap();
        let frame = match &msg {
            Message::Frame(f) => Some(f.clone()),
            _ => None,
        };
        state.receive(msg);
        if let Some(f) = frame {
            let shown = state.world.bodies().bodies();
            assert_eq!(shown.iter().map(|b| b.id).collect::<Vec<_>>(), f.ids);
            for (b, p) in shown.iter().zip(&f.positions) {
                assert_eq!(b.position, *p);
            }
            assert_eq!(state.world.time(), f.time);
            counts.push(shown.len());
        }
    }
    assert_eq!(counts.len(), 300);
    assert_eq!((counts[0], counts[150], counts[299]), (3, 4, 3));
    assert!(state.ended);
}

#[test]
fn a_frame_of_an_older_scene_or_with_bad_rows_is_ignored() {
    let mut w = bouncing_world();
    let mut state = ViewerState::stream();
    state.receive(Message::scene_of(&w));
    w.step().unwrap();
    let old = Frame::capture(&w);
    common::sphere(
        &mut w,
        0.05,
        0.5,
        DVec3::new(-0.5, 2.0, 0.0),
        DVec3::ZERO,
        None,
    );
    state.receive(Message::scene_of(&w));
    let before: Vec<DVec3> = state
        .world
        .bodies()
        .bodies()
        .iter()
        .map(|b| b.position)
        .collect();
    state.receive(Message::Frame(old));
    let mut bad = Frame::capture(&w);
    bad.positions.pop();
    state.receive(Message::Frame(bad));
    let after: Vec<DVec3> = state
        .world
        .bodies()
        .bodies()
        .iter()
        .map(|b| b.position)
        .collect();
    assert_eq!(before, after);
    assert_eq!(state.frames_received, 0);
    // Paused, a live view holds its picture.
    assert!(state.accepts_stream());
    state.apply(Command::TogglePause);
    assert!(!state.accepts_stream());
    state.apply(Command::TogglePause);
    // Edits and presets belong to the script.
    state.apply(Command::Select(Some(1)));
    state.apply(Command::Delete);
    state.apply(Command::Preset(2));
    assert_eq!(state.world.bodies().len(), 4);
    assert_eq!(state.mode, Mode::Stream);
}

#[test]
fn whole_steps_of_the_worlds_clock_keep_the_remainder_and_follow_the_time_scale() {
    let w = bouncing_world();
    let dt = w.settings().dt;
    let mut state = ViewerState::simulate(w.to_scene(), "test").unwrap();
    // Uneven frame times: steps taken add up to the whole steps in the total time.
    let frames = [0.016, 0.017, 0.0166, 0.033, 0.001, 0.002, 0.0251, 0.016];
    let mut steps = 0;
    let mut total = 0.0;
    for _ in 0..20 {
        for f in frames {
            steps += state.advance(f);
            total += f;
        }
    }
    assert_eq!(steps, (total / dt + 1e-9).floor() as usize);
    assert!((state.world.time() - steps as f64 * dt).abs() < 1e-12);
    // The world's own clock (World.advance in Python) is the viewer's.
    let mut same = World::from_scene(w.to_scene()).unwrap();
    let by_world: u64 = (0..20)
        .flat_map(|_| frames)
        .map(|f| same.advance_steps(f, None).unwrap().steps)
        .sum();
    assert_eq!(by_world as usize, steps);
    assert_eq!(same.carried_time(), state.world.carried_time());
    // Half speed: half the steps.
    state.apply(Command::ScaleTime(0.5));
    let t0 = state.world.time();
    for _ in 0..60 {
        state.advance(1.0 / 60.0);
    }
    assert!((state.world.time() - t0 - 0.5).abs() <= dt);
    // Pause, then single steps.
    state.apply(Command::StepOnce);
    assert!(state.paused);
    let t1 = state.world.time();
    assert_eq!(state.advance(0.5), 0);
    state.apply(Command::StepOnce);
    state.apply(Command::StepOnce);
    assert!((state.world.time() - t1 - 2.0 * dt).abs() < 1e-12);
    // Reset: the initial state exactly.
    state.apply(Command::Reset);
    let fresh = ViewerState::simulate(w.to_scene(), "fresh").unwrap();
    assert_shows(&state, &fresh.world);
    // A world slower than real time runs at most max_steps_per_frame steps a frame.
    state.apply(Command::TogglePause);
    state.apply(Command::NormalSpeed);
    assert_eq!(
        state.advance(0.25),
        state.max_steps_per_frame.min((0.25 / dt) as usize)
    );
}

/// Dragging: a mouse joint of 2 Hz at damping ratio 0.7, the weight carried. Held at its centre, a ball
/// settles on the cursor (the error decays as exp(-0.7 * 4 pi t): 1e-15 after 4 s). Held off
/// centre, it also hangs like a pendulum from the grabbed point, which stays near the cursor.
#[test]
fn the_mouse_joint_brings_the_grabbed_point_to_the_cursor() {
    for offset in [DVec3::ZERO, DVec3::new(0.0, 0.1, 0.0)] {
        let w = bouncing_world();
        let mut state = ViewerState::simulate(w.to_scene(), "drag").unwrap();
        let ball = state.world.bodies().bodies()[1].clone();
        let grab = ball.position + offset;
        state.apply(Command::BeginDrag {
            body: ball.id,
            point: grab,
        });
        assert_eq!(state.selected, Some(ball.id));
        let target = DVec3::new(0.3, 1.5, 0.2);
        state.apply(Command::DragTo(target));
        for _ in 0..240 {
            state.advance(1.0 / 60.0);
        }
        let b = state.world.body(state.handle(ball.id).unwrap()).unwrap();
        let point = b.position + b.orientation * (ball.orientation.inverse() * offset);
        let tolerance = if offset == DVec3::ZERO { 1e-9 } else { 5e-3 };
        assert!(
            (point - target).length() < tolerance,
            "held point {point} against cursor {target}"
        );
        if offset == DVec3::ZERO {
            assert!(b.velocity.length() < 1e-9);
        } else {
            // Hanging: the centre below the grabbed point.
            assert!(
                b.position.y < point.y - 0.09,
                "{} against {}",
                b.position,
                point
            );
        }
        assert_eq!(state.world.joints().len(), 1, "the drag's mouse joint");
        state.apply(Command::EndDrag);
        assert!(state.drag.is_none());
        assert!(state.world.joints().is_empty(), "let go: the joint is gone");
    }
}

#[test]
fn spawn_delete_and_toggle_static_edit_the_simulated_world() {
    let w = bouncing_world();
    let mut state = ViewerState::simulate(w.to_scene(), "sandbox").unwrap();
    state.apply(Command::Spawn {
        sphere: true,
        at: DVec3::new(1.0, 2.0, 0.0),
        size: 0.1,
    });
    state.apply(Command::Spawn {
        sphere: false,
        at: DVec3::new(-1.0, 2.0, 0.0),
        size: 0.1,
    });
    assert_eq!(state.world.bodies().len(), 5);
    let cube = state.selected.unwrap();
    let h = state.handle(cube).unwrap();
    assert_eq!(state.world.body(h).unwrap().shape.type_name(), "box");
    assert_eq!(
        state.world.body(h).unwrap().position,
        DVec3::new(-1.0, 2.0, 0.0)
    );
    state.apply(Command::ToggleStatic);
    state.advance(0.5);
    assert!(!state.world.body(h).unwrap().is_dynamic());
    assert_eq!(
        state.world.body(h).unwrap().position,
        DVec3::new(-1.0, 2.0, 0.0)
    );
    state.apply(Command::ToggleStatic);
    state.advance(0.1);
    assert!(state.world.body(h).unwrap().position.y < 2.0);
    state.apply(Command::Delete);
    assert_eq!(state.world.bodies().len(), 4);
    assert!(state.handle(cube).is_none() && state.selected.is_none());
    assert_eq!(state.present.len(), 4);
}

#[test]
fn a_replay_plays_in_real_time_seeks_and_steps_frames() {
    let mut w = bouncing_world();
    let rec = Recording::start(&mut w, 4, Quantities::all()).unwrap();
    w.step_n(480).unwrap();
    let replay = Replay::from_recording(&rec.lock().unwrap()).unwrap();
    assert_eq!(replay.frames.len(), 121);
    let path = std::env::temp_dir().join(format!("rigidlab-replay-{}.jsonl", std::process::id()));
    replay.save(&path).unwrap();
    let loaded = Replay::load(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(loaded.frames, replay.frames);
    let mut state = ViewerState::replay(loaded, "replay").unwrap();
    assert_eq!(state.cursor, 0);
    // Half a second of real time shows the frame at t = 0.5 s.
    for _ in 0..30 {
        state.advance(1.0 / 60.0);
    }
    assert!(
        (state.world.time() - 0.5).abs() < 1e-9,
        "{}",
        state.world.time()
    );
    let k = state.cursor;
    let truth = &replay.frames[k];
    assert_eq!(
        state.world.bodies().bodies()[1].position,
        truth.positions[1]
    );
    state.apply(Command::Seek(1.0));
    assert_eq!(state.cursor, 120);
    assert!((state.world.time() - 2.0).abs() < 1e-9);
    state.apply(Command::StepFrames(-10));
    assert_eq!(state.cursor, 110);
    state.apply(Command::Reset);
    assert_eq!(state.cursor, 0);
    // Playing to the end pauses there.
    for _ in 0..200 {
        state.advance(1.0 / 60.0);
    }
    assert!(state.paused && state.cursor == 120);
    // A replay cannot be edited.
    state.apply(Command::Select(Some(1)));
    state.apply(Command::Delete);
    assert_eq!(state.world.bodies().len(), 3);
}

#[test]
fn presets_load_on_number_keys_and_planar_worlds_are_told() {
    let mut state = ViewerState::simulate(bouncing_world().to_scene(), "x").unwrap();
    state.apply(Command::Preset(1));
    assert_eq!(state.title, "feature pair: vertex-vertex");
    state.apply(Command::Preset(1));
    assert_eq!(state.title, "feature pair: vertex-edge");
    assert!(!state.is_planar());
    state.apply(Command::Preset(10));
    assert_eq!(state.title, "pendulum");
    assert!(state.is_planar());
    state.apply(Command::Preset(4));
    state.apply(Command::Preset(4));
    assert_eq!(state.title, "box column");
    state.apply(Command::Preset(5));
    assert_eq!(state.title, "ramp room");
    assert!(!state.is_planar());
}

#[test]
fn a_garbled_line_is_reported_and_the_stream_goes_on() {
    let w = bouncing_world();
    let mut input = b"\xff\xfe not a message\n".to_vec();
    input.extend(
        format!(
            "{}\n{}\n",
            Message::scene_of(&w).to_line(),
            Message::Frame(Frame::capture(&w)).to_line()
        )
        .as_bytes(),
    );
    let reader = StreamReader::spawn(std::io::Cursor::new(input));
    let mut state = ViewerState::stream();
    let start = Instant::now();
    while !state.ended && start.elapsed() < Duration::from_secs(10) {
        state.receive_inbox(reader.take());
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        state
            .stream_error
            .as_deref()
            .unwrap_or("")
            .contains("not a rigidlab stream message"),
        "{:?}",
        state.stream_error
    );
    assert!(state
        .hud_lines(60.0)
        .iter()
        .any(|l| l.starts_with("stream: not a rigidlab")));
    assert_eq!(state.world.bodies().len(), 3);
    assert!(
        state.note.as_deref().unwrap_or("").contains("ended"),
        "{:?}",
        state.note
    );
}

#[test]
fn a_stream_that_starts_empty_is_framed_when_bodies_arrive_and_reloads_get_new_meshes() {
    let mut w = common::world(
        DVec3::new(0.0, -9.81, 0.0),
        1.0 / 240.0,
        IntegratorKind::Verlet,
    );
    let mut state = ViewerState::stream();
    state.receive(Message::scene_of(&w));
    state.scene_changed = false;
    let generation = state.generation;
    common::sphere(
        &mut w,
        0.1,
        1.0,
        DVec3::new(0.0, 10.0, 0.0),
        DVec3::ZERO,
        None,
    );
    state.receive(Message::scene_of(&w));
    assert!(state.scene_changed, "the first bodies are framed");
    assert!(state.generation > generation);
    state.scene_changed = false;
    common::sphere(
        &mut w,
        0.1,
        1.0,
        DVec3::new(1.0, 10.0, 0.0),
        DVec3::ZERO,
        None,
    );
    state.receive(Message::scene_of(&w));
    assert!(!state.scene_changed, "a body more keeps the camera");
}

/// A 2D world with a floor line: the sandbox draws in it.
fn flat_world() -> World {
    let mut w = World::new(rigidlab::Settings {
        planar: true,
        ..Default::default()
    });
    w.add_body(rigidlab::BodyDesc::plane(DVec3::Y, 0.0).unwrap())
        .unwrap();
    w
}

#[test]
fn the_2d_sandbox_draws_circles_boxes_and_polygons_and_saves_what_was_drawn() {
    let mut state = ViewerState::simulate(flat_world().to_scene(), "sandbox").unwrap();
    state.apply(Command::NextTool);
    assert_eq!(state.tool, Tool::Circle);
    state.apply(Command::AddCircle {
        centre: DVec3::new(-1.0, 1.0, 0.0),
        radius: 0.2,
    });
    state.apply(Command::AddBox {
        a: DVec3::new(0.0, 1.0, 0.0),
        b: DVec3::new(0.6, 1.2, 0.0),
    });
    // A slip of the mouse makes nothing.
    state.apply(Command::AddCircle {
        centre: DVec3::ZERO,
        radius: 1e-5,
    });
    for (x, y) in [(1.0, 1.0), (1.5, 1.0), (1.0, 1.6)] {
        state.apply(Command::SketchPoint(DVec3::new(x, y, 0.0)));
    }
    state.apply(Command::FinishSketch);
    assert!(state.sketch.is_empty());
    let names: Vec<&str> = state
        .world
        .bodies()
        .bodies()
        .iter()
        .map(|b| b.shape.type_name())
        .collect();
    assert_eq!(names, ["plane", "sphere", "box", "polygon"]);
    let bodies = state.world.bodies().bodies();
    assert_eq!(bodies[1].position, DVec3::new(-1.0, 1.0, 0.0));
    assert!((bodies[2].position - DVec3::new(0.3, 1.1, 0.0)).length() < 1e-15);
    // Areal density 1: a 0.6 x 0.2 box weighs 0.12 kg; the triangle's centroid is its mean.
    assert!((bodies[2].mass() - 0.12).abs() < 1e-15);
    assert!((bodies[3].position - DVec3::new(3.5 / 3.0, 3.6 / 3.0, 0.0)).length() < 1e-12);
    // A polygon that is not convex is refused with the reason, and nothing is added.
    for (x, y) in [(0.0, 2.0), (2.0, 2.0), (1.0, 2.5), (2.0, 3.0), (0.0, 3.0)] {
        state.apply(Command::SketchPoint(DVec3::new(x, y, 0.0)));
    }
    state.apply(Command::FinishSketch);
    assert!(state.note.as_deref().unwrap_or("").contains("not convex"));
    assert_eq!(state.world.bodies().len(), 4);
    // Spawned boxes are squares in a 2D world.
    state.apply(Command::Spawn {
        sphere: false,
        at: DVec3::new(3.0, 1.0, 0.0),
        size: 0.1,
    });
    assert_eq!(state.world.bodies().bodies()[4].shape.type_name(), "box");
    // Drawn while paused, then run: everything falls onto the floor and stays in the plane.
    state.paused = true;
    state.apply(Command::TogglePause);
    state.advance(2.0);
    for b in state.world.bodies().bodies().iter().skip(1) {
        assert!(b.position.y > 0.0 && b.position.y < 1.0, "{:?}", b.position);
        assert_eq!(
            (b.position.z, b.orientation.x, b.orientation.y),
            (0.0, 0.0, 0.0)
        );
    }
    let path = std::env::temp_dir().join(format!("rigidlab-sandbox-{}.json", std::process::id()));
    state.save_path = path.clone();
    state.apply(Command::Save);
    let saved = World::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(saved.settings().planar);
    assert_eq!(saved.bodies().len(), 5);
    assert!(state.note.as_deref().unwrap_or("").starts_with("saved to"));
}

/// Scrubbing a simulation back with `,` lands on the state the world had, bit for bit, and
/// `.` steps it forward again onto the same states.
#[test]
fn a_simulation_scrubs_back_through_its_history_and_forward_again() {
    let w = bouncing_world();
    let mut state = ViewerState::simulate(w.to_scene(), "test").unwrap();
    let positions = |s: &ViewerState| -> Vec<DVec3> {
        s.world
            .bodies()
            .bodies()
            .iter()
            .map(|b| b.position)
            .collect()
    };
    for _ in 0..30 {
        state.advance(1.0 / 60.0);
    }
    let (then, t) = (positions(&state), state.world.time());
    for _ in 0..60 {
        state.advance(1.0 / 60.0);
    }
    let later = positions(&state);
    for _ in 0..10 {
        state.apply(Command::StepFrames(-1));
    }
    assert!(state.paused);
    assert!((state.world.time() - t).abs() < 1e-9);
    assert_eq!(positions(&state), then);
    for _ in 0..10 {
        state.apply(Command::StepFrames(1));
    }
    assert_eq!(positions(&state), later);
}
