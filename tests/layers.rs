//! The engine's layers point only down: each module may use only modules of its own layer or
//! of layers below it (the map in ARCHITECTURE.md). Between crates the compiler holds this
//! (rigidlab-core knows no other crate, rigidlab-io only the core's public API); within a crate
//! it is read from the sources, so that a new `use crate::...` that points up fails the tests
//! instead of growing an import circle.

use std::fs;
use std::path::{Path, PathBuf};

/// The crates' source directories (under the workspace root), bottom first.
const CRATES: &[&str] = &["crates/rigidlab-core/src", "crates/rigidlab-io/src", "src"];

/// The layers, bottom first, by the first component of a module path under a crate's src/.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundations",
        &["math", "dense", "error", "limits", "profile"],
    ),
    ("geometry and materials", &["shape", "material"]),
    ("bodies", &["body", "filter", "in_plane", "speed_caps"]),
    ("collision", &["collision", "sensors"]),
    ("dynamics", &["dynamics"]),
    (
        "world",
        &[
            "world",
            "clock",
            "reversal",
            "history",
            "world_edit",
            "world_links",
            "world_query",
            "world_state",
            "contact_decisions",
            "events",
            "observer",
            "snapshot",
            "measure",
            "batch",
        ],
    ),
    (
        "files and streams",
        &["scene", "recorder", "recording_data", "stream"],
    ),
    ("shells", &["python", "viewer"]),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top module a file under src/ belongs to ("collision" for src/collision/sat.rs).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// How many `super::` lead from a file's module to the crate root (src/world.rs: 1,
/// src/collision/sat.rs: 2, src/collision/mod.rs: 1).
fn depth(rel: &Path) -> usize {
    let parts = rel.components().count();
    if rel.file_name().is_some_and(|f| f == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

/// The top modules a line names by climbing to the crate root with `super::` (from a file
/// `depth` modules down).
fn climbed_modules(code: &str, depth: usize) -> Vec<String> {
    let root = "super::".repeat(depth);
    code.match_indices(&root)
        .filter(|(i, _)| !code[..*i].ends_with("super::"))
        .map(|(i, _)| {
            code[i + root.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// The top modules a line of code names through `crate::`, including those of a group
/// `crate::{a::X, b}` (which must then close on the same line).
fn used_modules(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group
                .split('}')
                .next()
                .filter(|_| group.contains('}'))
                .expect(
                "a `use crate::{...}` group is closed on its line (rustfmt keeps short ones so)",
            );
            out.extend(inner.split(',').map(ident));
        } else {
            out.push(ident(rest));
        }
    }
    out
}

#[test]
fn the_check_reads_groups_and_paths() {
    assert_eq!(used_modules("use crate::world::World;"), ["world"]);
    assert_eq!(
        used_modules("use crate::{body::Body, world::World};"),
        ["body", "world"]
    );
    assert!(layer_of("world").unwrap() > layer_of("body").unwrap());
    assert_eq!(depth(Path::new("collision/sat.rs")), 2);
    assert_eq!(depth(Path::new("collision/mod.rs")), 1);
    assert_eq!(
        climbed_modules("use super::super::world::World;", 2),
        ["world"]
    );
    assert!(climbed_modules("use super::manifold::Manifold;", 2).is_empty());
}

#[test]
fn every_module_uses_only_its_own_layer_and_those_below() {
    let mut upward = Vec::new();
    for dir in CRATES {
        check_crate(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join(dir),
            &mut upward,
        );
    }
    assert!(
        upward.is_empty(),
        "uses that point up:\n{}",
        upward.join("\n")
    );
}

/// Adds to `upward` every use in the crate at `src` that points up a layer.
fn check_crate(src: &Path, upward: &mut Vec<String>) {
    let mut files = Vec::new();
    sources(src, &mut files);
    files.sort();
    for file in &files {
        let module = module_of(src, file);
        if module == "lib" {
            continue;
        }
        let own = layer_of(&module)
            .unwrap_or_else(|| panic!("{}: module `{module}` is in no layer", file.display()));
        let text = fs::read_to_string(file).unwrap();
        let depth = depth(file.strip_prefix(src).unwrap());
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            for used in used_modules(code)
                .into_iter()
                .chain(climbed_modules(code, depth))
            {
                // Re-exports at the root (crate::Error) name no module.
                let Some(theirs) = layer_of(&used) else {
                    continue;
                };
                if theirs > own {
                    upward.push(format!(
                        "{}:{}: {module} ({}) uses {used} ({})",
                        file.display(),
                        n + 1,
                        LAYERS[own].0,
                        LAYERS[theirs].0
                    ));
                }
            }
        }
    }
}
