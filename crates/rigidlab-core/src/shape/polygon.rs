//! Convex polygons in the x-y plane of their body, for 2D worlds: the outline of a 2D body
//! (a box, any convex polygon) or of a static edge (a segment, with an optional rounding
//! radius). Bodies of a 2D world live in the world's x-y plane, so their contacts are found in
//! 2D (collision/planar.rs) and their mass is that of a lamina of the outline.

use crate::error::{Error, Result};
use crate::limits;
use crate::math::{DMat3, DVec2, DVec3};

/// What a polygon was made as: it decides its name and the dimensions it reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outline {
    /// Any convex polygon.
    Polygon,
    /// A rectangle with these half extents along the body axes.
    Box { half_extents: DVec2 },
    /// A straight edge between its two vertices (static only; it has no area).
    Segment,
}

/// A convex polygon (or a segment: two vertices), counter-clockwise, centred on its area's
/// centroid (a segment on its midpoint), grown by `radius` on every side.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    pub vertices: Vec<DVec2>,
    /// Outward unit normal of edge i, from vertex i to vertex i + 1.
    pub normals: Vec<DVec2>,
    pub radius: f64,
    pub outline: Outline,
    /// Area (m^2), the rounding included.
    pub area: f64,
    /// Second moments of area about the centroid per unit area: the means of x^2, y^2, x y.
    pub moments: [f64; 3],
    /// Distance from the centre to the farthest point.
    pub bound: f64,
}

/// Two vertices closer than this fraction of the outline's size are one.
const SAME_POINT: f64 = 1e-9;

impl Polygon {
    /// The convex polygon with corners `points` (in order, either way round), moved so that
    /// its centroid is the origin. Returns it and where the centroid was among the points.
    /// Corners on a straight line between their neighbours are dropped; an outline that turns
    /// both ways, winds more than once, or encloses no area is refused.
    pub fn convex(points: &[DVec2]) -> Result<(Polygon, DVec2)> {
        let mut vertices = outline("points", points)?;
        let centroid = Polygon::from_ccw(vertices.clone(), 0.0, Outline::Polygon).measure();
        for v in &mut vertices {
            *v -= centroid;
        }
        // Everything measured from the moved corners, as when a saved polygon is read back
        // (`centred`), so that both are the same to the bit.
        Ok((Polygon::from_ccw(vertices, 0.0, Outline::Polygon), centroid))
    }

    /// A polygon read back as it was kept (counter-clockwise, centred on its centroid): the
    /// corners are taken as they are, so that a saved world reloads bit for bit.
    pub fn centred(points: &[DVec2]) -> Result<Polygon> {
        let vertices = outline("vertices", points)?;
        if vertices != points {
            return Err(Error::invalid(
                "vertices",
                format!("{} points", points.len()),
                "must be the corners of a convex polygon, counter-clockwise",
            ));
        }
        let mut polygon = Polygon::from_ccw(vertices, 0.0, Outline::Polygon);
        let c = polygon.measure();
        if c.length() > 1e-9 * polygon.bound.max(1e-300) {
            return Err(Error::invalid(
                "vertices",
                format!("centroid {:?}", c.to_array()),
                "must be centred on their centroid (the body's position)",
            ));
        }
        Ok(polygon)
    }

    /// The rectangle of half extents `h`.
    pub fn rectangle(h: DVec2) -> Result<Polygon> {
        limits::length("half_extents[0]", h.x)?;
        limits::length("half_extents[1]", h.y)?;
        let vertices = vec![
            DVec2::new(-h.x, -h.y),
            DVec2::new(h.x, -h.y),
            DVec2::new(h.x, h.y),
            DVec2::new(-h.x, h.y),
        ];
        let mut p = Polygon::from_ccw(vertices, 0.0, Outline::Box { half_extents: h });
        // Exact, rather than summed from triangles.
        p.moments = [h.x * h.x / 3.0, h.y * h.y / 3.0, 0.0];
        Ok(p)
    }

    /// The segment from p0 to p1 grown by `radius` (0: a bare edge), centred on its midpoint.
    /// Returns it and the midpoint.
    pub fn segment(p0: DVec2, p1: DVec2, radius: f64) -> Result<(Polygon, DVec2)> {
        for (param, p) in [("p0", p0), ("p1", p1)] {
            limits::coordinate3(param, DVec3::new(p.x, p.y, 0.0))?;
        }
        if radius != 0.0 {
            limits::length("radius", radius)?;
        }
        let d = p1 - p0;
        if d.length() <= SAME_POINT * p0.abs().max(p1.abs()).max_element().max(1.0) {
            return Err(Error::invalid(
                "p1",
                format!("{:?}", p1.to_array()),
                "a segment needs two different end points",
            ));
        }
        let mid = (p0 + p1) * 0.5;
        Ok((
            Polygon::from_ccw(vec![p0 - mid, p1 - mid], radius, Outline::Segment),
            mid,
        ))
    }

