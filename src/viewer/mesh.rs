//! Triangle meshes of shapes in their body frames, with normals for shading: spheres and
//! capsules smooth, boxes and hulls flat (each face its own vertices). Built once per shape.

use std::collections::HashMap;
use std::sync::Arc;

use glam::DVec3;

use crate::shape::{ConvexHull, Polygon, Shape};

/// Slices and stacks of round meshes by level of detail.
const ROUND_DETAIL: [(usize, usize); 3] = [(8, 6), (12, 8), (20, 12)];

/// The level of detail for a round shape of `radius_px` pixels on screen.
pub fn detail_for(radius_px: f64) -> usize {
    if radius_px < 16.0 {
        0
    } else if radius_px < 48.0 {
        1
    } else {
        2
    }
}

#[derive(Clone, Debug, Default)]
pub struct ShapeMesh {
    pub positions: Vec<DVec3>,
    pub normals: Vec<DVec3>,
    /// Triangles, counter-clockwise seen from outside.
    pub indices: Vec<u16>,
}

impl ShapeMesh {
    fn vertex(&mut self, p: DVec3, n: DVec3) -> u16 {
        self.positions.push(p);
        self.normals.push(n);
        (self.positions.len() - 1) as u16
    }

    /// A sphere of `radius` about `centre`, or the half of it on the side `hemisphere` points to
    /// (for capsule caps), as latitude rings: `detail` 0, 1, 2 for 8 x 6, 12 x 8, 20 x 12.
    fn add_sphere(&mut self, centre: DVec3, radius: f64, hemisphere: Option<f64>, detail: usize) {
        let (slices, stacks) = ROUND_DETAIL[detail.min(2)];
        let (from, to) = match hemisphere {
            None => (0, stacks),
            Some(s) if s > 0.0 => (0, stacks / 2),
            Some(_) => (stacks / 2, stacks),
        };
        let base = self.positions.len() as u16;
        for i in from..=to {
            let theta = std::f64::consts::PI * i as f64 / stacks as f64;
            for j in 0..=slices {
                let phi = std::f64::consts::TAU * j as f64 / slices as f64;
                let n = DVec3::new(
                    theta.sin() * phi.sin(),
                    theta.cos(),
                    theta.sin() * phi.cos(),
                );
                self.vertex(centre + n * radius, n);
            }
        }
        let row = (slices + 1) as u16;
        for i in 0..(to - from) as u16 {
            for j in 0..slices as u16 {
                let (a, b) = (base + i * row + j, base + (i + 1) * row + j);
                self.indices.extend([a, b, b + 1, a, b + 1, a + 1]);
            }
        }
    }

    fn add_capsule(&mut self, radius: f64, half_height: f64, detail: usize) {
        self.add_sphere(DVec3::Y * half_height, radius, Some(1.0), detail);
        self.add_sphere(-DVec3::Y * half_height, radius, Some(-1.0), detail);
        let (slices, _) = ROUND_DETAIL[detail.min(2)];
        let base = self.positions.len() as u16;
        for j in 0..=slices {
            let phi = std::f64::consts::TAU * j as f64 / slices as f64;
            let n = DVec3::new(phi.sin(), 0.0, phi.cos());
            self.vertex(n * radius + DVec3::Y * half_height, n);
            self.vertex(n * radius - DVec3::Y * half_height, n);
        }
        for j in 0..slices as u16 {
            let (top, bottom) = (base + 2 * j, base + 2 * j + 1);
            self.indices
                .extend([top, bottom, bottom + 2, top, bottom + 2, top + 2]);
        }
    }

    /// Each face fanned from its first vertex, with the face normal (flat shading).
    fn add_hull(&mut self, hull: &ConvexHull) {
        for f in &hull.faces {
            let first = self.positions.len() as u16;
            for &v in &f.vertices {
                self.vertex(hull.vertices[v as usize], f.normal);
            }
            for k in 1..f.vertices.len() as u16 - 1 {
                self.indices.extend([first, first + k, first + k + 1]);
            }
        }
    }

    /// A polygon of a 2D world as a slab about its plane, a tenth of its size thick on each
    /// side (a segment as a thin strip along it).
    fn add_polygon(&mut self, polygon: &Polygon) {
        let v = &polygon.vertices;
        let outline: Vec<DVec3> = if v.len() == 2 {
            let across = polygon.normals[0] * polygon.radius.max(0.01 * (v[1] - v[0]).length());
            [v[0] - across, v[1] - across, v[1] + across, v[0] + across]
                .iter()
                .map(|p| p.extend(0.0))
                .collect()
        } else {
            v.iter().map(|p| p.extend(0.0)).collect()
        };
        let depth = DVec3::Z * 0.1 * polygon.bound;
        let k = outline.len() as u16;
        for (side, n) in [(1.0, DVec3::Z), (-1.0, -DVec3::Z)] {
            let first = self.positions.len() as u16;
            for &p in &outline {
                self.vertex(p + depth * side, n);
            }
            for i in 1..k - 1 {
                if side > 0.0 {
                    self.indices.extend([first, first + i, first + i + 1]);
                } else {
                    self.indices.extend([first, first + i + 1, first + i]);
                }
            }
        }
        for i in 0..outline.len() {
            let (a, b) = (outline[i], outline[(i + 1) % outline.len()]);
            let e = b - a;
            let n = DVec3::new(e.y, -e.x, 0.0).normalize_or_zero();
            let first = self.vertex(a - depth, n);
            self.vertex(b - depth, n);
            self.vertex(b + depth, n);
            self.vertex(a + depth, n);
            self.indices
                .extend([first, first + 1, first + 2, first, first + 2, first + 3]);
        }
    }

