"""The benchmark's scenes, one module each: `measure` runs a scene in the engines and returns its
numbers, `section` writes them as the scene's part of RESULTS.md."""
