#!/usr/bin/env python3
"""Writes rules/src/records/gbk.bin: the GBK (code page 936) double-byte table that
rules/src/records/gbk.rs decodes with. Lead bytes 0x81-0xFE, trail bytes 0x40-0xFE
except 0x7F: 126 x 190 cells, each the Unicode scalar as a little-endian u16, 0 where
GBK defines no character. Python's own `gbk` codec is the source. Run from the
repository root: python3 rules/tools/gen_gbk.py"""
import struct

out = bytearray()
for lead in range(0x81, 0xFF):
    for trail in range(0x40, 0xFF):
        if trail == 0x7F:
            continue
        try:
            ch = bytes([lead, trail]).decode("gbk")
            code = ord(ch) if len(ch) == 1 and ord(ch) <= 0xFFFF else 0
        except UnicodeDecodeError:
            code = 0
        out += struct.pack("<H", code)
assert len(out) == 126 * 190 * 2
open("rules/src/records/gbk.bin", "wb").write(out)
print(len(out), "bytes;", sum(1 for i in range(0, len(out), 2) if out[i] or out[i + 1]), "characters")
