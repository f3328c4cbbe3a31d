//! The normal impulses of one manifold's points solved together (a small linear
//! complementarity problem) instead of one point after another. Point by point, the first point
//! of a box's face takes more than its share and tips the box; solved together, a resting box
//! gets the same impulse at symmetric corners in a single pass.

use crate::dense;
use crate::math::{DMat3, DVec3};

/// Most points solved together.
pub const MAX: usize = 4;

/// K of up to MAX points sharing the normal n between bodies A and B (summed inverse mass
/// `inv_mass`, world inverse inertias `ia`, `ib`, lever arms `ra`, `rb`): K[i][j], the change of
/// point i's relative normal velocity per unit normal impulse at point j, is
/// (n.n) inv_mass + (ra_i x n).Ia (ra_j x n) + (rb_i x n).Ib (rb_j x n).
pub fn coupling(
    n: DVec3,
    inv_mass: f64,
    ia: DMat3,
    ib: DMat3,
    ra: &[DVec3],
    rb: &[DVec3],
) -> [[f64; MAX]; MAX] {
    let len = ra.len().min(MAX);
    let rows: [Row; MAX] = std::array::from_fn(|i| {
        if i >= len {
            return Row::default();
        }
        let (ca, cb) = (ra[i].cross(n), rb[i].cross(n));
        Row {
            ca,
            cb,
            spin_a: ia * ca,
            spin_b: ib * cb,
        }
    });
    coupling_of_rows(n.dot(n) * inv_mass, len, |i| &rows[i])
}

/// The angular parts of one point's normal row: ra x n, rb x n, and the spins a unit normal
/// impulse gives each body, Ia (ra x n) and Ib (rb x n).
#[derive(Clone, Copy, Debug, Default)]
pub struct Row {
    pub ca: DVec3,
    pub cb: DVec3,
    pub spin_a: DVec3,
    pub spin_b: DVec3,
}

/// K (see `coupling`) of `len` points from their rows (`row(i)`, point i's), `linear` being
/// (n.n) times the summed inverse mass.
pub fn coupling_of_rows<'a>(
    linear: f64,
    len: usize,
    row: impl Fn(usize) -> &'a Row,
) -> [[f64; MAX]; MAX] {
    coupling_moving(linear, (true, true), len, row)
}

/// K (see `coupling`) of `len` points whose impulses move body A only if `inv_mass_a` > 0 and
/// body B only if `inv_mass_b` > 0 (an impulse on one body, the other held where it is): the
/// held body's terms are left out.
pub fn coupling_of_sides<'a>(
    inv_mass_a: f64,
    inv_mass_b: f64,
    len: usize,
    row: impl Fn(usize) -> &'a Row,
) -> [[f64; MAX]; MAX] {
    let moving = (inv_mass_a > 0.0, inv_mass_b > 0.0);
    coupling_moving(inv_mass_a + inv_mass_b, moving, len, row)
}

/// K of `len` points with the angular terms of the bodies `moving` says move (A, B).
fn coupling_moving<'a>(
    linear: f64,
    (on_a, on_b): (bool, bool),
    len: usize,
    row: impl Fn(usize) -> &'a Row,
) -> [[f64; MAX]; MAX] {
    // K is symmetric (the inertias are): each pair once.
    let mut k = [[0.0; MAX]; MAX];
    for i in 0..len.min(MAX) {
        let ri = row(i);
        for j in 0..=i {
            let rj = row(j);
            let mut kij = linear;
            if on_a {
                kij += ri.ca.dot(rj.spin_a);
            }
            if on_b {
                kij += ri.cb.dot(rj.spin_b);
            }
            k[i][j] = kij;
            k[j][i] = kij;
        }
    }
    k
}

/// Every subset of four points, largest first.
const SUBSETS: [u32; 16] = [15, 7, 11, 13, 14, 3, 5, 6, 9, 10, 12, 1, 2, 4, 8, 0];