    fn from_ccw(vertices: Vec<DVec2>, radius: f64, outline: Outline) -> Polygon {
        let k = vertices.len();
        let normals = (0..k)
            .map(|i| {
                let e = vertices[(i + 1) % k] - vertices[i];
                DVec2::new(e.y, -e.x).normalize()
            })
            .collect();
        let mut p = Polygon {
            vertices,
            normals,
            radius,
            outline,
            area: 0.0,
            moments: [0.0; 3],
            bound: 0.0,
        };
        p.measure();
        p
    }

    /// Area, centroid-free moments and bound from the vertices (about the origin); returns the
    /// centroid.
    fn measure(&mut self) -> DVec2 {
        let v = &self.vertices;
        let (mut area, mut first, mut second) = (0.0, DVec2::ZERO, [0.0; 3]);
        if v.len() >= 3 {
            // Triangles fanned from vertex 0, its coordinates taken out so that a polygon far
            // from the origin loses no digits.
            let o = v[0];
            for i in 1..v.len() - 1 {
                let (p, q) = (v[i] - o, v[i + 1] - o);
                let a = 0.5 * p.perp_dot(q);
                area += a;
                first += (p + q) * (a / 3.0);
                second[0] += a / 6.0 * (p.x * p.x + p.x * q.x + q.x * q.x);
                second[1] += a / 6.0 * (p.y * p.y + p.y * q.y + q.y * q.y);
                second[2] += a / 12.0 * (2.0 * p.x * p.y + p.x * q.y + q.x * p.y + 2.0 * q.x * q.y);
            }
            let c = first / area;
            // About the centroid (parallel axes).
            self.moments = [
                second[0] / area - c.x * c.x,
                second[1] / area - c.y * c.y,
                second[2] / area - c.x * c.y,
            ];
            self.area = area;
            self.bound = v.iter().map(|p| (*p - o - c).length()).fold(0.0, f64::max);
            return o + c;
        }
        self.area = if v.len() == 2 {
            let len = (v[1] - v[0]).length();
            2.0 * self.radius * len + std::f64::consts::PI * self.radius * self.radius
        } else {
            0.0
        };
        let c = v.iter().sum::<DVec2>() / v.len().max(1) as f64;
        self.bound = v.iter().map(|p| (*p - c).length()).fold(0.0, f64::max) + self.radius;
        c
    }

    /// The vertex farthest along d, and its index.
    pub fn support(&self, d: DVec2) -> (usize, DVec2) {
        let mut best = (0, self.vertices[0]);
        let mut top = d.dot(best.1);
        for (i, &v) in self.vertices.iter().enumerate().skip(1) {
            let h = d.dot(v);
            if h > top {
                (top, best) = (h, (i, v));
            }
        }
        best
    }

    /// The inertia tensor of the polygon as a lamina of unit mass in the body's x-y plane
    /// (about its centroid): what a 2D body of this outline turns with.
    pub fn unit_inertia(&self) -> DMat3 {
        let [xx, yy, xy] = self.moments;
        DMat3::from_cols(
            DVec3::new(yy, -xy, 0.0),
            DVec3::new(-xy, xx, 0.0),
            DVec3::new(0.0, 0.0, xx + yy),
        )
    }
}

/// The unit-mass inertia tensor of a lamina in the x-y plane whose second moments of area per
/// unit area are `xx` (mean x^2) and `yy` (mean y^2), symmetric about both axes.
pub fn lamina_inertia(xx: f64, yy: f64) -> DMat3 {
    DMat3::from_diagonal(DVec3::new(yy, xx, xx + yy))
}

