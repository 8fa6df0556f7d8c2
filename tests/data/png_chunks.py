"""The pieces of a PNG file, for the scripts that write test files
(make_fixtures.sh, hostile/make_hostile.sh): the signature, a chunk with its
CRC, an IHDR."""
import struct
import zlib

SIG = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def ihdr(w, h, depth=8, colour=2):
    """colour 2: RGB; 0: grey"""
    return chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0))
