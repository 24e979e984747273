"""A dialog's window and the scrim its recording shows around it.

A dialog (a window smaller than the screen, centred on it) is recorded over the screen
it opened over, dimmed: Android lays black at some alpha (the theme's dim amount) over
that screen. The runtime draws the dialog's window from its own plate and, around it,
the screen under it as the machine shows it now, dimmed as recorded (`runtime.page`);
so the compiler says where the window is and how much the recording dims:

    window, alpha = dialog_scrim(screen.root.bounds, dialog_pixels, [under_pixels, ...])

`alpha` is fitted to the pixels around the window against a recording of a screen the
dialog opens over (`recorded = (1 - alpha) * under`, in grey levels); a fit that does
not explain those pixels (another state of that screen was recorded, or the dialog
covers nothing that screen shows) gives none, and the dialog keeps its recorded plate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Rect = tuple[int, int, int, int]

CENTRED = 0.02
"""How far off the screen's middle across (a share of its width) a window may lie."""
BARS = 0.06
"""Rows at the top and the bottom left out of the fit (status and navigation bars,
which the dim does not reach)."""
FIT = 8.0
"""The largest mean grey-level error of a fit that explains the pixels around a window."""
LIT = 40
"""Grey level of the screen under a window from which its pixels tell the dim apart."""
ALPHAS = (0.1, 0.9)
"""The dims taken for a scrim (less: no scrim to speak of; more: nothing shows)."""


def window_of(bounds: Rect, size: tuple[int, int]) -> Rect | None:
    """`bounds` (a screen's root view) where they are a dialog's window: inside the
    screen on every side, centred across; else None."""
    w, h = size
    x1, y1, x2, y2 = bounds
    if not (0 < x1 < x2 < w and 0 < y1 < y2 < h) or abs(x1 - (w - x2)) > CENTRED * w:
        return None
    return bounds


def fit_scrim(window: Rect, dialog: np.ndarray, under: np.ndarray) -> tuple[float, float]:
    """(alpha, mean error) of black at `alpha` over `under` for the pixels of `dialog`
    around `window` (grey levels; bars and dark pixels left out)."""
    h = dialog.shape[0]
    keep = np.ones(dialog.shape[:2], bool)
    x1, y1, x2, y2 = window
    keep[y1:y2, x1:x2] = False
    bar = int(BARS * h)
    keep[:bar] = keep[h - bar:] = False
    d = _grey(dialog)[keep]
    u = _grey(under)[keep]
    lit = u >= LIT
    if lit.sum() < 1000:
        return 0.0, float("inf")
    d, u = d[lit], u[lit]
    a = 1.0 - float((d * u).sum() / (u * u).sum())
    return a, float(np.abs(d - (1.0 - a) * u).mean())


def dialog_scrim(bounds: Rect, dialog: np.ndarray, unders: Sequence[np.ndarray]
                 ) -> tuple[Rect, float] | None:
    """The window and the dim of a dialog screen whose root view lies at `bounds`,
    recorded as `dialog`, fitted against the best of `unders` (recordings of screens it
    opens over); None where it is no dialog or no fit explains the pixels (`FIT`)."""
    h, w = dialog.shape[:2]
    window = window_of(bounds, (w, h))
    if window is None:
        return None
    best: tuple[float, float] | None = None
    for under in unders:
        if under.shape != dialog.shape:
            continue
        a, err = fit_scrim(window, dialog, under)
        if ALPHAS[0] <= a <= ALPHAS[1] and err <= FIT and (best is None or err < best[1]):
            best = (a, err)
    return None if best is None else (window, round(best[0], 3))


def _grey(px: np.ndarray) -> np.ndarray:
    return px[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
