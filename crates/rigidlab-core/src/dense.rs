//! Small dense linear systems, as the solvers meet them: a joint's rows (up to six unknowns),
//! a contact block (up to four points), a body's effective mass at a point (3x3), a hinge's two
//! cross axes (2x2).
//!
//! One policy decides when such a system is singular: a pivot no larger than `SINGULAR` times
//! the matrix's scale (its largest entry in magnitude), or in the closed forms a determinant no
//! larger than `SINGULAR` times the scale to the matrix's size. Round-off gives a pivot a
//! relative error of about 1e-16 / SINGULAR = 1e-4 there, so the answer would keep fewer than
//! four significant digits; the callers' fallbacks (leave a row out, solve joints one at a
//! time, give no impulse) do better than such an answer. A NaN pivot is singular too.
//!
//! The matrices come regularised or positive definite from the physics (effective masses), so
//! the policy acts only on what geometry makes degenerate: joints whose rows coincide (a chain
//! pulled straight), points in a line.

use crate::math::DMat3;

/// The largest pivot, relative to the matrix's scale, that counts as zero (see the module's
/// comment).
pub const SINGULAR: f64 = 1e-12;

/// Whether `pivot` counts as zero in a matrix of scale `scale` (a NaN pivot does).
#[inline]
pub fn negligible(pivot: f64, scale: f64) -> bool {
    pivot.abs().partial_cmp(&(SINGULAR * scale)) != Some(std::cmp::Ordering::Greater)
}

/// The largest entry in magnitude of the leading n x n block of `a`.
fn scale<const R: usize, const C: usize>(a: &[[f64; C]; R], n: usize) -> f64 {
    a.iter()
        .take(n)
        .flat_map(|row| row[..n].iter())
        .fold(0.0, |m: f64, x| m.max(x.abs()))
}

/// Solves the n x n system in the first n columns of `a`, with its right-hand side in column
/// n, by Gaussian elimination with partial pivoting; None when it is singular.
pub fn solve<const R: usize, const C: usize>(a: &mut [[f64; C]; R], n: usize) -> Option<[f64; R]> {
    debug_assert!(n <= R && n < C);
    let s = scale(a, n);
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if negligible(a[pivot][col], s) {
            return None;
        }
        a.swap(col, pivot);
        for r in col + 1..n {
            let f = a[r][col] / a[col][col];
            for c in col..=n {
                a[r][c] -= f * a[col][c];
            }
        }
    }
    let mut x = [0.0; R];
    for r in (0..n).rev() {
        let mut v = a[r][n];
        for c in r + 1..n {
            v -= a[r][c] * x[c];
        }
        x[r] = v / a[r][r];
    }
    Some(x)
}

/// The inverse of the leading n x n block of `a` by Gauss-Jordan elimination with partial
/// pivoting (the rest zero); None when it is singular.
pub fn inverse<const M: usize>(a: &[[f64; M]; M], n: usize) -> Option<[[f64; M]; M]> {
    let s = scale(a, n);
    let (mut a, mut inv) = (*a, [[0.0; M]; M]);
    for (i, row) in inv.iter_mut().enumerate().take(n) {
        row[i] = 1.0;
    }
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if negligible(a[p][c], s) {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = 1.0 / a[c][c];
        for j in 0..n {
            a[c][j] *= d;
            inv[c][j] *= d;
        }
        for r in 0..n {
            if r != c && a[r][c] != 0.0 {
                let f = a[r][c];
                for j in 0..n {
                    a[r][j] -= f * a[c][j];
                    inv[r][j] -= f * inv[c][j];
                }
            }
        }
    }
    Some(inv)
}

/// x with a x = r for a 2x2 matrix, in closed form; None when it is singular.
pub fn solve2(a: [[f64; 2]; 2], r: [f64; 2]) -> Option<[f64; 2]> {
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    let s = scale(&a, 2);
    if negligible(det, s * s) {
        return None;
    }
    Some([
        (a[1][1] * r[0] - a[0][1] * r[1]) / det,
        (a[0][0] * r[1] - a[1][0] * r[0]) / det,
    ])
}