/// The corners of a convex outline, counter-clockwise, without repeated or straight-through
/// corners; an error naming `param` if there is no such outline.
fn outline(param: &str, points: &[DVec2]) -> Result<Vec<DVec2>> {
    let bad = |why: &str| Error::invalid(param, format!("{} points", points.len()), why);
    for (i, p) in points.iter().enumerate() {
        limits::coordinate3(&format!("{param}[{i}]"), DVec3::new(p.x, p.y, 0.0))?;
    }
    let scale = points
        .iter()
        .fold(0.0_f64, |s, p| s.max(p.abs().max_element()))
        .max(f64::MIN_POSITIVE);
    let mut v: Vec<DVec2> = Vec::with_capacity(points.len());
    for &p in points {
        if v.last()
            .is_none_or(|&q| (p - q).length() > SAME_POINT * scale)
        {
            v.push(p);
        }
    }
    while v.len() > 1 && (v[0] - v[v.len() - 1]).length() <= SAME_POINT * scale {
        v.pop();
    }
    // Drop corners on the line through their neighbours, until none is left.
    let straight = |v: &[DVec2], i: usize| {
        let k = v.len();
        let (a, b, c) = (v[(i + k - 1) % k], v[i], v[(i + 1) % k]);
        (b - a).perp_dot(c - b).abs() <= SAME_POINT * (b - a).length() * (c - b).length()
    };
    let mut i = 0;
    while v.len() >= 3 && i < v.len() {
        if straight(&v, i) {
            v.remove(i);
            i = 0;
        } else {
            i += 1;
        }
    }
    if v.len() < 3 {
        return Err(bad(
            "a polygon needs at least 3 corners that are not on one line",
        ));
    }
    let k = v.len();
    let turns: Vec<f64> = (0..k)
        .map(|i| (v[(i + 1) % k] - v[i]).perp_dot(v[(i + 2) % k] - v[(i + 1) % k]))
        .collect();
    let sign = turns[0].signum();
    if turns.iter().any(|t| t.signum() != sign) {
        return Err(bad(
            "the outline is not convex (it turns both ways); split it into convex pieces",
        ));
    }
    // All turns one way, but a star winds round more than once.
    let winding: f64 = (0..k)
        .map(|i| {
            let (e, f) = (v[(i + 1) % k] - v[i], v[(i + 2) % k] - v[(i + 1) % k]);
            e.perp_dot(f).atan2(e.dot(f)).abs()
        })
        .sum();
    if winding > 2.0 * std::f64::consts::PI * (1.0 + 1e-9) {
        return Err(bad(
            "the outline crosses itself; give the corners in order round the polygon",
        ));
    }
    if sign < 0.0 {
        v.reverse();
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[test]
    fn a_rectangle_given_as_points_matches_the_closed_form() {
        let (a, b) = (0.8, 0.3);
        let pts = [
            (0.0, 0.0),
            (2.0 * a, 0.0),
            (2.0 * a, 2.0 * b),
            (0.0, 2.0 * b),
        ]
        .map(|(x, y)| DVec2::new(x + 5.0, y - 3.0));
        let (p, c) = Polygon::convex(&pts).unwrap();
        assert!((c - DVec2::new(5.0 + a, b - 3.0)).length() < 1e-12);
        assert!(close(p.area, 4.0 * a * b, 1e-12));
        let box_ = Polygon::rectangle(DVec2::new(a, b)).unwrap();
        for k in 0..3 {
            assert!((p.moments[k] - box_.moments[k]).abs() < 1e-12, "{k}");
        }
        // The lamina's polar moment: m (w^2 + h^2) / 12.
        let i = p.unit_inertia();
        assert!(close(i.z_axis.z, (4.0 * a * a + 4.0 * b * b) / 12.0, 1e-12));
    }

    #[test]
    fn a_triangle_matches_the_closed_form_whichever_way_round() {
        // Right triangle with legs a (x) and b (y): centroid (a/3, b/3); about it,
        // mean x^2 = a^2/18, mean y^2 = b^2/18, mean xy = -a b/36.
        let (a, b) = (2.0, 0.5);
        for pts in [
            [DVec2::ZERO, DVec2::new(a, 0.0), DVec2::new(0.0, b)],
            [DVec2::ZERO, DVec2::new(0.0, b), DVec2::new(a, 0.0)],
        ] {
            let (p, c) = Polygon::convex(&pts).unwrap();
            assert!((c - DVec2::new(a / 3.0, b / 3.0)).length() < 1e-12);
            assert!(close(p.area, a * b / 2.0, 1e-12));
            assert!(close(p.moments[0], a * a / 18.0, 1e-12));
            assert!(close(p.moments[1], b * b / 18.0, 1e-12));
            assert!(close(p.moments[2], -a * b / 36.0, 1e-12));
            // Counter-clockwise: every normal points away from the centroid.
            for (v, n) in p.vertices.iter().zip(&p.normals) {
                assert!(n.dot(*v) > 0.0);
            }
        }
    }

    #[test]
    fn bad_outlines_are_refused_with_the_reason() {
        let pts = |v: &[(f64, f64)]| v.iter().map(|&(x, y)| DVec2::new(x, y)).collect::<Vec<_>>();
        let err = |v: &[(f64, f64)]| Polygon::convex(&pts(v)).unwrap_err().to_string();
        assert!(
            err(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.5), (2.0, 2.0), (0.0, 2.0)])
                .contains("not convex")
        );
        assert!(err(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]).contains("at least 3"));
        assert!(err(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0)]).contains("at least 3"));
        let star: Vec<(f64, f64)> = (0..5)
            .map(|i| {
                let t = i as f64 * 4.0 * std::f64::consts::PI / 5.0;
                (t.cos(), t.sin())
            })
            .collect();
        assert!(err(&star).contains("crosses itself"));
        assert!(err(&[(0.0, 0.0), (f64::NAN, 0.0), (0.0, 1.0)]).starts_with("points[1]"));
        // A corner on an edge is dropped, not refused.
        let (p, _) =
            Polygon::convex(&pts(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 1.0)])).unwrap();
        assert_eq!(p.vertices.len(), 3);
    }
}
