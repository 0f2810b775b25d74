#!/usr/bin/env python3
"""Makes the test fixtures in this folder. Run with the peers' Python
(`PY=$(../shared/bench/setup-peers.sh)`), from anywhere:

    $PY Tests/StrataGraphicsTests/Resources/make_fixtures.py

1. Reference images drawn by Skia (an independent engine) for the small scenes
   that ReferenceImageTests.swift draws with Strata. Each scene is defined in both
   files; keep them in step.
2. PNG files in every colour type and bit depth libpng reads, written by Pillow,
   for PNGTests.swift: a 4 x 3 image whose pixel (x, y) has the values given by
   `value(x, y)` below.
"""
import math
import os

import skia
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def save_skia(name, w, h, draw):
    surface = skia.Surface.MakeRasterN32Premul(w, h)
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorWHITE)
    draw(canvas)
    surface.makeImageSnapshot().save(os.path.join(HERE, f"skia-{name}.png"), skia.kPNG)


def paint(r, g, b, a):
    return skia.Paint(AntiAlias=True, Color=skia.Color(r, g, b, a))


def star(canvas):
    p = skia.Path()
    for i in range(5):
        a = -math.pi / 2 + i * 4 * math.pi / 5
        pt = (48 + 40 * math.cos(a), 48 + 40 * math.sin(a))
        p.moveTo(*pt) if i == 0 else p.lineTo(*pt)
    p.close()
    p.setFillType(skia.PathFillType.kEvenOdd)
    canvas.drawPath(p, paint(240, 150, 20, 255))
    q = skia.Path(p)
    q.setFillType(skia.PathFillType.kWinding)
    q.offset(96, 0)
    canvas.drawPath(q, paint(20, 120, 200, 200))


def circles(canvas):
    for i in range(12):
        cx = 10.3 + i * 15.7
        cy = 20.6 + (i % 3) * 21.3
        r = 2.5 + i * 0.9
        canvas.drawCircle(cx, cy, r, paint(30 + i * 15, 90, 200 - i * 10, 255 if i % 2 else 160))


def rects(canvas):
    for i in range(10):
        x = 3.25 + i * 17.4
        y = 4.5 + (i % 4) * 13.1
        canvas.drawRect(skia.Rect.MakeXYWH(x, y, 9.6 + i, 30.3 - i), paint(200, 40 + i * 20, 60, 128))


def curves(canvas):
    p = skia.Path()
    p.moveTo(10, 90)
    p.cubicTo(30, 10, 90, 110, 120, 30)
    p.quadTo(160, 0, 180, 70)
    p.lineTo(180, 90)
    p.close()
    canvas.drawPath(p, paint(120, 60, 200, 220))
    p2 = skia.Path()
    p2.addRoundRect(skia.Rect.MakeXYWH(40.5, 50.25, 100, 40), 12, 12)
    canvas.drawPath(p2, paint(20, 180, 90, 128))


def strokes(canvas):
    caps = [skia.Paint.kButt_Cap, skia.Paint.kRound_Cap, skia.Paint.kSquare_Cap]
    joins = [skia.Paint.kMiter_Join, skia.Paint.kRound_Join, skia.Paint.kBevel_Join]
    for i, cap in enumerate(caps):
        for j, join in enumerate(joins):
            x, y = 14 + j * 64, 12 + i * 44
            p = skia.Path()
            p.moveTo(x, y + 28)
            p.lineTo(x + 20, y)
            p.lineTo(x + 40, y + 28)
            canvas.drawPath(p, skia.Paint(AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=9,
                                          StrokeCap=cap, StrokeJoin=join, Color=skia.Color(40, 110, 230, 255)))
    # Dashes with a phase along a cubic, round caps.
    wave = skia.Path()
    wave.moveTo(200, 30)
    wave.cubicTo(230, -10, 260, 90, 290, 40)
    canvas.drawPath(wave, skia.Paint(AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=5,
                                     StrokeCap=skia.Paint.kRound_Cap, Color=skia.Color(30, 160, 90, 255),
                                     PathEffect=skia.DashPathEffect.Make([12, 7], 4)))
    # A closed, rounded rectangle with a thin stroke at a half-pixel offset.
    ring = skia.Path()
    ring.addRoundRect(skia.Rect.MakeXYWH(205.5, 70.5, 80, 50), 10, 10)
    canvas.drawPath(ring, skia.Paint(AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=1,
                                     Color=skia.Color(200, 60, 40, 255)))


