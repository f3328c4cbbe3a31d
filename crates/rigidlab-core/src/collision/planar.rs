//! The narrow phase of 2D worlds: polygons (and segments) against polygons, circles, capsules
//! and ground lines, found in the x-y plane where every body of a 2D world lies. Points come
//! out at z = 0 with normals in the plane, so impulses never leave it.
//!
//! Two outlines are compared as cores (their corners) grown by a radius: a polygon's is 0, a
//! capsule is its segment grown by its radius, a rounded segment likewise. The separating axis
//! test over both outlines' edge normals gives the reference edge (the one that separates
//! most); the other outline's edge most facing it is clipped to the reference edge's ends and
//! gives up to two points. Cores apart and meeting corner to corner give one point along the
//! line between the corners instead, the direction in which they first touch.

use super::closest::segment_segment;
use super::manifold::RawPoint;
use crate::math::{DQuat, DVec2, DVec3};
use crate::shape::Polygon;

/// A rounded convex outline in some frame: corners (counter-clockwise), edge normals, radius.
#[derive(Clone, Copy)]
pub struct Contour<'a> {
    pub vertices: &'a [DVec2],
    pub normals: &'a [DVec2],
    pub radius: f64,
}

impl<'a> From<&'a Polygon> for Contour<'a> {
    /// A polygon's contour in its own frame.
    fn from(p: &'a Polygon) -> Contour<'a> {
        Contour {
            vertices: &p.vertices,
            normals: &p.normals,
            radius: p.radius,
        }
    }
}

/// A rotation about z and a translation in the plane: where a 2D body is.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub origin: DVec2,
    /// cos and sin of the body's angle.
    pub c: f64,
    pub s: f64,
}

impl Frame {
    /// The frame of a body of a 2D world (its orientation is a turn about z).
    pub fn of(position: DVec3, q: DQuat) -> Frame {
        // The body's x axis: q (1, 0, 0) q*.
        Frame {
            origin: position.truncate(),
            c: 1.0 - 2.0 * (q.y * q.y + q.z * q.z),
            s: 2.0 * (q.x * q.y + q.w * q.z),
        }
    }

