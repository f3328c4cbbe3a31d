//! GJK distance between the convex hulls of two point sets (polyhedron vertices, a segment's
//! ends, a single point): the closest points, or None when the hulls overlap.

use crate::math::{DMat3, DVec3};

/// Closest points of two separated convex sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    pub on_a: DVec3,
    pub on_b: DVec3,
    pub distance: f64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Vertex {
    /// b - a, a point of the Minkowski difference B - A.
    w: DVec3,
    a: DVec3,
    b: DVec3,
}

fn support(points: &[DVec3], d: DVec3) -> DVec3 {
    let mut best = points[0];
    let mut best_dot = d.dot(best);
    for &p in &points[1..] {
        let x = d.dot(p);
        if x > best_dot {
            best_dot = x;
            best = p;
        }
    }
    best
}

/// The point of the simplex closest to the origin: barycentric weights and the mask of the
/// vertices it uses. Every sub-simplex's affine minimiser with non-negative weights is a point
/// of the simplex, so the shortest of them is the answer.
fn closest_on_simplex(s: &[Vertex]) -> ([f64; 4], u32, DVec3) {
    let mut best = ([0.0; 4], 0u32, DVec3::splat(f64::INFINITY));
    for mask in 1u32..(1 << s.len()) {
        let mut idx = [0usize; 4];
        let mut k = 0;
        for i in 0..s.len() {
            if mask & (1 << i) != 0 {
                idx[k] = i;
                k += 1;
            }
        }
        let w0 = s[idx[0]].w;
        let mut e = [DVec3::ZERO; 3];
        for j in 1..k {
            e[j - 1] = s[idx[j]].w - w0;
        }
        // Minimise |w0 + sum mu_j e_j|: the normal equations G mu = -E^T w0.
        let mut mu = [0.0; 3];
        match k - 1 {
            0 => {}
            1 => {
                let g = e[0].length_squared();
                if g <= 1e-300 {
                    continue;
                }
                mu[0] = -e[0].dot(w0) / g;
            }
            2 => {
                let (g00, g01, g11) = (e[0].dot(e[0]), e[0].dot(e[1]), e[1].dot(e[1]));
                let det = g00 * g11 - g01 * g01;
                if det <= 1e-14 * g00 * g11 {
                    continue;
                }
                let (r0, r1) = (-e[0].dot(w0), -e[1].dot(w0));
                mu[0] = (r0 * g11 - r1 * g01) / det;
                mu[1] = (g00 * r1 - g01 * r0) / det;
            }
            _ => {
                let m = DMat3::from_cols(e[0], e[1], e[2]);
                if m.determinant().abs() <= 1e-12 * e[0].length() * e[1].length() * e[2].length() {
                    continue;
                }
                mu = (m.inverse() * -w0).to_array();
            }
        }
        let mu = &mu[..k - 1];
        let l0 = 1.0 - mu.iter().sum::<f64>();
        if l0 < 0.0 || mu.iter().any(|&m| m < 0.0) {
            continue;
        }
        let p = w0 + e.iter().zip(mu).map(|(e, m)| *e * *m).sum::<DVec3>();
        if p.length_squared() < best.2.length_squared() {
            let mut lambda = [0.0; 4];
            lambda[idx[0]] = l0;
            for (j, &m) in mu.iter().enumerate() {
                lambda[idx[j + 1]] = m;
            }
            best = (lambda, mask, p);
        }
    }
    best
}

