//! The viewer (feature `viewer`): watch, drive and replay worlds in real time with macroquad.
//! Three ways in: a scene file simulated here, a live stream from a script (`--stream`, the
//! script's `World.view()`), and a saved recording replayed. `main` is shared by the
//! `rigidlab-view` binary and `rigidlab._core.view_main` in the Python wheel.
//!
//! state/ holds everything that is not drawing (and is tested without a window); camera.rs
//! and mesh.rs are pure geometry; render.rs, hud.rs, input.rs and app.rs speak macroquad.

pub mod app;
pub mod camera;
pub mod hud;
pub mod input;
pub mod mesh;
pub mod presets;
pub mod render;
pub mod state;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::Parser;
use glam::DVec3;

use crate::scene::SceneIo;
use crate::stream::reader::StreamReader;
use crate::stream::replay::Replay;
use state::ViewerState;

/// rigidlab-view: watch, drive and replay rigidlab worlds in real time.
#[derive(Parser, Debug)]
#[command(
    name = "rigidlab-view",
    version,
    about,
    after_help = "Press H in the window for the keys."
)]
pub struct Args {
    /// A scene file (World.save) to simulate, or a replay (Recording.save) to play back.
    pub file: Option<PathBuf>,
    /// Show a preset scene by name (see --list-presets).
    #[arg(long, conflicts_with_all = ["file", "stream"])]
    pub preset: Option<String>,
    /// List the preset scenes and exit.
    #[arg(long)]
    pub list_presets: bool,
    /// Show the world a script streams to standard input (World.view() starts this).
    #[arg(long, conflicts_with = "file")]
    pub stream: bool,
    /// Render N frames, save the last as this PNG and exit (needs --frames).
    #[arg(long, requires = "frames")]
    pub screenshot: Option<PathBuf>,
    /// Run exactly N frames of 1/60 s each, then exit.
    #[arg(long)]
    pub frames: Option<u64>,
    /// Write frame-time statistics as JSON here on exit (with --frames).
    #[arg(long, requires = "frames")]
    pub timing: Option<PathBuf>,
    /// Window size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (i32, i32),
    /// Camera position x,y,z (default: framing the scene).
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true)]
    pub eye: Option<DVec3>,
    /// Point the camera looks at, x,y,z (with --eye; default the origin).
    #[arg(long, value_parser = parse_vec3, allow_hyphen_values = true, requires = "eye")]
    pub target: Option<DVec3>,
    /// Vertical field of view in degrees.
    #[arg(long, default_value_t = 45.0)]
    pub fov: f64,
    /// Start paused.
    #[arg(long)]
    pub paused: bool,
    /// Time scale (0.5: half speed).
    #[arg(long, default_value_t = 1.0)]
    pub time_scale: f64,
    /// Show contact points and normals from the start.
    #[arg(long)]
    pub contacts: bool,
    /// Hide the HUD and the energy graph (for clean pictures).
    #[arg(long)]
    pub no_hud: bool,
    /// Open with the key map shown (H hides it).
    #[arg(long)]
    pub show_keys: bool,
    /// Multisample anti-aliasing samples (1 to turn it off).
    #[arg(long, default_value_t = 4)]
    pub msaa: i32,
}

fn parse_size(s: &str) -> Result<(i32, i32), String> {
    let (w, h) = s
        .split_once('x')
        .ok_or("expected WIDTHxHEIGHT, e.g. 1280x720")?;
    let (w, h): (i32, i32) = (
        w.trim().parse().map_err(|_| "width: not a whole number")?,
        h.trim().parse().map_err(|_| "height: not a whole number")?,
    );
    if !(64..=8192).contains(&w) || !(64..=8192).contains(&h) {
        return Err("width and height must be between 64 and 8192 pixels".into());
    }
    Ok((w, h))
}

fn parse_vec3(s: &str) -> Result<DVec3, String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("expected three numbers x,y,z, got '{s}'"))?;
    match v[..] {
        [x, y, z] if v.iter().all(|c| c.is_finite()) => Ok(DVec3::new(x, y, z)),
        _ => Err(format!("expected three finite numbers x,y,z, got '{s}'")),
    }
}

