#!/usr/bin/env python3
"""Counts the colours of a PNG screenshot (8-bit RGB or RGBA, not interlaced; stdlib only).
Prints JSON: width, height, distinct colours, and for each NAME=RRGGBB given the pixels within
a small distance of that colour.
    png_colours.py shot.png hatch=d50000 banner=c62828"""
import json
import struct
import sys
import zlib

TOLERANCE = 6  # per channel: anti-aliasing and scaling move edges, not solid areas


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(kind, line, previous, bpp):
    if kind == 0:
        return line
    if kind == 2:
        return bytearray((x + y) & 0xFF for x, y in zip(line, previous))
    out = bytearray(line)
    for i in range(len(out)):
        left = out[i - bpp] if i >= bpp else 0
        if kind == 1:
            out[i] = (out[i] + left) & 0xFF
        elif kind == 3:
            out[i] = (out[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            up_left = previous[i - bpp] if i >= bpp else 0
            out[i] = (out[i] + paeth(left, previous[i], up_left)) & 0xFF
        else:
            raise ValueError(f"unknown PNG filter {kind}")
    return out


def read_png(path):
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    at, idat, header = 8, [], None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        at += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA, not interlaced (got {header})")
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        previous = unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), previous, bpp)
        rows.append(previous)
    return width, height, bpp, rows


def main():
    path, wanted = sys.argv[1], {}
    for argument in sys.argv[2:]:
        name, hex_colour = argument.split("=")
        wanted[name] = tuple(bytes.fromhex(hex_colour))
    width, height, bpp, rows = read_png(path)
    counts = {}
    for row in rows:
        for x in range(0, len(row), bpp):
            pixel = (row[x], row[x + 1], row[x + 2])
            counts[pixel] = counts.get(pixel, 0) + 1
    near = {name: sum(n for pixel, n in counts.items()
                      if all(abs(p - c) <= TOLERANCE for p, c in zip(pixel, colour)))
            for name, colour in wanted.items()}
    print(json.dumps({"width": width, "height": height, "colours": len(counts), "near": near}))


if __name__ == "__main__":
    main()
