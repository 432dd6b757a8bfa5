#!/usr/bin/env python3
"""max_columns.py N < text: fails (exit 1), naming the lines, when a line of stdin is wider than N
terminal columns (East Asian wide characters count two)."""
import sys
import unicodedata

limit = int(sys.argv[1])
wide = [(n, line) for n, line in enumerate(sys.stdin.read().split("\n"), 1)
        if sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line) > limit]
for n, line in wide[:10]:
    print(f"line {n} is wider than {limit} columns: {line}")
sys.exit(1 if wide else 0)
