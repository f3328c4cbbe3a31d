//! What is drawn over the scene in screen space: the HUD, the selected body's panel, the live
//! energy graph, the replay's timeline and the help overlay with the key map.

use macroquad::prelude::*;

use super::state::{Mode, ViewerState};

/// The key map, as the help overlay lists it (and the viewer guide, docs/concepts/viewer.md,
/// repeats).
pub const KEYS: &[(&str, &str)] = &[
    ("H / F1", "show or hide this help"),
    ("P", "pause / resume (live: hold the picture while the script runs on)"),
    ("Space", "pause; when paused, one step (replay: one frame)"),
    ("Enter / F5", "run (resume)"),
    ("R", "reset to the initial state (replay: first frame)"),
    ("[  ]  \\", "time scale halved / doubled / back to 1x"),
    ("1  2  3  4  5", "presets: feature pairs (1 again: next pair), block-plank-prism, dominoes, pyramid (4 again: column), ramp room"),
    ("6  7  8  9  0", "presets: bouncing balls, friction incline, spring weights, Newton's cradle, pendulum"),
    ("left click", "select a body (shows mass, velocity, energy, material)"),
    ("left drag", "pull a body with the mouse (a mouse joint)"),
    ("right drag", "orbit (2D view: pan)"),
    ("middle drag, Shift+right", "pan"),
    ("wheel, PgUp / PgDn", "zoom"),
    ("arrows / Shift+arrows", "orbit / pan"),
    ("F", "frame everything"),
    ("O", "switch 2D / 3D view"),
    ("Z / X", "spawn a sphere / box at the cursor (2D: a disc / square)"),
    ("E", "2D: next tool: pull bodies, draw circles (drag out the radius), boxes (drag corner to corner), polygons"),
    ("left click (polygon tool)", "a corner; Enter makes the polygon, Esc drops it"),
    ("Ctrl+S", "save the world to a scene file (beside the one opened, -edited)"),
    ("Delete / Backspace", "delete the selected body"),
    ("K", "toggle the selected body static / dynamic"),
    ("C / V / B / T / L", "contacts and normals / velocities / bounding boxes / trails / springs and joints"),
    ("G / U", "energy graph / HUD"),
    (",  .", "simulation: scrub 0.1 s back (through the world's history) / forward; replay: a frame"),
    ("Home  End", "replay: start, end; click the timeline to seek"),
    ("Esc", "quit"),
];

const TEXT: Color = Color::new(0.95, 0.95, 0.95, 1.0);
const PANEL: Color = Color::new(0.05, 0.06, 0.08, 0.72);
const LINE: f32 = 20.0;
const SIZE: f32 = 18.0;

fn panel(x: f32, y: f32, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let width = lines
        .iter()
        .map(|l| measure_text(l, None, SIZE as u16, 1.0).width)
        .fold(0.0, f32::max);
    draw_rectangle(
        x - 6.0,
        y - 4.0,
        width + 12.0,
        LINE * lines.len() as f32 + 8.0,
        PANEL,
    );
    for (i, l) in lines.iter().enumerate() {
        draw_text(l, x, y + LINE * (i as f32 + 0.75), SIZE, TEXT);
    }
}

pub fn draw(s: &ViewerState, fps: f64) {
    if s.toggles.hud {
        let mut lines = s.hud_lines(fps);
        if let Some(note) = &s.note {
            lines.push(note.clone());
        }
        lines.push("H: help".into());
        panel(12.0, 10.0, &lines);
        let info = s.selection_lines();
        panel(12.0, 20.0 + LINE * (lines.len() as f32 + 1.0), &info);
    }
    if s.toggles.graph && !s.toggles.help {
        energy_graph(s);
    }
    if s.mode == Mode::Replay {
        timeline(s);
    }
    if s.toggles.help {
        help();
    }
}

/// The 2D view's grid labelled in metres along the bottom and left edges, and the drawing
/// tool's name.
pub fn grid_labels(s: &ViewerState, cam: &super::camera::Camera) {
    let step = super::render::grid_step(cam);
    let (w, h) = (screen_width() as f64, screen_height() as f64);
    let half_h = cam.view_height() / 2.0;
    let half_w = half_h * w / h.max(1.0);
    let t = cam.target;
    // As many decimals as the step has.
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let label = |v: f64| {
        format!(
            "{:.*}",
            decimals,
            if v.abs() < step * 1e-6 { 0.0 } else { v }
        )
    };
    let faint = Color::new(0.95, 0.95, 0.95, 0.6);
    let mut x = ((t.x - half_w) / step).ceil() * step;
    while x <= t.x + half_w {
        if let Some((px, _)) = cam.project(::glam::DVec3::new(x, t.y, 0.0), w, h) {
            draw_text(label(x), px as f32 + 3.0, h as f32 - 6.0, 16.0, faint);
        }
        x += step;
    }
    let mut y = ((t.y - half_h) / step).ceil() * step;
    while y <= t.y + half_h {
        if let Some((_, py)) = cam.project(::glam::DVec3::new(t.x, y, 0.0), w, h) {
            draw_text(label(y), 4.0, py as f32 - 3.0, 16.0, faint);
        }
        y += step;
    }
    let unit = format!("grid {} m", label(step));
    draw_text(&unit, w as f32 - 110.0, 22.0, 18.0, TEXT);
    if s.tool != super::state::Tool::Drag {
        let tool = format!("E: {}", s.tool.name());
        draw_text(&tool, w as f32 - 250.0, 44.0, 18.0, TEXT);
    }
}