/// The determinant of a 3x3 matrix (rows).
fn det3(m: &[[f64; 3]; 3]) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// x with a x = r for a 3x3 matrix, by Cramer's rule; None when it is singular.
pub fn solve3(a: [[f64; 3]; 3], r: [f64; 3]) -> Option<[f64; 3]> {
    let det = det3(&a);
    let s = scale(&a, 3);
    if negligible(det, s * s * s) {
        return None;
    }
    let mut x = [0.0; 3];
    for (c, xc) in x.iter_mut().enumerate() {
        let mut ac = a;
        for row in 0..3 {
            ac[row][c] = r[row];
        }
        *xc = det3(&ac) / det;
    }
    Some(x)
}

/// The inverse of a 3x3 matrix; None when it is singular.
pub fn inverse3(m: DMat3) -> Option<DMat3> {
    let s = m.abs().to_cols_array().into_iter().fold(0.0, f64::max);
    (!negligible(m.determinant(), s * s * s)).then(|| m.inverse())
}

/// (K + eps I)^-1 of a symmetric 3x3 K, eps `SINGULAR` times K's largest diagonal entry: a
/// system whose unknowns are (nearly) dependent still gets an answer, exact to that fraction
/// (zero for a zero K).
pub fn regularised_inverse3(k: DMat3) -> DMat3 {
    let eps = SINGULAR * k.x_axis.x.max(k.y_axis.y).max(k.z_axis.z);
    let (a, b, c) = (k.x_axis.x + eps, k.y_axis.y + eps, k.z_axis.z + eps);
    let (xy, xz, yz) = (k.y_axis.x, k.z_axis.x, k.z_axis.y);
    // The cofactors (symmetric, as K is).
    let (c00, c11, c22) = (b * c - yz * yz, a * c - xz * xz, a * b - xy * xy);
    let (c01, c02, c12) = (xz * yz - xy * c, xy * yz - xz * b, xy * xz - a * yz);
    let det = a * c00 + xy * c01 + xz * c02;
    if det.abs() > 0.0 {
        let s = 1.0 / det;
        DMat3::from_cols(
            glam::DVec3::new(c00, c01, c02) * s,
            glam::DVec3::new(c01, c11, c12) * s,
            glam::DVec3::new(c02, c12, c22) * s,
        )
    } else {
        DMat3::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elimination_inverse_and_closed_forms_agree_and_refuse_singular_systems() {
        let a = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]];
        let r = [1.0, -2.0, 0.5];
        let by_cramer = solve3(a, r).unwrap();
        let mut aug = [[0.0; 4]; 3];
        for i in 0..3 {
            aug[i][..3].copy_from_slice(&a[i]);
            aug[i][3] = r[i];
        }
        let by_elimination = solve(&mut aug, 3).unwrap();
        let inv = inverse(&a, 3).unwrap();
        for i in 0..3 {
            let by_inverse: f64 = (0..3).map(|j| inv[i][j] * r[j]).sum();
            assert!((by_cramer[i] - by_elimination[i]).abs() < 1e-15);
            assert!((by_cramer[i] - by_inverse).abs() < 1e-15);
            let back: f64 = (0..3).map(|j| a[i][j] * by_cramer[j]).sum();
            assert!((back - r[i]).abs() < 1e-14);
        }
        // Rows equal to 1e-13 of the scale: singular by the policy, at any scale.
        for s in [1e-6, 1.0, 1e6] {
            let near = [[s, s], [s, s * (1.0 + 1e-13)]];
            assert!(solve2(near, [1.0, 1.0]).is_none());
            let fine = [[s, s], [s, s * (1.0 + 1e-9)]];
            assert!(solve2(fine, [1.0, 1.0]).is_some());
        }
        let line = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]];
        assert!(solve3(line, r).is_none() && inverse(&line, 3).is_none());
        assert!(inverse3(DMat3::from_cols_array_2d(&line)).is_none());
        let nan = [[f64::NAN, 0.0], [0.0, 1.0]];
        assert!(solve2(nan, [1.0, 1.0]).is_none());
    }

    #[test]
    fn the_regularised_inverse_inverts_a_symmetric_k() {
        let k = DMat3::from_cols(
            glam::DVec3::new(2.0, 0.3, -0.4),
            glam::DVec3::new(0.3, 1.5, 0.2),
            glam::DVec3::new(-0.4, 0.2, 0.9),
        );
        let err = (regularised_inverse3(k) * k - DMat3::IDENTITY)
            .to_cols_array()
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(err < 1e-11, "{err}");
        assert_eq!(regularised_inverse3(DMat3::ZERO), DMat3::ZERO);
    }
}
