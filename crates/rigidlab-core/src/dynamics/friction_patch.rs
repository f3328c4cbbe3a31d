//! Friction of one contact as a whole (a patch): a force in the tangent plane at the centroid
//! of the manifold's points and a twist about the normal, limited together by mu times the
//! manifold's summed normal impulse.
//!
//! Coulomb friction point by point ties each corner's limit to that corner's share of the
//! load. A face resting on four corners is statically indeterminate: many shares give the same
//! motion, and the iterations move between them, so each corner's limit jumps from one
//! iteration to the next, and friction never settles (a stack of boxes keeps shivering). The
//! summed load is determined by the motion, so the patch's limit is steady. It is also solved
//! at once: a sliding face reaches its full kinetic friction in one pass instead of corner by
//! corner (PhysX's patch friction works the same way).
//!
//! The three unknowns are the friction force along two tangents t1, t2 and the twist impulse
//! divided by the patch radius r (the points' mean distance from their centroid), so that all
//! three are forces: the limit is then a sphere, |(f1, f2, tau / r)| <= mu N, the friction
//! "limit surface" of a patch whose load sits at radius r (Goyal, Ruina and Papadopoulos 1991
//! approximate it by such an ellipsoid). For one load, the largest twist it allows is mu N r,
//! what the same load on the corners at their mean radius allows point by point; a single point
//! (r = 0) has no twist.

use crate::dense;
use crate::dynamics::solver_body::{Bodies, SolverBody};
use crate::math::{DMat3, DVec3};

/// One manifold's friction.
#[derive(Clone, Copy, Debug, Default)]
pub struct Patch {
    /// The patch centre's lever arms on body A and body B.
    ra: DVec3,
    rb: DVec3,
    /// The tangents and the normal.
    t1: DVec3,
    t2: DVec3,
    n: DVec3,
    /// The points' mean distance from the centre (m).
    radius: f64,
    /// Coupling of the three unknowns (the change of each one's velocity per unit impulse of
    /// each), and its inverse.
    k: DMat3,
    k_inv: DMat3,
    /// Accumulated impulse: along t1, along t2, twist / radius.
    pub impulse: DVec3,
    pub law: Coulomb,
    /// In a 2D world, the spins a unit impulse along t1 gives A and B (see `solve_planar`);
    /// None in 3D.
    planar: Option<(DVec3, DVec3)>,
}

/// Coulomb's law for one patch: static and kinetic coefficients, and whether the surfaces were
/// at rest on each other when the step began (friction holds up to mu_s N then, and is mu_k N
/// while they slide).
#[derive(Clone, Copy, Debug, Default)]
pub struct Coulomb {
    pub mu_s: f64,
    pub mu_k: f64,
    pub sticking: bool,
}

