"""Images as content-addressed asset files, within a byte cap (pure: bytes in, bytes out).

    store = encode_assets({"plate:main": pixels, "sprite:main:0": row}, cap=5_000_000)
    store.names["plate:main"]   # -> "3f2a9c0e5b7d1a4c.webp"
    store.files                 # {"assets/3f2a9c0e5b7d1a4c.webp": b"RIFF..."}
    store.report                # {"files": 2, "bytes": 91234, "cap": 5000000, ...}

An asset is named by the SHA-256 of its bytes, so identical images (the same status bar
crop, a screen recorded twice) are stored once. Images are WebP (lossy, quality 80);
where they would take more than `cap` bytes together, all are encoded again smaller
(lower quality, then fewer pixels, the page scales them back up) until they fit, and
the report says at what quality and scale. Encoding is deterministic: the same pixels
give the same bytes with the same libwebp.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from phoneworld.runtime.look import ASSET_DIR

DEFAULT_CAP = 5_000_000
"""Bytes of assets one app may carry (the issue's budget for an app of 100 states)."""
LADDER = ((80, 1.0), (65, 1.0), (65, 0.75), (55, 0.5), (45, 0.35), (35, 0.25))
"""(WebP quality, scale) tried in order until the assets fit the cap."""


@dataclass(frozen=True)
class AssetStore:
    names: dict[str, str]
    """Key given by the caller -> asset file name."""
    files: dict[str, bytes]
    """`assets/<name>` -> bytes, each stored once."""
    report: dict


def encode_image(pixels: np.ndarray, quality: int = 80, scale: float = 1.0) -> bytes:
    """An RGB array as WebP bytes, `scale` times its size (at least 1 x 1)."""
    from PIL import Image

    img = Image.fromarray(pixels, "RGB")
    if scale != 1.0:
        size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
        img = img.resize(size, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    # method 2: within 5% of method 4's size at under half its time.
    img.save(buf, "WEBP", quality=quality, method=2, exact=False)
    return buf.getvalue()


def asset_name(data: bytes, ext: str = "webp") -> str:
    return f"{hashlib.sha256(data).hexdigest()[:16]}.{ext}"


def encode_assets(images: Mapping[str, np.ndarray | Callable[[], np.ndarray]],
                  cap: int = DEFAULT_CAP) -> AssetStore:
    """Encode `images` (key -> RGB array, or a function that reads it: one image in
    memory at a time) as deduplicated assets within `cap` bytes; keys that cannot fit
    even at the smallest setting are left out (and reported)."""
    keys = sorted(images)
    for quality, scale in LADDER:
        encoded = {k: encode_image(_pixels(images[k]), quality, scale) for k in keys}
        store = _store(encoded)
        total = sum(len(v) for v in store.files.values())
        if total <= cap:
            return AssetStore(store.names, store.files, _report(store, cap, quality, scale, []))
    # Still too big: keep the smallest images first, as many as fit.
    kept, total = {}, 0
    seen: dict[bytes, None] = {}
    for k in sorted(keys, key=lambda k: (len(encoded[k]), k)):
        data = encoded[k]
        add = 0 if data in seen else len(data)
        if total + add <= cap:
            kept[k], total = data, total + add
            seen[data] = None
    store = _store(kept)
    dropped = sorted(set(keys) - set(kept))
    quality, scale = LADDER[-1]
    return AssetStore(store.names, store.files, _report(store, cap, quality, scale, dropped))


def _pixels(image: np.ndarray | Callable[[], np.ndarray]) -> np.ndarray:
    return image() if callable(image) else image


def _store(encoded: Mapping[str, bytes]) -> AssetStore:
    names = {k: asset_name(v) for k, v in encoded.items()}
    files = {f"{ASSET_DIR}/{names[k]}": v for k, v in encoded.items()}
    return AssetStore(names, files, {})


def _report(store: AssetStore, cap: int, quality: int, scale: float,
            dropped: list[str]) -> dict:
    return {"files": len(store.files), "bytes": sum(len(v) for v in store.files.values()),
            "images": len(store.names), "cap": cap, "quality": quality, "scale": scale,
            "dropped": dropped}
