//! Drawing the world with macroquad: every body's mesh transformed and shaded on the CPU into
//! one reused vertex buffer, handed to macroquad in large batches (a few draw calls for a
//! thousand bodies, no allocation once the buffers have grown), then lines for contacts,
//! velocities, boxes, trails, springs and joints.

use glam::{DMat4, DVec3};
use macroquad::prelude::{draw_line_3d, draw_mesh, Color, Mat4, Mesh, Vec2, Vec3, Vec4, Vertex};

use super::camera::Camera;
use super::mesh::{detail_for, MeshCache};
use super::state::{Tool, ViewerState};
use crate::body::Body;
use crate::shape::Shape;

/// Vertices per batch: below macroquad's draw-call capacity, which the app sets.
pub const BATCH_VERTICES: usize = 48_000;
pub const BATCH_INDICES: usize = 144_000;

/// The macroquad camera of our camera's matrix.
pub struct GlCamera(pub Mat4);

impl GlCamera {
    pub fn new(cam: &Camera, aspect: f64) -> GlCamera {
        GlCamera(to_mat4(&cam.view_projection(aspect)))
    }
}

impl macroquad::camera::Camera for GlCamera {
    fn matrix(&self) -> Mat4 {
        self.0
    }
    fn depth_enabled(&self) -> bool {
        true
    }
    fn render_pass(&self) -> Option<macroquad::texture::RenderPass> {
        None
    }
    fn viewport(&self) -> Option<(i32, i32, i32, i32)> {
        None
    }
}

fn to_mat4(m: &DMat4) -> Mat4 {
    Mat4::from_cols_array(&m.to_cols_array().map(|x| x as f32))
}

fn v3(p: DVec3) -> Vec3 {
    Vec3::new(p.x as f32, p.y as f32, p.z as f32)
}

/// How opaque a sensor is drawn (of 255): enough to see where it is, little enough to see
/// the bodies inside it.
const SENSOR_ALPHA: u8 = 80;

/// A body's colour: its own, or one spread around the hue circle by id; static bodies grey.
pub fn body_color(b: &Body) -> [f32; 3] {
    if let Some([r, g, bl]) = b.color {
        return [r as f32, g as f32, bl as f32];
    }
    if !b.is_dynamic() {
        return if matches!(b.shape, Shape::Plane) {
            [0.62, 0.64, 0.66]
        } else {
            [0.55, 0.57, 0.6]
        };
    }
    palette(b.id)
}

/// Saturated, well separated colours: hues stepped by the golden angle.
pub fn palette(id: u64) -> [f32; 3] {
    let h = (id as f64 * 0.618_033_988_749_895 + 0.1).fract();
    let (s, v) = (0.65, 0.92);
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    let (r, g, b) = match i as i32 % 6 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    [r as f32, g as f32, b as f32]
}

/// Light from above, front and right, plus ambient light, so faces of a box differ.
fn shade(color: [f32; 3], normal: DVec3, highlight: bool) -> [u8; 4] {
    const LIGHT: DVec3 = DVec3::new(0.36, 0.8, 0.48);
    let diffuse = normal.dot(LIGHT).max(0.0) as f32;
    let back = (-normal.dot(LIGHT)).max(0.0) as f32 * 0.15;
    let k = 0.38 + 0.62 * diffuse + back;
    let lift = if highlight { 0.25 } else { 0.0 };
    let c = color.map(|c| ((c * k + lift).min(1.0) * 255.0) as u8);
    [c[0], c[1], c[2], 255]
}

pub struct Renderer {
    pub meshes: MeshCache,
    batch: Mesh,
    /// Solids by depth along the view (reused every frame).
    order: Vec<(f64, usize)>,
    /// Draw calls issued in the last frame (triangle batches).
    pub batches: usize,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer {
            meshes: MeshCache::default(),
            batch: Mesh {
                vertices: Vec::with_capacity(BATCH_VERTICES),
                indices: Vec::with_capacity(BATCH_INDICES),
                texture: None,
            },
            order: Vec::new(),
            batches: 0,
        }
    }
}