/// Finds impulses x >= 0 with w = K x + b >= 0 and x_i w_i = 0 for every i, by pivoting from
/// a guess of the points that push (see `search`). K is the points' coupled effective inverse
/// mass; four coplanar points on a rigid face make it singular, so it is regularised slightly,
/// which picks the most even split of an indeterminate load. Returns None when no active set
/// fits.
///
/// `hint` is a guess of the points that push (a bit mask, e.g. those that pushed before), tried
/// first: from one iteration to the next the set rarely changes. `all_factor`, K + eps I of all
/// n points factored (see `factor`), makes the set of all points two substitutions instead of an
/// elimination.
///
/// `start`, when the points already carry impulses x0 (a warm start or an earlier iteration):
/// x0 and the velocity errors v they leave (b = v - K x0). With every point pushing, the change
/// from x0 is solved then, x = x0 - (K + eps I)^-1 (v + eps x0): the large impulses carried over
/// keep their accuracy, where solving for x itself loses digits to the near-singular K.
#[inline]
pub fn solve(
    k: &[[f64; MAX]; MAX],
    b: &[f64; MAX],
    n: usize,
    hint: u32,
    all_factor: Option<&Factor>,
    start: Option<(&[f64; MAX], &[f64; MAX])>,
) -> Option<[f64; MAX]> {
    // The commonest case first, without a search: every point pushed before and still does.
    let full = (1 << n) - 1;
    if let Some(f) = all_factor.filter(|_| hint & full == full) {
        let tol = tolerance(b, n);
        if (0..n).all(|i| b[i] >= -tol) {
            return Some([0.0; MAX]);
        }
        let x = match start {
            Some((x0, v)) => pushing_from(f, x0, v, n, tol),
            None => all_pushing(k, f, b, n, f.eps, tol),
        };
        if x.is_some() {
            return x;
        }
    }
    search(k, b, n, hint, all_factor)
}

/// Every point pushing, from impulses x0 that leave velocity errors v (see `solve`); None when
/// an impulse would be negative.
#[inline]
fn pushing_from(
    f: &Factor,
    x0: &[f64; MAX],
    v: &[f64; MAX],
    n: usize,
    tol: f64,
) -> Option<[f64; MAX]> {
    let r: [f64; MAX] = std::array::from_fn(|i| v[i] + f.eps * x0[i]);
    let d = f.solve(&r);
    let x: [f64; MAX] = std::array::from_fn(|i| if i < n { x0[i] - d[i] } else { 0.0 });
    if x[..n].iter().any(|&v| v < -tol) {
        return None;
    }
    Some(x.map(|v| v.max(0.0)))
}

/// `solve` when the quick cases do not fit: principal pivoting from the hint, then, should
/// that not settle, every active set one after another.
#[inline(never)]
fn search(
    k: &[[f64; MAX]; MAX],
    b: &[f64; MAX],
    n: usize,
    hint: u32,
    all_factor: Option<&Factor>,
) -> Option<[f64; MAX]> {
    let eps = regularisation(k, n);
    if eps <= 0.0 {
        return None;
    }
    let tol = tolerance(b, n);
    // No point approaching: nothing to push (the commonest case, touching without load).
    if (0..n).all(|i| b[i] >= -tol) {
        return Some([0.0; MAX]);
    }
    let full = (1 << n) - 1;
    let hint = hint & full;
    let mut tried = 0u32;
    // Murty's least-index principal pivoting: the first point on the wrong side changes
    // sides (a pushing one whose impulse comes out negative, or an idle one that would
    // approach). K + eps I is positive definite, so this reaches the one solution, in one or
    // two pivots from a good guess: on 1 000 dropped cubes, where one call in six misses its
    // guess, the sets taken in turn from the largest tried 7.5 each of those. Round-off near a
    // degenerate face could make the pivots circle: after 2^n of them the enumeration decides.
    let mut mask = hint;
    for _ in 0..1 << n {
        tried |= 1 << mask;
        let Some(x) = subset_solution(k, b, n, mask, all_factor, eps) else {
            break;
        };
        match wrong_side(k, b, n, mask, &x, tol) {
            Some(i) => mask ^= 1 << i,
            None => return Some(x.map(|v| v.max(0.0))),
        }
    }
    // Subsets by decreasing size, so a resting face uses all its points.
    for mask in SUBSETS.iter().copied().filter(|&m| m < 1 << n) {
        if tried & (1 << mask) != 0 {
            continue;
        }
        let Some(x) = subset_solution(k, b, n, mask, all_factor, eps) else {
            continue;
        };
        if wrong_side(k, b, n, mask, &x, tol).is_none() {
            return Some(x.map(|v| v.max(0.0)));
        }
    }
    None
}

