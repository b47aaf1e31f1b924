#!/usr/bin/env python3
"""Writes image files that try to exhaust memory, for the peak-memory check of README
"Hostile input, damaged files and fuzzing" (standard library only, deterministic):

  huge-header.png      IHDR claims 20000 x 20000, almost no data
  max-header.png       IHDR claims 2147483647 x 2147483647
  huge-header.jpg      SOF claims 65500 x 65500, one block of data
  bomb-gray.png        8000 x 8000 gray, all zero (64 MP; 64 MB decoded from ~60 KB)
  bomb-rgb.png         8000 x 8000 RGB, all zero (64 MP; 192 MB decoded from ~190 KB)
  bomb-rgba16.png      2800 x 2800 RGBA 16-bit (7.8 MP; 63 MB decoded)
  bomb-gray.jpg        8000 x 8000 gray baseline JPEG, every block flat (~750 KB)
  bomb-rgb.jpg         8000 x 8000 YCbCr 4:4:4 baseline JPEG, every block flat (~2.3 MB)
  bomb-12mp.jpg        4000 x 3000 YCbCr JPEG, flat (a phone photo's size, for comparison)

Usage: scripts/make_big_images.py DIR
Then, for each file: /usr/bin/time -v sudoku-lens scan FILE  (see "Maximum resident set size").
"""

import struct
import sys
import zlib
from pathlib import Path


def png_chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png(width: int, height: int, bit_depth: int, color_type: int, row_bytes: int | None) -> bytes:
    """A PNG; with `row_bytes` its rows are all zero (filter 0), else a token IDAT only."""
    out = b"\x89PNG\r\n\x1a\n"
    out += png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0))
    if row_bytes is None:
        out += png_chunk(b"IDAT", zlib.compress(b"\x00" * 16))
    else:
        z = zlib.compressobj(9)
        row = b"\x00" * (row_bytes + 1)
        data = bytearray()
        for _ in range(height):
            data += z.compress(row)
        data += z.flush()
        out += png_chunk(b"IDAT", bytes(data))
    out += png_chunk(b"IEND", b"")
    return out


# The standard luminance Huffman tables (ITU T.81 Annex K.3).
DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
DC_VALUES = list(range(12))
AC_COUNTS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]
AC_VALUES = bytes.fromhex(
    "01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a"
    "25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778"
    "797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7"
    "c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9fa"
)
assert len(AC_VALUES) == sum(AC_COUNTS) == 162


def segment(marker: int, data: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(data) + 2) + data


def jpeg(width: int, height: int, components: int, blocks: int | None = None) -> bytes:
    """A baseline JPEG whose every block is flat mid-gray: DC difference 0 (code 00) then
    end of block (code 1010), 6 bits a block. `blocks` cuts the scan short (header tests)."""
    out = b"\xff\xd8"
    out += segment(0xDB, b"\x00" + bytes([1] * 64))
    comps = b"".join(bytes([i + 1, 0x11, 0]) for i in range(components))
    out += segment(0xC0, struct.pack(">BHHB", 8, height, width, components) + comps)
    out += segment(0xC4, b"\x00" + bytes(DC_COUNTS) + bytes(DC_VALUES))
    out += segment(0xC4, b"\x10" + bytes(AC_COUNTS) + AC_VALUES)
    scan_comps = b"".join(bytes([i + 1, 0x00]) for i in range(components))
    out += segment(0xDA, bytes([components]) + scan_comps + b"\x00\x3f\x00")
    n = ((width + 7) // 8) * ((height + 7) // 8) * components if blocks is None else blocks
    # 4 blocks = 24 bits = 3 bytes: 001010 001010 001010 001010.
    quad = bytes([0b00101000, 0b10100010, 0b10001010])
    data = quad * (n // 4)
    rest = n % 4
    if rest:
        bits = "001010" * rest
        bits += "1" * (-len(bits) % 8)
        data += int(bits, 2).to_bytes(len(bits) // 8, "big")
    out += data.replace(b"\xff", b"\xff\x00")
    out += b"\xff\xd9"
    return out


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "huge-header.png": png(20000, 20000, 8, 0, None),
        "max-header.png": png(2**31 - 1, 2**31 - 1, 8, 0, None),
        "huge-header.jpg": jpeg(65500, 65500, 3, blocks=4),
        "bomb-gray.png": png(8000, 8000, 8, 0, 8000),
        "bomb-rgb.png": png(8000, 8000, 8, 2, 8000 * 3),
        "bomb-rgba16.png": png(2800, 2800, 16, 6, 2800 * 8),
        "bomb-gray.jpg": jpeg(8000, 8000, 1),
        "bomb-rgb.jpg": jpeg(8000, 8000, 3),
        "bomb-12mp.jpg": jpeg(4000, 3000, 3),
    }
    for name, data in files.items():
        (out / name).write_bytes(data)
        print(f"{out / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
