//! Keyboard and mouse to camera moves and `Command`s.

use ::glam::DVec3;
use macroquad::prelude::*;

use super::camera::Camera;
use super::hud::timeline_rect;
use super::render::nice_step;
use super::state::{Command, Mode, Toggle, Tool, ViewerState};

#[derive(Default)]
pub struct Input {
    last_mouse: Vec2,
    /// While dragging a body: the plane (point, normal) facing the camera the cursor moves in.
    drag_plane: Option<(DVec3, DVec3)>,
    scrubbing: bool,
    /// Where the circle or box being drawn started (2D view), and where the cursor is now.
    drawing: Option<(DVec3, DVec3)>,
    pub quit: bool,
    pub fit: bool,
    pub switch_view: bool,
}

const KEY_TOGGLES: [(KeyCode, Toggle); 7] = [
    (KeyCode::C, Toggle::Contacts),
    (KeyCode::V, Toggle::Velocities),
    (KeyCode::B, Toggle::Aabbs),
    (KeyCode::T, Toggle::Trails),
    (KeyCode::L, Toggle::Links),
    (KeyCode::G, Toggle::Graph),
    (KeyCode::U, Toggle::Hud),
];

const NUMBER_KEYS: [KeyCode; 10] = [
    KeyCode::Key1,
    KeyCode::Key2,
    KeyCode::Key3,
    KeyCode::Key4,
    KeyCode::Key5,
    KeyCode::Key6,
    KeyCode::Key7,
    KeyCode::Key8,
    KeyCode::Key9,
    KeyCode::Key0,
];

fn mouse() -> Vec2 {
    let (x, y) = mouse_position();
    vec2(x, y)
}

impl Input {
    fn ray(cam: &Camera, at: Vec2) -> (DVec3, DVec3) {
        cam.ray(
            at.x as f64,
            at.y as f64,
            screen_width() as f64,
            screen_height() as f64,
        )
    }

    /// Reads this frame's input: moves the camera and appends commands to `out`.
    pub fn poll(&mut self, s: &ViewerState, cam: &mut Camera, out: &mut Vec<Command>) {
        let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        let pressed = |k: KeyCode| is_key_pressed(k);
        if pressed(KeyCode::H) || pressed(KeyCode::F1) {
            out.push(Command::Toggle(Toggle::Help));
        }
        if pressed(KeyCode::P) {
            out.push(Command::TogglePause);
        }
        if pressed(KeyCode::Space) {
            out.push(Command::StepOnce);
        }
        let sketching = !s.sketch.is_empty();
        if pressed(KeyCode::Enter) && sketching {
            out.push(Command::FinishSketch);
        } else if (pressed(KeyCode::Enter) || pressed(KeyCode::F5)) && s.paused {
            out.push(Command::TogglePause);
        }
        if pressed(KeyCode::E) {
            out.push(Command::NextTool);
        }
        let ctrl = is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
        if ctrl && pressed(KeyCode::S) {
            out.push(Command::Save);
        }
        if pressed(KeyCode::R) {
            out.push(Command::Reset);
        }
        if pressed(KeyCode::LeftBracket) {
            out.push(Command::ScaleTime(0.5));
        }
        if pressed(KeyCode::RightBracket) {
            out.push(Command::ScaleTime(2.0));
        }
        if pressed(KeyCode::Backslash) {
            out.push(Command::NormalSpeed);
        }
        for (i, k) in NUMBER_KEYS.iter().enumerate() {
            if pressed(*k) {
                out.push(Command::Preset(i + 1));
            }
        }
        for (k, t) in KEY_TOGGLES {
            if pressed(k) {
                out.push(Command::Toggle(t));
            }
        }
        if pressed(KeyCode::Delete) || pressed(KeyCode::Backspace) {
            out.push(Command::Delete);
        }
        if pressed(KeyCode::K) {
            out.push(Command::ToggleStatic);
        }
        if pressed(KeyCode::Comma) {
            out.push(Command::StepFrames(-1));
        }
        if pressed(KeyCode::Period) {
            out.push(Command::StepFrames(1));
        }
        if pressed(KeyCode::Home) {
            out.push(Command::Seek(0.0));
        }
        if pressed(KeyCode::End) {
            out.push(Command::Seek(1.0));
        }
        self.fit |= pressed(KeyCode::F);
        self.switch_view |= pressed(KeyCode::O);
        if pressed(KeyCode::Escape) && sketching {
            out.push(Command::CancelSketch);
        } else {
            self.quit |= pressed(KeyCode::Escape);
        }
        if pressed(KeyCode::Z) || pressed(KeyCode::X) {
            let size = nice_step(cam.distance * 0.03);
            let at = self.spawn_point(s, cam, size);
            out.push(Command::Spawn {
                sphere: pressed(KeyCode::Z),
                at,
                size,
            });
        }
        self.camera_keys(cam, shift);
        self.mouse(s, cam, shift, out);
    }

    fn camera_keys(&self, cam: &mut Camera, shift: bool) {
        let step = get_frame_time().min(0.1) as f64;
        let (mut dx, mut dy) = (0.0, 0.0);
        for (k, x, y) in [
            (KeyCode::Left, -1.0, 0.0),
            (KeyCode::Right, 1.0, 0.0),
            (KeyCode::Up, 0.0, 1.0),
            (KeyCode::Down, 0.0, -1.0),
        ] {
            if is_key_down(k) {
                dx += x;
                dy += y;
            }
        }
        if dx != 0.0 || dy != 0.0 {
            if shift || cam.orthographic {
                cam.pan(
                    dx * step * 400.0,
                    -dy * step * 400.0,
                    screen_height() as f64,
                );
            } else {
                cam.orbit(dx * step * 1.5, dy * step * 1.0);
            }
        }
        if is_key_down(KeyCode::PageUp) || is_key_down(KeyCode::Equal) {
            cam.zoom(1.0 - step * 1.5);
        }
        if is_key_down(KeyCode::PageDown) || is_key_down(KeyCode::Minus) {
            cam.zoom(1.0 + step * 1.5);
        }
    }

