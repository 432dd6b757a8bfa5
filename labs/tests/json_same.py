#!/usr/bin/env python3
"""json_same.py A.json B.json: exit 0 when the two JSON documents are equal value for value
(object member order aside); else print the first path where they differ and exit 1."""
import json
import sys


def diff(a, b, path="$"):
    if type(a) != type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {sys.argv[2] if k in b else sys.argv[1]}"
            d = diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
    elif isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items, not {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, f"{path}[{i}]")
            if d:
                return d
    elif a != b:
        return f"{path}: {a!r}, not {b!r}"
    return None


a, b = (json.load(open(p)) for p in sys.argv[1:3])
d = diff(a, b)
if d:
    sys.exit(f"{sys.argv[2]} differs from {sys.argv[1]} at {d}")
print(f"{sys.argv[2]} equals {sys.argv[1]}")
