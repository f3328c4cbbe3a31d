//! The viewer's camera: orbiting a target point (perspective, for 3D worlds) or looking down the
//! z axis (orthographic, for worlds lying in the x-y plane). Pure math, so picking and the
//! screenshot test share exactly the projection the renderer uses.

use glam::dcamera::rh::{proj::opengl, view::look_at_mat4};
use glam::{DMat4, DVec3, DVec4};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub target: DVec3,
    /// Angle about y from +z towards +x (rad).
    pub yaw: f64,
    /// Elevation above the x-z plane (rad).
    pub pitch: f64,
    pub distance: f64,
    /// Vertical field of view (rad); in orthographic mode the view's height is
    /// 2 distance tan(fovy / 2), the same as the perspective view's at the target.
    pub fovy: f64,
    pub orthographic: bool,
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            target: DVec3::ZERO,
            yaw: 0.5,
            pitch: 0.35,
            distance: 5.0,
            fovy: 45f64.to_radians(),
            orthographic: false,
        }
    }
}

impl Camera {
    /// A perspective camera at `eye` looking at `target`.
    pub fn looking(eye: DVec3, target: DVec3, fovy: f64) -> Camera {
        let d = eye - target;
        let distance = d.length().max(1e-6);
        Camera {
            target,
            yaw: d.x.atan2(d.z),
            pitch: (d.y / distance).clamp(-1.0, 1.0).asin(),
            distance,
            fovy,
            orthographic: false,
        }
    }

    /// The 2D view of the x-y plane.
    pub fn planar(target: DVec3, distance: f64) -> Camera {
        Camera {
            target,
            yaw: 0.0,
            pitch: 0.0,
            distance,
            orthographic: true,
            ..Camera::default()
        }
    }

    pub fn eye(&self) -> DVec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + self.distance * DVec3::new(cp * sy, sp, cp * cy)
    }

    /// World-space right and up directions of the screen.
    pub fn axes(&self) -> (DVec3, DVec3) {
        let forward = (self.target - self.eye()).normalize();
        let right = forward.cross(DVec3::Y).normalize_or(DVec3::X);
        (right, right.cross(forward))
    }

    fn half_height(&self) -> f64 {
        self.distance * (self.fovy / 2.0).tan()
    }

    /// The height of the view at the target (m): the whole 2D view's.
    pub fn view_height(&self) -> f64 {
        2.0 * self.half_height()
    }

    /// Clip-space matrix (OpenGL conventions) for a viewport of the given aspect (width/height).
    pub fn view_projection(&self, aspect: f64) -> DMat4 {
        let view = look_at_mat4(self.eye(), self.target, DVec3::Y);
        let far = self.distance * 20.0 + 100.0;
        let proj = if self.orthographic {
            let h = self.half_height();
            opengl::orthographic(-h * aspect, h * aspect, -h, h, 0.0, far)
        } else {
            opengl::perspective(self.fovy, aspect, (self.distance * 1e-3).max(1e-3), far)
        };
        proj * view
    }

    /// The pixel (from the top left) where a world point appears, or None behind the camera.
    pub fn project(&self, p: DVec3, width: f64, height: f64) -> Option<(f64, f64)> {
        let c = self.view_projection(width / height) * DVec4::new(p.x, p.y, p.z, 1.0);
        if c.w <= 0.0 {
            return None;
        }
        let (x, y) = (c.x / c.w, c.y / c.w);
        Some(((x + 1.0) * 0.5 * width, (1.0 - y) * 0.5 * height))
    }

    /// The ray through a pixel: origin and unit direction.
    pub fn ray(&self, px: f64, py: f64, width: f64, height: f64) -> (DVec3, DVec3) {
        let inv = self.view_projection(width / height).inverse();
        let ndc = DVec3::new(2.0 * px / width - 1.0, 1.0 - 2.0 * py / height, 0.0);
        let unproject = |z: f64| {
            let v = inv * DVec4::new(ndc.x, ndc.y, z, 1.0);
            v.truncate() / v.w
        };
        let (near, far) = (unproject(-1.0), unproject(1.0));
        (near, (far - near).normalize())
    }

    /// Turns about the target; the elevation stops short of the poles.
    pub fn orbit(&mut self, dyaw: f64, dpitch: f64) {
        if self.orthographic {
            return;
        }
        self.yaw += dyaw;
        self.pitch = (self.pitch + dpitch).clamp(-1.55, 1.55);
    }

    /// Moves the target by a drag of (dx, dy) pixels on a viewport `height` pixels high.
    pub fn pan(&mut self, dx: f64, dy: f64, height: f64) {
        let (right, up) = self.axes();
        let per_pixel = 2.0 * self.half_height() / height;
        self.target += (-dx * right + dy * up) * per_pixel;
    }

    /// Moves closer (factor < 1) or away.
    pub fn zoom(&mut self, factor: f64) {
        self.distance = (self.distance * factor).clamp(1e-3, 1e5);
    }

    /// Frames a box of the world: the target at its centre, far enough to see all of it.
    pub fn fit(&mut self, min: DVec3, max: DVec3) {
        self.target = (min + max) / 2.0;
        let radius = ((max - min).length() / 2.0).max(0.05);
        self.distance = radius / (self.fovy / 2.0).tan() * 1.1;
        if self.orthographic {
            let extent = (max - min).truncate();
            self.distance =
                (extent.y.max(extent.x / 1.6) / 2.0 * 1.2).max(0.05) / (self.fovy / 2.0).tan();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_projects_to_the_centre_and_rays_go_back_through_pixels() {
        for cam in [
            Camera::looking(DVec3::new(3.0, 2.0, 4.0), DVec3::new(0.0, 0.5, 0.0), 0.8),
            Camera::planar(DVec3::new(1.0, 1.0, 0.0), 3.0),
        ] {
            let (x, y) = cam.project(cam.target, 800.0, 600.0).unwrap();
            assert!((x - 400.0).abs() < 1e-9 && (y - 300.0).abs() < 1e-9);
            let p = DVec3::new(0.3, 0.9, -0.2);
            let (px, py) = cam.project(p, 800.0, 600.0).unwrap();
            let (o, d) = cam.ray(px, py, 800.0, 600.0);
            let closest = o + d * (p - o).dot(d);
            assert!((closest - p).length() < 1e-9, "{cam:?}");
        }
    }

    #[test]
    fn up_in_the_world_is_up_on_the_screen() {
        let cam = Camera::looking(DVec3::new(0.0, 1.0, 5.0), DVec3::new(0.0, 1.0, 0.0), 0.8);
        let (_, y_low) = cam
            .project(DVec3::new(0.0, 0.0, 0.0), 800.0, 600.0)
            .unwrap();
        let (x_right, y_high) = cam
            .project(DVec3::new(1.0, 2.0, 0.0), 800.0, 600.0)
            .unwrap();
        assert!(y_high < 300.0 && y_low > 300.0 && x_right > 400.0);
    }
}