    /// The mesh of a shape at a level of detail (0 coarse to 2 fine; it only matters for round
    /// shapes); planes have none (they are drawn as tiles around the view).
    pub fn of(shape: &Shape, detail: usize) -> ShapeMesh {
        let mut m = ShapeMesh::default();
        match shape {
            Shape::Sphere { radius } => m.add_sphere(DVec3::ZERO, *radius, None, detail),
            Shape::Capsule {
                radius,
                half_height,
            } => m.add_capsule(*radius, *half_height, detail),
            Shape::Box { hull, .. } | Shape::Convex { hull, .. } => m.add_hull(hull),
            Shape::Plane => {}
            Shape::Polygon { polygon } => m.add_polygon(polygon),
        }
        m
    }
}

/// What identifies a mesh: the kind of shape, its dimensions' bits (a hull's address, valid
/// until the cache is cleared for the next world) and the level of detail. Built without
/// allocating, as it is looked up for every body every frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key(u8, [u64; 3], usize);

impl Key {
    fn of(shape: &Shape, detail: usize) -> Key {
        match shape {
            Shape::Sphere { radius } => Key(0, [radius.to_bits(), 0, 0], detail),
            Shape::Box { half_extents, .. } => Key(1, half_extents.to_array().map(f64::to_bits), 0),
            Shape::Capsule {
                radius,
                half_height,
            } => Key(2, [radius.to_bits(), half_height.to_bits(), 0], detail),
            Shape::Convex { hull, .. } => Key(3, [Arc::as_ptr(hull) as u64, 0, 0], 0),
            Shape::Plane => Key(4, [0; 3], 0),
            Shape::Polygon { polygon } => Key(5, [Arc::as_ptr(polygon) as u64, 0, 0], 0),
        }
    }
}

/// Meshes shared between bodies of equal shape.
#[derive(Default)]
pub struct MeshCache {
    meshes: HashMap<Key, Arc<ShapeMesh>>,
}

impl MeshCache {
    pub fn get(&mut self, shape: &Shape, detail: usize) -> Arc<ShapeMesh> {
        self.meshes
            .entry(Key::of(shape, detail))
            .or_insert_with(|| Arc::new(ShapeMesh::of(shape, detail)))
            .clone()
    }

    pub fn clear(&mut self) {
        self.meshes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The divergence theorem: a closed mesh's volume from its triangles.
    fn volume(m: &ShapeMesh) -> f64 {
        m.indices
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }

    /// Boxes and hulls are exact. Round shapes are inscribed polyhedra: every vertex on the
    /// surface, the volume a little less than the shape's (a 20 x 12 sphere loses 3.3%).
    #[test]
    fn meshes_are_closed_outward_and_close_to_the_shapes() {
        let sphere = Shape::sphere(0.5).unwrap();
        let boxed = Shape::cuboid(DVec3::new(0.1, 0.2, 0.3)).unwrap();
        let capsule = Shape::capsule(0.2, 0.5).unwrap();
        let (hull, _) = Shape::convex(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]).unwrap();
        for (shape, deficit) in [
            (sphere, 0.04),
            (boxed, 1e-12),
            (capsule, 0.04),
            (hull, 1e-12),
        ] {
            let m = ShapeMesh::of(&shape, 2);
            let v = volume(&m);
            assert!(
                v <= shape.volume() * (1.0 + 1e-12) && v > shape.volume() * (1.0 - deficit),
                "{shape:?}: {v} against {}",
                shape.volume()
            );
            if let Shape::Sphere { radius } | Shape::Capsule { radius, .. } = shape {
                let h = if let Shape::Capsule { half_height, .. } = shape {
                    half_height
                } else {
                    0.0
                };
                for p in &m.positions {
                    let axis = DVec3::new(0.0, p.y.clamp(-h, h), 0.0);
                    assert!(((*p - axis).length() - radius).abs() < 1e-12);
                }
            }
            for (p, n) in m.positions.iter().zip(&m.normals) {
                assert!(
                    (n.length() - 1.0).abs() < 1e-9 && p.dot(*n) > 0.0,
                    "{shape:?}"
                );
            }
        }
    }
}
