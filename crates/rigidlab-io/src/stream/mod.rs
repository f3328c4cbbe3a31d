//! The viewer stream: how a running script shows its world in a viewer of another process, and
//! how a recording is saved for replay. Both are JSON lines of `Message`s: a `Scene` (what the
//! world holds) first and again whenever the world's revision changes, then `Frame`s (the
//! state after a step), and an optional `End`.

pub mod link;
pub mod protocol;
pub mod reader;
pub mod replay;

pub use protocol::{ContactMark, Frame, Message};
