//! The solver's tuning numbers that are not physics: how hard it works and what it treats as
//! the same. Each says why it is what it is and what was measured (dt = 1/240 s unless said).

/// Gauss-Seidel sweeps of the joints' position phase per solver iteration (250 at the
/// default 10 iterations). Joint trees of two or more joints are solved by Newton's method
/// instead (joint_tree.rs); the sweeps hold what that leaves: closed loops, ropes, hinge
/// limits and lone joints, and stop once every joint is within the position tolerance.
/// Measured on a ring of six hinged capsules hanging from one hinge, a loop on which the
/// sweeps do not converge: 25 leave a joint error of 1.6e-4 m (1.3e-3 m at dt = 1/60) for
/// 0.55 ms a step; 10 leave 5.3e-4 m for 0.24 ms, 50 leave 4.3e-5 m for 1.05 ms (the error
/// falls as 1/sweeps, the cost grows with them). A four-bar linkage reaches 1e-12 m by 10
/// sweeps and a rope is exact at 5: they stop early, and 25 costs them nothing more.
pub const JOINT_POSITION_SWEEPS: u32 = 25;

/// Iterations of the resting solve before it may stop at its tolerance. One sweep that changes
/// little does not show the contacts converged: a block solved early in the sweep is disturbed
/// by those after it, and what is left carries into the next step, where again one sweep
/// leaves it. Measured on boxes placed at rest, sleeping off: stopping after one sweep, the
/// velocities left grew by about a third a step from 1e-9 m/s until they reached the tolerance
/// (1e-5 m/s), and everything crept: a base-20 pyramid 2.7e-6 m in 1 s in 3D and 1.0e-5 m in
/// 2 s in 2D, a base-40 pyramid in 2D 3.6e-5 m in 2 s (81 of its 480 steps running out of
/// iterations), a column of 40 boxes 2.3e-5 m (3D) and 1.4e-5 m (2D) in 2 s. After two, every
/// step stops at two, the velocities stay below 3e-8 m/s, and none of them moves by more than
/// 3e-8 m.
pub const LEAST_ITERATIONS: u32 = 2;

/// Fraction of an overlap beyond the slop that one pass of position correction removes.
/// Below 1, so that a pile's overlaps, which the passes share out between neighbours, are not
/// overshot into new ones. Measured: two boxes started 5 cm into each other part to the slop
/// in 2 steps (3 at 0.2, 2 at 1.0), gaining no kinetic energy; in a pile of 200 boxes dropped
/// into a 1 m bin the largest overlap over the last of 4 s is 3.7 to 7.4 mm over three
/// seeds, within the spread from seed to seed of every value from 0.2 to 1.0.
pub const CORRECTION_FACTOR: f64 = 0.8;

/// Largest correction of one contact point in one pass (m): a guard, so that a body placed
/// deep inside another (by a script or a file) is pushed out over several passes instead of
/// flung. In the measured scenes it never acts: 1.0 gives the same bits as 0.2 in the
/// 200-box pile, and 0.02 still parts the 5 cm overlap in 2 steps.
pub const MAX_CORRECTION: f64 = 0.2;

/// Largest turn (rad) one contact's correction gives a body in one pass. Resting contacts ask
/// for far less; a body jammed in a heap that lands at speed, pushed at corners centimetres deep
/// by its neighbours, was turned back and forth by a third of a radian a step, each turn
/// swinging its other corners into its neighbours (and once through a wall). Measured on the
/// benchmark's 2D heap (1 000 bodies falling up to 24 m into a bin of segments, four runs):
/// without a limit the deepest overlap between bodies is 8.4 to 9.0 cm and two runs lose a
/// body through a wall; at 0.14 rad (Box2D's 8 degrees) 7.2 to 8.1 cm and one run; at 0.05 rad
/// 6.7 to 7.6 cm and none. A box tipped onto a face, a pyramid and the resting heaps of the
/// tests give the same results with it.
pub const MAX_CORRECTION_TURN: f64 = 0.05;

/// Largest turn (rad) position correction gives a body in one step, all its passes together
/// (its shifts are bounded by its leash). A contact's points are fixed in its bodies at the
/// step's start: turned far, the points that faced a wall face elsewhere, and the corners now
/// turned towards it are not seen. A hexagon pressed 2.5 cm into a wall (a zero-thickness
/// segment) in a heap started overlapping was turned 1.65 rad in one step's passes and its
/// centre carried 2.7 cm past the wall. Measured on columns 0.6 m wide and 3 m high started
/// with 600 random discs, boxes, capsules and hexagons inside each other (4 seeds, dt 1/60 and
/// 1/240, 2 s): 7 bodies lost through the walls without a bound, none at 0.5, 0.25 or 0.1 (with
/// 800 bodies, 1 at 0.25 and none at 0.1). On the benchmark's 2D heap (1 000 bodies dropped
/// from up to 10 m, 1 000 steps) the deepest overlap is 69 mm without and at 0.5, 23 at 0.25
/// and 25 at 0.1; on 1 000 cubes dropped into the 3D bin, 58 mm without, 49 at 0.25 and 0.1;
/// on the 3D mixed heap 28, 33 and 37 mm, whose mean overlap changes little (2.3, 2.4, 2.1
/// mm) but which at 0.1 still moves at 3 mm/s after 1 000 steps (at rest at 0.25).
pub const MAX_STEP_TURN: f64 = 0.25;

/// A new contact point closer to an old one of the same pair than this fraction of the
/// smaller body's bounding radius is the same point, and keeps its impulses for the warm
/// start. A few percent of a body's size: far below the distance between a face's corners,
/// far above how far a resting point wanders in a step. A resting pyramid of 55 boxes (one
/// iteration a step), a box sliding to rest (stopping distance v^2 / 2 mu g to 3e-6) and a
/// box spinning to rest give the same bits at 0.01, 0.05 and 0.2; in a dropped pile the
/// factor changes the trajectory only within the spread from seed to seed.
pub const MATCH_DISTANCE: f64 = 0.05;
