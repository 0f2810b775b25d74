"""Cairo's PDF and SVG surfaces drawing the raster scenes of SCENES.md.

    python cairo_documents.py [--scenes line,polygons,...] [--repeat 10] [--rounds 5] [--out DIR]

The pair of `strata-bench documents`. Each scene is generated and recorded
by ../shared/bench/scenes.py (the geometry, its checksum and the cairo
drawing calls are that file's), then, taking turns --rounds times, replayed
onto a 1920 x 1080 image surface (`cairo SCENE MS CHECKSUM`), onto a
one-page PDF surface written to a file (`cairo-pdf SCENE MS BYTES`) and
onto an SVG surface (`cairo-svg SCENE MS BYTES`). A document's time is
making the surface, drawing the recording on it and finishing the file.
Medians, in milliseconds. Run it with the python setup-peers.sh prints.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "shared", "bench"))
import scenes  # noqa: E402  (../shared/bench/scenes.py)


def timed(count, body):
    times = []
    for i in range(count + 1):
        t0 = time.perf_counter()
        body()
        t1 = time.perf_counter()
        if i >= 1:
            times.append((t1 - t0) * 1000)
    return times


def main():
    import cairo

    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", default=",".join(scenes.SCENES))
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    folder = args.out or tempfile.mkdtemp(prefix="cairo-documents-")
    os.makedirs(folder, exist_ok=True)
    per_round = max(1, args.repeat // args.rounds)
    for name in args.scenes.split(","):
        data = scenes.SCENES[name]()
        checksum = scenes.checksum(data)
        rec = scenes.cairo_record(name, data)
        image = cairo.ImageSurface(cairo.FORMAT_ARGB32, scenes.W, scenes.H)
        pdf_path = os.path.join(folder, f"cairo-{name}.pdf")
        svg_path = os.path.join(folder, f"cairo-{name}.svg")

        def pixels():
            c = cairo.Context(image)
            c.set_source_surface(rec, 0, 0)
            c.paint()
            image.flush()

        def document(kind, path):
            def body():
                if kind == "pdf":
                    surface = cairo.PDFSurface(path, scenes.W, scenes.H)
                else:
                    surface = cairo.SVGSurface(path, scenes.W, scenes.H)
                c = cairo.Context(surface)
                c.set_source_surface(rec, 0, 0)
                c.paint()
                surface.finish()
            return body

        times = {"cairo": [], "cairo-pdf": [], "cairo-svg": []}
        for _ in range(args.rounds):
            times["cairo"] += timed(per_round, pixels)
            times["cairo-pdf"] += timed(per_round, document("pdf", pdf_path))
            times["cairo-svg"] += timed(per_round, document("svg", svg_path))
        print(f"cairo {name} {statistics.median(times['cairo']):.3f} {checksum:.6f}", flush=True)
        print(f"cairo-pdf {name} {statistics.median(times['cairo-pdf']):.3f} {os.path.getsize(pdf_path)}", flush=True)
        print(f"cairo-svg {name} {statistics.median(times['cairo-svg']):.3f} {os.path.getsize(svg_path)}", flush=True)


if __name__ == "__main__":
    main()