def gradients(canvas):
    colors = [skia.Color(255, 150, 0, 255), skia.Color(230, 50, 100, 255), skia.Color(90, 50, 200, 255)]
    pos = [0, 0.5, 1]
    modes = [skia.TileMode.kClamp, skia.TileMode.kRepeat, skia.TileMode.kMirror]
    for i, mode in enumerate(modes):
        y = 6 + i * 34
        shader = skia.GradientShader.MakeLinear([skia.Point(40, 0), skia.Point(100, 0)], colors, pos, mode)
        canvas.drawRect(skia.Rect.MakeXYWH(6, y, 180, 28), skia.Paint(AntiAlias=True, Shader=shader))
    for i, mode in enumerate(modes):
        x = 200 + i * 56
        shader = skia.GradientShader.MakeTwoPointConical(skia.Point(x + 20, 30), 4, skia.Point(x + 26, 34), 16,
                                                         colors, pos, mode)
        canvas.drawRect(skia.Rect.MakeXYWH(x, 6, 50, 50), skia.Paint(AntiAlias=True, Shader=shader))
    sweep = skia.GradientShader.MakeSweep(280, 80, [skia.Color(255, 0, 0, 255), skia.Color(0, 200, 0, 255),
                                                    skia.Color(0, 0, 255, 255), skia.Color(255, 0, 0, 255)])
    canvas.drawCircle(280, 80, 20, skia.Paint(AntiAlias=True, Shader=sweep))
    fade = skia.GradientShader.MakeLinear([skia.Point(0, 60), skia.Point(0, 100)],
                                          [skia.Color(255, 59, 48, 204), skia.Color(255, 59, 48, 0)])
    canvas.drawRect(skia.Rect.MakeXYWH(200, 62, 50, 38), skia.Paint(AntiAlias=True, Shader=fade))


def value(x, y):
    """The straight RGBA of pixel (x, y) in the colour fixtures."""
    return (x * 60 + 15, y * 100 + 5, 200 - x * 40, 255 - (x + y) * 30)


def write_interlaced_rgb(path, image):
    """Pillow cannot write Adam7; this writes an interlaced 8-bit RGB PNG by hand."""
    import struct
    import zlib
    w, h = image.size
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = bytearray()
    for x0, y0, dx, dy in passes:
        xs = range(x0, w, dx)
        if len(xs) == 0:
            continue
        for y in range(y0, h, dy):
            raw.append(0)
            for x in xs:
                raw.extend(image.getpixel((x, y)))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 1)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw))))
        f.write(chunk(b"IEND", b""))


def png_fixtures():
    w, h = 4, 3
    rgba = Image.new("RGBA", (w, h))
    for y in range(h):
        for x in range(w):
            rgba.putpixel((x, y), value(x, y))
    rgba.save(os.path.join(HERE, "rgba8.png"))
    rgba.convert("RGB").save(os.path.join(HERE, "rgb8.png"))
    write_interlaced_rgb(os.path.join(HERE, "rgb8-interlaced.png"), rgba.convert("RGB"))
    gray = Image.new("L", (w, h))
    for y in range(h):
        for x in range(w):
            gray.putpixel((x, y), value(x, y)[0])
    gray.save(os.path.join(HERE, "gray8.png"))
    la = Image.new("LA", (w, h))
    for y in range(h):
        for x in range(w):
            v = value(x, y)
            la.putpixel((x, y), (v[0], v[3]))
    la.save(os.path.join(HERE, "gray-alpha8.png"))
    # A palette image whose colour 1 is half transparent (a tRNS chunk).
    pal = Image.new("P", (w, h))
    pal.putpalette([255, 0, 0, 0, 255, 0, 0, 0, 255] + [0] * (253 * 3))
    for y in range(h):
        for x in range(w):
            pal.putpixel((x, y), (x + y) % 3)
    pal.save(os.path.join(HERE, "palette-trns.png"), transparency=bytes([255, 128, 255]))
    # 16-bit grey: Pillow writes mode I;16 as a 16-bit greyscale PNG.
    g16 = Image.new("I;16", (w, h))
    for y in range(h):
        for x in range(w):
            g16.putpixel((x, y), value(x, y)[0] * 257)
    g16.save(os.path.join(HERE, "gray16.png"))
    # 1-bit black and white: a checkerboard.
    bw = Image.new("1", (w, h))
    for y in range(h):
        for x in range(w):
            bw.putpixel((x, y), 255 if (x + y) % 2 else 0)
    bw.save(os.path.join(HERE, "gray1.png"))


def jpeg_fixtures():
    """16 x 8 images of two flat 8 x 8 blocks (so JPEG's blocks hold one colour
    each and decode close to exact): (200, 40, 30) on the left, (20, 90, 220) on
    the right."""
    rgb = Image.new("RGB", (16, 8))
    for y in range(8):
        for x in range(16):
            rgb.putpixel((x, y), (200, 40, 30) if x < 8 else (20, 90, 220))
    rgb.save(os.path.join(HERE, "blocks.jpg"), quality=95)
    rgb.save(os.path.join(HERE, "blocks-progressive.jpg"), quality=95, progressive=True)
    rgb.convert("L").save(os.path.join(HERE, "blocks-gray.jpg"), quality=95)
    rgb.convert("CMYK").save(os.path.join(HERE, "blocks-cmyk.jpg"), quality=95)


if __name__ == "__main__":
    save_skia("star", 192, 96, star)
    save_skia("circles", 192, 72, circles)
    save_skia("rects", 192, 72, rects)
    save_skia("curves", 192, 100, curves)
    save_skia("strokes", 300, 140, strokes)
    save_skia("gradients", 370, 110, gradients)
    png_fixtures()
    jpeg_fixtures()
    print("fixtures written to", HERE)
