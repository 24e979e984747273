"""Code generation: an `AppSpec` (plus its provenance) -> the files of `generated/<app>/`."""
