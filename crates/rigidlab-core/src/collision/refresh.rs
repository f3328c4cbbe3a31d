//! Refreshing a contact instead of finding it again: when two faceted shapes (polyhedra, or the
//! sharp polygons of a 2D world: `Shape::is_faceted`) have barely moved relative to each other
//! since their contact was last found in full, the same features still touch, so last step's
//! points are measured again at the new poses (as Bullet's persistent manifolds and Parry's
//! contact updates do). A resting box on a box costs a few rotations instead of a separating
//! axis test and a clipping.
//!
//! Each point keeps the point of B that touched (fixed in B) and is measured against A's
//! surface through it, along the contact normal (fixed in A): for a corner of B on a face of
//! A that is exact however the bodies move; for points where B's face was clipped by A's, the
//! point drifts with the relative motion. That motion is bounded: the pair is found again in
//! full once any point of B may have moved by more than a tolerance relative to A since the
//! last full search (half the linear slop: a corner that was just out of reach then cannot
//! have sunk further than that into A unseen).

use super::manifold::{Manifold, RawPoint};
use super::narrow_phase::Posed;
use crate::math::{DQuat, DVec3};

/// The pose of B relative to A and the contact normal in A's frame, when the contact was last
/// found in full.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PairFrame {
    pub rotation: DQuat,
    pub offset: DVec3,
    pub normal: DVec3,
}

impl PairFrame {
    pub fn new(a: &Posed, b: &Posed, normal: DVec3) -> PairFrame {
        let to_a = a.orientation.inverse();
        PairFrame {
            rotation: to_a * b.orientation,
            offset: to_a * (b.position - a.position),
            normal: to_a * normal,
        }
    }

    /// Whether no point of B (bounding radius `radius_b`) has moved by more than `tolerance`
    /// relative to A between this frame and `now`.
    fn holds(&self, now: &PairFrame, radius_b: f64, tolerance: f64) -> bool {
        let turn = (self.rotation.conjugate() * now.rotation).xyz().length() * 2.0;
        (now.offset - self.offset).length() + turn * radius_b <= tolerance
    }
}

