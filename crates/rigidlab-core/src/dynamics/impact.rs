//! The impulse of one impact: restitution and Coulomb friction solved together, so that no
//! impact can create kinetic energy.
//!
//! An impact between two bodies touching at up to `MAX` points is solved in contact space: per
//! point a normal row and two tangent rows, W the change of those relative velocities per unit
//! impulse (the Delassus matrix, J M^-1 J^T), u the relative velocities at the time of impact.
//! It follows Poisson's hypothesis (Routh 1905; Stronge, Impact Mechanics, 2000, ch. 4):
//! 1. compression: the impulse that stops the approach (u_n >= 0, complementary to the normal
//!    impulse) with Coulomb friction (|P_t| <= mu P_n, opposing the final slip or stopping it);
//! 2. restitution: each point's normal impulse is e times its compression impulse, again with
//!    Coulomb friction up to mu times that.
//!
//! Each phase alone cannot add energy: in the first, N.u_n = 0 and P_t.u_t <= 0 at its end, so
//! its work P.u_end - P.W.P / 2 is never positive. Restitution gives back e^2 of what the
//! normal compression absorbed only while friction does not reverse the slip; where it does,
//! Poisson's hypothesis can return more than was absorbed (Stronge 1990, "Rigid body collisions
//! with friction", Proc. R. Soc. A 431). The impact's work is therefore computed exactly, and
//! where it would be positive the restitution impulse is scaled down until it is zero: the
//! energetic bound of Stronge's coefficient, which Poisson's impulse otherwise meets. Without
//! friction both phases are Newton's law for every e: one frictionless point changes its
//! relative normal velocity from u to -e u, exactly.
//!
//! Tangential restitution beta (Walton and Braun 1986, J. Rheol. 30, 949; the model of granular
//! gases since): a third phase turns each point's slip at the start of the impact, s0, into
//! -beta s0 as far as friction holds (|P_t| <= mu P_n for the whole impact), else the surfaces
//! slide with friction mu P_n. beta = 0 is what the two phases above give (the slip stops);
//! beta = 1 with friction that holds is Bryan's perfectly rough sphere (1894), whose impacts
//! keep the kinetic energy and share it between translation and rotation. For two spheres the
//! tangent rows are independent of the normal ones, and the phase changes the energy by
//! (beta^2 - 1) m_t |s0|^2 / 2 <= 0. For other shapes they are coupled, and as for restitution
//! the phase is scaled down where it would make the impact's work positive.

use crate::math::{DMat3, DVec3};

/// Most points an impact solves together (a manifold's).
pub const MAX: usize = 4;
const ROWS: usize = 3 * MAX;

/// Sweeps of the projected Gauss-Seidel solve of each phase, at most.
const SWEEPS: usize = 400;
/// The sweeps stop once no row's velocity changes by more than this fraction of the impact's
/// speed: the impulses are then exact to round-off for impacts of any size.
const CONVERGED: f64 = 1e-15;

/// A body as the impact sees it.
#[derive(Clone, Copy, Debug)]
pub struct ImpactBody {
    pub inv_mass: f64,
    /// World-frame inverse inertia.
    pub inv_inertia: DMat3,
    /// Velocity and angular velocity at the time of impact.
    pub v: DVec3,
    pub w: DVec3,
}

/// One point of the impact: its lever arms from the bodies' centres and the normal (from A to
/// B).
#[derive(Clone, Copy, Debug, Default)]
pub struct ImpactPoint {
    pub ra: DVec3,
    pub rb: DVec3,
    pub n: DVec3,
}

/// What the impact gives each point: its normal impulse and its friction impulse (a world
/// vector in the tangent plane), acting on B (A takes the opposite).
#[derive(Clone, Copy, Debug, Default)]
pub struct PointImpulse {
    pub normal: f64,
    pub tangent: DVec3,
}

/// The coefficients of one impact.
#[derive(Clone, Copy, Debug, Default)]
pub struct Coefficients {
    /// Restitution e in [0, 1].
    pub restitution: f64,
    /// Friction coefficient mu >= 0.
    pub friction: f64,
    /// Tangential restitution beta in [-1, 1].
    pub tangential: f64,
}