/// Closest points of conv(a) and conv(b), or None if they overlap.
pub fn distance(a: &[DVec3], b: &[DVec3]) -> Option<Closest> {
    let scale = a
        .iter()
        .chain(b)
        .map(|p| p.abs().max_element())
        .fold(1e-300, f64::max);
    // Start from the support points along the line between the sets' centres: usually close
    // to the answer, so few iterations follow.
    let centre = |s: &[DVec3]| s.iter().sum::<DVec3>() / s.len() as f64;
    let d = centre(b) - centre(a);
    let (pa, pb) = if d != DVec3::ZERO {
        (support(a, d), support(b, -d))
    } else {
        (a[0], b[0])
    };
    let start = Vertex {
        w: pb - pa,
        a: pa,
        b: pb,
    };
    let mut simplex = [start; 4];
    let mut n = 1;
    let mut v = start.w;
    let mut lambda = [1.0, 0.0, 0.0, 0.0];
    for _ in 0..64 {
        let vv = v.length_squared();
        if vv <= (1e-12 * scale).powi(2) {
            return None;
        }
        let (pb, pa) = (support(b, -v), support(a, v));
        let w = Vertex {
            w: pb - pa,
            a: pa,
            b: pb,
        };
        // No support point gets closer to the origin than v by more than round-off: done.
        if vv - v.dot(w.w) <= 1e-12 * vv || simplex[..n].iter().any(|s| s.w == w.w) {
            break;
        }
        simplex[n] = w;
        n += 1;
        let (l, mask, p) = closest_on_simplex(&simplex[..n]);
        if !p.is_finite() {
            break;
        }
        // Keep only the vertices the closest point uses.
        let mut k = 0;
        for i in 0..n {
            if mask & (1 << i) != 0 {
                simplex[k] = simplex[i];
                lambda[k] = l[i];
                k += 1;
            }
        }
        n = k;
        v = p;
        if n == 4 {
            return None;
        }
    }
    let on_a = simplex[..n]
        .iter()
        .zip(lambda)
        .map(|(s, l)| s.a * l)
        .sum::<DVec3>();
    let on_b = simplex[..n]
        .iter()
        .zip(lambda)
        .map(|(s, l)| s.b * l)
        .sum::<DVec3>();
    let distance = v.length();
    if distance <= 1e-12 * scale {
        return None;
    }
    Some(Closest {
        on_a,
        on_b,
        distance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(centre: DVec3, h: f64) -> Vec<DVec3> {
        (0..8)
            .map(|c| {
                centre
                    + h * DVec3::new(
                        if c & 1 == 0 { -1.0 } else { 1.0 },
                        if c & 2 == 0 { -1.0 } else { 1.0 },
                        if c & 4 == 0 { -1.0 } else { 1.0 },
                    )
            })
            .collect()
    }

    #[test]
    fn point_to_cube_face_edge_and_corner() {
        let c = cube(DVec3::ZERO, 1.0);
        let r = distance(&c, &[DVec3::new(0.2, 3.0, -0.1)]).unwrap();
        assert!(
            (r.distance - 2.0).abs() < 1e-12
                && (r.on_a - DVec3::new(0.2, 1.0, -0.1)).length() < 1e-12
        );
        let r = distance(&c, &[DVec3::new(2.0, 2.0, 0.5)]).unwrap();
        assert!(
            (r.distance - 2f64.sqrt()).abs() < 1e-12
                && (r.on_a - DVec3::new(1.0, 1.0, 0.5)).length() < 1e-12
        );
        let r = distance(&c, &[DVec3::splat(2.0)]).unwrap();
        assert!((r.distance - 3f64.sqrt()).abs() < 1e-12);
        assert!(distance(&c, &[DVec3::new(0.5, 0.2, 0.9)]).is_none());
    }

    #[test]
    fn segment_to_cube_and_overlap() {
        let c = cube(DVec3::ZERO, 1.0);
        let seg = [DVec3::new(-3.0, 1.5, 0.0), DVec3::new(3.0, 1.5, 0.0)];
        let r = distance(&c, &seg).unwrap();
        assert!((r.distance - 0.5).abs() < 1e-12, "{r:?}");
        let through = [DVec3::new(-3.0, 0.5, 0.0), DVec3::new(3.0, 0.5, 0.0)];
        assert!(distance(&c, &through).is_none());
        let r = distance(&c, &cube(DVec3::new(3.0, 0.5, 0.0), 0.5)).unwrap();
        assert!((r.distance - 1.5).abs() < 1e-12);
    }
}
