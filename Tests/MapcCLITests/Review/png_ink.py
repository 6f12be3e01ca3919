"""How much of a PNG screenshot is drawn: decodes the file with zlib alone (8-bit RGB or RGBA,
non-interlaced, the five PNG filters) and prints JSON {"width", "height", "inked", "colours"}:
the share of pixels that are not near-white, and how many distinct colours there are.

usage: png_ink.py FILE.png
"""
import json
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
        channels = 3 if colour == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * channels
previous = bytearray(stride)
inked, colours, index = 0, set(), 0
for _ in range(height):
    kind = raw[index]
    line = bytearray(raw[index + 1:index + 1 + stride])
    index += 1 + stride
    for i in range(stride):
        a = line[i - channels] if i >= channels else 0
        b = previous[i]
        c = previous[i - channels] if i >= channels else 0
        if kind == 1:
            line[i] = (line[i] + a) & 255
        elif kind == 2:
            line[i] = (line[i] + b) & 255
        elif kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, channels):
        rgb = tuple(line[x:x + 3])
        colours.add(rgb)
        if min(rgb) < 235:
            inked += 1
    previous = line
print(json.dumps({"width": width, "height": height, "inked": inked / (width * height), "colours": len(colours)}))
