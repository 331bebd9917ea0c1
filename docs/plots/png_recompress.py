#!/usr/bin/env python3
"""Recompresses a PNG's image data with zlib level 9 (sinew's PNG writer
stores deflate blocks uncompressed).  png_recompress.py IN OUT"""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
chunks, idat, pos = [], b"", 8
while pos < len(data):
    (length,) = struct.unpack(">I", data[pos:pos + 4])
    kind = data[pos + 4:pos + 8]
    body = data[pos + 8:pos + 8 + length]
    pos += 12 + length
    if kind == b"IDAT":
        idat += body
    else:
        chunks.append((kind, body))


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


out = bytearray(data[:8])
for kind, body in chunks:
    if kind == b"IEND":
        out += chunk(b"IDAT", zlib.compress(zlib.decompress(idat), 9))
    out += chunk(kind, body)
open(sys.argv[2], "wb").write(out)
