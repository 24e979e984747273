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

The window the hierarchy gives may be larger than the card it shows (Android's dialog
window has insets round its background: activitylauncher's Theme dialog is a window of
496-1351 with a card of 545-1303): its margin shows the screen under it, dimmed, as
recorded. The window taken is the card (`card`): the rows and columns at the window's
edges whose pixels the fitted dim of that screen explains are left to the screen under
it, as shown now, so that a value changed there (a switch flipped) shows in its new
state, not the recorded one.
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
MARGIN = 16.0
"""The largest median grey-level error of a row or a column of a window's margin
(`card`): the dim explains it, give or take the card's shadow (up to 12 levels next to
activitylauncher's dialogs)."""
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
    best: tuple[float, float, np.ndarray] | None = None
    for under in unders:
        if under.shape != dialog.shape:
            continue
        a, err = fit_scrim(window, dialog, under)
        if ALPHAS[0] <= a <= ALPHAS[1] and err <= FIT and (best is None or err < best[1]):
            best = (a, err, under)
    if best is None:
        return None
    return card(window, dialog, best[2], best[0]), round(best[0], 3)


def card(window: Rect, dialog: np.ndarray, under: np.ndarray, alpha: float) -> Rect:
    """`window` less the rows and columns at its edges whose pixels black at `alpha`
    over `under` explains (the median of each within `MARGIN`: a few pixels of another
    state of that screen, or the card's shadow, do not keep a row): the card the
    window shows. The window itself where that would leave less than half of it either
    way (nothing to tell a card by)."""
    x1, y1, x2, y2 = window
    err = np.abs(_grey(dialog[y1:y2, x1:x2]) - (1.0 - alpha) * _grey(under[y1:y2, x1:x2]))
    rows = np.median(err, axis=1) <= MARGIN
    top = int(np.argmin(rows)) if not rows.all() else len(rows)
    bottom = len(rows) - int(np.argmin(rows[::-1])) if not rows.all() else 0
    if (bottom - top) * 2 < len(rows):
        return window
    cols = np.median(err[top:bottom], axis=0) <= MARGIN
    left = int(np.argmin(cols)) if not cols.all() else len(cols)
    right = len(cols) - int(np.argmin(cols[::-1])) if not cols.all() else 0
    if (right - left) * 2 < len(cols):
        return window
    return x1 + left, y1 + top, x1 + right, y1 + bottom


def _grey(px: np.ndarray) -> np.ndarray:
    return px[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
