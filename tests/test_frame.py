"""Frames: pixels PNG-encoded band by band, re-encoding only the bands a change touched."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from phoneworld.serve.frame import (
    BAND,
    DEPTH,
    Frame,
    _chunk,
    adler32_combine,
    decode_png,
    decode_rgb,
    over,
    tint,
)


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


def test_a_change_stales_only_the_bands_whose_pixels_it_changes():
    f = Frame(np.full((4 * BAND, 10, 3), 9, np.uint8))
    f.encode()
    f.paste(0, 0, np.full((4 * BAND, 10, 3), 9, np.uint8))  # what it shows already
    rgba = np.zeros((4 * BAND, 10, 4), np.uint8)
    rgba[2 * BAND + 3, 4] = (1, 2, 3, 255)
    f.composite(0, 0, rgba)  # clear but for one pixel, in the third band
    assert [b is None for b in f._bands] == [False, False, True, False]
    assert f.png() == Frame(f.pixels.copy()).png()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_over_blends_as_straight_alpha_rounded(seed):
    rng = np.random.default_rng(seed)
    under = rng.integers(0, 256, (7, 9, 3), dtype=np.uint8)
    rgba = rng.integers(0, 256, (7, 9, 4), dtype=np.uint8)
    rgba[..., 3][rng.random((7, 9)) < 0.4] = rng.choice([0, 255])
    for clear in (0.0, 0.9):  # blended as a box, and pixel by pixel (few not clear)
        rgba[..., 3][rng.random((7, 9)) < clear] = 0
        a = rgba[..., 3:4].astype(np.int64)
        want = (rgba[..., :3] * a + under * (255 - a) + 127) // 255
        assert (over(under, rgba) == want).all()
    assert (under == over(under, np.zeros((7, 9, 4), np.uint8))).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_tint_is_over_of_one_colour_at_the_coverage(seed):
    """`tint` (a text's ink: one colour's coverage) gives the bytes `over` gives for the
    RGBA of that colour at that alpha, dense and sparse (a glyph box mostly clear)."""
    rng = np.random.default_rng(seed)
    under = rng.integers(0, 256, (11, 13, 3), dtype=np.uint8)
    rgb = rng.integers(0, 256, 3, dtype=np.uint8)
    for clear in (0.1, 0.9):
        a = rng.integers(0, 256, (11, 13), dtype=np.uint8)
        a[rng.random((11, 13)) < clear] = 0
        a[0, 0] = 255
        rgba = np.zeros((11, 13, 4), np.uint8)
        rgba[..., :3] = rgb
        rgba[..., 3] = a
        got = tint(under, a, rgb)
        assert got is not under and np.array_equal(got, over(under, rgba))
    assert np.array_equal(tint(under, np.zeros((11, 13), np.uint8), rgb), under)


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


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(1, 70), st.integers(0, 2**32 - 1),
       st.sampled_from(["RGB", "RGBA"]), st.booleans())
def test_decode_png_reads_back_what_pillow_and_frames_write(w, h, seed, mode, optimize):
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 256, (h, w, len(mode)), dtype=np.uint8)
    img[: h // 2] = img[0]  # flat runs, as screens have
    out = io.BytesIO()
    Image.fromarray(img, mode).save(out, "PNG", optimize=optimize)  # Pillow's filters
    got = decode_png(out.getvalue())
    assert got.shape == img.shape and (got == img).all()
    if mode == "RGB":
        f = Frame(img.copy())  # rows "None" and "Up": the fast path
        assert (decode_png(f.png()) == img).all()


def test_decode_png_reads_chromiums_fast_pngs():
    # Chromium's fast PNGs: every row "Up" (the first one adds a row of zeros).
    img = np.random.default_rng(5).integers(0, 256, (5, 3, 3), dtype=np.uint8)
    rows = img.reshape(5, -1)
    filt = np.vstack([rows[:1], rows[1:] - rows[:-1]]).astype(np.uint8)
    raw = np.hstack([np.full((5, 1), 2, np.uint8), filt]).tobytes()
    ihdr = struct.pack(">IIBBBBB", 3, 5, 8, 2, 0, 0, 0)
    png = b"".join([b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", ihdr),
                    _chunk(b"IDAT", zlib.compress(raw, 1)), _chunk(b"IEND", b"")])
    assert (decode_png(png) == img).all()
    with Image.open(io.BytesIO(png)) as im:
        assert (np.asarray(im) == img).all()
    with pytest.raises(ValueError, match="not a PNG"):
        decode_png(b"GIF89a" + bytes(30))


def test_decode_png_without_imagecodecs_falls_back_to_pillow(monkeypatch):
    import phoneworld.serve.frame as frame_mod

    img = np.random.default_rng(6).integers(0, 256, (BAND + 3, 7, 3), dtype=np.uint8)
    png = Frame(img.copy()).png()
    want = decode_png(png)
    monkeypatch.setattr(frame_mod, "_codecs", None)
    assert (decode_png(png) == want).all() and (want == img).all()


def test_a_broken_png_is_an_error_that_says_so():
    png = Frame(np.zeros((4, 4, 3), np.uint8)).png()
    broken = png[:40] + bytes(len(png) - 52) + png[-12:]
    with pytest.raises(Exception):  # noqa: B017 - Pillow's own error, whichever it is
        decode_png(broken)


def test_a_frame_weighs_its_pixels_and_encoded_bytes():
    img = np.random.default_rng(4).integers(0, 256, (2 * BAND + 5, 9, 3), dtype=np.uint8)
    f = Frame(img.copy())
    assert f.nbytes == img.nbytes and not f.encoded
    f.encode()
    assert f.encoded and f.nbytes > img.nbytes
    g = Frame.from_png(f.png())
    assert g.encoded and g.nbytes == len(f.png())
    g.pixels  # noqa: B018
    assert g.nbytes == len(f.png()) + img.nbytes
    g.fill((0, 0, 1, 1), (1, 2, 3))
    assert not g.encoded and (decode_png(g.png())[0, 0] == (1, 2, 3)).all()


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
@pytest.mark.parametrize("fmt", ["WEBP", "PNG", "JPEG"])
def test_decode_rgb_reads_images_as_pillow_does(monkeypatch, mode, fmt):
    import phoneworld.serve.frame as frame_mod

    if fmt == "JPEG" and mode == "RGBA":
        return
    img = np.random.default_rng(7).integers(0, 256, (21, 13, len(mode)), dtype=np.uint8)
    img[:10] = img[0]
    out = io.BytesIO()
    Image.fromarray(img, mode).save(out, fmt, **({"quality": 80} if fmt != "PNG" else {}))
    with Image.open(io.BytesIO(out.getvalue())) as im:
        want = np.asarray(im.convert("RGB"))
    got = decode_rgb(out.getvalue())
    assert got.shape == (21, 13, 3) and got.dtype == np.uint8 and (got == want).all()
    monkeypatch.setattr(frame_mod, "_codecs", None)
    assert (decode_rgb(out.getvalue()) == want).all()


_COMPACT_OPS = st.lists(st.tuples(
    st.sampled_from(["fill", "paste", "composite", "rows", "copy"]),
    st.integers(-20, 90), st.integers(-20, 150), st.integers(1, 120), st.integers(1, 90),
    st.integers(0, 2**32 - 1)), max_size=6)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 70), st.integers(1, 140), st.integers(0, 2**32 - 1), _COMPACT_OPS)
def test_a_compact_frame_draws_as_the_frame_it_was_made_from(w, h, seed, ops):
    # A compact frame (bands only, rows inflated where read or written, bands wholly
    # overwritten never inflated) ends with the same pixels and PNG bytes as the frame.
    rng = np.random.default_rng(seed)
    full = Frame(rng.integers(0, 256, (h, w, 3), dtype=np.uint8))
    small = Frame(full.pixels.copy()).compact()
    assert small.png() == full.png() and not small.loaded
    for op, x, y, ow, oh, s in ops:
        r = np.random.default_rng(s)
        if op == "fill":
            if s % 2:  # full width: the bands inside it are not inflated
                x, ow = 0, w
            c = tuple(int(v) for v in r.integers(0, 256, 3))
            for g in (full, small):
                g.fill((x, y, x + ow, y + oh), c)
        elif op == "paste":
            img = r.integers(0, 256, (oh, w if s % 2 else ow, 3), dtype=np.uint8)
            for g in (full, small):
                g.paste(0 if s % 2 else x, y, img)
        elif op == "composite":
            rgba = r.integers(0, 256, (oh, ow, 4), dtype=np.uint8)
            for g in (full, small):
                g.composite(x, y, rgba)
        elif op == "rows":
            y1, y2 = max(0, y), max(0, min(h, y + oh))
            assert (small.rows(y1, y2)[y1:y2] == full.pixels[y1:y2]).all()
        else:
            full, small = full.copy(), small.copy()
        assert small.png() == full.png()
    assert (small.pixels == full.pixels).all() and small.loaded


def test_a_compact_frame_inflates_only_the_bands_it_needs():
    img = np.random.default_rng(5).integers(0, 256, (4 * BAND, 12, 3), dtype=np.uint8)
    f = Frame(img).compact()
    assert f.nbytes == sum(len(b[0]) for b in f._bands)  # no pixels held
    assert (f.rows(BAND + 2, BAND + 5)[BAND + 2:BAND + 5] == img[BAND + 2:BAND + 5]).all()
    assert f._valid.tolist() == [False, True, False, False]
    f.fill((0, 2 * BAND, 12, 4 * BAND), (1, 2, 3))  # whole bands: none inflated
    assert f._valid.tolist() == [False, True, True, True]
    assert [b is None for b in f._bands] == [False, False, True, True]
    want = img.copy()
    want[2 * BAND:] = (1, 2, 3)
    assert (f.pixels == want).all() and f.png() == Frame(want).png()


_COPY_OPS = st.lists(st.tuples(
    st.sampled_from(["fill", "paste", "rows", "copy", "png"]), st.integers(0, 5),
    st.integers(-20, 150), st.integers(1, 90), st.booleans(), st.integers(0, 2**32 - 1)),
    max_size=10)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 70), st.integers(1, 140), st.integers(0, 2**32 - 1),
       st.sampled_from(["pixels", "compact", "png"]), _COPY_OPS)
def test_copies_share_their_sources_rows_and_draw_as_deep_copies(w, h, seed, kind, ops):
    # Copies of copies (of a loaded, compact or PNG frame), each changed alone, draw as
    # arrays copied whole; a frame copied from refuses changes, and no copy's source is
    # itself a copy (no chains are kept).
    img = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    root = Frame(img.copy())
    root = root.compact() if kind == "compact" else \
        Frame.from_png(root.png()) if kind == "png" else root
    frames, want = [root], [img.copy()]
    for op, i, y, oh, whole, s in ops:
        i %= len(frames)
        f, px = frames[i], want[i]
        r = np.random.default_rng(s)
        if op == "copy":
            frames.append(f.copy())
            want.append(px.copy())
            deep, g = 0, frames[-1]
            while g._source is not None:
                deep, g = deep + 1, g._source
            assert deep <= DEPTH
            continue
        if op == "rows":
            y1, y2 = max(0, y), max(0, min(h, y + oh))
            assert (f.rows(y1, y2)[y1:y2] == px[y1:y2]).all()
            continue
        if op == "png":
            assert _decoded(f.png()).tolist() == px.tolist()
            continue
        x, ow = (0, w) if whole else (int(r.integers(0, w)), int(r.integers(1, w + 1)))
        if f._frozen:
            with pytest.raises(ValueError, match="copied from"):
                f.fill((x, y, x + ow, y + oh), (1, 2, 3))
            continue
        if op == "fill":
            c = tuple(int(v) for v in r.integers(0, 256, 3))
            f.fill((x, y, x + ow, y + oh), c)
            px[max(0, y):max(0, y + oh), x:x + ow] = c
        else:
            new = r.integers(0, 256, (oh, ow, 3), dtype=np.uint8)
            f.paste(x, y, new)
            y1, y2 = max(0, y), min(h, y + oh)
            if y1 < y2:
                px[y1:y2, x:x + ow] = new[y1 - y:y2 - y, :px.shape[1] - x]
    for f, px in zip(frames, want, strict=True):
        assert (f.pixels == px).all()
        assert f.png() == Frame(px.copy()).png()


def test_copies_inflate_and_deflate_their_unchanged_bands_in_their_source_once():
    img = np.random.default_rng(3).integers(0, 256, (4 * BAND, 12, 3), dtype=np.uint8)
    plate = Frame(img).compact()
    a, b = plate.copy(), plate.copy()
    assert a.nbytes == b.nbytes == 0  # nothing of their own yet
    assert (a.rows(BAND, BAND + 1)[BAND] == img[BAND]).all()
    assert plate._valid.tolist() == [False, True, False, False]  # inflated there, once
    b.fill((0, 0, 12, 1), (7, 7, 7))  # b's first band from the plate: inflated there
    assert plate._valid.tolist() == [True, True, False, False]
    ground = Frame(img.copy())  # loaded, nothing encoded
    c, d = ground.copy(), ground.copy()
    c.fill((0, 0, 12, 1), (7, 7, 7))
    c.png()
    assert ground._bands[0] is None and all(ground._bands[1:])  # deflated there, once
    assert d._bands[1] is None and d.png()[:40] and d._bands[1] is ground._bands[1]
    e = c.copy().copy().copy()  # a copy of a frame DEPTH deep: that frame's source
    assert e._source is not None and e._source._depth == DEPTH - 1
    assert (e.pixels[0] == 7).all() and (e.pixels[1:] == img[1:]).all()
    assert e.png() == Frame(e.pixels.copy()).png()
    with pytest.raises(ValueError, match="copied from"):
        plate.fill((0, 0, 1, 1), (0, 0, 0))


def test_a_frame_with_shared_pixels_reads_them_and_keeps_its_bands():
    """`Frame.with_pixels`: a compact frame's bands with the pixels they decode to (read-
    only, shared): its PNG is the bands, its rows those pixels, a copy changes alone."""
    rng = np.random.default_rng(9)
    px = rng.integers(0, 256, (3 * BAND + 5, 20, 3), dtype=np.uint8)
    c = Frame(px.copy()).compact()
    with pytest.raises(ValueError):
        c.with_pixels(px)  # (writeable: not shared)
    px.flags.writeable = False
    f = c.with_pixels(px)
    assert f.loaded and f.pixels is px and f.png() == Frame(px.copy()).png()
    g = f.copy()
    g.fill((0, 0, 5, 5), (9, 9, 9))
    assert np.array_equal(f.pixels, px) and g.pixels[0, 0].tolist() == [9, 9, 9]
    assert np.array_equal(decode_png(g.png()), g.pixels)
