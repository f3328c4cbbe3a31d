//! The receiving end of a live stream: a thread reads messages from standard input (or any
//! reader) into an inbox the viewer empties once a frame. Only the newest scene and the newest
//! frame are kept, so a viewer that draws slower than the script steps skips frames.

use std::io::{BufRead, BufReader, Read};

use std::sync::{Arc, Mutex};

use super::protocol::{Frame, Message};
use crate::scene::SceneFile;

#[derive(Default)]
pub struct Inbox {
    pub scene: Option<(u64, Box<SceneFile>)>,
    pub frame: Option<Frame>,
    /// The script sent End or closed the stream.
    pub ended: bool,
    /// The last malformed line's error.
    pub error: Option<String>,
    /// Frames read so far, including those skipped.
    pub frames_read: u64,
}

impl Inbox {
    /// Files one message.
    pub fn put(&mut self, msg: Message) {
        match msg {
            Message::Scene { revision, scene } => {
                self.scene = Some((revision, scene));
                // A frame of the previous revision no longer fits.
                self.frame = None;
            }
            Message::Frame(f) => {
                self.frames_read += 1;
                match f.check() {
                    Ok(()) => self.frame = Some(f),
                    Err(e) => self.error = Some(e),
                }
            }
            Message::End => self.ended = true,
        }
    }
}

pub struct StreamReader {
    inbox: Arc<Mutex<Inbox>>,
}

impl StreamReader {
    /// Reads `input` line by line on a thread of its own until it ends.
    pub fn spawn<R: Read + Send + 'static>(input: R) -> StreamReader {
        let inbox = Arc::new(Mutex::new(Inbox::default()));
        let shared = inbox.clone();
        std::thread::spawn(move || {
            let mut input = BufReader::with_capacity(1 << 20, input);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match input.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&bytes);
                if line.trim().is_empty() {
                    continue;
                }
                let msg = Message::from_line(&line);
                let Ok(mut inbox) = shared.lock() else { return };
                match msg {
                    Ok(m) => inbox.put(m),
                    Err(e) => inbox.error = Some(e),
                }
                if inbox.ended {
                    return;
                }
            }
            if let Ok(mut inbox) = shared.lock() {
                inbox.ended = true;
            }
        });
        StreamReader { inbox }
    }

    /// Takes what arrived since the last call (the end flag and the counter stay).
    pub fn take(&self) -> Inbox {
        let Ok(mut inbox) = self.inbox.lock() else {
            return Inbox {
                ended: true,
                ..Inbox::default()
            };
        };
        Inbox {
            scene: inbox.scene.take(),
            frame: inbox.frame.take(),
            ended: inbox.ended,
            error: inbox.error.take(),
            frames_read: inbox.frames_read,
        }
    }
}
