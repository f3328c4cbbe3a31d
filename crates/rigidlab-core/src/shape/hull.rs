//! Convex polyhedra: the hull of a point cloud (incremental construction), its faces as
//! polygons, its edges, and its mass properties by tetrahedral decomposition.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::math::{DMat3, DVec3};

/// A face of a hull: a convex polygon with its outward plane.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Face {
    /// Outward unit normal (body frame).
    pub normal: DVec3,
    /// Plane offset: points p of the face have `normal . p == offset`.
    pub offset: f64,
    /// Vertex indices, counter-clockwise seen from outside.
    pub vertices: Vec<u32>,
}

/// A convex polyhedron in its body frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConvexHull {
    pub vertices: Vec<DVec3>,
    pub faces: Vec<Face>,
    /// Each edge once, as a pair of vertex indices.
    pub edges: Vec<[u32; 2]>,
    /// Unit directions of the edges with parallel ones merged (the edge axes of SAT).
    pub edge_directions: Vec<DVec3>,
    /// Half extents of a box about the body origin inside the hull (see `inscribed_box`), and
    /// the distance of the farthest vertex from the origin; derived, so not saved: `with_bounds`
    /// fills them in.
    #[serde(skip)]
    pub inscribed: DVec3,
    #[serde(skip)]
    pub radius: f64,
    /// The two faces either side of each edge (in the order of `edges`); derived, like the
    /// bounds. Empty when some edge does not join exactly two faces.
    #[serde(skip)]
    pub edge_faces: Vec<[u32; 2]>,
}

/// Volume, centroid and inertia per unit mass about the centroid (uniform density).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MassProperties {
    pub volume: f64,
    pub centroid: DVec3,
    pub unit_inertia: DMat3,
}

/// A triangle of the hull under construction; `alive` is false once it has been replaced.
struct Triangle {
    v: [u32; 3],
    normal: DVec3,
    offset: f64,
    alive: bool,
}

impl Triangle {
    fn new(points: &[DVec3], v: [u32; 3]) -> Triangle {
        let [a, b, c] = v.map(|i| points[i as usize]);
        let normal = (b - a).cross(c - a).normalize();
        Triangle {
            v,
            normal,
            offset: normal.dot(a),
            alive: true,
        }
    }

    fn height(&self, p: DVec3) -> f64 {
        self.normal.dot(p) - self.offset
    }
}

