//! The `rigidlab-view` program.

fn main() {
    std::process::exit(rigidlab::viewer::main(std::env::args()));
}
