"""Frames: pixels PNG-encoded band by band, re-encoding only the bands a change touched."""

from __future__ import annotations

import io
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from phoneworld.serve.frame import BAND, Frame, adler32_combine


def _decoded(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as im:
        assert im.mode == "RGB"
        return np.asarray(im)


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_adler32_combines_as_zlibs(a, b):
    assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


_OPS = st.lists(st.tuples(st.sampled_from(["fill", "paste", "composite"]),
                          st.integers(-20, 90), st.integers(-20, 150),
                          st.integers(1, 40), st.integers(1, 70), st.integers(0, 2**32 - 1)),
                max_size=6)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 70), st.integers(1, 140), st.integers(0, 2**32 - 1), _OPS)
def test_a_changed_frame_encodes_as_a_fresh_one_and_decodes_to_its_pixels(w, h, seed, ops):
    rng = np.random.default_rng(seed)
    f = Frame(rng.integers(0, 256, (h, w, 3), dtype=np.uint8))
    want = f.pixels.copy()
    assert (_decoded(f.png()) == want).all()
    for op, x, y, ow, oh, s in ops:
        r = np.random.default_rng(s)
        if op == "fill":
            c = tuple(int(v) for v in r.integers(0, 256, 3))
            f.fill((x, y, x + ow, y + oh), c)
            want[max(0, y):max(0, y + oh), max(0, x):max(0, x + ow)] = c
        elif op == "paste":
            img = r.integers(0, 256, (oh, ow, 3), dtype=np.uint8)
            f.paste(x, y, img)
            ys, xs = slice(max(0, y), max(0, y + oh)), slice(max(0, x), max(0, x + ow))
            want[ys, xs] = img[ys.start - y:ys.stop - y, xs.start - x:xs.stop - x][
                :want[ys, xs].shape[0], :want[ys, xs].shape[1]]
        else:
            rgba = r.integers(0, 256, (oh, ow, 4), dtype=np.uint8)
            before = f.pixels.copy()
            f.composite(x, y, rgba)
            ys, xs = slice(max(0, y), max(0, y + oh)), slice(max(0, x), max(0, x + ow))
            src = rgba[ys.start - y:ys.stop - y, xs.start - x:xs.stop - x][
                :want[ys, xs].shape[0], :want[ys, xs].shape[1]]
            a = src[..., 3:4].astype(int)
            mixed = (src[..., :3].astype(int) * a + before[ys, xs].astype(int) * (255 - a)
                     + 127) // 255
            want[ys, xs] = mixed
    assert (f.pixels == want).all()
    png = f.png()
    assert (_decoded(png) == want).all()
    assert png == Frame(want.copy()).png()  # the same bytes as encoding it afresh


def test_a_copy_shares_encoded_bands_and_changes_alone():
    f = Frame(np.full((3 * BAND, 10, 3), 9, np.uint8))
    first = f.png()
    g = f.copy()
    g.fill((0, BAND, 10, BAND + 1), (1, 2, 3))
    assert [b is None for b in g._bands] == [False, True, False]  # only its band is stale
    assert f.png() == first and (f.pixels == 9).all()
    assert _decoded(g.png())[BAND, 0].tolist() == [1, 2, 3]


def test_composite_leaves_clear_pixels_and_replaces_opaque_ones():
    f = Frame(np.full((4, 4, 3), 100, np.uint8))
    rgba = np.zeros((2, 4, 4), np.uint8)
    rgba[1] = (200, 0, 50, 255)
    f.composite(0, 1, rgba)
    assert (f.pixels[1] == 100).all() and f.pixels[2].tolist() == [[200, 0, 50]] * 4


def test_a_view_cannot_change_the_frame():
    f = Frame(np.zeros((2, 2, 3), np.uint8))
    with pytest.raises(ValueError):
        f.view()[0, 0] = 1
    with pytest.raises(ValueError, match="height x width x 3"):
        Frame(np.zeros((2, 2), np.uint8))


def test_jpeg_is_a_jpeg_of_the_frame():
    f = Frame(np.full((40, 30, 3), 200, np.uint8))
    with Image.open(io.BytesIO(f.jpeg(90))) as im:
        assert im.format == "JPEG" and im.size == (30, 40)


def test_a_frame_from_a_png_keeps_its_bytes_until_it_changes():
    img = np.random.default_rng(3).integers(0, 256, (70, 20, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(img).save(out, "PNG")
    f = Frame.from_png(out.getvalue())
    assert f.size == (20, 70) and f._pixels is None
    assert f.png() == out.getvalue() and f._pixels is None  # never decoded
    g = f.copy()
    g.fill((0, 0, 1, 1), (1, 1, 1))
    assert f.png() == out.getvalue() and g.png() != out.getvalue()
    img[0, 0] = 1
    assert (_decoded(g.png()) == img).all() and (f.pixels[1:] == img[1:]).all()
    with pytest.raises(ValueError, match="not a PNG"):
        Frame.from_png(b"GIF89a" + bytes(30))