impl ConvexHull {
    /// The convex hull of `points` (body frame). Points inside the hull or on its faces are
    /// dropped; coplanar triangles are merged into polygon faces.
    pub fn from_points(points: &[DVec3]) -> Result<ConvexHull> {
        if points.len() < 4 {
            return Err(Error::invalid(
                "points",
                format!("{} points", points.len()),
                "a convex hull needs at least 4 points that are not coplanar",
            ));
        }
        if let Some(p) = points.iter().find(|p| !p.is_finite()) {
            return Err(Error::invalid(
                "points",
                format!("{:?}", p.to_array()),
                "every point must be finite",
            ));
        }
        let scale = points
            .iter()
            .map(|p| p.abs().max_element())
            .fold(0.0, f64::max)
            .max(f64::MIN_POSITIVE);
        let eps = 1e-10 * scale;
        let tetra = initial_tetrahedron(points, eps)?;
        let mut tris: Vec<Triangle> = Vec::new();
        let inside = tetra.iter().map(|&i| points[i as usize]).sum::<DVec3>() / 4.0;
        for face in [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]] {
            let mut v = face.map(|k| tetra[k]);
            let t = Triangle::new(points, v);
            if t.height(inside) > 0.0 {
                v.swap(1, 2);
            }
            tris.push(Triangle::new(points, v));
        }
        let mut horizon: Vec<[u32; 2]> = Vec::new();
        let mut visible_edges: Vec<[u32; 2]> = Vec::new();
        for (i, &p) in points.iter().enumerate() {
            let i = i as u32;
            if tetra.contains(&i) {
                continue;
            }
            visible_edges.clear();
            for t in tris.iter_mut().filter(|t| t.alive && t.height(p) > eps) {
                t.alive = false;
                visible_edges.extend([[t.v[0], t.v[1]], [t.v[1], t.v[2]], [t.v[2], t.v[0]]]);
            }
            if visible_edges.is_empty() {
                continue;
            }
            // The horizon: edges of visible triangles whose neighbour across is not visible.
            horizon.clear();
            horizon.extend(
                visible_edges
                    .iter()
                    .filter(|e| !visible_edges.contains(&[e[1], e[0]])),
            );
            tris.retain(|t| t.alive);
            for e in &horizon {
                tris.push(Triangle::new(points, [e[0], e[1], i]));
            }
        }
        Ok(Self::from_triangles(points, &tris, eps))
    }

    /// Merges coplanar triangles into faces and keeps only the vertices that are used.
    fn from_triangles(points: &[DVec3], tris: &[Triangle], eps: f64) -> ConvexHull {
        let mut groups: Vec<(DVec3, f64, Vec<u32>)> = Vec::new();
        for t in tris {
            match groups
                .iter_mut()
                .find(|g| g.0.dot(t.normal) > 1.0 - 1e-9 && (g.1 - t.offset).abs() < eps * 10.0)
            {
                Some(g) => g.2.extend(t.v),
                None => groups.push((t.normal, t.offset, t.v.to_vec())),
            }
        }
        let mut used: Vec<u32> = groups.iter().flat_map(|g| g.2.iter().copied()).collect();
        used.sort_unstable();
        used.dedup();
        let vertices: Vec<DVec3> = used.iter().map(|&i| points[i as usize]).collect();
        let remap = |i: u32| used.binary_search(&i).expect("vertex in use") as u32;
        let mut faces = Vec::with_capacity(groups.len());
        for (normal, _, mut ids) in groups {
            ids.sort_unstable();
            ids.dedup();
            let ids: Vec<u32> = ids.into_iter().map(remap).collect();
            faces.push(polygon_face(&vertices, normal, ids, eps));
        }
        let mut edges: Vec<[u32; 2]> = faces
            .iter()
            .flat_map(|f| {
                let n = f.vertices.len();
                (0..n).map(move |k| {
                    let (a, b) = (f.vertices[k], f.vertices[(k + 1) % n]);
                    [a.min(b), a.max(b)]
                })
            })
            .collect();
        edges.sort_unstable();
        edges.dedup();
        let mut edge_directions: Vec<DVec3> = Vec::new();
        for e in &edges {
            let d = (vertices[e[1] as usize] - vertices[e[0] as usize]).normalize();
            if !edge_directions
                .iter()
                .any(|u| u.cross(d).length_squared() < 1e-18)
            {
                edge_directions.push(d);
            }
        }
        ConvexHull {
            vertices,
            faces,
            edges,
            edge_directions,
            inscribed: DVec3::ZERO,
            radius: 0.0,
            edge_faces: Vec::new(),
        }
        .with_bounds()
    }

    /// The hull with its derived data (`inscribed`, `radius`, `edge_faces`) worked out (after
    /// reading one from a file).
    pub fn with_bounds(mut self) -> ConvexHull {
        self.inscribed = self.inscribed_box();
        self.radius = self.bounding_radius();
        self.edge_faces = self.adjacent_faces().unwrap_or_default();
        self
    }

    /// The two faces that share each edge, or None when an edge (sorted, as `from_points`
    /// makes them) does not join exactly two faces.
    fn adjacent_faces(&self) -> Option<Vec<[u32; 2]>> {
        if !self.edges.windows(2).all(|w| w[0] < w[1]) {
            return None;
        }
        let mut found = vec![[u32::MAX; 2]; self.edges.len()];
        for (fi, f) in self.faces.iter().enumerate() {
            let n = f.vertices.len();
            for k in 0..n {
                let (a, b) = (f.vertices[k], f.vertices[(k + 1) % n]);
                let slot = &mut found[self.edges.binary_search(&[a.min(b), a.max(b)]).ok()?];
                match slot.iter().position(|&s| s == u32::MAX) {
                    Some(free) => slot[free] = fi as u32,
                    None => return None,
                }
            }
        }
        found.iter().all(|s| s[1] != u32::MAX).then_some(found)
    }

    /// Half extents of a box about the body origin that lies inside the hull: the box through
    /// the farthest vertex coordinates, shrunk until every face plane holds it (for a box, the
    /// box itself). Its support along d, |d.x| h.x + |d.y| h.y + |d.z| h.z, is a cheap lower
    /// bound of the hull's. Zero when the origin is not inside.
    pub fn inscribed_box(&self) -> DVec3 {
        let e = self
            .vertices
            .iter()
            .fold(DVec3::ZERO, |m, v| m.max(v.abs()));
        let s = self
            .faces
            .iter()
            .map(|f| f.offset / f.normal.abs().dot(e))
            .fold(f64::INFINITY, f64::min);
        if s > 0.0 && s.is_finite() {
            e * s.min(1.0)
        } else {
            DVec3::ZERO
        }
    }

    /// The same hull moved by `offset` (body frame).
    /// Checks a hull that did not come from `from_points` (one read from a file): indices in
    /// range, finite numbers, and every vertex inside every face plane.
    pub fn check(&self, param: &str) -> Result<()> {
        let n = self.vertices.len() as u32;
        let bad = |what: &str| Err(Error::invalid(param, what, "is not a valid convex hull"));
        if n < 4 || self.faces.len() < 4 {
            return bad("fewer than 4 vertices or faces");
        }
        if self.vertices.iter().any(|v| !v.is_finite())
            || self.edge_directions.iter().any(|d| !d.is_finite())
        {
            return bad("a coordinate that is not finite");
        }
        if self.edges.iter().flatten().any(|&i| i >= n)
            || self
                .faces
                .iter()
                .any(|f| f.vertices.len() < 3 || f.vertices.iter().any(|&i| i >= n))
        {
            return bad("a vertex index out of range");
        }
        let scale = self.bounding_radius().max(f64::MIN_POSITIVE);
        for f in &self.faces {
            if !f.offset.is_finite() || (f.normal.length() - 1.0).abs() > 1e-9 {
                return bad("a face normal that is not a unit vector");
            }
            if self
                .vertices
                .iter()
                .any(|v| f.normal.dot(*v) - f.offset > 1e-6 * scale)
            {
                return bad("a vertex outside a face plane (not convex)");
            }
        }
        Ok(())
    }

    pub fn translated(mut self, offset: DVec3) -> ConvexHull {
        for v in self.vertices.iter_mut() {
            *v += offset;
        }
        for f in self.faces.iter_mut() {
            f.offset += f.normal.dot(offset);
        }
        self.with_bounds()
    }

    /// Volume, centroid and unit inertia, summed over the tetrahedra that join each face
    /// triangle to a point inside the hull.
    pub fn mass_properties(&self) -> MassProperties {
        let r = self.vertices.iter().sum::<DVec3>() / self.vertices.len() as f64;
        let mut volume = 0.0;
        let mut first = DVec3::ZERO;
        let mut second = DMat3::ZERO;
        for f in &self.faces {
            let a = self.vertices[f.vertices[0] as usize] - r;
            for k in 1..f.vertices.len() - 1 {
                let b = self.vertices[f.vertices[k] as usize] - r;
                let c = self.vertices[f.vertices[k + 1] as usize] - r;
                let v = a.dot(b.cross(c)) / 6.0;
                let s = a + b + c;
                volume += v;
                first += s * (v / 4.0);
                // The integral of x x^T over a tetrahedron with one vertex at the origin.
                second += (outer(a, a) + outer(b, b) + outer(c, c) + outer(s, s)) * (v / 20.0);
            }
        }
        let c = first / volume;
        let about_centroid = second - outer(c, c) * volume;
        let trace = about_centroid.x_axis.x + about_centroid.y_axis.y + about_centroid.z_axis.z;
        let inertia = (DMat3::from_diagonal(DVec3::splat(trace)) - about_centroid) * (1.0 / volume);
        MassProperties {
            volume,
            centroid: c + r,
            unit_inertia: inertia,
        }
    }

    /// Distance from the body origin to the farthest vertex.
    pub fn bounding_radius(&self) -> f64 {
        self.vertices.iter().map(|v| v.length()).fold(0.0, f64::max)
    }

    /// The vertex farthest along `d`, and its index.
    #[inline]
    pub fn support(&self, d: DVec3) -> (usize, DVec3) {
        let mut best = (0, self.vertices[0]);
        let mut best_dot = d.dot(best.1);
        for (i, &v) in self.vertices.iter().enumerate().skip(1) {
            let x = d.dot(v);
            if x > best_dot {
                best_dot = x;
                best = (i, v);
            }
        }
        best
    }

    /// Index of the face whose normal is closest to `d`.
    pub fn face_towards(&self, d: DVec3) -> usize {
        (0..self.faces.len())
            .max_by(|&i, &j| {
                self.faces[i]
                    .normal
                    .dot(d)
                    .total_cmp(&self.faces[j].normal.dot(d))
            })
            .unwrap_or(0)
    }

    /// A triangular prism lying along z: a right triangle with legs `length` (along x) and
    /// `height` (along y), extruded by `width`; its slope faces +x and rises at
    /// atan(height / length). Not yet centred on its centroid.
    pub fn wedge_points(length: f64, height: f64, width: f64) -> Vec<DVec3> {
        Self::prism_points(&[[0.0, 0.0], [length, 0.0], [0.0, height]], width)
    }

    /// A polygon in the x-y plane extruded along z by `depth` (centred on z = 0).
    pub fn prism_points(polygon: &[[f64; 2]], depth: f64) -> Vec<DVec3> {
        let h = 0.5 * depth;
        polygon
            .iter()
            .flat_map(|p| [DVec3::new(p[0], p[1], -h), DVec3::new(p[0], p[1], h)])
            .collect()
    }
}

fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

/// Four points spanning a tetrahedron of clearly positive volume: the extreme points in x, the
/// farthest from them, the farthest from their line, the farthest from their plane.
fn initial_tetrahedron(points: &[DVec3], eps: f64) -> Result<[u32; 4]> {
    let farthest = |f: &dyn Fn(DVec3) -> f64| -> (u32, f64) {
        let mut best = (0u32, f64::NEG_INFINITY);
        for (i, &p) in points.iter().enumerate() {
            let d = f(p);
            if d > best.1 {
                best = (i as u32, d);
            }
        }
        best
    };
    let degenerate = || {
        Error::invalid(
            "points",
            format!("{} points", points.len()),
            "the points are coplanar (or coincide), so their hull has no volume",
        )
    };
    let (i0, _) = farthest(&|p: DVec3| -p.x);
    let p0 = points[i0 as usize];
    let (i1, d1) = farthest(&|p: DVec3| (p - p0).length());
    if d1 <= eps {
        return Err(degenerate());
    }
    let dir = (points[i1 as usize] - p0) / d1;
    let (i2, d2) = farthest(&|p: DVec3| (p - p0).cross(dir).length());
    if d2 <= eps {
        return Err(degenerate());
    }
    let n = (points[i1 as usize] - p0)
        .cross(points[i2 as usize] - p0)
        .normalize();
    let (i3, d3) = farthest(&|p: DVec3| n.dot(p - p0).abs());
    if d3 <= eps {
        return Err(degenerate());
    }
    Ok([i0, i1, i2, i3])
}

