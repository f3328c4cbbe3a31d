//! Closest points between points and segments (Ericson, Real-Time Collision Detection 5.1).

use crate::math::DVec3;

/// The point of segment [a, b] closest to p.
pub fn point_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 <= f64::MIN_POSITIVE {
        return a;
    }
    a + d * ((p - a).dot(d) / len2).clamp(0.0, 1.0)
}

/// The closest points of segments [p1, q1] and [p2, q2], with their parameters s and t
/// (0 at p, 1 at q). For parallel segments the point at the middle of their overlap.
pub fn segment_segment(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> (DVec3, DVec3, f64, f64) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let tiny = 1e-24 * (a + e).max(1e-300);
    if a <= tiny && e <= tiny {
        return (p1, p2, 0.0, 0.0);
    }
    let (s, t);
    if a <= tiny {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= tiny {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            if denom <= 1e-12 * a * e {
                // Parallel: take the middle of the overlap of the two, as seen along d1.
                let t0 = (p2 - p1).dot(d1) / a;
                let t1 = (q2 - p1).dot(d1) / a;
                let (lo, hi) = (t0.min(t1).max(0.0), t0.max(t1).min(1.0));
                s = if lo <= hi {
                    0.5 * (lo + hi)
                } else if t0.min(t1) > 1.0 {
                    1.0
                } else {
                    0.0
                };
                t = ((p1 + d1 * s - p2).dot(d2) / e).clamp(0.0, 1.0);
            } else {
                let s0 = ((b * f - c * e) / denom).clamp(0.0, 1.0);
                let t0 = (b * s0 + f) / e;
                if t0 < 0.0 {
                    t = 0.0;
                    s = (-c / a).clamp(0.0, 1.0);
                } else if t0 > 1.0 {
                    t = 1.0;
                    s = ((b - c) / a).clamp(0.0, 1.0);
                } else {
                    t = t0;
                    s = s0;
                }
            }
        }
    }
    (p1 + d1 * s, p2 + d2 * t, s, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_skew_and_parallel_segments() {
        let (a, b, s, t) = segment_segment(
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.5, 1.0, -1.0),
            DVec3::new(0.5, 1.0, 1.0),
        );
        assert!(
            (a - DVec3::new(0.5, 0.0, 0.0)).length() < 1e-15
                && (b - DVec3::new(0.5, 1.0, 0.0)).length() < 1e-15
        );
        assert!((s - 0.75).abs() < 1e-15 && (t - 0.5).abs() < 1e-15);
        // Beyond the end of the first: clamped to its end.
        let (a, b, _, _) = segment_segment(
            DVec3::ZERO,
            DVec3::X,
            DVec3::new(2.0, 1.0, -1.0),
            DVec3::new(2.0, 1.0, 1.0),
        );
        assert!(
            (a - DVec3::X).length() < 1e-15 && (b - DVec3::new(2.0, 1.0, 0.0)).length() < 1e-15
        );
        // Parallel with overlap [0.5, 1]: the middle of it.
        let (a, b, _, _) = segment_segment(
            DVec3::ZERO,
            DVec3::X,
            DVec3::new(0.5, 1.0, 0.0),
            DVec3::new(3.0, 1.0, 0.0),
        );
        assert!(
            (a - DVec3::new(0.75, 0.0, 0.0)).length() < 1e-15
                && (b - DVec3::new(0.75, 1.0, 0.0)).length() < 1e-15
        );
        assert_eq!(
            point_on_segment(DVec3::new(5.0, 1.0, 0.0), DVec3::ZERO, DVec3::X),
            DVec3::X
        );
    }
}