    fn mouse(&mut self, s: &ViewerState, cam: &mut Camera, shift: bool, out: &mut Vec<Command>) {
        let m = mouse();
        let delta = m - self.last_mouse;
        self.last_mouse = m;
        let h = screen_height() as f64;
        let (tx, ty, tw, th) = timeline_rect();
        let on_timeline = s.mode == Mode::Replay
            && m.x >= tx
            && m.x <= tx + tw
            && m.y >= ty - 8.0
            && m.y <= ty + th + 8.0;
        let drawing_tool = cam.orthographic && s.tool != Tool::Drag && s.mode == Mode::Simulation;
        let on_plane = Self::on_plane(cam, m);
        if let Some((_, now)) = &mut self.drawing {
            *now = on_plane;
        }
        if drawing_tool && is_mouse_button_pressed(MouseButton::Left) && !on_timeline {
            match s.tool {
                Tool::Polygon => out.push(Command::SketchPoint(on_plane)),
                _ => self.drawing = Some((on_plane, on_plane)),
            }
        } else if is_mouse_button_pressed(MouseButton::Left) {
            if on_timeline {
                self.scrubbing = true;
            } else {
                let (o, d) = Self::ray(cam, m);
                // A replay leaves out the bodies removed by then: they cannot be picked.
                let shown = |h| {
                    s.world
                        .row(h)
                        .is_ok_and(|row| s.present.get(row).copied().unwrap_or(true))
                };
                match s
                    .world
                    .ray_cast(o, d, f64::INFINITY, true)
                    .filter(|hit| shown(hit.body))
                {
                    Some(hit) => {
                        if let Ok(b) = s.world.body(hit.body) {
                            // In the 2D view, hold the body in its own plane, so the pull has
                            // no lever arm out of it.
                            let point = if cam.orthographic {
                                DVec3::new(hit.point.x, hit.point.y, b.position.z)
                            } else {
                                hit.point
                            };
                            out.push(Command::BeginDrag { body: b.id, point });
                            self.drag_plane = Some((point, -d));
                        }
                    }
                    None => out.push(Command::Select(None)),
                }
            }
        }
        if is_mouse_button_down(MouseButton::Left) {
            if self.scrubbing {
                out.push(Command::Seek(((m.x - tx) / tw) as f64));
            } else if let Some((p, n)) = self.drag_plane {
                let (o, d) = Self::ray(cam, m);
                let rate = d.dot(n);
                if rate.abs() > 1e-9 {
                    out.push(Command::DragTo(o + d * ((p - o).dot(n) / rate)));
                }
            }
        }
        if is_mouse_button_released(MouseButton::Left) {
            if self.drag_plane.take().is_some() {
                out.push(Command::EndDrag);
            }
            if let Some((a, b)) = self.drawing.take() {
                out.push(match s.tool {
                    Tool::Box => Command::AddBox { a, b },
                    _ => Command::AddCircle {
                        centre: a,
                        radius: (b - a).length(),
                    },
                });
            }
            self.scrubbing = false;
        }
        if is_mouse_button_down(MouseButton::Right) && delta != Vec2::ZERO {
            if shift || cam.orthographic {
                cam.pan(delta.x as f64, delta.y as f64, h);
            } else {
                cam.orbit(-delta.x as f64 * 0.008, delta.y as f64 * 0.008);
            }
        }
        if is_mouse_button_down(MouseButton::Middle) && delta != Vec2::ZERO {
            cam.pan(delta.x as f64, delta.y as f64, h);
        }
        let (_, wheel) = mouse_wheel();
        if wheel != 0.0 {
            cam.zoom(if wheel > 0.0 { 0.9 } else { 1.0 / 0.9 });
        }
    }

    /// The point of the x-y plane under the cursor now.
    pub fn cursor_on_plane(&self, cam: &Camera) -> DVec3 {
        Self::on_plane(cam, mouse())
    }

    /// The circle or box being drawn: where it started and where the cursor is.
    pub fn drawing(&self) -> Option<(DVec3, DVec3)> {
        self.drawing
    }

    /// The point of the x-y plane under the cursor (the 2D view looks straight down on it).
    fn on_plane(cam: &Camera, at: Vec2) -> DVec3 {
        let (o, d) = Self::ray(cam, at);
        if d.z.abs() < 1e-12 {
            return DVec3::new(o.x, o.y, 0.0);
        }
        let p = o + d * (-o.z / d.z);
        DVec3::new(p.x, p.y, 0.0)
    }

    /// Where a spawned body goes: resting on what the cursor points at, else in the plane
    /// through the camera's target facing the camera.
    fn spawn_point(&self, s: &ViewerState, cam: &Camera, size: f64) -> DVec3 {
        let (o, d) = Self::ray(cam, self.last_mouse);
        if !cam.orthographic {
            if let Some(hit) = s
                .world
                .ray_cast(o, d, f64::INFINITY, false)
                .filter(|hit| hit.t > 0.0)
            {
                return hit.point + hit.normal * size * 1.05;
            }
        }
        let n = (cam.eye() - cam.target).normalize();
        let rate = d.dot(n);
        if rate.abs() < 1e-9 {
            return cam.target;
        }
        o + d * ((cam.target - o).dot(n) / rate)
    }
}