/// The impact of bodies `a` and `b` at `points` (at most `MAX`) with coefficients `k`. Returns
/// each point's impulse and the approach speed (the fastest point's, m/s).
pub fn solve(
    a: &ImpactBody,
    b: &ImpactBody,
    points: &[ImpactPoint],
    k: Coefficients,
    out: &mut [PointImpulse],
) -> f64 {
    let (e, mu) = (k.restitution, k.friction);
    let m = points.len().min(MAX);
    let rows = 3 * m;
    // Directions and angular parts of each row: for point i, rows 3i (normal), 3i+1, 3i+2.
    let mut dir = [DVec3::ZERO; ROWS];
    let (mut ca, mut cb) = ([DVec3::ZERO; ROWS], [DVec3::ZERO; ROWS]);
    for (i, p) in points[..m].iter().enumerate() {
        let (t1, t2) = crate::math::tangents(p.n);
        for (k, d) in [p.n, t1, t2].into_iter().enumerate() {
            dir[3 * i + k] = d;
            ca[3 * i + k] = p.ra.cross(d);
            cb[3 * i + k] = p.rb.cross(d);
        }
    }
    let spin_a: [DVec3; ROWS] = std::array::from_fn(|r| a.inv_inertia * ca[r]);
    let spin_b: [DVec3; ROWS] = std::array::from_fn(|r| b.inv_inertia * cb[r]);
    let mut w = [[0.0; ROWS]; ROWS];
    for i in 0..rows {
        for j in 0..=i {
            let wij = dir[i].dot(dir[j]) * (a.inv_mass + b.inv_mass)
                + ca[i].dot(spin_a[j])
                + cb[i].dot(spin_b[j]);
            w[i][j] = wij;
            w[j][i] = wij;
        }
    }
    let u0: [f64; ROWS] = std::array::from_fn(|r| {
        if r < rows {
            dir[r].dot(b.v - a.v) + cb[r].dot(b.w) - ca[r].dot(a.w)
        } else {
            0.0
        }
    });
    let speed = (0..m).map(|i| -u0[3 * i]).fold(0.0, f64::max);
    let scale = speed.max(f64::MIN_POSITIVE);

    // Phase 1: compression.
    let mut pc = [0.0; ROWS];
    let mut u = u0;
    pgs(&w, &mut u, &mut pc, m, true, mu, &[0.0; MAX], scale);
    let work_c = work(&w, &u0, &pc, rows);

    // Phase 2: restitution, the normal impulses e times those of compression.
    let mut pr = [0.0; ROWS];
    let mut limit = [0.0; MAX];
    for i in 0..m {
        pr[3 * i] = e * pc[3 * i];
        limit[i] = mu * pr[3 * i];
        add_column(&w, &mut u, 3 * i, pr[3 * i], rows);
    }
    pgs(&w, &mut u, &mut pr, m, false, mu, &limit, scale);

    let s = bounded_step(&w, &u0, work_c, &pc, &pr, rows);
    let mut p: [f64; ROWS] = std::array::from_fn(|r| pc[r] + s * pr[r]);

    // Phase 3: tangential restitution, from each point's slip s0 towards -beta s0 within the
    // friction the whole impact allows. The solve drives the tangent rows' u to zero, so they
    // are offset by the target. Where the rows are coupled (not two spheres) turning the slip
    // can push a point back into the surface: its normal impulse may then grow, never shrink,
    // to keep it from approaching.
    if k.tangential != 0.0 && mu > 0.0 {
        let mut u: [f64; ROWS] =
            std::array::from_fn(|r| u0[r] + (0..rows).map(|c| w[r][c] * p[c]).sum::<f64>());
        let mut floor = [0.0; MAX];
        for i in 0..m {
            floor[i] = p[3 * i];
            for r in [3 * i + 1, 3 * i + 2] {
                u[r] += k.tangential * u0[r];
            }
        }
        let before = p;
        let work_p = work(&w, &u0, &before, rows);
        pgs(&w, &mut u, &mut p, m, true, mu, &floor, scale);
        let added: [f64; ROWS] = std::array::from_fn(|r| p[r] - before[r]);
        let s = bounded_step(&w, &u0, work_p, &before, &added, rows);
        p = std::array::from_fn(|r| before[r] + s * added[r]);
    }
    for (i, o) in out[..m].iter_mut().enumerate() {
        let r = 3 * i;
        o.normal = p[r];
        o.tangent = dir[r + 1] * p[r + 1] + dir[r + 2] * p[r + 2];
    }
    speed
}

