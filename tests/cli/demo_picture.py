"""sinew demo's picture (issue 20), measured in the written demo.png alone.

Runs `sinew demo`, decodes demo.png here (zlib and the PNG filters, no
image library) and checks the layout docs/showcase.md describes: an overview
row, then one close-up per actor of metrics.json except props and targets,
three to a row, in the actors' order. In each close-up the actor is the
largest 4-connected region of pixels in its material's palette range (index
4 + 30 m .. 4 + 30 m + 29; props, targets and the ground left out): a
humanoid's region must be at least 150 px tall, the spider's at least 150 px
across; each picture carries text (palette index 3, black) in its top band.

usage: demo_picture.py SINEW OUT_DIR
"""
import json
import os
import struct
import subprocess
import sys
import zlib

INK, FIRST, SHADES = 3, 4, 30
SKIN, CREATURE, PROP, TARGET, HIT, DEFAULT = 1, 2, 4, 5, 6, 0
HUMANOIDS = {"locomotion": SKIN, "reach": SKIN, "idle": DEFAULT, "hit": HIT, "powered": SKIN}
TILE = 320  # the default close-up size


def read_png(path):
    """Width, height and rows of palette indices of an 8-bit indexed PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color == 3, "expected 8-bit indexed colour"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(width)
    for y in range(height):
        f, line = raw[y * (width + 1)], bytearray(raw[y * (width + 1) + 1:(y + 1) * (width + 1)])
        for x in range(width):
            a = line[x - 1] if x else 0
            b, c = prev[x], prev[x - 1] if x else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, rows


def largest_region(rows, x0, y0, w, h, materials):
    """Bounding box (width, height) of the largest 4-connected region of
    pixels in the given materials within the tile."""
    inside = lambda v: v >= FIRST and (v - FIRST) // SHADES in materials
    seen, best = set(), (0, 0, 0)
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            if (x, y) in seen or not inside(rows[y][x]):
                continue
            stack, seen_here = [(x, y)], 0
            seen.add((x, y))
            lo_x, hi_x, lo_y, hi_y = x, x, y, y
            while stack:
                px, py = stack.pop()
                seen_here += 1
                lo_x, hi_x, lo_y, hi_y = min(lo_x, px), max(hi_x, px), min(lo_y, py), max(hi_y, py)
                for qx, qy in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    if x0 <= qx < x0 + w and y0 <= qy < y0 + h and (qx, qy) not in seen \
                            and inside(rows[qy][qx]):
                        seen.add((qx, qy))
                        stack.append((qx, qy))
            if seen_here > best[0]:
                best = (seen_here, hi_x - lo_x + 1, hi_y - lo_y + 1)
    return best[1], best[2]


def main():
    sinew, out = sys.argv[1], sys.argv[2]
    subprocess.run([sinew, "demo", "--seconds", "4", "--out", out], check=True,
                   stdout=subprocess.DEVNULL)
    actors = list(json.load(open(os.path.join(out, "metrics.json")))["observer"]["actors"])
    tiles = [a for a in actors if a not in ("props", "targets")]
    width, height, rows = read_png(os.path.join(out, "demo.png"))
    assert width == 3 * TILE and height == TILE * (1 + (len(tiles) + 2) // 3), (width, height)
    failures = []

    def labelled(x0, y0, w):
        return any(rows[y][x] == INK for y in range(y0, y0 + 24) for x in range(x0, x0 + w))

    if not labelled(0, 0, width):
        failures.append("overview: no text")
    for k, name in enumerate(tiles):
        x0, y0 = (k % 3) * TILE, (1 + k // 3) * TILE
        if not labelled(x0, y0, TILE):
            failures.append(f"{name}: no label")
        if name in HUMANOIDS:
            w, h = largest_region(rows, x0, y0, TILE, TILE, {HUMANOIDS[name]})
            print(f"{name}: {h} px tall ({w} px wide)")
            if h < 150:
                failures.append(f"{name}: {h} px tall, under 150")
        elif name == "spider":
            w, h = largest_region(rows, x0, y0, TILE, TILE, {CREATURE})
            print(f"spider: {w} x {h} px")
            if max(w, h) < 150:
                failures.append(f"spider: {w} x {h} px, under 150 across")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
