"""Writes ``overlapping.zip``: the "better zip bomb" (Fifield 2019, "A better
zip bomb", WOOT '19) in small — 1,000 central-directory entries that all point
at one local record, 4 MiB of "a" deflated to about 4 KB. Read entry by entry
it would inflate 4,000 MiB; the core's reader refuses it as overlapping before
inflating anything. Every surface's tests read this one file.

Run: python3 tests/data/make_overlapping_zip.py (standard library only).
"""

import struct
import zlib
from pathlib import Path

ENTRIES = 1000
DATA = b"a" * (4 << 20)


def main() -> None:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(DATA) + packer.flush()
    crc = zlib.crc32(DATA)
    name = b"a.txt"
    # Local file header: version 20, no flags, deflate (8), no time/date.
    out = b"PK\x03\x04" + struct.pack("<HHHHHIIIHH", 20, 0, 8, 0, 0, crc, len(packed), len(DATA), len(name), 0)
    out += name + packed
    directory = len(out)
    for i in range(ENTRIES):
        entry = f"{i:04}.txt".encode()
        out += b"PK\x01\x02" + struct.pack(
            "<HHHHHHIIIHHHHHII", 20, 20, 0, 8, 0, 0, crc, len(packed), len(DATA), len(entry), 0, 0, 0, 0, 0, 0
        )
        out += entry
    size = len(out) - directory
    out += b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, ENTRIES, ENTRIES, size, directory, 0)
    Path(__file__).with_name("overlapping.zip").write_bytes(out)


if __name__ == "__main__":
    main()