    pub fn rotate(&self, v: DVec2) -> DVec2 {
        DVec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    pub fn unrotate(&self, v: DVec2) -> DVec2 {
        DVec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    pub fn apply(&self, v: DVec2) -> DVec2 {
        self.origin + self.rotate(v)
    }

    /// Where a point of the world is in this frame.
    pub fn local(&self, p: DVec2) -> DVec2 {
        self.unrotate(p - self.origin)
    }

    /// The frame of `other` seen from this one.
    pub fn relative(&self, other: &Frame) -> Frame {
        Frame {
            origin: self.local(other.origin),
            c: self.c * other.c + self.s * other.s,
            s: self.c * other.s - self.s * other.c,
        }
    }
}

/// Reference edges whose separations differ by less than this (m) count as tied, and the
/// first outline's is taken: a box resting on another keeps one normal from step to step.
const TIE: f64 = 1e-7;
/// Cores farther apart than this (m) are treated as apart: their nearest features decide the
/// normal.
const APART: f64 = 1e-9;

/// The feature of a contact between two corners (clipped points carry their edge and vertex).
const CORNERS: u64 = 1 << 41;

/// The edge of `a` along whose normal `b` lies farthest out, and that distance (negative when
/// the cores overlap along every edge of `a`). Both outlines in the same frame.
fn max_separation(a: &Contour, b: &[DVec2]) -> (usize, f64) {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, (&v, &n)) in a.vertices.iter().zip(a.normals).enumerate() {
        let s = b
            .iter()
            .map(|&w| n.dot(w - v))
            .fold(f64::INFINITY, f64::min);
        if s > best.1 {
            best = (i, s);
        }
    }
    best
}

/// The contact of outlines `a` and `b`, both in the frame `frame` (world = frame applied):
/// its normal (from A to B, world) and points, into `out`; None when farther apart than
/// `margin`.
pub fn contours(
    a: &Contour,
    b: &Contour,
    frame: &Frame,
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let (ea, sa) = max_separation(a, b.vertices);
    let (eb, sb) = max_separation(b, a.vertices);
    let reach = margin + a.radius + b.radius;
    if sa > reach || sb > reach {
        return None;
    }
    let flip = sb > sa + TIE;
    let (rf, inc, edge, separation) = if flip { (b, a, eb, sb) } else { (a, b, ea, sa) };
    let k = rf.vertices.len();
    let (v1, v2) = (rf.vertices[edge], rf.vertices[(edge + 1) % k]);
    let n = rf.normals[edge];
    // The incident edge: the one facing the reference edge most.
    let m = inc.vertices.len();
    let j = (0..m)
        .min_by(|&x, &y| n.dot(inc.normals[x]).total_cmp(&n.dot(inc.normals[y])))
        .unwrap_or(0);
    let (w1, w2) = (inc.vertices[j], inc.vertices[(j + 1) % m]);
    let mut points: [(DVec2, DVec2, f64, u64); 2] = Default::default();
    let mut count = 0;
    // Clip the incident edge to the reference edge's ends: the part of it, w1 + (w2 - w1) s,
    // whose projection on the reference edge lies between v1 and v2.
    let t = v2 - v1;
    let (lo, hi) = (0.0, t.length_squared());
    let (u1, u2) = (t.dot(w1 - v1), t.dot(w2 - v1));
    let (s0, s1) = if u1 == u2 {
        (0.0, 1.0)
    } else {
        let (sa, sb) = ((lo - u1) / (u2 - u1), (hi - u1) / (u2 - u1));
        (sa.min(sb).max(0.0), sa.max(sb).min(1.0))
    };
    // Apart, the nearest points may be two corners (boxes corner to corner): only when the
    // edges do not face each other along a length (a face landing flat on a face meets it
    // all along, whatever pair of corners is nearest first).
    let corner = (separation > APART && s0 >= s1)
        .then(|| corner_to_corner([v1, v2], [w1, w2]))
        .flatten();
    let normal = if let Some((p, q)) = corner {
        // Cores apart, nearest at two corners: the line between them.
        let d = q - p;
        let dist = d.length();
        let u = d / dist;
        points[0] = (
            p + u * rf.radius,
            q - u * inc.radius,
            dist - rf.radius - inc.radius,
            CORNERS,
        );
        count = 1;
        u
    } else {
        let ends = if s0 <= s1 {
            [(s0, j), (s1, (j + 1) % m)]
        } else {
            // The incident edge passes beside the reference edge: its deeper corner.
            let deeper = if n.dot(w1) <= n.dot(w2) {
                (0.0, j)
            } else {
                (1.0, (j + 1) % m)
            };
            [deeper; 2]
        };
        let mut last = None;
        for (s, vertex) in ends {
            let c = w1 + (w2 - w1) * s;
            let core_gap = n.dot(c - v1);
            let gap = core_gap - rf.radius - inc.radius;
            if gap <= margin && last != Some(c) {
                last = Some(c);
                points[count] = (
                    c - n * (core_gap - rf.radius),
                    c - n * inc.radius,
                    gap,
                    ((edge as u64) << 20) | vertex as u64,
                );
                count += 1;
            }
        }
        match nearer_than_clipped(rf, inc, (v1, v2), (w1, w2), &points[..count], margin) {
            Some((point, u)) => {
                points[0] = point;
                count = 1;
                u
            }
            None => n,
        }
    };
    let world = |p: DVec2| frame.apply(p).extend(0.0);
    for &(on_ref, on_inc, gap, feature) in &points[..count] {
        let (on_a, on_b) = if flip {
            (on_inc, on_ref)
        } else {
            (on_ref, on_inc)
        };
        out.push(RawPoint {
            on_a: world(on_a),
            on_b: world(on_b),
            separation: gap,
            feature: feature | (u64::from(flip) << 40),
        });
    }
    let normal = frame.rotate(if flip { -normal } else { normal });
    (count > 0).then(|| normal.extend(0.0))
}

/// Rounded outlines meet where their cores are nearest, which the clipped part of the incident
/// edge can leave out: a capsule's end cap against another's end cap beyond the reference
/// edge's end (two capsules end to end at a right angle, a cap against a wall's top). The
/// separating axis test sees them overlap (the axis between the two ends is not an edge
/// normal), the clipped points lie farther in along the edge and clear of each other, and a
/// contact some millimetres deep went unseen until the bodies had sunk a centimetre into each
/// other in a heap. So when the cores' nearest points are nearer than every clipped point (by
/// more than round-off; lying along each other they are one of them), they are the contact:
/// one point, along the line between them (crossed cores, at no distance, keep the edge's
/// normal). Some((point, normal)) from the reference outline to the incident one.
fn nearer_than_clipped(
    rf: &Contour,
    inc: &Contour,
    (v1, v2): (DVec2, DVec2),
    (w1, w2): (DVec2, DVec2),
    clipped: &[(DVec2, DVec2, f64, u64)],
    margin: f64,
) -> Option<((DVec2, DVec2, f64, u64), DVec2)> {
    let radii = rf.radius + inc.radius;
    if radii == 0.0 {
        return None;
    }
    let (p, q, _, _) = segment_segment(
        v1.extend(0.0),
        v2.extend(0.0),
        w1.extend(0.0),
        w2.extend(0.0),
    );
    let d = (q - p).truncate();
    let dist = d.length();
    let gap = dist - radii;
    let shallowest = clipped.iter().map(|c| c.2).fold(f64::INFINITY, f64::min);
    if dist <= APART || gap > margin || gap >= shallowest - TIE {
        return None;
    }
    let u = d / dist;
    let (p, q) = (p.truncate(), q.truncate());
    Some(((p + u * rf.radius, q - u * inc.radius, gap, CORNERS), u))
}

/// The nearest points of segments [a0, a1] and [b0, b1] when both are corners (an end of each),
/// as (on a, on b); None when the nearest point of either lies inside its segment or they
/// cross.
fn corner_to_corner(a: [DVec2; 2], b: [DVec2; 2]) -> Option<(DVec2, DVec2)> {
    let (da, db) = (a[1] - a[0], b[1] - b[0]);
    let inside = |p: DVec2, s: [DVec2; 2], d: DVec2| {
        let t = (p - s[0]).dot(d);
        t > 0.0 && t < d.length_squared()
    };
    // Each corner of one against the other segment: the nearest pair overall.
    let mut best: Option<(f64, DVec2, DVec2)> = None;
    for &p in &a {
        for &q in &b {
            let d2 = (q - p).length_squared();
            if best.is_none_or(|(b2, _, _)| d2 < b2) {
                best = Some((d2, p, q));
            }
        }
    }
    let (d2, p, q) = best?;
    // A corner nearer to the inside of the other segment than to its corners: not
    // corner to corner.
    let nearer_inside = |p: DVec2, s: [DVec2; 2], d: DVec2| {
        inside(p, s, d) && {
            let t = ((p - s[0]).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            (s[0] + d * t - p).length_squared() < d2
        }
    };
    if a.iter().any(|&p| nearer_inside(p, b, db)) || b.iter().any(|&q| nearer_inside(q, a, da)) {
        return None;
    }
    (d2 > 0.0).then_some((p, q))
}

/// A polygon (A) against a circle (B) of centre `centre` and radius `radius`: one point.
pub fn polygon_circle(
    polygon: &Polygon,
    frame: &Frame,
    centre: DVec3,
    radius: f64,
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let c = frame.local(centre.truncate());
    let v = &polygon.vertices;
    let k = v.len();
    let (edge, separation) = max_separation(&Contour::from(polygon), &[c]);
    let reach = polygon.radius + radius;
    if separation > reach + margin {
        return None;
    }
    let (v1, v2) = (v[edge], v[(edge + 1) % k]);
    // The nearest point of the core: a corner when the centre lies beyond the edge's ends.
    let nearest = if separation > APART && (c - v1).dot(v2 - v1) < 0.0 {
        Some(v1)
    } else if separation > APART && (c - v2).dot(v1 - v2) < 0.0 {
        Some(v2)
    } else {
        None
    };
    let (n, gap) = match nearest {
        Some(p) => {
            let d = c - p;
            let dist = d.length();
            (d / dist, dist)
        }
        None => (polygon.normals[edge], separation),
    };
    let on_core = c - n * gap;
    out.push(RawPoint {
        on_a: frame.apply(on_core + n * polygon.radius).extend(0.0),
        on_b: frame.apply(c - n * radius).extend(0.0),
        separation: gap - reach,
        feature: edge as u64,
    });
    Some(frame.rotate(n).extend(0.0))
}

/// The two side normals of a capsule's core from `ends[0]` to `ends[1]` (a two-corner outline,
/// counter-clockwise either way).
fn core_normals(ends: &[DVec2; 2]) -> [DVec2; 2] {
    let d = ends[1] - ends[0];
    let n = DVec2::new(d.y, -d.x).normalize();
    [n, -n]
}

/// A polygon (A) against a capsule (B) whose core runs between world points `core`.
pub fn polygon_capsule(
    polygon: &Polygon,
    frame: &Frame,
    core: [DVec3; 2],
    radius: f64,
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let ends = core.map(|p| frame.local(p.truncate()));
    contours(
        &Contour::from(polygon),
        &Contour {
            vertices: &ends,
            normals: &core_normals(&ends),
            radius,
        },
        frame,
        margin,
        out,
    )
}

/// Two capsules of a 2D world (cores between world points `core_a` and `core_b`), as two
/// rounded outlines: lying along each other they touch at both ends of their overlap, so a
/// capsule resting on another at a slant cannot pivot about one point and sink its other end
/// into it (one point from the cores' closest points, as in 3D, lets a heap of them scissor
/// into each other step by step). Crossed cores get the least overlap, not an arbitrary
/// normal.
pub fn capsule_capsule(
    (core_a, radius_a): ([DVec3; 2], f64),
    (core_b, radius_b): ([DVec3; 2], f64),
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    // In a frame at A's centre, so that large coordinates cost no digits.
    let frame = Frame {
        origin: (0.5 * (core_a[0] + core_a[1])).truncate(),
        c: 1.0,
        s: 0.0,
    };
    let (ea, eb) = (
        core_a.map(|p| frame.local(p.truncate())),
        core_b.map(|p| frame.local(p.truncate())),
    );
    contours(
        &Contour {
            vertices: &ea,
            normals: &core_normals(&ea),
            radius: radius_a,
        },
        &Contour {
            vertices: &eb,
            normals: &core_normals(&eb),
            radius: radius_b,
        },
        &frame,
        margin,
        out,
    )
}

/// Two polygons.
pub fn polygon_polygon(
    a: &Polygon,
    frame_a: &Frame,
    b: &Polygon,
    frame_b: &Frame,
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    // B in A's frame, so that large coordinates cost no digits.
    let rel = frame_a.relative(frame_b);
    let mut vertices = [DVec2::ZERO; 16];
    let mut normals = [DVec2::ZERO; 16];
    let (heap_v, heap_n): (Vec<DVec2>, Vec<DVec2>);
    let (bv, bn): (&[DVec2], &[DVec2]) = if b.vertices.len() <= 16 {
        for (i, (&v, &n)) in b.vertices.iter().zip(&b.normals).enumerate() {
            vertices[i] = rel.apply(v);
            normals[i] = rel.rotate(n);
        }
        let k = b.vertices.len();
        (&vertices[..k], &normals[..k])
    } else {
        heap_v = b.vertices.iter().map(|&v| rel.apply(v)).collect();
        heap_n = b.normals.iter().map(|&n| rel.rotate(n)).collect();
        (&heap_v, &heap_n)
    };
    contours(
        &Contour::from(a),
        &Contour {
            vertices: bv,
            normals: bn,
            radius: b.radius,
        },
        frame_a,
        margin,
        out,
    )
}

/// A ground line (A: the half-plane below `normal . x = normal . point`) against a polygon
/// (B): its corners that come within `margin`.
pub fn ground_polygon(
    normal: DVec3,
    point: DVec3,
    polygon: &Polygon,
    frame: &Frame,
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> DVec3 {
    let n = normal.truncate();
    let base = n.dot(point.truncate());
    for (i, &v) in polygon.vertices.iter().enumerate() {
        let corner = frame.apply(v);
        let height = n.dot(corner) - base - polygon.radius;
        if height < margin {
            let surface = corner - n * polygon.radius;
            out.push(RawPoint {
                on_a: (surface - n * height).extend(0.0),
                on_b: surface.extend(0.0),
                separation: height,
                feature: i as u64,
            });
        }
    }
    n.extend(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::in_plane::turn;

    fn frame(x: f64, y: f64, angle: f64) -> Frame {
        Frame::of(DVec3::new(x, y, 0.0), turn(angle))
    }

    #[test]
    fn a_box_resting_on_a_box_touches_at_its_two_bottom_corners() {
        let (a, b) = (
            Polygon::rectangle(DVec2::new(1.0, 0.5)).unwrap(),
            Polygon::rectangle(DVec2::new(0.2, 0.2)).unwrap(),
        );
        let mut out = Vec::new();
        let n = polygon_polygon(
            &a,
            &frame(0.0, 0.0, 0.0),
            &b,
            &frame(0.3, 0.69, 0.0),
            0.05,
            &mut out,
        )
        .unwrap();
        assert!((n - DVec3::Y).length() < 1e-15);
        assert_eq!(out.len(), 2);
        for p in &out {
            assert!((p.separation + 0.01).abs() < 1e-12, "{p:?}");
            assert!((p.on_b.y - 0.49).abs() < 1e-12 && (p.on_a.y - 0.5).abs() < 1e-12);
            assert_eq!((p.on_a.z, p.on_b.z), (0.0, 0.0));
        }
        let xs = [
            out[0].on_b.x.min(out[1].on_b.x),
            out[0].on_b.x.max(out[1].on_b.x),
        ];
        assert!((xs[0] - 0.1).abs() < 1e-12 && (xs[1] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_face_above_a_face_of_the_same_width_meets_it_at_both_corners_while_apart() {
        // Corner over corner on both sides: the nearest corners are a tie, but the faces meet
        // all along (one corner alone would land the box on it and spin it).
        let square = Polygon::rectangle(DVec2::new(0.5, 0.5)).unwrap();
        for gap in [0.002, 0.04] {
            let mut out = Vec::new();
            let n = polygon_polygon(
                &square,
                &frame(0.2, 0.5, 0.0),
                &square,
                &frame(0.2, 1.5 + gap, 0.0),
                0.05,
                &mut out,
            )
            .unwrap();
            assert!((n - DVec3::Y).length() < 1e-15);
            assert_eq!(out.len(), 2, "{out:?}");
            for p in &out {
                assert!((p.separation - gap).abs() < 1e-12, "{p:?}");
            }
            assert!((out[0].on_b.x - out[1].on_b.x).abs() > 1.0 - 1e-12);
        }
    }

    #[test]
    fn boxes_beside_each_other_meet_corner_to_corner() {
        let square = Polygon::rectangle(DVec2::new(0.5, 0.5)).unwrap();
        let mut out = Vec::new();
        let n = polygon_polygon(
            &square,
            &frame(0.0, 0.0, 0.0),
            &square,
            &frame(1.03, 1.04, 0.0),
            0.1,
            &mut out,
        )
        .unwrap();
        assert_eq!(out.len(), 1);
        assert!((n - DVec3::new(0.6, 0.8, 0.0)).length() < 1e-12);
        assert!((out[0].separation - 0.05).abs() < 1e-12);
    }

    #[test]
    fn a_circle_beyond_a_corner_meets_it_along_the_line_to_the_corner() {
        let square = Polygon::rectangle(DVec2::new(1.0, 1.0)).unwrap();
        let mut out = Vec::new();
        let c = DVec3::new(1.3, 1.4, 0.0);
        let n = polygon_circle(&square, &frame(0.0, 0.0, 0.0), c, 0.6, 0.0, &mut out).unwrap();
        assert!((n - DVec3::new(0.6, 0.8, 0.0)).length() < 1e-15);
        assert!((out[0].separation - (0.5 - 0.6)).abs() < 1e-15);
        assert!((out[0].on_a - DVec3::new(1.0, 1.0, 0.0)).length() < 1e-15);
    }

    #[test]
    fn a_capsule_standing_on_a_box_touches_at_its_lower_end() {
        let floor = Polygon::rectangle(DVec2::new(2.0, 0.5)).unwrap();
        let mut out = Vec::new();
        let core = [DVec3::new(0.4, 0.8, 0.0), DVec3::new(0.4, 1.6, 0.0)];
        let n = polygon_capsule(&floor, &frame(0.0, 0.0, 0.0), core, 0.31, 0.01, &mut out).unwrap();
        assert!((n - DVec3::Y).length() < 1e-15);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation + 0.01).abs() < 1e-12);
        assert!((out[0].on_b - DVec3::new(0.4, 0.49, 0.0)).length() < 1e-12);
    }

    #[test]
    fn a_capsule_lying_at_a_slant_on_another_touches_it_at_both_ends_of_their_overlap() {
        // A lies along x; B, 0.1 rad off it, rests on it: sinking its lower end by 1 mm and
        // holding its upper end 2 mm clear of A's surface (a single closest point would leave
        // B free to pivot about its lower end).
        let (r, h) = (0.1, 0.5);
        let a = [DVec3::new(-h, 0.0, 0.0), DVec3::new(h, 0.0, 0.0)];
        let tilt = 0.1f64;
        let low = DVec3::new(-0.3, 2.0 * r - 0.001, 0.0);
        let b = [low, low + 2.0 * h * DVec3::new(tilt.cos(), tilt.sin(), 0.0)];
        let mut out = Vec::new();
        let margin = 2.0 * h * tilt.sin();
        let n = capsule_capsule((a, r), (b, r), margin, &mut out).unwrap();
        assert!((n - DVec3::Y).length() < 1e-15);
        assert_eq!(out.len(), 2, "{out:?}");
        // The points: B's lower end, and where A's core ends under B.
        let gap_at = |x: f64| low.y + (x - low.x) * tilt.tan() - 2.0 * r;
        let mut seps: Vec<f64> = out.iter().map(|p| p.separation).collect();
        seps.sort_by(f64::total_cmp);
        assert!((seps[0] + 0.001).abs() < 1e-12, "{seps:?}");
        assert!((seps[1] - gap_at(h)).abs() < 1e-12, "{seps:?}");
    }

    #[test]
    fn crossed_capsules_part_along_the_least_overlap() {
        // B's core crosses A's end at 60 degrees: the least overlap is across B, where A's
        // right end reaches 0.01 cos 30 deg past B's core, plus the two radii (across A it
        // would be B's whole half-height).
        let (r, h) = (0.05, 0.5);
        let a = [DVec3::new(-h, 0.0, 0.0), DVec3::new(h, 0.0, 0.0)];
        let d = DVec3::new(0.5, 3f64.sqrt() / 2.0, 0.0) * 0.2;
        let c = DVec3::new(h - 0.01, 0.0, 0.0);
        let mut out = Vec::new();
        let n = capsule_capsule((a, r), ([c - d, c + d], r), 0.0, &mut out).unwrap();
        assert!(
            (n - DVec3::new(3f64.sqrt() / 2.0, -0.5, 0.0)).length() < 1e-12,
            "{n:?}"
        );
        let deepest = out
            .iter()
            .map(|p| p.separation)
            .fold(f64::INFINITY, f64::min);
        assert!(
            (deepest + 0.01 * 3f64.sqrt() / 2.0 + 2.0 * r).abs() < 1e-12,
            "{out:?}"
        );
    }

    #[test]
    fn capsules_meeting_cap_to_cap_beyond_the_clipped_part_touch_there() {
        // A leaning capsule's top cap under the left cap of a lying one, whose core starts
        // just beyond the top of the leaning one's (as two met in a 2D heap): the caps
        // overlap by 1.3 cm, while the part of the leaning core under the lying one (the
        // part the clipping keeps) clears it. At any turn of the pair, the contact is at the
        // caps, along the line between the cores' ends.
        let r = 0.018;
        for turn in [0.0, 0.3, 1.2, -2.0] {
            let rot = |v: DVec3| {
                let (s, c) = f64::sin_cos(turn);
                DVec3::new(c * v.x - s * v.y, s * v.x + c * v.y, 0.0)
            };
            let a = [DVec3::new(0.0091, -0.0471, 0.0), DVec3::ZERO].map(rot);
            let start = DVec3::new(0.0073, 0.0221, 0.0);
            let b = [start, start + DVec3::new(0.0478, -0.0044, 0.0)].map(rot);
            let mut out = Vec::new();
            let n = capsule_capsule((a, r), (b, r), 0.0, &mut out).unwrap();
            let dist = start.length();
            assert!((n - rot(start / dist)).length() < 1e-12, "{n:?}");
            assert_eq!(out.len(), 1);
            assert!(
                (out[0].separation - (dist - 2.0 * r)).abs() < 1e-12,
                "{out:?}"
            );
            assert!((out[0].on_a - rot(start * (r / dist))).length() < 1e-12);
        }
    }

    #[test]
    fn a_tilted_box_meets_the_ground_at_its_lowest_corner() {
        let b = Polygon::rectangle(DVec2::new(0.5, 0.5)).unwrap();
        let a = std::f64::consts::FRAC_PI_4;
        let mut out = Vec::new();
        let n = ground_polygon(
            DVec3::Y,
            DVec3::ZERO,
            &b,
            &frame(0.0, 0.7, a),
            0.0,
            &mut out,
        );
        assert_eq!(n, DVec3::Y);
        assert_eq!(out.len(), 1);
        assert!((out[0].separation - (0.7 - 0.5 * 2f64.sqrt())).abs() < 1e-15);
    }

    #[test]
    fn frames_compose_and_invert() {
        let (f, g) = (frame(1.0, -2.0, 0.7), frame(-3.0, 0.5, -2.1));
        let p = DVec2::new(0.3, 0.9);
        let q = g.apply(p);
        assert!((f.apply(f.relative(&g).apply(p)) - q).length() < 1e-14);
        assert!((f.local(f.apply(p)) - p).length() < 1e-15);
    }
}