impl Patch {
    /// The patch of points with lever arms `ra`, `rb` (one per point) and common normal n
    /// between bodies A and B. `tangent` are the points' friction impulses of the last step
    /// (world vectors), the warm start. `planar`: the bodies are those of a 2D world, which
    /// move in the x-y plane and turn about z only, and n lies in the plane: the patch can only
    /// slide along the plane's tangent t1 (t2 is z, and a twist about n would turn the bodies
    /// out of the plane), so it has that one unknown.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ba: &SolverBody,
        bb: &SolverBody,
        n: DVec3,
        ra: &[DVec3],
        rb: &[DVec3],
        tangent: &[DVec3],
        law: Coulomb,
        planar: bool,
    ) -> Patch {
        let count = ra.len().max(1) as f64;
        let (ca, cb) = (
            ra.iter().sum::<DVec3>() / count,
            rb.iter().sum::<DVec3>() / count,
        );
        let offsets = || ra.iter().map(move |&r| flat(r - ca, n));
        // One point is its own centre: no radius, no twist (a ball's contact, the commonest).
        let radius = if planar || ra.len() == 1 {
            0.0
        } else {
            offsets().map(DVec3::length).sum::<f64>() / count
        };
        let (t1, t2) = crate::math::tangents(n);
        // Per unknown: the linear direction, the angular parts of the row on A and B, and the
        // spins a unit impulse gives them.
        let lin = [t1, t2, DVec3::ZERO];
        let twist = n * radius;
        let ang_a = [ca.cross(t1), ca.cross(t2), twist];
        let ang_b = [cb.cross(t1), cb.cross(t2), twist];
        let spin =
            |inv_inertia: DMat3, a: DVec3| if a == DVec3::ZERO { a } else { inv_inertia * a };
        let spin_a = ang_a.map(|a| spin(ba.inv_inertia, a));
        let spin_b = ang_b.map(|b| spin(bb.inv_inertia, b));
        let inv_mass = ba.inv_mass + bb.inv_mass;
        let entry = |i: usize, j: usize| {
            lin[i].dot(lin[j]) * inv_mass + ang_a[i].dot(spin_a[j]) + ang_b[i].dot(spin_b[j])
        };
        let mut k = DMat3::ZERO;
        if planar {
            // In the plane, t1's row is apart from t2's and the twist's (their products are
            // zeros): only the diagonal enters the t1 entry of K^-1 that the 2D update uses.
            for i in 0..2 {
                k.col_mut(i)[i] = entry(i, i);
            }
        } else {
            // K is symmetric (the inertias are): each pair once. Without twist its row is
            // zeros (its placeholder below).
            let unknowns = if radius == 0.0 { 2 } else { 3 };
            for i in 0..unknowns {
                for j in 0..=i {
                    let kij = entry(i, j);
                    k.col_mut(j)[i] = kij;
                    k.col_mut(i)[j] = kij;
                }
            }
        }
        // A single point has no twist: keep that unknown at zero with a unit placeholder.
        if radius == 0.0 {
            k.col_mut(2)[2] = 1.0;
        }
        let k_inv = dense::regularised_inverse3(k);
        let force: DVec3 = tangent.iter().map(|&t| flat(t, n)).sum();
        let twisting = if radius > 0.0 {
            let torque: f64 = offsets()
                .zip(tangent)
                .map(|(d, &t)| d.cross(t).dot(n))
                .sum();
            torque / radius
        } else {
            0.0
        };
        let impulse = DVec3::new(force.dot(t1), force.dot(t2), twisting);
        Patch {
            ra: ca,
            rb: cb,
            t1,
            t2,
            n,
            radius,
            k,
            k_inv,
            impulse,
            law,
            planar: planar.then_some((spin_a[0], spin_b[0])),
        }
    }

    /// A patch that carries no impulse, with its law but without its geometry (see `new`),
    /// for a block that may never push: most of a pile's blocks are its bodies' neighbours
    /// within the search's margin, and working out their K and its inverse was a quarter of
    /// preparing 1 000 dropped balls' contacts. `new` gives it its geometry once it carries
    /// load; until then `solve` leaves it as it is, as it leaves a patch without impulse or
    /// load.
    pub fn unloaded(law: Coulomb, planar: bool) -> Patch {
        Patch {
            ra: DVec3::ZERO,
            rb: DVec3::ZERO,
            t1: DVec3::ZERO,
            t2: DVec3::ZERO,
            n: DVec3::ZERO,
            radius: 0.0,
            k: DMat3::ZERO,
            k_inv: DMat3::ZERO,
            impulse: DVec3::ZERO,
            law,
            planar: planar.then_some((DVec3::ZERO, DVec3::ZERO)),
        }
    }

    /// Whether the patch is a 2D world's (see `new`).
    pub fn in_plane(&self) -> bool {
        self.planar.is_some()
    }

    /// The slip velocities of the three unknowns (the twist one times the radius).
    fn slip(&self, ba: &SolverBody, bb: &SolverBody) -> DVec3 {
        let v = (bb.v + bb.w.cross(self.rb)) - (ba.v + ba.w.cross(self.ra));
        DVec3::new(
            self.t1.dot(v),
            self.t2.dot(v),
            self.radius * self.n.dot(bb.w - ba.w),
        )
    }

    /// The friction limit for a summed normal impulse `normal`.
    fn limit(&self, normal: f64) -> f64 {
        (if self.law.sticking {
            self.law.mu_s
        } else {
            self.law.mu_k
        }) * normal
    }

    /// The impulse that stops a slip: the current one minus K^-1 times the slip.
    fn holding_impulse(&self, slip: DVec3) -> DVec3 {
        self.impulse - self.k_inv * slip
    }

    /// The impulse that would hold the patch, its size, against mu N: whether friction holds
    /// it (for a sliding patch: whether kinetic friction stopped it).
    pub fn holds(&self, ba: &SolverBody, bb: &SolverBody, normal: f64) -> bool {
        self.holding_impulse(self.slip(ba, bb)).length() <= self.limit(normal) * (1.0 + 1e-9)
    }

    /// One Gauss-Seidel update with summed normal impulse `normal`: the impulse that stops the
    /// slip if friction can give it; otherwise a step along the slip (with the effective mass
    /// in that direction, so a sliding patch's friction ends up opposing its slip, not pushing
    /// it sideways), kept within the limit. `reach` as for `SolverBody::change`. Returns how
    /// much that changed the slip velocities (m/s, the largest of the three).
    pub fn solve<B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        a: usize,
        b: usize,
        normal: f64,
        reach: f64,
    ) -> f64 {
        // Without load there is no friction to add or take back (a touching side face).
        if normal == 0.0 && self.impulse == DVec3::ZERO {
            return 0.0;
        }
        if let Some(spins) = self.planar {
            return self.solve_planar(bodies, a, b, normal, reach, spins);
        }
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let limit = self.limit(normal);
        let old = self.impulse;
        let slip = self.slip(ba, bb);
        let mut new = self.holding_impulse(slip);
        if new.length_squared() > limit * limit {
            let k = slip.dot(self.k * slip);
            new = old;
            if k > 0.0 {
                new -= slip * (slip.length_squared() / k);
            }
            let len = new.length();
            if len > limit {
                new *= limit / len;
            }
        }
        self.impulse = new;
        if new == old {
            return 0.0;
        }
        self.apply(bodies, a, b, new - old, reach);
        (self.k * (new - old)).abs().max_element()
    }

    /// `solve` of a 2D world's patch, whose one unknown is the impulse along t1 (the others
    /// stay zero): the 3D update reduced to it (K is block diagonal there, t1 apart from t2 and
    /// the twist, whose slips are zero), without the 3D update's matrix products.
    fn solve_planar<B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        a: usize,
        b: usize,
        normal: f64,
        reach: f64,
        (spin_a, spin_b): (DVec3, DVec3),
    ) -> f64 {
        // The bodies move in the plane and turn about z, and the lever arms and t1 lie in the
        // plane, so only x, y and the spin about z are worked out: the 3D update's operations
        // on those components (its other terms are zeros).
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let (ra, rb, t1) = (self.ra, self.rb, self.t1);
        let vx = (bb.v.x + (0.0 - rb.y * bb.w.z)) - (ba.v.x + (0.0 - ra.y * ba.w.z));
        let vy = (bb.v.y + (bb.w.z * rb.x - 0.0)) - (ba.v.y + (ba.w.z * ra.x - 0.0));
        let limit = self.limit(normal);
        let old = self.impulse.x;
        let new = (old - self.k_inv.x_axis.x * (t1.x * vx + t1.y * vy)).clamp(-limit, limit);
        if new == old {
            return 0.0;
        }
        self.impulse.x = new;
        let d = new - old;
        let ba = &mut bodies[a];
        let push = -d * ba.inv_mass;
        ba.change_in_plane((t1.x * push, t1.y * push), spin_a.z * -d, reach);
        let bb = &mut bodies[b];
        let push = d * bb.inv_mass;
        bb.change_in_plane((t1.x * push, t1.y * push), spin_b.z * d, reach);
        (self.k.x_axis.x * d).abs()
    }

    /// Applies an impulse of the three unknowns to bodies a and b.
    #[inline(always)]
    pub fn apply<B: Bodies + ?Sized>(
        &self,
        bodies: &mut B,
        a: usize,
        b: usize,
        d: DVec3,
        reach: f64,
    ) {
        let force = self.t1 * d.x + self.t2 * d.y;
        let twist = self.n * (self.radius * d.z);
        let ba = &mut bodies[a];
        ba.change(
            force * -ba.inv_mass,
            ba.inv_inertia * -(self.ra.cross(force) + twist),
            reach,
        );
        let bb = &mut bodies[b];
        bb.change(
            force * bb.inv_mass,
            bb.inv_inertia * (self.rb.cross(force) + twist),
            reach,
        );
    }

    /// The patch impulse as friction impulses at the points (arms `ra`, normal impulses
    /// `normal`), for reading and for the next step's warm start: the force shared in proportion
    /// to the points' loads (evenly without load), the twist as forces across the points'
    /// offsets from the centre. They sum to the patch's force and twist.
    pub fn at_points(&self, ra: &[DVec3], normal: &[f64], out: &mut [DVec3]) {
        let force = self.t1 * self.impulse.x + self.t2 * self.impulse.y;
        let total: f64 = normal.iter().sum();
        let count = ra.len() as f64;
        let offset = |r: DVec3| flat(r - self.ra, self.n);
        let spread: f64 = ra.iter().map(|&r| offset(r).length_squared()).sum();
        for (o, &nrm) in out.iter_mut().zip(normal) {
            *o = force
                * if total > 0.0 {
                    nrm / total
                } else {
                    1.0 / count
                };
        }
        // Shared by load, the force acts off the centre; the twist makes up the difference.
        let twist = self.impulse.z * self.radius
            - ra.iter()
                .zip(out.iter())
                .map(|(&r, o)| offset(r).cross(*o).dot(self.n))
                .sum::<f64>();
        if spread > 0.0 {
            for (o, &r) in out.iter_mut().zip(ra) {
                *o += self.n.cross(offset(r)) * (twist / spread);
            }
        }
    }
}

