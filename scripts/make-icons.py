"""Writes the page's app icons, www/icons/icon-192.png and icon-512.png (the
web app manifest's; committed): two overlapping squares, one text over
another, in the page's colours. Standard library only (zlib for PNG's
deflate, RFC 2083).

Run: python3 scripts/make-icons.py
"""

import struct
import zlib
from pathlib import Path

BACKGROUND = (0x1F, 0x3A, 0x5F)  # deep blue
FIRST = (0xF2, 0xC1, 0x4E)  # amber: the text
SECOND = (0xFF, 0xFF, 0xFF)  # white: its near copy


def pixel(x: float, y: float) -> tuple:
    """The colour at (x, y) in [0, 1)²."""
    in_first = 0.18 <= x < 0.62 and 0.18 <= y < 0.62
    in_second = 0.38 <= x < 0.82 and 0.38 <= y < 0.82
    if in_first and in_second:
        return tuple((a + b) // 2 for a, b in zip(FIRST, SECOND))
    if in_first:
        return FIRST
    if in_second:
        return SECOND
    return BACKGROUND


def png(size: int) -> bytes:
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel(x / size, y / size)) for x in range(size)) for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "www" / "icons"
    out.mkdir(exist_ok=True)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