impl Renderer {
    fn flush(&mut self) {
        if !self.batch.indices.is_empty() {
            draw_mesh(&self.batch);
            self.batches += 1;
        }
        self.batch.vertices.clear();
        self.batch.indices.clear();
    }

    fn reserve(&mut self, vertices: usize, indices: usize) {
        if self.batch.vertices.len() + vertices > BATCH_VERTICES
            || self.batch.indices.len() + indices > BATCH_INDICES
        {
            self.flush();
        }
    }

    fn vertex(&mut self, p: DVec3, color: [u8; 4]) -> u16 {
        self.batch.vertices.push(Vertex {
            position: v3(p),
            uv: Vec2::ZERO,
            color,
            normal: Vec4::ZERO,
        });
        (self.batch.vertices.len() - 1) as u16
    }

    fn quad(&mut self, corners: [DVec3; 4], color: [u8; 4]) {
        self.reserve(4, 6);
        let i = corners.map(|c| self.vertex(c, color));
        self.batch
            .indices
            .extend([i[0], i[1], i[2], i[0], i[2], i[3]]);
    }

    fn body(&mut self, b: &Body, highlight: bool, pixels_per_metre: f64) {
        let detail = detail_for(b.shape.bounding_radius() * pixels_per_metre);
        let mesh = self.meshes.get(&b.shape, detail);
        let color = body_color(b);
        self.reserve(mesh.positions.len(), mesh.indices.len());
        let base = self.batch.vertices.len() as u16;
        for (p, n) in mesh.positions.iter().zip(&mesh.normals) {
            let world = b.position + b.orientation * *p;
            let mut c = shade(color, b.orientation * *n, highlight);
            // A sensor is a region, not a solid: drawn see-through.
            if b.sensor {
                c[3] = SENSOR_ALPHA;
            }
            self.vertex(world, c);
        }
        self.batch
            .indices
            .extend(mesh.indices.iter().map(|i| base + i));
    }

    /// A plane as a checkerboard of tiles around the point nearest the camera's target; seen
    /// edge-on in the 2D view, as the filled half-plane below its line.
    fn plane(&mut self, b: &Body, cam: &Camera) {
        let color = body_color(b);
        let (n, t1, t2) = (
            b.orientation * DVec3::Y,
            b.orientation * DVec3::X,
            b.orientation * DVec3::Z,
        );
        let centre = cam.target - n * n.dot(cam.target - b.position);
        let tile = nice_step(cam.distance / 6.0);
        if cam.orthographic && n.z.abs() < 1e-6 {
            let along = n.cross(DVec3::Z).normalize();
            let (reach, depth) = (cam.distance * 4.0, cam.distance * 4.0);
            let c = shade(color, DVec3::new(0.0, 0.0, 1.0), false);
            let dark = darker(c, 0.8);
            let z = -0.5;
            let lift = DVec3::Z * z;
            self.quad(
                [
                    centre - along * reach + lift,
                    centre + along * reach + lift,
                    centre + along * reach - n * depth + lift,
                    centre - along * reach - n * depth + lift,
                ],
                dark,
            );
            return;
        }
        // Snap to the tile grid so the tiles stay put while the camera moves.
        let u0 = (t1.dot(centre - b.position) / tile).round();
        let v0 = (t2.dot(centre - b.position) / tile).round();
        const HALF: i32 = 20;
        let light = shade(color, n, false);
        let dark = darker(light, 0.86);
        for i in -HALF..HALF {
            for j in -HALF..HALF {
                let (u, v) = ((u0 + i as f64) * tile, (v0 + j as f64) * tile);
                let corner = |du: f64, dv: f64| b.position + t1 * (u + du) + t2 * (v + dv);
                let c = if (i + j).rem_euclid(2) == 0 {
                    light
                } else {
                    dark
                };
                self.quad(
                    [
                        corner(0.0, 0.0),
                        corner(0.0, tile),
                        corner(tile, tile),
                        corner(tile, 0.0),
                    ],
                    c,
                );
            }
        }
    }

