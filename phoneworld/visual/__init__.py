"""Compile-time visuals: how a generated app's screens look, from the recorded screenshots.

Modules, one concept each: `sample` (a view's background, ink, text size and colour read
from pixels), `extract` (one recording of a screen -> its plate, marks and lists),
`assets` (images as content-addressed WebP files within a byte cap), `build` (an app's
look and the files that carry it, from the compiler's provenance), `compare` (SSIM and
the edge measure that `benchmarks/visual.py` reports). The runtime reads what these write
(`runtime.look`) and never imports them.
"""