/// The largest s in [0, 1] for which the impulse p + s dp does no positive work, given the
/// work `work_p` <= 0 of p: its work is work_p + s u1.dp + s^2 dp.W.dp / 2, with u1 the
/// velocities after p.
fn bounded_step(
    w: &[[f64; ROWS]; ROWS],
    u0: &[f64; ROWS],
    work_p: f64,
    p: &[f64; ROWS],
    dp: &[f64; ROWS],
    rows: usize,
) -> f64 {
    let u1: [f64; ROWS] =
        std::array::from_fn(|r| u0[r] + (0..rows).map(|c| w[r][c] * p[c]).sum::<f64>());
    let linear: f64 = (0..rows).map(|r| u1[r] * dp[r]).sum();
    let quad: f64 = 0.5
        * (0..rows)
            .map(|r| dp[r] * (0..rows).map(|c| w[r][c] * dp[c]).sum::<f64>())
            .sum::<f64>();
    let total = work_p + linear + quad;
    // Round-off of an impact that keeps the energy (whose work is zero) must not scale it.
    if total > 1e-12 * (work_p.abs() + linear.abs() + quad.abs()) && quad > 0.0 {
        // The larger root of the quadratic, where the work comes back to zero; work_p <= 0
        // puts it in [0, 1).
        let disc = (linear * linear - 4.0 * quad * work_p).max(0.0);
        ((-linear + disc.sqrt()) / (2.0 * quad)).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// The kinetic energy an impulse p adds when the relative velocities were u0: p.u0 + p.W.p / 2.
fn work(w: &[[f64; ROWS]; ROWS], u0: &[f64; ROWS], p: &[f64; ROWS], rows: usize) -> f64 {
    (0..rows)
        .map(|r| p[r] * (u0[r] + 0.5 * (0..rows).map(|c| w[r][c] * p[c]).sum::<f64>()))
        .sum()
}

/// u += W[:, col] * d.
fn add_column(w: &[[f64; ROWS]; ROWS], u: &mut [f64; ROWS], col: usize, d: f64, rows: usize) {
    if d != 0.0 {
        for r in 0..rows {
            u[r] += w[r][col] * d;
        }
    }
}

/// Projected Gauss-Seidel on the rows of `m` points, updating the impulses `p` and the
/// velocities `u` together. With `normal`, each point's normal impulse keeps u_n >= 0 (and
/// p_n >= bound) and its friction is limited by mu p_n; otherwise the normal impulses stay as
/// they are and friction is limited by `bound`.
#[allow(clippy::too_many_arguments)]
fn pgs(
    w: &[[f64; ROWS]; ROWS],
    u: &mut [f64; ROWS],
    p: &mut [f64; ROWS],
    m: usize,
    normal: bool,
    mu: f64,
    bound: &[f64; MAX],
    scale: f64,
) {
    let rows = 3 * m;
    let frictionless = mu == 0.0;
    if !normal && frictionless {
        return;
    }
    for _ in 0..SWEEPS {
        let mut change = 0.0f64;
        for (i, &point_bound) in bound.iter().enumerate().take(m) {
            let r = 3 * i;
            if normal {
                let new = (p[r] - u[r] / w[r][r]).max(point_bound);
                let d = new - p[r];
                if d != 0.0 {
                    p[r] = new;
                    add_column(w, u, r, d, rows);
                    change = change.max((d * w[r][r]).abs());
                }
            }
            if frictionless {
                continue;
            }
            let lim = if normal { mu * p[r] } else { point_bound };
            // The two tangent rows together: the impulse that stops the slip, within the disc.
            let (a11, a12, a22) = (w[r + 1][r + 1], w[r + 1][r + 2], w[r + 2][r + 2]);
            let det = a11 * a22 - a12 * a12;
            if det <= 0.0 {
                continue;
            }
            let (s1, s2) = (u[r + 1], u[r + 2]);
            let (mut n1, mut n2) = (
                p[r + 1] - (a22 * s1 - a12 * s2) / det,
                p[r + 2] - (a11 * s2 - a12 * s1) / det,
            );
            let len = (n1 * n1 + n2 * n2).sqrt();
            if len > lim {
                let k = if len > 0.0 { lim / len } else { 0.0 };
                (n1, n2) = (n1 * k, n2 * k);
            }
            let (d1, d2) = (n1 - p[r + 1], n2 - p[r + 2]);
            if d1 != 0.0 || d2 != 0.0 {
                (p[r + 1], p[r + 2]) = (n1, n2);
                add_column(w, u, r + 1, d1, rows);
                add_column(w, u, r + 2, d2, rows);
                change = change
                    .max((d1 * a11 + d2 * a12).abs())
                    .max((d1 * a12 + d2 * a22).abs());
            }
        }
        if change <= CONVERGED * scale {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball(mass: f64, radius: f64, v: DVec3, w: DVec3) -> ImpactBody {
        let i = 0.4 * mass * radius * radius;
        ImpactBody {
            inv_mass: 1.0 / mass,
            inv_inertia: DMat3::from_diagonal(DVec3::splat(1.0 / i)),
            v,
            w,
        }
    }

    fn coefficients(restitution: f64, friction: f64, tangential: f64) -> Coefficients {
        Coefficients {
            restitution,
            friction,
            tangential,
        }
    }

    fn kinetic(b: &ImpactBody) -> f64 {
        let inertia = b.inv_inertia.inverse();
        0.5 * b.v.length_squared() / b.inv_mass + 0.5 * b.w.dot(inertia * b.w)
    }

    fn apply(a: &mut ImpactBody, b: &mut ImpactBody, points: &[ImpactPoint], out: &[PointImpulse]) {
        for (p, o) in points.iter().zip(out) {
            let j = p.n * o.normal + o.tangent;
            a.v -= j * a.inv_mass;
            a.w -= a.inv_inertia * p.ra.cross(j);
            b.v += j * b.inv_mass;
            b.w += b.inv_inertia * p.rb.cross(j);
        }
    }

    #[test]
    fn frictionless_head_on_is_newtons_law() {
        for e in [0.0, 0.3, 0.8, 1.0] {
            let (mut a, mut b) = (
                ball(1.0, 0.1, DVec3::X * 2.0, DVec3::ZERO),
                ball(3.0, 0.1, DVec3::ZERO, DVec3::ZERO),
            );
            let p = [ImpactPoint {
                ra: DVec3::X * 0.1,
                rb: -DVec3::X * 0.1,
                n: DVec3::X,
            }];
            let mut out = [PointImpulse::default()];
            solve(&a, &b, &p, coefficients(e, 0.0, 0.0), &mut out);
            apply(&mut a, &mut b, &p, &out);
            // Closed form: v_a' = (m_a - e m_b) v / (m_a + m_b), v_b' = (1 + e) m_a v / (m_a + m_b).
            assert!(
                (a.v.x - (1.0 - 3.0 * e) * 2.0 / 4.0).abs() < 1e-15,
                "{e}: {}",
                a.v.x
            );
            assert!((b.v.x - (1.0 + e) * 2.0 / 4.0).abs() < 1e-15);
        }
    }

    #[test]
    fn spinning_disc_slides_through_the_impact() {
        // Two unit balls of radius 2 m: B at (-1, 0) m/s spinning at +2 rad/s about z strikes A
        // head-on; e = 1, mu = 0.5: slip never stops, so friction is mu N = 0.5 N s.
        let (mut a, mut b) = (
            ball(1.0, 2.0, DVec3::ZERO, DVec3::ZERO),
            ball(1.0, 2.0, -DVec3::X, DVec3::Z * 2.0),
        );
        let p = [ImpactPoint {
            ra: DVec3::X * 2.0,
            rb: -DVec3::X * 2.0,
            n: DVec3::X,
        }];
        let mut out = [PointImpulse::default()];
        solve(&a, &b, &p, coefficients(1.0, 0.5, 0.0), &mut out);
        apply(&mut a, &mut b, &p, &out);
        assert!((out[0].normal - 1.0).abs() < 1e-14, "{:?}", out[0]);
        assert!(
            (a.v - DVec3::new(-1.0, -0.5, 0.0)).length() < 1e-14,
            "{:?}",
            a.v
        );
        assert!(
            (b.v - DVec3::new(0.0, 0.5, 0.0)).length() < 1e-14,
            "{:?}",
            b.v
        );
    }

    #[test]
    fn a_box_corner_never_gains_energy() {
        // A unit cube (side 1) landing on a corner on a static floor, tilted and spinning:
        // every e and mu, every direction of slip.
        let inertia = 1.0 / 6.0;
        let floor = ImpactBody {
            inv_mass: 0.0,
            inv_inertia: DMat3::ZERO,
            v: DVec3::ZERO,
            w: DVec3::ZERO,
        };
        for e in [0.0, 0.5, 0.8, 0.9, 1.0] {
            for (mu, beta) in [0.0, 0.3, 0.5, 1.0, 3.0]
                .into_iter()
                .flat_map(|mu| [-1.0, 0.0, 0.5, 1.0].map(|beta| (mu, beta)))
            {
                for k in 0..40 {
                    let t = k as f64;
                    let r = DVec3::new(0.5 * (0.3 * t).cos(), -0.7, 0.5 * (0.7 * t).sin());
                    let v = DVec3::new((1.3 * t).sin(), -1.0 - 0.1 * t, (0.4 * t).cos());
                    let w = DVec3::new((0.9 * t).cos(), (0.2 * t).sin(), 3.0 * (0.5 * t).sin());
                    let mut b = ImpactBody {
                        inv_mass: 1.0,
                        inv_inertia: DMat3::from_diagonal(DVec3::splat(1.0 / inertia)),
                        v,
                        w,
                    };
                    let p = [ImpactPoint {
                        ra: r,
                        rb: r,
                        n: DVec3::Y,
                    }];
                    if (b.v + b.w.cross(r)).y >= 0.0 {
                        continue;
                    }
                    let mut a = floor;
                    let before = kinetic(&b);
                    let mut out = [PointImpulse::default()];
                    solve(&a, &b, &p, coefficients(e, mu, beta), &mut out);
                    apply(&mut a, &mut b, &p, &out);
                    let after = kinetic(&b);
                    assert!(
                        after <= before * (1.0 + 1e-12),
                        "e {e} mu {mu} beta {beta} case {k}: {before} -> {after}"
                    );
                    assert!((b.v + b.w.cross(r)).y >= -1e-12, "still approaching");
                    if mu == 0.0 {
                        // Frictionless: Newton's law at the point.
                        let un = (v + w.cross(r)).y;
                        assert!(((b.v + b.w.cross(r)).y + e * un).abs() < 1e-12 * un.abs());
                    }
                }
            }
        }
    }

    /// Slip of B's surface over A's at the point, in the tangent plane.
    fn slip(a: &ImpactBody, b: &ImpactBody, p: &ImpactPoint) -> DVec3 {
        let u = b.v + b.w.cross(p.rb) - a.v - a.w.cross(p.ra);
        u - p.n * u.dot(p.n)
    }

    #[test]
    fn rough_spheres_turn_their_slip_by_minus_beta() {
        // Two spheres of different mass and size in an oblique, spinning impact, friction
        // high enough to hold: the slip after is exactly -beta times the slip before, the
        // normal part is Newton's, and beta = 1 with e = 1 keeps the energy.
        for beta in [-1.0, -0.3, 0.0, 0.4, 1.0] {
            for e in [0.5, 1.0] {
                let mut a = ball(
                    1.0,
                    0.1,
                    DVec3::new(0.3, -0.2, 0.1),
                    DVec3::new(0.0, 4.0, -7.0),
                );
                let mut b = ball(
                    2.5,
                    0.15,
                    DVec3::new(-1.0, 0.4, 0.0),
                    DVec3::new(5.0, 1.0, 3.0),
                );
                let n = DVec3::new(1.0, 0.2, -0.1).normalize();
                let p = [ImpactPoint {
                    ra: n * 0.1,
                    rb: -n * 0.15,
                    n,
                }];
                let (s0, un0) = (slip(&a, &b, &p[0]), (b.v - a.v).dot(n));
                let before = kinetic(&a) + kinetic(&b);
                let mut out = [PointImpulse::default()];
                solve(&a, &b, &p, coefficients(e, 100.0, beta), &mut out);
                apply(&mut a, &mut b, &p, &out);
                let s1 = slip(&a, &b, &p[0]);
                assert!(
                    (s1 + beta * s0).length() < 1e-13 * s0.length(),
                    "{beta}: {s0} -> {s1}"
                );
                assert!(((b.v - a.v).dot(n) + e * un0).abs() < 1e-13 * un0.abs());
                let after = kinetic(&a) + kinetic(&b);
                if e == 1.0 && beta.abs() == 1.0 {
                    assert!(
                        (after - before).abs() < 1e-14 * before,
                        "{before} -> {after}"
                    );
                } else {
                    assert!(after < before);
                }
            }
        }
    }

    #[test]
    fn rough_spheres_slide_where_friction_cannot_hold() {
        // A grazing hit: reversing the slip would need more than mu N, so the friction is
        // mu N against the slip, as for beta = 0.
        let (a, b) = (
            ball(1.0, 0.1, DVec3::ZERO, DVec3::ZERO),
            ball(1.0, 0.1, DVec3::new(-0.1, 3.0, 0.0), DVec3::ZERO),
        );
        let p = [ImpactPoint {
            ra: DVec3::X * 0.1,
            rb: -DVec3::X * 0.1,
            n: DVec3::X,
        }];
        let mut rough = [PointImpulse::default()];
        let mut plain = [PointImpulse::default()];
        solve(&a, &b, &p, coefficients(1.0, 0.2, 1.0), &mut rough);
        solve(&a, &b, &p, coefficients(1.0, 0.2, 0.0), &mut plain);
        assert!((rough[0].normal - 0.1).abs() < 1e-14, "{:?}", rough[0]);
        assert!(
            (rough[0].tangent - DVec3::Y * -0.02).length() < 1e-14,
            "{:?}",
            rough[0]
        );
        assert!((rough[0].tangent - plain[0].tangent).length() < 1e-15);
    }
}