/// The first point on the wrong side of the active set `mask` whose solution is `x`: a pushing
/// one whose impulse is negative, or an idle one that the pushes leave approaching (both beyond
/// `tol`); None when `x` solves the problem.
fn wrong_side(
    k: &[[f64; MAX]; MAX],
    b: &[f64; MAX],
    n: usize,
    mask: u32,
    x: &[f64; MAX],
    tol: f64,
) -> Option<usize> {
    let pushes = x.map(|v| v.max(0.0));
    (0..n).find(|&i| {
        if mask & (1 << i) != 0 {
            x[i] < -tol
        } else {
            row_times(k, i, &pushes, n) + b[i] < -tol
        }
    })
}

/// The impulses with the points of `mask` pushing, as much as makes each of their relative
/// velocities zero, and the others idle (zero); None when K + eps I of the set is singular.
fn subset_solution(
    k: &[[f64; MAX]; MAX],
    b: &[f64; MAX],
    n: usize,
    mask: u32,
    all_factor: Option<&Factor>,
    eps: f64,
) -> Option<[f64; MAX]> {
    if mask == (1 << n) - 1 {
        if let Some(f) = all_factor {
            return Some(all_pushing_unchecked(k, f, b, n, eps));
        }
    }
    let mut set = [0usize; MAX];
    let mut m = 0;
    for i in (0..n).filter(|i| mask & (1 << i) != 0) {
        set[m] = i;
        m += 1;
    }
    let mut x = [0.0; MAX];
    if m > 0 {
        let sol = solve_dense(k, b, &set[..m], eps)?;
        for (j, &i) in set[..m].iter().enumerate() {
            x[i] = sol[j];
        }
    }
    Some(x)
}

/// The regularisation `solve` adds to K's diagonal.
fn regularisation(k: &[[f64; MAX]; MAX], n: usize) -> f64 {
    1e-10 * (0..n).map(|i| k[i][i]).fold(0.0, f64::max)
}

/// K + eps I of all n points together, as `solve` regularises it, factored as L D L^T (K is
/// symmetric, and regularised it is positive definite): with it, the common case (every point
/// pushing) takes two substitutions per iteration instead of an elimination.
#[derive(Clone, Copy, Debug)]
pub struct Factor {
    /// The unit lower triangle L (below the diagonal) and 1 / D.
    l: [[f64; MAX]; MAX],
    d_inv: [f64; MAX],
    n: usize,
    /// The regularisation eps.
    eps: f64,
}

impl Factor {
    /// x with (K + eps I) x = r.
    #[inline]
    fn solve(&self, r: &[f64; MAX]) -> [f64; MAX] {
        let (l, d) = (&self.l, &self.d_inv);
        if self.n == MAX {
            // A face's four points (the common case), written out.
            let y0 = r[0];
            let y1 = r[1] - l[1][0] * y0;
            let y2 = r[2] - l[2][0] * y0 - l[2][1] * y1;
            let y3 = r[3] - l[3][0] * y0 - l[3][1] * y1 - l[3][2] * y2;
            let x3 = y3 * d[3];
            let x2 = y2 * d[2] - l[3][2] * x3;
            let x1 = y1 * d[1] - l[2][1] * x2 - l[3][1] * x3;
            let x0 = y0 * d[0] - l[1][0] * x1 - l[2][0] * x2 - l[3][0] * x3;
            return [x0, x1, x2, x3];
        }
        let n = self.n;
        let mut y = [0.0; MAX];
        for i in 0..n {
            y[i] = r[i];
            for m in 0..i {
                y[i] -= l[i][m] * y[m];
            }
        }
        for i in 0..n {
            y[i] *= d[i];
        }
        for i in (0..n).rev() {
            for m in i + 1..n {
                y[i] -= l[m][i] * y[m];
            }
        }
        y
    }
}

