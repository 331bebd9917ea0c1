"""sinew compress --plot (issue 20): the chart is drawn by the tools' own
plot writer (no gnuplot), measured in the written PNG against the figures
`sinew compress --json` reports for the same run.

The JSON's "plot" member states the picture's size and where its axes lie
(the plot area's corners in pixels, the time and error scales, the palette
index of each coloured joint); the chart's own layout is not re-derived
here. Checked: the PNG decodes as 8-bit indexed at the stated 1200 x 600;
it plots the clip of the largest error; a pixel of the curve of the joint
--json names as the worst (or of one tied with it) sits within 2 px of
(worst_time, max_error) mapped through the axes; no curve pixel lies above
that error's row; the precision line crosses the area at its height; the
title, tick labels, axis names and legend put ink where they belong.

usage: compress_plot.py SINEW INPUT OUT_DIR (exit 77 when INPUT is absent)
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from demo_picture import INK, read_png  # noqa: E402


def ink(rows, x0, y0, x1, y1):
    """Black pixels in the box [x0, x1) x [y0, y1)."""
    return sum(1 for y in range(max(0, y0), y1) for x in range(max(0, x0), x1) if rows[y][x] == INK)


def main():
    sinew, src, out = sys.argv[1:4]
    if not os.path.exists(src):
        print("SKIP: no " + src)
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    png = os.path.join(out, "plot.png")
    if os.path.exists(png):
        os.remove(png)
    run = subprocess.run([sinew, "compress", src, "-o", os.path.join(out, "plot.sinew"), "--json",
                          "--plot", png], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print("FAIL sinew compress exited", run.returncode, run.stderr)
        sys.exit(1)
    doc = json.loads(run.stdout)
    plot, failures = doc["plot"], []
    width, height, rows = read_png(png)
    print(f"{png}: {width} x {height}, {os.path.getsize(png)} bytes")
    if (width, height) != (plot["width"], plot["height"]) or (width, height) != (1200, 600):
        failures.append(f"size {width} x {height}, stated {plot['width']} x {plot['height']}")
    clip = max(doc["clips"], key=lambda c: c["max_error"])
    if plot["clip"] != clip["name"]:
        failures.append(f"plots {plot['clip']}, the largest error is {clip['name']}'s")
    x0, y0, x1, y1 = plot["area"]
    t_max, e_max = plot["time"][1], plot["error"][1]

    def px(t):
        return round(x0 + t / t_max * (x1 - x0))

    def py(e):
        return round(y1 - e / e_max * (y1 - y0))

    top = clip["max_error"]
    # The worst joint, or joints tied with it (a child moving rigidly with
    # it), drawn in colour; the first listed is drawn on top.
    tied = {j["index"] for j in plot["joints"] if abs(j["max_error"] - top) <= 1e-6 * max(top, 1e-9)}
    names = [j["name"] for j in plot["joints"]]
    if clip["worst_joint"] not in names[:len(tied)]:
        failures.append(f"worst joint {clip['worst_joint']} not first among {names}")
    X, Y = px(clip["worst_time"]), py(top)
    near = [(x, y) for y in range(Y - 2, Y + 3) for x in range(X - 2, X + 3) if rows[y][x] in tied]
    print(f"worst {clip['worst_joint']} {top:.6g} at {clip['worst_time']:.3f} s -> pixel ({X}, {Y}): "
          f"{len(near)} curve pixels within 2 px")
    if not near:
        failures.append(f"no curve of {clip['worst_joint']} near ({X}, {Y})")
    curves = {j["index"] for j in plot["joints"]} | {plot["others_index"]}
    highest = min((y for y in range(y0 + 1, y1) for x in range(x0 + 1, x1) if rows[y][x] in curves),
                  default=y1)
    print(f"highest curve pixel row {highest} (the largest error's row {Y})")
    if highest < Y - 1:
        failures.append(f"a curve pixel at row {highest}, above the largest error's row {Y}")
    yp = py(doc["precision"])
    across = sum(1 for x in range(x0, x1 + 1) if INK in (rows[yp][x], rows[yp + 1][x]))
    print(f"precision {doc['precision']} at row {yp}: {across} of {x1 - x0 + 1} columns")
    if across < 0.9 * (x1 - x0 + 1):
        failures.append(f"the precision line covers {across} columns of {x1 - x0 + 1}")
    parts = {"title": ink(rows, 0, 0, width, y0 - 30), "y ticks": ink(rows, 0, y0, x0 - 2, y1),
             "x ticks and name": ink(rows, x0, y1 + 2, x1, height),
             "legend": ink(rows, x1 + 2, y0, width, y1)}
    print("ink: " + ", ".join(f"{k} {v}" for k, v in parts.items()))
    failures += [f"no {k} text" for k, v in parts.items() if v < 100]
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