    /// The bodies, then the overlays the toggles ask for.
    pub fn draw(&mut self, s: &ViewerState, cam: &Camera, height_px: f64) {
        self.batches = 0;
        // Pixels per metre at the distance of each body (at the target in 2D).
        let eye = cam.eye();
        let focal = height_px / (2.0 * (cam.fovy / 2.0).tan());
        let bodies = s.world.bodies().bodies();
        // Nearest first, so the depth test rejects hidden pixels before they are shaded (this
        // is what a software renderer spends its time on in a heap of bodies).
        let forward = (cam.target - eye).normalize();
        self.order.clear();
        for (row, b) in bodies.iter().enumerate() {
            if s.present.get(row).copied().unwrap_or(true) && !matches!(b.shape, Shape::Plane) {
                self.order.push(((b.position - eye).dot(forward), row));
            }
        }
        self.order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let draw = |me: &mut Self, k: usize| {
            let (depth, row) = me.order[k];
            let b = &bodies[row];
            let depth = if cam.orthographic {
                cam.distance
            } else {
                depth.max(1e-6)
            };
            me.body(b, s.selected == Some(b.id), focal / depth);
        };
        for k in 0..self.order.len() {
            if !bodies[self.order[k].1].sensor {
                draw(self, k);
            }
        }
        // Planes last: most of a floor is behind something. A plane the eye is inside (behind
        // a wall of a room, below a floor) is left out, so the room is seen as a cut-away.
        for (_, b) in bodies.iter().enumerate().filter(|(row, b)| {
            matches!(b.shape, Shape::Plane) && s.present.get(*row).copied().unwrap_or(true)
        }) {
            let normal = b.orientation * DVec3::Y;
            if cam.orthographic || normal.dot(eye - b.position) > 0.0 {
                self.plane(b, cam);
            }
        }
        // The see-through sensors over everything else, farthest first (drawn earlier, their
        // faces would hide what is inside and behind them).
        for k in (0..self.order.len()).rev() {
            if bodies[self.order[k].1].sensor {
                draw(self, k);
            }
        }
        self.flush();
        if cam.orthographic {
            grid(cam, height_px);
        }
        self.overlays(s, cam);
    }

    /// What is being drawn with the 2D tools: the polygon's corners so far and the edge to the
    /// cursor, or the circle or box from where the drag began to the cursor.
    pub fn preview(&self, s: &ViewerState, drawing: Option<(DVec3, DVec3)>, cursor: DVec3) {
        let c = Color::new(1.0, 0.85, 0.3, 1.0);
        let line = |a: DVec3, b: DVec3| draw_line_3d(v3(a), v3(b), c);
        if !s.sketch.is_empty() {
            for (a, b) in s.sketch.iter().zip(s.sketch.iter().skip(1)) {
                line(*a, *b);
            }
            line(*s.sketch.last().unwrap_or(&cursor), cursor);
            line(cursor, s.sketch[0]);
        }
        let Some((a, b)) = drawing else { return };
        match s.tool {
            Tool::Box => {
                let (lo, hi) = (a.min(b), a.max(b));
                let corners = [
                    lo,
                    DVec3::new(hi.x, lo.y, 0.0),
                    hi,
                    DVec3::new(lo.x, hi.y, 0.0),
                ];
                for i in 0..4 {
                    line(corners[i], corners[(i + 1) % 4]);
                }
            }
            _ => {
                let r = (b - a).length();
                const SIDES: usize = 48;
                let at = |k: usize| {
                    let t = std::f64::consts::TAU * k as f64 / SIDES as f64;
                    a + DVec3::new(t.cos(), t.sin(), 0.0) * r
                };
                for k in 0..SIDES {
                    line(at(k), at(k + 1));
                }
                line(a, b);
            }
        }
    }