/// What a file holds: a scene to simulate, or a replay (JSON lines, the first a message of
/// type "scene").
fn open_file(path: &std::path::Path) -> Result<ViewerState, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let title = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let is_replay = serde_json::from_str::<serde_json::Value>(first)
        .is_ok_and(|v| v.get("type").and_then(|t| t.as_str()) == Some("scene"));
    if is_replay {
        let replay = Replay::load(path)?;
        return ViewerState::replay(replay, title);
    }
    let world =
        crate::world::World::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut state = ViewerState::simulate(world.to_scene(), title)?;
    // Edits are saved beside the scene, never over it.
    let stem = path
        .file_stem()
        .map_or_else(|| "scene".into(), |s| s.to_string_lossy().into_owned());
    state.save_path = path.with_file_name(format!("{stem}-edited.json"));
    Ok(state)
}

fn initial_state(args: &Args) -> Result<ViewerState, String> {
    let mut state = if let Some(name) = &args.preset {
        let p = presets::by_name(name).ok_or_else(|| {
            format!("--preset: unknown preset '{name}'; --list-presets lists them")
        })?;
        let mut s = ViewerState::simulate(p.scene()?, p.name)?;
        s.preset = Some((p.key, p.variant));
        s
    } else if args.stream {
        ViewerState::stream()
    } else if let Some(path) = &args.file {
        open_file(path)?
    } else {
        let p = presets::for_key(1, 5).expect("the presets are built in");
        let mut s = ViewerState::simulate(p.scene()?, p.name)?;
        s.preset = Some((p.key, p.variant));
        s
    };
    let (slowest, fastest) = crate::clock::TIME_SCALES;
    if !(args.time_scale >= slowest && args.time_scale <= fastest) {
        return Err(format!(
            "--time-scale: must be between 1/64 (slow motion) and 64, got {}",
            args.time_scale
        ));
    }
    if !(args.fov > 1.0 && args.fov < 179.0) {
        return Err(format!(
            "--fov: must be between 1 and 179 degrees, got {}",
            args.fov
        ));
    }
    state.time_scale = args.time_scale;
    state.paused = args.paused || state.paused;
    state.toggles.contacts = args.contacts;
    state.toggles.hud = !args.no_hud;
    state.toggles.graph = !args.no_hud;
    state.toggles.help = args.show_keys;
    Ok(state)
}

/// Runs the viewer on command-line arguments (the first is the program name) and returns the
/// process exit code: 0 done, 1 failed (the message is printed), 2 bad arguments.
pub fn main<I: IntoIterator<Item = String>>(args: I) -> i32 {
    let args = match Args::try_parse_from(args) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if args.list_presets {
        for p in presets::all() {
            println!(
                "{}  (key {}{})",
                p.name,
                p.key % 10,
                if p.variant > 0 {
                    format!(", press {} times", p.variant + 1)
                } else {
                    String::new()
                }
            );
        }
        return 0;
    }
    let state = match initial_state(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rigidlab-view: {e}");
            return 1;
        }
    };
    #[cfg(target_os = "linux")]
    if std::env::var_os("DISPLAY").is_none() && std::env::var_os("WAYLAND_DISPLAY").is_none() {
        eprintln!("rigidlab-view: no display (DISPLAY is not set); on a machine without one, run it under xvfb-run");
        return 1;
    }
    let reader = args.stream.then(|| StreamReader::spawn(std::io::stdin()));
    let opts = app::Options {
        screenshot: args.screenshot.clone(),
        frames: args.frames,
        eye: args.eye,
        target: args.target,
        fovy: args.fov.to_radians(),
        timing: args.timing.clone(),
    };
    let failure = Arc::new(Mutex::new(None));
    let conf = macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: format!("rigidlab: {}", state.title),
            window_width: args.size.0,
            window_height: args.size.1,
            sample_count: if args.frames.is_some() {
                1
            } else {
                args.msaa.clamp(1, 16)
            },
            window_resizable: args.frames.is_none(),
            ..Default::default()
        },
        draw_call_vertex_capacity: render::BATCH_VERTICES + 1024,
        draw_call_index_capacity: render::BATCH_INDICES + 3072,
        ..Default::default()
    };
    // miniquad opens one window per process.
    static OPENED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if OPENED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        eprintln!("rigidlab-view: this process has already opened the viewer's window; start another (rigidlab-view, python -m rigidlab.view, or World.view())");
        return 1;
    }
    let run = app::run(state, reader, opts, failure.clone());
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        macroquad::Window::from_config(conf, run)
    }));
    if outcome.is_err() {
        eprintln!("rigidlab-view: the window could not be opened or the viewer failed");
        return 1;
    }
    let failed = failure.lock().map(|f| f.clone()).unwrap_or(None);
    match failed {
        Some(e) => {
            eprintln!("rigidlab-view: {e}");
            1
        }
        None => 0,
    }
}
