//! The viewer's state machine, apart from any window: what is shown (a world simulated here, a
//! stream from a script, or a replay) and the clock (the world's own, clock.rs: whole steps
//! of each frame at the time scale, the remainder carried; pause and single step). commands.rs holds what the user asks (selection, dragging
//! with the mouse, edits, presets, toggles), history.rs what the HUD draws over time, readout.rs the
//! HUD's text and the scene's bounds. The app turns input into `Command`s and draws what this
//! holds; tests drive it directly.

use std::collections::HashMap;

use super::presets;
use crate::scene::SceneFile;
use crate::scene::SceneIo;
use crate::stream::reader::Inbox;
use crate::stream::replay::Replay;
use crate::stream::{ContactMark, Frame, Message};
use crate::world::World;

mod commands;
mod history;
mod readout;

pub use commands::{Command, Drag, Tool};
use history::RealTimeFactor;
pub use history::{History, Trails, TRAIL_LENGTH};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A scene file or preset, stepped by the viewer.
    Simulation,
    /// A script's world, stepped by the script and streamed here.
    Stream,
    /// A saved recording played back.
    Replay,
}

/// Longest history a simulated world keeps for scrubbing back (s), and the body-seconds of
/// history it may keep at most (1 000 bodies: 5 s), so that its snapshots stay near 100 MB.
const HISTORY_SECONDS: f64 = 10.0;
const HISTORY_BODY_SECONDS: f64 = 5000.0;

/// What is drawn besides the bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toggles {
    pub contacts: bool,
    pub velocities: bool,
    pub aabbs: bool,
    pub trails: bool,
    pub links: bool,
    pub graph: bool,
    pub hud: bool,
    pub help: bool,
}