/// Last step's contact `old` between `a` and `b` measured again at their current poses, into
/// `out` (points farther apart than `margin` left out), with the normal; None when a point of
/// B may have moved by more than `tolerance` relative to A since `old`'s frame was taken (find
/// the contact in full then).
pub fn refresh(
    old: &Manifold,
    a: &Posed,
    b: &Posed,
    tolerance: f64,
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let frame = old.frame.as_ref()?;
    if old.points.is_empty()
        || !frame.holds(
            &PairFrame::new(a, b, DVec3::ZERO),
            b.shape.bounding_radius(),
            tolerance,
        )
    {
        return None;
    }
    out.clear();
    let normal = a.orientation * frame.normal;
    for p in &old.points {
        let on_b = b.position + b.orientation * p.local_b;
        let surface_a = a.position + a.orientation * p.local_a;
        let separation = (on_b - surface_a).dot(normal);
        if separation < margin {
            out.push(RawPoint {
                on_a: on_b - normal * separation,
                on_b,
                separation,
                feature: p.feature,
            });
        }
    }
    Some(normal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyHandle;
    use crate::collision::manifold::ContactPoint;
    use crate::collision::narrow_phase::NarrowPhase;
    use crate::material::PairCoefficients;
    use crate::math::DVec2;
    use crate::shape::polygon::Polygon;
    use crate::shape::Shape;

    /// The manifold the world would keep from a full search of a and b.
    fn found(narrow: &mut NarrowPhase, a: &Posed, b: &Posed, margin: f64) -> Manifold {
        let normal = narrow.collide(*a, *b, margin).expect("touching");
        let points = narrow
            .points
            .iter()
            .map(|p| {
                ContactPoint::found(p, (a.position, a.orientation), (b.position, b.orientation))
            })
            .collect();
        let handle = BodyHandle {
            index: 0,
            generation: 0,
        };
        let frame = Some(PairFrame::new(a, b, normal));
        Manifold {
            a: handle,
            b: handle,
            row_a: 0,
            row_b: 1,
            normal,
            points,
            coefficients: PairCoefficients {
                restitution: 0.0,
                friction: 0.5,
                static_friction: 0.5,
                tangential_restitution: 0.0,
            },
            sliding: None,
            frame,
        }
    }

    #[test]
    fn a_small_box_on_a_large_one_is_measured_again_exactly_and_found_again_past_the_tolerance() {
        let (big, small) = (
            Shape::cuboid(DVec3::splat(0.5)).unwrap(),
            Shape::cuboid(DVec3::new(0.2, 0.1, 0.15)).unwrap(),
        );
        let tilt = DQuat::from_rotation_y(0.3) * DQuat::from_rotation_x(2e-4);
        let a = Posed {
            shape: &big,
            position: DVec3::new(0.1, 0.0, -0.2),
            orientation: DQuat::from_rotation_z(0.05),
            planar: false,
        };
        let b_at = |shift: DVec3, turn: f64| Posed {
            shape: &small,
            position: a.position + a.orientation * (DVec3::new(0.05, 0.6 - 1e-4, 0.02) + shift),
            orientation: a.orientation * DQuat::from_rotation_z(turn) * tilt,
            planar: false,
        };
        let (margin, tolerance) = (1e-3, 5e-5);
        let mut narrow = NarrowPhase::default();
        let old = found(&mut narrow, &a, &b_at(DVec3::ZERO, 0.0), margin);
        assert_eq!(old.points.len(), 4);
        // Moved within the tolerance: the same corners, at the depths a full search finds.
        let b = b_at(DVec3::new(2e-5, -1e-5, 1e-5), 5e-5);
        let mut out = vec![];
        let normal =
            refresh(&old, &a, &b, tolerance, margin, &mut out).expect("within the tolerance");
        let full = found(&mut narrow, &a, &b, margin);
        assert!((normal - full.normal).length() < 1e-12);
        assert_eq!(out.len(), full.points.len());
        for p in &out {
            let q = full
                .points
                .iter()
                .find(|q| q.feature == p.feature)
                .expect("same corner");
            assert!(
                (p.separation - q.separation).abs() < 1e-12,
                "{} against {}",
                p.separation,
                q.separation
            );
            assert!((p.on_b - b.position - b.orientation * q.local_b).length() < 1e-12);
        }
        // Past it, by a shift or by a turn: found in full.
        assert!(refresh(
            &old,
            &a,
            &b_at(DVec3::new(6e-5, 0.0, 0.0), 0.0),
            tolerance,
            margin,
            &mut out
        )
        .is_none());
        assert!(refresh(
            &old,
            &a,
            &b_at(DVec3::ZERO, 2e-4),
            tolerance,
            margin,
            &mut out
        )
        .is_none());
    }

    #[test]
    fn a_square_on_a_plank_of_a_2d_world_is_measured_again_exactly() {
        // Sharp polygons are faceted: a square resting on a plank, both turned a little, keeps
        // its two corners on the plank's top side, at the depths a full search finds.
        let (plank, square) = (
            Shape::polygon(Polygon::rectangle(DVec2::new(1.0, 0.1)).unwrap()),
            Shape::polygon(Polygon::rectangle(DVec2::splat(0.1)).unwrap()),
        );
        assert!(plank.is_faceted() && square.is_faceted());
        let rounded = Polygon::segment(DVec2::ZERO, DVec2::X, 0.05).unwrap().0;
        assert!(!Shape::polygon(rounded).is_faceted());
        assert!(!Shape::sphere(0.1).unwrap().is_faceted());
        let a = Posed {
            shape: &plank,
            position: DVec3::new(0.3, -0.2, 0.0),
            orientation: DQuat::from_rotation_z(0.1),
            planar: true,
        };
        let b_at = |shift: DVec3, turn: f64| Posed {
            shape: &square,
            position: a.position + a.orientation * (DVec3::new(0.2, 0.2 - 1e-4, 0.0) + shift),
            orientation: a.orientation * DQuat::from_rotation_z(turn),
            planar: true,
        };
        let (margin, tolerance) = (1e-3, 5e-5);
        let mut narrow = NarrowPhase::default();
        let old = found(&mut narrow, &a, &b_at(DVec3::ZERO, 0.0), margin);
        assert_eq!(old.points.len(), 2);
        let b = b_at(DVec3::new(2e-5, -1e-5, 0.0), 1e-4);
        let mut out = vec![];
        let normal =
            refresh(&old, &a, &b, tolerance, margin, &mut out).expect("within the tolerance");
        let full = found(&mut narrow, &a, &b, margin);
        assert!((normal - full.normal).length() < 1e-12);
        assert_eq!(out.len(), 2);
        for p in &out {
            let q = full
                .points
                .iter()
                .find(|q| (b.position + b.orientation * q.local_b - p.on_b).length() < 1e-12)
                .expect("same corner");
            assert!((p.separation - q.separation).abs() < 1e-12);
        }
        // A turn that moves a corner by more than the tolerance: found in full.
        assert!(refresh(
            &old,
            &a,
            &b_at(DVec3::ZERO, 5e-4),
            tolerance,
            margin,
            &mut out
        )
        .is_none());
    }
}