/// v without its component along the unit vector n.
fn flat(v: DVec3, n: DVec3) -> DVec3 {
    v - n * v.dot(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(inv_mass: f64, inv_inertia: f64) -> SolverBody {
        SolverBody {
            inv_mass,
            inv_inertia: DMat3::from_diagonal(DVec3::splat(inv_inertia)),
            touched: true,
            ..Default::default()
        }
    }

    fn law(mu_s: f64, mu_k: f64, sticking: bool) -> Coulomb {
        Coulomb {
            mu_s,
            mu_k,
            sticking,
        }
    }

    fn square(half: f64) -> Vec<DVec3> {
        [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(x, z)| DVec3::new(x * half, -0.1, z * half))
            .collect()
    }

    #[test]
    fn point_impulses_give_back_the_patch_impulse() {
        let (ba, bb) = (body(0.0, 0.0), body(1.0, 6.0));
        let n = DVec3::Y;
        let ra = square(0.3);
        let rb: Vec<DVec3> = ra.iter().map(|&r| r - DVec3::new(0.05, 0.2, 0.0)).collect();
        let mut p = Patch::new(
            &ba,
            &bb,
            n,
            &ra,
            &rb,
            &[DVec3::ZERO; 4],
            law(0.5, 0.5, true),
            false,
        );
        p.impulse = DVec3::new(0.3, -0.2, 0.7);
        let mut out = [DVec3::ZERO; 4];
        p.at_points(&ra, &[1.0, 2.0, 0.0, 0.5], &mut out);
        let back = Patch::new(&ba, &bb, n, &ra, &rb, &out, law(0.5, 0.5, true), false);
        assert!(
            (back.impulse - p.impulse).length() < 1e-12,
            "{:?}",
            back.impulse
        );
        // The twist part adds no net force.
        let force: DVec3 = out.iter().sum();
        assert!((force - (p.t1 * 0.3 - p.t2 * 0.2)).length() < 1e-12);
    }

    #[test]
    fn a_2d_patch_solves_as_the_3d_one_does_in_the_plane() {
        // Two 2D bodies (moving in x-y, turning about z; their inertias about x and y are a
        // lamina's) meeting along an in-plane normal at two points: the one-unknown update
        // gives the 3D update's impulses and velocities, holding or sliding.
        let lamina = |inv_mass: f64, izz: f64| SolverBody {
            inv_mass,
            inv_inertia: DMat3::from_diagonal(DVec3::new(2.0 * izz, 2.0 * izz, izz)),
            touched: true,
            ..Default::default()
        };
        let angle: f64 = 0.7;
        let n = DVec3::new(angle.cos(), angle.sin(), 0.0);
        let t = DVec3::new(-n.y, n.x, 0.0);
        let ra = [t * 0.2 + n * 0.1, t * -0.15 + n * 0.1];
        let rb = [t * 0.25 - n * 0.3, t * -0.1 - n * 0.3];
        for (normal, warm) in [(50.0, 0.0), (0.2, 0.0), (50.0, 0.4), (0.2, -0.3)] {
            let run = |planar: bool| {
                let mut bodies = [lamina(0.5, 3.0), lamina(0.8, 5.0)];
                bodies[0].v = DVec3::new(0.3, -0.2, 0.0);
                bodies[0].w = DVec3::new(0.0, 0.0, 1.5);
                bodies[1].v = DVec3::new(-0.6, 0.4, 0.0);
                bodies[1].w = DVec3::new(0.0, 0.0, -0.7);
                let tangent = [t * warm, t * warm];
                let mut p = Patch::new(
                    &bodies[0],
                    &bodies[1],
                    n,
                    &ra,
                    &rb,
                    &tangent,
                    law(0.5, 0.4, true),
                    planar,
                );
                let change = p.solve(&mut bodies, 0, 1, normal, 0.01);
                (p.impulse, change, bodies)
            };
            let (i2, c2, b2) = run(true);
            let (i3, c3, b3) = run(false);
            assert!((i2 - i3).length() < 1e-12, "{i2:?} {i3:?}");
            assert!((c2 - c3).abs() < 1e-12, "{c2} {c3}");
            for (p, q) in b2.iter().zip(&b3) {
                assert!((p.v - q.v).length() < 1e-12 && (p.w - q.w).length() < 1e-12);
                // The end-of-step pose too (the reach differs from the bodies').
                assert!((p.dx - q.dx).length() < 1e-12 && (p.dtheta - q.dtheta).length() < 1e-12);
                assert!(p.v.z == 0.0 && p.w.x == 0.0 && p.w.y == 0.0);
                assert!(p.dx.z == 0.0 && p.dtheta.x == 0.0 && p.dtheta.y == 0.0);
            }
        }
    }

    #[test]
    fn a_sliding_patch_gets_its_full_kinetic_friction_at_once() {
        // A block sliding at 1 m/s with a spin about the normal: one update stops it if
        // mu N allows, and otherwise gives exactly mu N against the slip.
        let n = DVec3::Y;
        let ra = square(0.2);
        let mut bodies = [body(0.0, 0.0), body(0.5, 3.0)];
        let rb: Vec<DVec3> = ra.iter().map(|&r| r - DVec3::new(0.0, -0.1, 0.0)).collect();
        for normal in [10.0, 0.1] {
            bodies[1].v = DVec3::new(1.0, 0.0, 0.0);
            bodies[1].w = DVec3::new(0.0, 0.4, 0.0);
            let mut p = Patch::new(
                &bodies[0],
                &bodies[1],
                n,
                &ra,
                &rb,
                &[DVec3::ZERO; 4],
                law(0.4, 0.4, false),
                false,
            );
            p.solve(&mut bodies, 0, 1, normal, 0.0);
            let held = p.slip(&bodies[0], &bodies[1]).length() < 1e-9;
            assert_eq!(held, normal == 10.0);
            if !held {
                assert!((p.impulse.length() - 0.4 * normal).abs() < 1e-12);
            }
        }
    }
}