    fn overlays(&mut self, s: &ViewerState, cam: &Camera) {
        let w = &s.world;
        let scale = cam.distance * 0.04;
        let bodies = w.bodies().bodies();
        let shown = |row: usize| s.present.get(row).copied().unwrap_or(true);
        if s.toggles.contacts {
            let red = Color::new(1.0, 0.15, 0.1, 1.0);
            for c in &s.contacts {
                let (p, n) = (v3(c.point), v3(c.normal * scale));
                draw_line_3d(p, p + n, red);
                let (a, b) = orthonormal(c.normal);
                let r = scale * 0.15;
                draw_line_3d(v3(c.point - a * r), v3(c.point + a * r), red);
                draw_line_3d(v3(c.point - b * r), v3(c.point + b * r), red);
            }
        }
        if s.toggles.velocities {
            let green = Color::new(0.1, 0.8, 0.2, 1.0);
            for (row, b) in bodies
                .iter()
                .enumerate()
                .filter(|(r, b)| shown(*r) && b.is_dynamic())
            {
                let _ = row;
                draw_line_3d(v3(b.position), v3(b.position + b.velocity * 0.25), green);
            }
        }
        if s.toggles.aabbs {
            let c = Color::new(0.9, 0.7, 0.1, 1.0);
            for (_, b) in bodies
                .iter()
                .enumerate()
                .filter(|(r, b)| shown(*r) && !matches!(b.shape, Shape::Plane))
            {
                let a = b.shape.aabb(b.position, b.orientation);
                box_lines(a.min, a.max, c);
            }
        }
        if let Some(b) = s
            .selected
            .and_then(|id| s.handle(id))
            .and_then(|h| w.body(h).ok())
        {
            if !matches!(b.shape, Shape::Plane) {
                let a = b.shape.aabb(b.position, b.orientation);
                box_lines(a.min, a.max, Color::new(1.0, 1.0, 0.2, 1.0));
            }
        }
        if s.toggles.trails {
            for (id, trail) in &s.trails.points {
                let [r, g, b] = palette(*id);
                let c = Color::new(r, g, b, 0.9);
                for (p, q) in trail.iter().zip(trail.iter().skip(1)) {
                    draw_line_3d(v3(*p), v3(*q), c);
                }
            }
        }
        if s.toggles.links {
            let bodies = w.bodies();
            for sp in w.springs() {
                if let Some((a, b)) = sp.world_anchors(bodies) {
                    coil(
                        a,
                        b,
                        cam.eye() - cam.target,
                        scale * 0.25,
                        Color::new(0.2, 0.5, 1.0, 1.0),
                    );
                }
            }
            for j in w.joints() {
                if let Some((a, b)) = j.world_anchors(bodies) {
                    let c = Color::new(0.95, 0.95, 0.95, 1.0);
                    let pa = bodies.get(j.a).map_or(a, |body| body.position);
                    draw_line_3d(v3(pa), v3(a), c);
                    // A pulley's rope runs over its two pulleys.
                    if let crate::dynamics::joints::JointKind::Pulley {
                        ground_a, ground_b, ..
                    } = j.kind
                    {
                        draw_line_3d(v3(a), v3(ground_a), c);
                        draw_line_3d(v3(ground_a), v3(ground_b), c);
                        draw_line_3d(v3(ground_b), v3(b), c);
                    } else {
                        draw_line_3d(v3(a), v3(b), c);
                    }
                    if let Some(pb) = j.b.and_then(|h| bodies.get(h)).map(|body| body.position) {
                        draw_line_3d(v3(b), v3(pb), c);
                    }
                    cross(b, scale * 0.2, c);
                }
            }
        }
        if let Some(d) = s.drag {
            if let Some(b) = s.handle(d.body).and_then(|h| w.body(h).ok()) {
                let c = Color::new(1.0, 0.4, 0.9, 1.0);
                draw_line_3d(v3(b.world_point(d.local_point)), v3(d.target), c);
                cross(d.target, scale * 0.2, c);
            }
        }
    }
}