impl Default for Toggles {
    fn default() -> Self {
        Toggles {
            contacts: false,
            velocities: false,
            aabbs: false,
            trails: false,
            links: true,
            graph: true,
            hud: true,
            help: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toggle {
    Contacts,
    Velocities,
    Aabbs,
    Trails,
    Links,
    Graph,
    Hud,
    Help,
}

pub struct ViewerState {
    pub world: World,
    pub mode: Mode,
    pub title: String,
    /// The scene Reset returns to (simulation).
    initial: Option<Box<SceneFile>>,
    replay: Option<Replay>,
    pub cursor: usize,
    playback_time: f64,
    /// Row of each body id (stream and replay).
    rows: HashMap<u64, usize>,
    /// Whether each row is in the current frame (a replay leaves out removed bodies).
    pub present: Vec<bool>,
    /// The revision of the scene a stream frame must belong to.
    revision: u64,
    pub paused: bool,
    pub time_scale: f64,
    /// Simulation: at most this many steps per frame; a slower world runs slower than real time.
    pub max_steps_per_frame: usize,
    pub steps_last_frame: usize,
    pub contacts: Vec<ContactMark>,
    pub energy: Option<[f64; 6]>,
    pub history: History,
    pub trails: Trails,
    pub selected: Option<u64>,
    pub drag: Option<Drag>,
    pub toggles: Toggles,
    /// The stream ended (the script finished or closed it).
    pub ended: bool,
    /// A message for the user, shown until the next one.
    pub note: Option<String>,
    /// The last thing wrong with the stream (a line that is not a message, a frame that does
    /// not fit its scene), shown on the HUD.
    pub stream_error: Option<String>,
    /// Number key and variant of the preset shown.
    pub preset: Option<(usize, usize)>,
    /// Set when a different scene is loaded (the app refits the camera).
    pub scene_changed: bool,
    /// Counts the worlds loaded (a reset or a new scene from a stream too): meshes made for
    /// one world are not reused for the next.
    pub generation: u64,
    rtf: RealTimeFactor,
    /// Stream: simulated time shown since the last frame drawn.
    pending_sim_time: f64,
    pub frames_received: u64,
    /// What the left mouse button does in the 2D view: pull bodies, or draw new ones.
    pub tool: Tool,
    /// The corners of the polygon being drawn (the polygon tool), in order.
    pub sketch: Vec<glam::DVec3>,
    /// Where the world is saved (the S key): beside the scene file it came from, or in the
    /// working directory.
    pub save_path: std::path::PathBuf,
}

impl ViewerState {
    fn with_world(world: World, mode: Mode, title: String) -> ViewerState {
        let mut s = ViewerState {
            world,
            mode,
            title,
            initial: None,
            replay: None,
            cursor: 0,
            playback_time: 0.0,
            rows: HashMap::new(),
            present: Vec::new(),
            revision: 0,
            paused: false,
            time_scale: 1.0,
            max_steps_per_frame: 64,
            steps_last_frame: 0,
            contacts: Vec::new(),
            energy: None,
            history: History::new(600),
            trails: Trails::default(),
            selected: None,
            drag: None,
            toggles: Toggles::default(),
            ended: false,
            note: None,
            stream_error: None,
            preset: None,
            scene_changed: true,
            generation: 0,
            rtf: RealTimeFactor::default(),
            pending_sim_time: 0.0,
            frames_received: 0,
            tool: Tool::Drag,
            sketch: Vec::new(),
            save_path: std::path::PathBuf::from("rigidlab-sandbox.json"),
        };
        s.index_rows();
        s.refresh();
        s
    }

    /// A scene simulated here in real time.
    pub fn simulate(scene: SceneFile, title: impl Into<String>) -> Result<ViewerState, String> {
        let initial = Box::new(scene.clone());
        let world = World::from_scene(scene).map_err(|e| e.to_string())?;
        let mut s = ViewerState::with_world(world, Mode::Simulation, title.into());
        s.initial = Some(initial);
        s.keep_history();
        Ok(s)
    }

    /// A simulated world keeps its recent past, so that it can be scrubbed back (`,` and `.`):
    /// up to `HISTORY_SECONDS`, less for large worlds, whose snapshots cost more (history.rs).
    fn keep_history(&mut self) {
        if self.mode == Mode::Simulation {
            let bodies = self.world.bodies().len().max(1) as f64;
            let seconds = HISTORY_SECONDS.min(HISTORY_BODY_SECONDS / bodies);
            self.world
                .set_history(Some(seconds))
                .expect("a positive number of seconds");
        }
    }

    /// Scrubs a simulation: back `seconds` through the world's history (as far as it reaches),
    /// or forward by stepping; the simulation pauses there.
    pub(crate) fn scrub(&mut self, seconds: f64) {
        self.paused = true;
        if seconds < 0.0 {
            let back = (-seconds).min(self.world.rewind_reach());
            if let Err(e) = self.world.rewind(back) {
                self.note = Some(e.to_string());
            }
            self.history.clear();
            self.trails.points.clear();
        } else {
            let steps = (seconds / self.world.settings().dt).round() as u64;
            for _ in 0..steps {
                self.step_world();
            }
        }
        self.refresh();
    }

    /// Waiting for a script's stream.
    pub fn stream() -> ViewerState {
        let mut s = ViewerState::with_world(World::default(), Mode::Stream, "live".into());
        s.note = Some("waiting for the script".into());
        s
    }

    /// A replay from its first frame, playing.
    pub fn replay(replay: Replay, title: impl Into<String>) -> Result<ViewerState, String> {
        let world = World::from_scene((*replay.scene).clone()).map_err(|e| e.to_string())?;
        let mut s = ViewerState::with_world(world, Mode::Replay, title.into());
        s.revision = replay.revision;
        s.index_rows();
        s.replay = Some(replay);
        s.show_replay_frame(0);
        Ok(s)
    }

    fn index_rows(&mut self) {
        self.rows = self
            .world
            .bodies()
            .bodies()
            .iter()
            .enumerate()
            .map(|(row, b)| (b.id, row))
            .collect();
        self.present = vec![true; self.world.bodies().len()];
    }

    /// A new world replaces the shown one.
    fn load_world(&mut self, world: World) {
        self.world = world;
        self.keep_history();
        self.generation += 1;
        self.index_rows();
        self.selected = None;
        self.drag = None;
        self.history.clear();
        self.trails.points.clear();
        self.scene_changed = true;
        self.refresh();
    }

    /// Contacts, energy and the histories after the world changed.
    fn refresh(&mut self) {
        if self.mode == Mode::Simulation {
            crate::stream::protocol::contact_marks(&self.world, &mut self.contacts);
            self.energy = Some(self.world.energy().terms());
        }
        if let Some(e) = self.energy {
            self.history.push(self.world.time(), e);
        }
        if self.toggles.trails {
            self.trails.push(&self.world, &self.present);
        }
    }

    pub fn replay_len(&self) -> usize {
        self.replay.as_ref().map_or(0, |r| r.frames.len())
    }

    fn show_replay_frame(&mut self, k: usize) {
        let Some(replay) = &self.replay else { return };
        let k = k.min(replay.frames.len() - 1);
        let frame = &replay.frames[k];
        frame.apply_to(&mut self.world, &self.rows, &mut self.present);
        self.energy = frame.energy;
        self.contacts.clone_from(&frame.contacts);
        self.playback_time = frame.time;
        if k < self.cursor {
            self.history.clear();
            self.trails.points.clear();
        }
        self.cursor = k;
        self.refresh();
    }

    /// One message of a live stream.
    pub fn receive(&mut self, msg: Message) {
        match msg {
            Message::Scene { revision, scene } => match World::from_scene(*scene) {
                Ok(world) => {
                    // Frame the first scene, and one that follows a world with nothing to
                    // frame; when the same script's world gains or loses bodies, keep the camera.
                    let refit = self.bounds().is_none();
                    self.revision = revision;
                    let keep = self.selected;
                    self.load_world(world);
                    self.scene_changed = refit;
                    self.selected = keep.filter(|id| self.rows.contains_key(id));
                    self.note = None;
                }
                Err(e) => self.stream_error = Some(format!("bad scene: {e}")),
            },
            Message::Frame(frame) => self.show_frame(&frame),
            Message::End => self.end_stream(),
        }
    }

    fn show_frame(&mut self, frame: &Frame) {
        if frame.revision != self.revision || frame.check().is_err() {
            return;
        }
        let before = self.world.time();
        let unknown = frame.apply_to(&mut self.world, &self.rows, &mut self.present);
        if unknown > 0 {
            self.stream_error = Some(format!(
                "the frame at t = {} names {unknown} bodies its scene lacks",
                frame.time
            ));
        }
        self.frames_received += 1;
        self.pending_sim_time += (frame.time - before).max(0.0);
        self.energy = frame.energy;
        self.contacts.clone_from(&frame.contacts);
        self.refresh();
    }

    fn end_stream(&mut self) {
        if !self.ended {
            self.ended = true;
            self.note = Some("the script has ended: this is its last frame".into());
        }
    }

    /// Whether to take what a stream brings: not while paused, so the picture holds still
    /// (the reader keeps only the newest scene and frame meanwhile).
    pub fn accepts_stream(&self) -> bool {
        !(self.mode == Mode::Stream && self.paused)
    }

    /// What a stream reader gathered since the last frame.
    pub fn receive_inbox(&mut self, inbox: Inbox) {
        if let Some((revision, scene)) = inbox.scene {
            self.receive(Message::Scene { revision, scene });
        }
        if let Some(frame) = inbox.frame {
            self.show_frame(&frame);
        }
        if let Some(e) = inbox.error {
            self.stream_error = Some(e);
        }
        if inbox.ended {
            self.end_stream();
        }
    }

    /// Advances by a frame's real time: in a simulation, the world's own clock takes whole
    /// steps of the frame at the time scale and keeps the remainder (clock.rs, as
    /// `World.advance` in Python); in a replay, the replay's clock. Returns the steps taken.
    pub fn advance(&mut self, real_dt: f64) -> usize {
        let real_dt = real_dt.clamp(0.0, 0.25);
        let before = self.world.time();
        self.steps_last_frame = 0;
        match self.mode {
            Mode::Simulation if !self.paused => {
                let most = self.max_steps_per_frame as u64;
                let steps = self
                    .world
                    .set_time_scale(self.time_scale)
                    .and_then(|_| self.world.advance_steps(real_dt, Some(most)))
                    .map_or(0, |a| a.steps as usize);
                for _ in 0..steps {
                    self.step_world();
                }
                self.steps_last_frame = steps;
                if steps > 0 {
                    self.refresh();
                }
            }
            Mode::Replay if !self.paused => {
                let len = self.replay_len();
                self.playback_time += real_dt * self.time_scale;
                let times = &self
                    .replay
                    .as_ref()
                    .expect("replay mode has a replay")
                    .frames;
                let mut k = self.cursor;
                // A frame is due when the clock reaches its time, give or take rounding.
                while k + 1 < len && times[k + 1].time <= self.playback_time + 1e-9 {
                    k += 1;
                }
                if k != self.cursor {
                    let t = self.playback_time;
                    self.show_replay_frame(k);
                    self.playback_time = t;
                }
                if k + 1 == len {
                    self.paused = true;
                }
            }
            _ => {}
        }
        let sim = match self.mode {
            Mode::Stream => std::mem::take(&mut self.pending_sim_time),
            _ => (self.world.time() - before).max(0.0),
        };
        self.rtf.add(real_dt, sim);
        self.steps_last_frame
    }

    /// One step, a held body's weight carried.
    fn step_world(&mut self) {
        self.carry_dragged_body();
        // A step the engine refuses (the scene diverged) pauses the simulation with the reason.
        if let Err(e) = self.world.step() {
            self.paused = true;
            self.note = Some(e.to_string());
        }
    }

    pub fn real_time_factor(&self) -> f64 {
        self.rtf.value()
    }

    pub fn handle(&self, id: u64) -> Option<crate::body::BodyHandle> {
        let bodies = self.world.bodies();
        bodies
            .bodies()
            .iter()
            .position(|b| b.id == id)
            .map(|row| bodies.handles()[row])
    }
}