/// Factors K + eps I of n points (see `Factor`); None when it is not positive definite.
pub fn factor(k: &[[f64; MAX]; MAX], n: usize) -> Option<Factor> {
    let eps = regularisation(k, n);
    if eps <= 0.0 {
        return None;
    }
    let (mut l, mut d) = ([[0.0; MAX]; MAX], [0.0; MAX]);
    for j in 0..n {
        let mut dj = k[j][j] + eps;
        for m in 0..j {
            dj -= l[j][m] * l[j][m] * d[m];
        }
        // Not positive (or NaN): not positive definite.
        if dj.is_nan() || dj <= 0.0 {
            return None;
        }
        d[j] = dj;
        for i in j + 1..n {
            let mut s = k[i][j];
            for m in 0..j {
                s -= l[i][m] * l[j][m] * d[m];
            }
            l[i][j] = s / dj;
        }
    }
    Some(Factor {
        l,
        d_inv: std::array::from_fn(|i| if i < n { 1.0 / d[i] } else { 0.0 }),
        n,
        eps,
    })
}

/// The solution with every point pushing, x = -(K + eps I)^-1 b, when none of its impulses is
/// negative (then it is `solve`'s answer); None otherwise. K is nearly singular (four points on a
/// face), so the solution is refined once against K itself to the elimination's accuracy.
#[cfg(test)]
fn solve_all_pushing(
    k: &[[f64; MAX]; MAX],
    f: &Factor,
    b: &[f64; MAX],
    n: usize,
) -> Option<[f64; MAX]> {
    all_pushing(k, f, b, n, f.eps, tolerance(b, n))
}

/// `solve_all_pushing` with `solve`'s regularisation and tolerance.
fn all_pushing(
    k: &[[f64; MAX]; MAX],
    f: &Factor,
    b: &[f64; MAX],
    n: usize,
    eps: f64,
    tol: f64,
) -> Option<[f64; MAX]> {
    let x = all_pushing_unchecked(k, f, b, n, eps);
    if x[..n].iter().any(|&v| v < -tol) {
        return None;
    }
    Some(x.map(|v| v.max(0.0)))
}

/// x = -(K + eps I)^-1 b refined once against K (see `solve_all_pushing`), whatever its signs.
fn all_pushing_unchecked(
    k: &[[f64; MAX]; MAX],
    f: &Factor,
    b: &[f64; MAX],
    n: usize,
    eps: f64,
) -> [f64; MAX] {
    let mut x = f.solve(b).map(|v| -v);
    let mut r = [0.0; MAX];
    for i in 0..n {
        r[i] = b[i] + eps * x[i] + row_times(k, i, &x, n);
    }
    let dx = f.solve(&r);
    for i in 0..n {
        x[i] -= dx[i];
    }
    x
}

/// Row i of m times v, over the first n entries (summed in order).
#[inline(always)]
pub fn row_times(m: &[[f64; MAX]; MAX], i: usize, v: &[f64; MAX], n: usize) -> f64 {
    let row = &m[i];
    if n == MAX {
        row[0] * v[0] + row[1] * v[1] + row[2] * v[2] + row[3] * v[3]
    } else {
        (0..n).map(|c| row[c] * v[c]).sum()
    }
}

