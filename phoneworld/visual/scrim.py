"""A dialog's window and the scrim its recording shows around it.

A dialog (a window smaller than the screen: `Screen.window`, found once by
`ui.dialogs` when the screens are inferred) is recorded over the screen it opened over
(`Screen.over`), dimmed: Android lays black at some alpha (the theme's dim amount) over
that screen. The runtime draws the dialog's window from its own plate and, around it,
the screen under it as the machine shows it now, dimmed as recorded (`runtime.page`);
so the compiler says how much the recording dims:

    window, alpha = dialog_scrim(screen.window, dialog_pixels, [under_pixels, ...])

`alpha` is fitted to the pixels around the window against a recording of a screen the
dialog opens over (`recorded = (1 - alpha) * under`, in grey levels); a fit that does
not explain those pixels (another state of that screen was recorded, or the dialog
covers nothing that screen shows) gives none, and the dialog keeps its recorded plate.
A window that dims nothing (a popup menu) fits no alpha (`ALPHAS`). A sheet over a
scrim is one too: its plate's scrim and the page under it are the recording's, so only
the sheet is taken from it, and the page under it, as shown now, is dimmed once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Rect = tuple[int, int, int, int]

BARS = 0.06
"""Rows at the top and the bottom left out of the fit (status and navigation bars,
which the dim does not reach)."""
FIT = 8.0
"""The largest mean grey-level error of a fit that explains the pixels around a window."""
LIT = 40
"""Grey level of the screen under a window from which its pixels tell the dim apart."""
ALPHAS = (0.1, 0.9)
"""The dims taken for a scrim (less: no scrim to speak of; more: nothing shows)."""


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


def dialog_scrim(window: Rect, dialog: np.ndarray, unders: Sequence[np.ndarray]
                 ) -> tuple[Rect, float] | None:
    """The window and the dim of a dialog screen whose window (`Screen.window`) lies at
    `window`, recorded as `dialog`, fitted against the best of `unders` (recordings of
    screens it opens over); None where no fit explains the pixels (`FIT`) or the window
    is no smaller than the screen."""
    h, w = dialog.shape[:2]
    x1, y1, x2, y2 = window
    if not (0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h) or (x2 - x1) * (y2 - y1) >= w * h:
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
