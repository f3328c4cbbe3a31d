//! The preset scenes behind the number keys: the scenes of `rigidlab.presets`, saved as scene
//! files into presets/ and built into the viewer (a test checks they match the Python
//! presets; regenerate with `python -c "import rigidlab.presets as p;
//! p.export_scenes('src/viewer/presets')"`).

use crate::scene::SceneFile;

pub struct Preset {
    pub name: &'static str,
    pub key: usize,
    pub variant: usize,
    json: &'static str,
}

impl Preset {
    pub fn scene(&self) -> Result<SceneFile, String> {
        serde_json::from_str(self.json).map_err(|e| format!("preset '{}': {e}", self.name))
    }
}

macro_rules! scene {
    ($name:literal, $file:literal) => {
        ($name, include_str!(concat!("presets/", $file, ".json")))
    };
}

/// Number key (1-9, then 0 as 10) to its scenes; pressing a key again shows the next one.
const KEYS: [&[(&str, &str)]; 10] = [
    &[
        scene!("feature pair: vertex-vertex", "feature-pair-vertex-vertex"),
        scene!("feature pair: vertex-edge", "feature-pair-vertex-edge"),
        scene!("feature pair: vertex-face", "feature-pair-vertex-face"),
        scene!("feature pair: edge-edge", "feature-pair-edge-edge"),
        scene!("feature pair: edge-face", "feature-pair-edge-face"),
        scene!("feature pair: face-face", "feature-pair-face-face"),
    ],
    &[scene!("block, plank and prism", "block-plank-and-prism")],
    &[scene!("dominoes", "dominoes")],
    &[
        scene!("pyramid", "pyramid"),
        scene!("box column", "box-column"),
    ],
    &[scene!("ramp room", "ramp-room")],
    &[scene!("bouncing balls", "bouncing-balls")],
    &[scene!("friction incline", "friction-incline")],
    &[scene!("spring weights", "spring-weights")],
    &[scene!("Newton's cradle", "newton-s-cradle")],
    &[scene!("pendulum", "pendulum")],
];

/// The preset of a number key (1..=10, 10 for the 0 key); variants wrap around.
pub fn for_key(key: usize, variant: usize) -> Option<Preset> {
    let scenes = KEYS.get(key.checked_sub(1)?)?;
    let variant = variant % scenes.len();
    let (name, json) = scenes[variant];
    Some(Preset {
        name,
        key,
        variant,
        json,
    })
}

/// Every preset, in key order.
pub fn all() -> impl Iterator<Item = Preset> {
    (1..=KEYS.len()).flat_map(|key| (0..KEYS[key - 1].len()).filter_map(move |v| for_key(key, v)))
}

/// The preset of a name, as `rigidlab.presets.PRESETS` names it.
pub fn by_name(name: &str) -> Option<Preset> {
    all().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::SceneIo;
    use crate::world::World;

    #[test]
    fn every_preset_loads_and_keys_cycle() {
        assert_eq!(all().count(), 16);
        for p in all() {
            let w = World::from_scene(p.scene().unwrap()).unwrap();
            assert!(!w.bodies().is_empty(), "{}", p.name);
        }
        assert_eq!(for_key(1, 6).unwrap().variant, 0);
        assert_eq!(for_key(10, 0).unwrap().name, "pendulum");
        assert!(for_key(0, 0).is_none() && for_key(11, 0).is_none());
    }
}
