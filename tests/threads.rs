//! A world steps to the same result, bit for bit, whatever the number of threads: the narrow
//! phase of a large scene runs on a pool of threads, each pair's contact into its own slot.

use glam::{DQuat, DVec3};
use rigidlab::scene::SceneIo;
use rigidlab::shape::Shape;
use rigidlab::{BodyDesc, BodyKind, World};

/// 640 boxes, hulls and spheres dropped in a 1 m bin: well over a thousand candidate pairs once
/// they land.
fn heap() -> World {
    let mut w = World::default();
    let wall = |half: DVec3, position: DVec3| BodyDesc {
        kind: BodyKind::Static,
        position,
        ..BodyDesc::new(Shape::cuboid(half).unwrap())
    };
    w.add_body(wall(DVec3::new(1.0, 0.1, 1.0), DVec3::new(0.0, -0.1, 0.0)))
        .unwrap();
    for (sx, sz) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        let half = if sx != 0.0 {
            DVec3::new(0.05, 1.0, 0.6)
        } else {
            DVec3::new(0.6, 1.0, 0.05)
        };
        w.add_body(wall(half, DVec3::new(0.55 * sx, 1.0, 0.55 * sz)))
            .unwrap();
    }
    let ico: Vec<DVec3> = {
        let t = (1.0 + 5f64.sqrt()) / 2.0;
        let mut v = vec![];
        for (a, b) in [(1.0, t), (-1.0, t), (1.0, -t), (-1.0, -t)] {
            v.extend([
                DVec3::new(0.0, a, b),
                DVec3::new(a, b, 0.0),
                DVec3::new(b, 0.0, a),
            ]);
        }
        v.iter().map(|p| *p * 0.025).collect()
    };
    for k in 0..640 {
        let (i, j, l) = (k % 8, (k / 8) % 8, k / 64);
        let position = DVec3::new(
            -0.42 + 0.12 * i as f64,
            0.06 + 0.11 * l as f64,
            -0.42 + 0.12 * j as f64,
        );
        let shape = match k % 3 {
            0 => Shape::cuboid(DVec3::new(0.05, 0.03, 0.04)).unwrap(),
            1 => Shape::convex(&ico).unwrap().0,
            _ => Shape::sphere(0.045).unwrap(),
        };
        let orientation =
            DQuat::from_rotation_y(0.37 * k as f64) * DQuat::from_rotation_x(0.11 * k as f64);
        w.add_body(BodyDesc {
            position,
            orientation,
            ..BodyDesc::new(shape)
        })
        .unwrap();
    }
    w
}

fn run(threads: usize) -> (String, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut w = heap();
        // The shared pool: inside `install`, this one.
        w.set_threads(None).unwrap();
        let mut most_pairs = 0;
        for _ in 0..240 {
            w.step().unwrap();
            most_pairs = most_pairs.max(w.candidate_pair_count());
        }
        (w.to_json_compact(), most_pairs)
    })
}

#[test]
fn a_heap_steps_the_same_on_one_thread_and_on_three() {
    let (one, pairs) = run(1);
    // Enough pairs for the narrow phase to split them into several tasks.
    assert!(pairs > 1000, "{pairs} candidate pairs");
    let (three, _) = run(3);
    assert!(one == three, "the states differ");
}
