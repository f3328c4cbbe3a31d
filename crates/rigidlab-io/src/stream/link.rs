//! The sending end of a live stream: a viewer process started on a command, fed the world's
//! frames through its standard input by a writer thread.
//!
//! The stepping thread never waits for the viewer. It offers a frame at most `rate` times a
//! second; the frame waits in a one-place slot, and a newer frame replaces one the writer has not
//! taken yet, so a slow viewer drops frames instead of queueing them. A scene (sent when the
//! world's revision changes) is never dropped: it stays in the slot until written. When the
//! viewer exits or crashes, writing fails and the link reads closed; the script goes on.

use std::io::{BufWriter, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::protocol::{Frame, Message};
use crate::world::World;

#[derive(Default)]
struct Slot {
    scene: Option<String>,
    frame: Option<String>,
    /// Set by the sender: write what is left, then End, and stop.
    finish: bool,
    /// Set by the writer when the viewer stopped reading.
    closed: bool,
}

type Shared = Arc<(Mutex<Slot>, Condvar)>;

pub struct Link {
    child: Child,
    shared: Shared,
    writer: Option<JoinHandle<()>>,
    interval: Duration,
    last_offer: Option<Instant>,
    /// The revision of the last scene put in the slot.
    revision: Option<u64>,
    /// Frames offered and frames replaced before the writer took them.
    pub offered: u64,
    pub dropped: u64,
}

impl Link {
    /// Starts `command` (program and arguments) with a pipe to its standard input.
    pub fn spawn(command: &[String], rate: f64) -> std::io::Result<Link> {
        let interval = Duration::try_from_secs_f64(1.0 / rate).map_err(|_| {
            std::io::Error::other(format!("rate {rate} is not a usable frame rate"))
        })?;
        let (program, args) = command
            .split_first()
            .ok_or_else(|| std::io::Error::other("empty viewer command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args).stdin(Stdio::piped());
        // Out of the script's process group, so Ctrl-C stops the script but not its viewer.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let shared: Shared = Arc::default();
        let writer = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("rigidlab-view-link".into())
                .spawn(move || write_loop(stdin, &shared))?
        };
        Ok(Link {
            child,
            shared,
            writer: Some(writer),
            interval,
            last_offer: None,
            revision: None,
            offered: 0,
            dropped: 0,
        })
    }

    /// The viewer's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// True while the viewer runs and reads what it is sent.
    pub fn is_open(&mut self) -> bool {
        let closed = self.shared.0.lock().map(|s| s.closed).unwrap_or(true);
        !closed && matches!(self.child.try_wait(), Ok(None))
    }

    /// Offers the world's state: taken when `rate` allows it or when `force` is set (after a
    /// change a user should see at once), else ignored.
    pub fn offer(&mut self, w: &World, force: bool) {
        let now = Instant::now();
        if !force
            && self
                .last_offer
                .is_some_and(|t| now.duration_since(t) < self.interval)
        {
            return;
        }
        self.last_offer = Some(now);
        let scene = (self.revision != Some(w.revision())).then(|| Message::scene_of(w).to_line());
        let frame = Message::Frame(Frame::capture(w)).to_line();
        let (lock, wake) = &*self.shared;
        let Ok(mut slot) = lock.lock() else { return };
        if slot.closed {
            return;
        }
        if scene.is_some() {
            slot.scene = scene;
            self.revision = Some(w.revision());
        }
        self.offered += 1;
        if slot.frame.replace(frame).is_some() {
            self.dropped += 1;
        }
        wake.notify_one();
    }

    /// Sends what is pending and End, then lets the viewer be: it keeps the last frame on screen
    /// until its window is closed. Waits at most `timeout` for the writer.
    pub fn finish(&mut self, timeout: Duration) {
        let Some(writer) = self.writer.take() else {
            return;
        };
        {
            let (lock, wake) = &*self.shared;
            if let Ok(mut slot) = lock.lock() {
                slot.finish = true;
            }
            wake.notify_one();
        }
        let start = Instant::now();
        while !writer.is_finished() && start.elapsed() < timeout {
            std::thread::sleep(Duration::from_millis(1));
        }
        if writer.is_finished() {
            let _ = writer.join();
        }
        // Reap the child if it already exited; otherwise it lives on with its window.
        let _ = self.child.try_wait();
    }

    /// Closes the viewer's window by ending its process.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.finish(Duration::from_millis(100));
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.finish(Duration::from_millis(500));
    }
}

fn write_loop(stdin: ChildStdin, shared: &Shared) {
    let mut out = BufWriter::with_capacity(1 << 20, stdin);
    let (lock, wake) = &**shared;
    loop {
        let (scene, frame, finish) = {
            let Ok(mut slot) = lock.lock() else { return };
            while slot.scene.is_none() && slot.frame.is_none() && !slot.finish {
                slot = match wake.wait(slot) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
            (slot.scene.take(), slot.frame.take(), slot.finish)
        };
        let mut send = || -> std::io::Result<()> {
            for line in [scene.as_deref(), frame.as_deref()].into_iter().flatten() {
                out.write_all(line.as_bytes())?;
                out.write_all(b"\n")?;
            }
            if finish {
                out.write_all(Message::End.to_line().as_bytes())?;
                out.write_all(b"\n")?;
            }
            out.flush()
        };
        if send().is_err() {
            if let Ok(mut slot) = lock.lock() {
                slot.closed = true;
                slot.scene = None;
                slot.frame = None;
            }
            return;
        }
        if finish {
            return;
        }
    }
}