/// The same colour, darker, still opaque.
fn darker(c: [u8; 4], k: f32) -> [u8; 4] {
    [
        (c[0] as f32 * k) as u8,
        (c[1] as f32 * k) as u8,
        (c[2] as f32 * k) as u8,
        c[3],
    ]
}

/// The spacing (m) of the 2D view's grid: about eight lines across the view's height.
pub fn grid_step(cam: &Camera) -> f64 {
    nice_step(cam.view_height() / 8.0)
}

/// The 2D view's grid of metres, behind the bodies, over the whole view.
fn grid(cam: &Camera, height_px: f64) {
    let step = grid_step(cam);
    let half_h = cam.view_height() / 2.0;
    let half_w = half_h * macroquad::prelude::screen_width() as f64 / height_px.max(1.0);
    let (t, z) = (cam.target, -0.4);
    let (x0, x1) = (t.x - half_w, t.x + half_w);
    let (y0, y1) = (t.y - half_h, t.y + half_h);
    let faint = Color::new(1.0, 1.0, 1.0, 0.07);
    let axis = Color::new(1.0, 1.0, 1.0, 0.22);
    let mut x = (x0 / step).floor() * step;
    while x <= x1 {
        let c = if x.abs() < step * 1e-6 { axis } else { faint };
        draw_line_3d(v3(DVec3::new(x, y0, z)), v3(DVec3::new(x, y1, z)), c);
        x += step;
    }
    let mut y = (y0 / step).floor() * step;
    while y <= y1 {
        let c = if y.abs() < step * 1e-6 { axis } else { faint };
        draw_line_3d(v3(DVec3::new(x0, y, z)), v3(DVec3::new(x1, y, z)), c);
        y += step;
    }
}

/// A round number (1, 2 or 5 times a power of ten) near x.
pub fn nice_step(x: f64) -> f64 {
    let p = 10f64.powf(x.max(1e-6).log10().floor());
    let m = x / p;
    p * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

fn orthonormal(n: DVec3) -> (DVec3, DVec3) {
    let a = n.any_orthonormal_vector();
    (a, n.cross(a))
}

fn cross(p: DVec3, r: f64, c: Color) {
    for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
        draw_line_3d(v3(p - axis * r), v3(p + axis * r), c);
    }
}

fn box_lines(min: DVec3, max: DVec3, c: Color) {
    let corner = |i: usize| {
        DVec3::new(
            if i & 1 == 0 { min.x } else { max.x },
            if i & 2 == 0 { min.y } else { max.y },
            if i & 4 == 0 { min.z } else { max.z },
        )
    };
    for i in 0..8 {
        for bit in [1, 2, 4] {
            if i & bit == 0 {
                draw_line_3d(v3(corner(i)), v3(corner(i | bit)), c);
            }
        }
    }
}

/// A spring as a zigzag between its anchors, across the line of sight.
fn coil(a: DVec3, b: DVec3, towards_eye: DVec3, radius: f64, c: Color) {
    let axis = b - a;
    if axis.length() < 1e-12 {
        return;
    }
    let u = axis
        .cross(towards_eye)
        .try_normalize()
        .unwrap_or_else(|| orthonormal(axis.normalize()).0);
    const TURNS: usize = 12;
    let lead = 0.1;
    let mut last = a;
    for k in 0..=2 * TURNS {
        let f = lead + (1.0 - 2.0 * lead) * k as f64 / (2 * TURNS) as f64;
        let side = if k == 0 || k == 2 * TURNS {
            0.0
        } else if k % 2 == 0 {
            1.0
        } else {
            -1.0
        };
        let p = a + axis * f + u * radius * side;
        draw_line_3d(v3(last), v3(p), c);
        last = p;
    }
    draw_line_3d(v3(last), v3(b), c);
}
