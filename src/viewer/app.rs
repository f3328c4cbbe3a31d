//! The viewer's frame loop: input, the clock, drawing, and the headless screenshot and timing
//! runs.

use std::path::PathBuf;
use std::time::Instant;

use ::glam::DVec3;
use macroquad::prelude::*;

use super::camera::Camera;
use super::hud;
use super::input::Input;
use super::render::{GlCamera, Renderer};
use super::state::ViewerState;
use crate::stream::reader::StreamReader;

pub struct Options {
    /// Render this many frames, write the last to a PNG and exit.
    pub screenshot: Option<PathBuf>,
    pub frames: Option<u64>,
    /// A fixed camera (perspective) instead of one framing the scene.
    pub eye: Option<DVec3>,
    pub target: Option<DVec3>,
    pub fovy: f64,
    /// Write frame-time statistics (JSON) here when done.
    pub timing: Option<PathBuf>,
}

/// The camera that shows the whole scene: the 2D view for planar worlds.
fn framing(s: &ViewerState, planar: bool, fovy: f64) -> Camera {
    let mut cam = if planar {
        Camera::planar(DVec3::ZERO, 5.0)
    } else {
        Camera::default()
    };
    cam.fovy = fovy;
    if let Some((lo, hi)) = s.bounds() {
        cam.fit(lo, hi);
    }
    cam
}

/// Resident memory in kB (Linux), to show the frame loop does not grow.
fn resident_kb() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

pub async fn run(
    mut state: ViewerState,
    reader: Option<StreamReader>,
    opts: Options,
    failure: std::sync::Arc<std::sync::Mutex<Option<String>>>,
) {
    let mut renderer = Renderer::default();
    let mut input = Input::default();
    let mut cam = Camera::default();
    let mut planar = false;
    let mut generation = u64::MAX;
    let mut commands = Vec::new();
    let mut frame: u64 = 0;
    let mut fps = 60.0;
    let headless = opts.frames.is_some();
    // Whole frames, and the simulation's part of them, kept only when asked for.
    let timed = opts.timing.is_some();
    let capacity = if timed {
        opts.frames.unwrap_or(0).min(100_000) as usize
    } else {
        0
    };
    let (mut frame_ms, mut sim_ms) = (Vec::with_capacity(capacity), Vec::with_capacity(capacity));
    let mut rss_warm = None;
    let mut last = Instant::now();
    loop {
        let now = Instant::now();
        let real_dt = now.duration_since(last).as_secs_f64();
        last = now;
        if frame > 0 {
            fps = 0.9 * fps + 0.1 / real_dt.max(1e-6);
            if timed {
                frame_ms.push(real_dt * 1e3);
            }
        }
        if let Some(r) = reader.as_ref().filter(|_| state.accepts_stream()) {
            state.receive_inbox(r.take());
        }
        commands.clear();
        input.poll(&state, &mut cam, &mut commands);
        for c in commands.drain(..) {
            state.apply(c);
        }
        if state.generation != generation {
            generation = state.generation;
            renderer.meshes.clear();
        }
        if state.scene_changed || input.fit || input.switch_view {
            if state.scene_changed {
                planar = state.is_planar();
            }
            if input.switch_view {
                planar = !planar;
            }
            cam = match (opts.eye, opts.target) {
                (Some(eye), target) => {
                    Camera::looking(eye, target.unwrap_or(DVec3::ZERO), opts.fovy)
                }
                _ => framing(&state, planar, opts.fovy),
            };
            state.scene_changed = false;
            input.fit = false;
            input.switch_view = false;
        }
        // A new scene is framed before it moves (a planar world is told by its initial state).
        // Headless runs advance by exactly 1/60 s a frame, so their pictures are reproducible.
        let sim_start = Instant::now();
        state.advance(if headless { 1.0 / 60.0 } else { real_dt });
        let sim_time = sim_start.elapsed();
        clear_background(Color::new(0.16, 0.18, 0.21, 1.0));
        let aspect = screen_width() as f64 / screen_height().max(1.0) as f64;
        set_camera(&GlCamera::new(&cam, aspect));
        renderer.draw(&state, &cam, screen_height() as f64);
        if cam.orthographic {
            renderer.preview(&state, input.drawing(), input.cursor_on_plane(&cam));
        }
        set_default_camera();
        if cam.orthographic && state.toggles.hud {
            hud::grid_labels(&state, &cam);
        }
        hud::draw(&state, fps);
        if frame > 0 && timed {
            sim_ms.push(sim_time.as_secs_f64() * 1e3);
        }
        frame += 1;
        if frame == 30 {
            rss_warm = resident_kb();
        }
        if opts.frames.is_some_and(|n| frame >= n) {
            if let Some(path) = &opts.screenshot {
                if let Err(e) = save_png(&get_screen_data(), path) {
                    *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
            }
            if let Some(path) = &opts.timing {
                for v in [&mut frame_ms, &mut sim_ms] {
                    v.sort_by(f64::total_cmp);
                }
                let report = serde_json::json!({
                    "frames": frame,
                    "bodies": state.world.bodies().len(),
                    "median_ms": percentile(&frame_ms, 0.5),
                    "p95_ms": percentile(&frame_ms, 0.95),
                    "mean_ms": frame_ms.iter().sum::<f64>() / frame_ms.len().max(1) as f64,
                    "simulation_median_ms": percentile(&sim_ms, 0.5),
                    "batches": renderer.batches,
                    "rss_kb_at_frame_30": rss_warm,
                    "rss_kb_at_end": resident_kb(),
                });
                if let Err(e) = std::fs::write(path, report.to_string()) {
                    *failure.lock().unwrap_or_else(|p| p.into_inner()) =
                        Some(format!("{}: {e}", path.display()));
                }
            }
            break;
        }
        if input.quit {
            break;
        }
        // At most 60 frames a second where nothing paces them (a display without vsync, or
        // Xvfb), leaving the processor to the simulation and the script; timed runs go flat out.
        if !timed {
            let budget = std::time::Duration::from_secs_f64(1.0 / 60.0);
            std::thread::sleep(budget.saturating_sub(now.elapsed()));
        }
        next_frame().await;
    }
}

/// Writes the screen (bottom row first, as OpenGL reads it) as a PNG, top row first.
fn save_png(screen: &Image, path: &std::path::Path) -> Result<(), String> {
    let (w, h) = (screen.width as usize, screen.height as usize);
    let mut rows = Vec::with_capacity(w * h * 4);
    for y in (0..h).rev() {
        rows.extend_from_slice(&screen.bytes[y * w * 4..(y + 1) * w * 4]);
    }
    // Opaque: the framebuffer's alpha is not meaningful.
    for px in rows.chunks_mut(4) {
        px[3] = 255;
    }
    image::save_buffer(path, &rows, w as u32, h as u32, image::ColorType::Rgba8)
        .map_err(|e| format!("{}: {e}", path.display()))
}