/// The timeline's rectangle: x, y, width, height.
pub fn timeline_rect() -> (f32, f32, f32, f32) {
    (20.0, screen_height() - 28.0, screen_width() - 40.0, 12.0)
}

fn timeline(s: &ViewerState) {
    let (x, y, w, h) = timeline_rect();
    draw_rectangle(x, y, w, h, PANEL);
    let n = s.replay_len().max(2) - 1;
    let f = s.cursor as f32 / n as f32;
    draw_rectangle(x, y, w * f, h, Color::new(0.3, 0.6, 1.0, 0.9));
    draw_rectangle(x + w * f - 2.0, y - 4.0, 4.0, h + 8.0, TEXT);
}

/// Kinetic, gravitational, elastic and total energy against time over the last frames.
fn energy_graph(s: &ViewerState) {
    let h = &s.history;
    if h.time.len() < 2 {
        return;
    }
    let (gw, gh) = (340.0, 170.0);
    let bottom = if s.mode == Mode::Replay { 44.0 } else { 16.0 };
    let (x0, y0) = (screen_width() - gw - 16.0, screen_height() - gh - bottom);
    draw_rectangle(x0, y0, gw, gh, PANEL);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for e in &h.energy {
        for k in [2, 3, 4, 5] {
            lo = lo.min(e[k]);
            hi = hi.max(e[k]);
        }
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let (t0, t1) = (h.time[0], *h.time.back().unwrap_or(&h.time[0]));
    let span = (t1 - t0).max(1e-9);
    // The plot between the top label and the two lines of labels below it.
    let (top, plot) = (y0 + 22.0, gh - 22.0 - 42.0);
    let px = |t: f64| x0 + 6.0 + (gw - 12.0) * ((t - t0) / span) as f32;
    let py = |e: f64| top + plot - plot * ((e - lo) / (hi - lo)) as f32;
    let series = [
        (2, "kinetic", Color::new(1.0, 0.45, 0.2, 1.0)),
        (3, "gravitational", Color::new(0.3, 0.7, 1.0, 1.0)),
        (4, "elastic", Color::new(0.4, 0.9, 0.4, 1.0)),
        (5, "total", TEXT),
    ];
    for (k, _, c) in series {
        let mut points = h.time.iter().zip(&h.energy);
        let Some((t, e)) = points.next() else {
            continue;
        };
        let mut last = (px(*t), py(e[k]));
        for (t, e) in points {
            let p = (px(*t), py(e[k]));
            draw_line(last.0, last.1, p.0, p.1, 1.5, c);
            last = p;
        }
    }
    let mut x = x0 + 6.0;
    for (_, name, c) in series {
        draw_text(name, x, y0 + gh - 6.0, 15.0, c);
        x += measure_text(name, None, 15, 1.0).width + 10.0;
    }
    draw_text(
        format!("energy (J) against time: top {hi:.4}"),
        x0 + 6.0,
        y0 + 15.0,
        15.0,
        TEXT,
    );
    draw_text(
        format!("bottom {lo:.4}, the last {span:.1} s"),
        x0 + 6.0,
        top + plot + 18.0,
        15.0,
        Color::new(0.8, 0.8, 0.8, 1.0),
    );
}

fn help() {
    let text_width = |t: &str| measure_text(t, None, SIZE as u16, 1.0).width;
    let key_width = KEYS.iter().map(|(k, _)| text_width(k)).fold(0.0, f32::max) + 16.0;
    let width = key_width + KEYS.iter().map(|(_, w)| text_width(w)).fold(0.0, f32::max);
    let x = ((screen_width() - width) / 2.0).max(10.0);
    let y = ((screen_height() - LINE * (KEYS.len() + 2) as f32) / 2.0).max(10.0);
    draw_rectangle(
        x - 8.0,
        y - 6.0,
        width + 16.0,
        LINE * (KEYS.len() + 2) as f32 + 12.0,
        Color::new(0.05, 0.06, 0.08, 0.88),
    );
    draw_text(
        "rigidlab viewer: keys",
        x,
        y + LINE * 0.75,
        SIZE + 2.0,
        TEXT,
    );
    for (i, (k, what)) in KEYS.iter().enumerate() {
        let ly = y + LINE * (i as f32 + 2.75);
        draw_text(k, x, ly, SIZE, Color::new(1.0, 0.85, 0.4, 1.0));
        draw_text(what, x + key_width, ly, SIZE, TEXT);
    }
}