/// The largest change that impulse changes `d` of the first n points make to a point's
/// relative normal velocity: max |(K d)_i|. Moving a load among a face's four points (K is
/// singular) changes no velocity, and none is counted.
pub fn largest_change(k: &[[f64; MAX]; MAX], d: &[f64; MAX], n: usize) -> f64 {
    (0..n)
        .map(|i| row_times(k, i, d, n).abs())
        .fold(0.0, f64::max)
}

/// How far below zero a velocity or impulse may round and still count as zero.
fn tolerance(b: &[f64; MAX], n: usize) -> f64 {
    1e-12 * (1.0 + (0..n).map(|i| b[i].abs()).fold(0.0, f64::max))
}

/// Solves (K_SS + eps I) x = -b_S for the index set S by Gaussian elimination.
fn solve_dense(
    k: &[[f64; MAX]; MAX],
    b: &[f64; MAX],
    idx: &[usize],
    eps: f64,
) -> Option<[f64; MAX]> {
    let m = idx.len();
    let mut x = [0.0; MAX];
    // One to three points (a corner, an edge: most subsets tried) in closed form.
    match *idx {
        [i] => {
            let d = k[i][i] + eps;
            if dense::negligible(d, d.abs()) {
                return None;
            }
            x[0] = -b[i] / d;
        }
        [i, j] => {
            let a = [[k[i][i] + eps, k[i][j]], [k[j][i], k[j][j] + eps]];
            x[..2].copy_from_slice(&dense::solve2(a, [-b[i], -b[j]])?);
        }
        [i, j, l] => {
            let a = [
                [k[i][i] + eps, k[i][j], k[i][l]],
                [k[j][i], k[j][j] + eps, k[j][l]],
                [k[l][i], k[l][j], k[l][l] + eps],
            ];
            x[..3].copy_from_slice(&dense::solve3(a, [-b[i], -b[j], -b[l]])?);
        }
        _ => {
            let mut a = [[0.0; MAX + 1]; MAX];
            for (r, &i) in idx.iter().enumerate() {
                for (c, &j) in idx.iter().enumerate() {
                    a[r][c] = k[i][j] + if r == c { eps } else { 0.0 };
                }
                a[r][m] = -b[i];
            }
            x = dense::solve(&mut a, m)?;
        }
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_coupled_points_with_one_lifting_off() {
        // K = [[2, 1], [1, 2]], b = (-3, 1): both active gives x = (7/3, -5/3) < 0; point 0
        // alone gives x0 = 1.5 and w1 = 1.5 + 1 >= 0.
        let mut k = [[0.0; MAX]; MAX];
        k[0][0] = 2.0;
        k[0][1] = 1.0;
        k[1][0] = 1.0;
        k[1][1] = 2.0;
        let x = solve(&k, &[-3.0, 1.0, 0.0, 0.0], 2, 0, None, None).unwrap();
        assert!((x[0] - 1.5).abs() < 1e-9 && x[1] == 0.0);
        // Nothing pushing in: no impulse.
        assert_eq!(
            solve(&k, &[1.0, 1.0, 0.0, 0.0], 2, 3, None, None).unwrap(),
            [0.0; MAX]
        );
    }

    #[test]
    fn a_load_moved_among_a_face_changes_no_velocity() {
        // A cube of mass 2 and half-size 0.5 on the ground by its four bottom corners (the
        // ground cannot move). Moving load from one diagonal to the other leaves the force and
        // its moments as they were: no point's velocity changes. A push of 1 at every corner
        // moves the cube straight up by 4 / m, and every corner with it.
        let (m, h) = (2.0, 0.5);
        let inertia = m * (2.0 * h) * (2.0 * h) / 6.0;
        let ia = DMat3::from_diagonal(DVec3::splat(1.0 / inertia));
        let corners = [(h, h), (h, -h), (-h, -h), (-h, h)].map(|(x, z)| DVec3::new(x, -h, z));
        let k = coupling(
            DVec3::Y,
            1.0 / m,
            ia,
            DMat3::ZERO,
            &corners,
            &[DVec3::ZERO; MAX],
        );
        let shift = [1.0, -1.0, 1.0, -1.0];
        assert!(largest_change(&k, &shift, MAX) < 1e-12);
        assert!(k[0][0] > 0.5, "each corner alone moves");
        let even = [1.0; MAX];
        assert!((largest_change(&k, &even, MAX) - 4.0 / m).abs() < 1e-12);
    }

    /// K of a unit-mass square plate (inertia 1/6 about its in-plane axes) on four points at
    /// (x, z) in its plane.
    fn plate(corners: &[(f64, f64); 4]) -> [[f64; MAX]; MAX] {
        std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                1.0 + 6.0 * (corners[i].0 * corners[j].0 + corners[i].1 * corners[j].1)
            })
        })
    }

    #[test]
    fn four_corners_of_a_square_share_evenly() {
        // A unit-mass square plate (inertia 1/6 about its in-plane axes) on four corners at
        // (+-1/2, +-1/2), approaching at speed 1: each corner takes a quarter of the impulse.
        let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
        let k = plate(&corners);
        let x = solve(&k, &[-1.0; MAX], 4, 1, None, None).unwrap();
        for v in x {
            assert!((v - 0.25).abs() < 1e-6, "{x:?}");
        }
    }

    #[test]
    fn the_factored_all_pushing_case_agrees_with_the_enumeration() {
        // Four corners of a plate as in the test above but off-centre and unequal, pushed in
        // unevenly: every corner pushes, and both ways give the same impulses.
        let corners = [(-0.4, -0.5), (0.6, -0.5), (0.5, 0.45), (-0.5, 0.55)];
        let k = plate(&corners);
        let pushes = [1.0, 1.2, 0.9, 1.1];
        let b: [f64; MAX] =
            std::array::from_fn(|i| -(0..4).map(|j| k[i][j] * pushes[j]).sum::<f64>());
        let f = factor(&k, 4).unwrap();
        let fast = solve_all_pushing(&k, &f, &b, 4).unwrap();
        let slow = solve(&k, &b, 4, 0, None, None).unwrap();
        // Four points on a rigid face leave one way of sharing the load undetermined (K has
        // rank 3): both ways meet K x = -b to rounding and differ only along it, slightly.
        for i in 0..4 {
            let residual = |x: &[f64; MAX]| (0..4).map(|j| k[i][j] * x[j]).sum::<f64>() + b[i];
            assert!(
                residual(&fast).abs() < 1e-9 && residual(&slow).abs() < 1e-9,
                "{fast:?} {slow:?}"
            );
            assert!(
                (fast[i] - slow[i]).abs() < 1e-5 && fast[i] > 0.0,
                "{fast:?} {slow:?}"
            );
        }
        // The same through `solve` given the factor.
        assert_eq!(solve(&k, &b, 4, 15, Some(&f), None), Some(fast));
        // One corner lifting off: not all pushing, so the fast path declines.
        assert!(solve_all_pushing(&k, &f, &[-1.0, -1.0, -1.0, 5.0], 4).is_none());
    }

    #[test]
    fn every_hint_reaches_the_one_solution() {
        // K positive definite (a box's face and a tilted edge contact alike): its LCP has one
        // solution, which the pivots must reach from any guess of the pushing points, right or
        // wrong, with some points pushing and others lifting off.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut uniform = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for _ in 0..200 {
            let n = 2 + (uniform().abs() * 3.0) as usize % 3;
            let a: [[f64; MAX]; MAX] = std::array::from_fn(|_| std::array::from_fn(|_| uniform()));
            let mut k = [[0.0; MAX]; MAX];
            for i in 0..n {
                for j in 0..n {
                    k[i][j] = (0..MAX).map(|m| a[m][i] * a[m][j]).sum::<f64>()
                        + if i == j { 0.1 } else { 0.0 };
                }
            }
            let b: [f64; MAX] = std::array::from_fn(|i| if i < n { uniform() } else { 0.0 });
            let reference = solve(&k, &b, n, 0, None, None).unwrap();
            for hint in 0..1u32 << n {
                let x = solve(&k, &b, n, hint, factor(&k, n).as_ref(), None).unwrap();
                // The regularisation leaves a pushing point approaching at eps x (1e-10 of K's
                // diagonal, of order 1, times an impulse of order 1).
                for i in 0..n {
                    let w = row_times(&k, i, &x, n) + b[i];
                    assert!(
                        x[i] >= 0.0 && w >= -1e-8 && (x[i] * w).abs() < 1e-8,
                        "{x:?}"
                    );
                    assert!((x[i] - reference[i]).abs() < 1e-9, "{x:?} {reference:?}");
                }
            }
        }
    }

    #[test]
    fn solving_the_change_from_impulses_carried_over_keeps_them_accurate() {
        // The plate above carrying a load x0 near its solution: velocity errors v it leaves,
        // b = v - K x0. Solving the change meets K x = -b as the refined solve does (to the
        // regularisation, eps x), with the same total impulse; they differ only along the
        // undetermined way of sharing the load (which changes no velocity), slightly.
        let k = plate(&[(-0.4, -0.5), (0.6, -0.5), (0.5, 0.45), (-0.5, 0.55)]);
        let f = factor(&k, 4).unwrap();
        let load = [1.0, 1.2, 0.9, 1.1];
        let b: [f64; MAX] =
            std::array::from_fn(|i| -(0..4).map(|j| k[i][j] * load[j]).sum::<f64>());
        let exact = solve_all_pushing(&k, &f, &b, 4).unwrap();
        let x0: [f64; MAX] = std::array::from_fn(|i| exact[i] * (1.0 + 1e-3 * (i as f64 - 1.5)));
        let v: [f64; MAX] =
            std::array::from_fn(|i| b[i] + (0..4).map(|j| k[i][j] * x0[j]).sum::<f64>());
        let x = solve(&k, &b, 4, 15, Some(&f), Some((&x0, &v))).unwrap();
        for i in 0..4 {
            let residual = (0..4).map(|j| k[i][j] * x[j]).sum::<f64>() + b[i];
            assert!(residual.abs() < 1e-9, "{x:?} {residual}");
            assert!((x[i] - exact[i]).abs() < 1e-5, "{x:?} {exact:?}");
        }
        let total = |x: &[f64; MAX]| x.iter().sum::<f64>();
        assert!(
            (total(&x) - total(&exact)).abs() < 1e-12 * total(&exact),
            "{x:?} {exact:?}"
        );
        // A corner lifting off: not every point pushes, and the search finds that instead.
        let lift = [-1.0, -1.0, -1.0, 5.0];
        let v: [f64; MAX] =
            std::array::from_fn(|i| lift[i] + (0..4).map(|j| k[i][j] * x0[j]).sum::<f64>());
        let x = solve(&k, &lift, 4, 15, Some(&f), Some((&x0, &v))).unwrap();
        assert_eq!(x, solve(&k, &lift, 4, 0, None, None).unwrap());
        assert_eq!(x[3], 0.0);
    }

    #[test]
    fn small_sets_in_closed_form_meet_their_equations() {
        // Every set of one to three corners of an uneven plate: (K_SS + eps I) x = -b_S.
        let k = plate(&[(-0.4, -0.5), (0.6, -0.5), (0.5, 0.45), (-0.5, 0.55)]);
        let b = [-1.0, -0.7, 0.3, -1.4];
        let eps = regularisation(&k, 4);
        for mask in 1u32..15 {
            let idx: Vec<usize> = (0..4).filter(|i| mask & (1 << i) != 0).collect();
            let x = solve_dense(&k, &b, &idx, eps).unwrap();
            for (r, &i) in idx.iter().enumerate() {
                let lhs: f64 = idx
                    .iter()
                    .enumerate()
                    .map(|(c, &j)| (k[i][j] + if r == c { eps } else { 0.0 }) * x[c])
                    .sum();
                assert!((lhs + b[i]).abs() < 1e-9, "set {idx:?}: {x:?}");
            }
        }
    }
}