/// Orders a face's vertices counter-clockwise about its normal, drops vertices in the middle
/// of an edge, and fits the plane (Newell's method).
fn polygon_face(vertices: &[DVec3], normal: DVec3, ids: Vec<u32>, eps: f64) -> Face {
    let centre = ids.iter().map(|&i| vertices[i as usize]).sum::<DVec3>() / ids.len() as f64;
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let angle = |i: &u32| {
        let d = vertices[*i as usize] - centre;
        d.dot(v).atan2(d.dot(u))
    };
    let mut ids = ids;
    ids.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
    // Drop collinear vertices.
    let mut k = 0;
    while ids.len() > 3 && k < ids.len() {
        let n = ids.len();
        let p = vertices[ids[(k + n - 1) % n] as usize];
        let c = vertices[ids[k] as usize];
        let q = vertices[ids[(k + 1) % n] as usize];
        if (c - p).cross(q - c).dot(normal) <= eps * (q - p).length() {
            ids.remove(k);
        } else {
            k += 1;
        }
    }
    let mut newell = DVec3::ZERO;
    for k in 0..ids.len() {
        let a = vertices[ids[k] as usize];
        let b = vertices[ids[(k + 1) % ids.len()] as usize];
        newell += a.cross(b);
    }
    let n = newell.normalize();
    let offset = ids
        .iter()
        .map(|&i| n.dot(vertices[i as usize]))
        .sum::<f64>()
        / ids.len() as f64;
    Face {
        normal: n,
        offset,
        vertices: ids,
    }
}
