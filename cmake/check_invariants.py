#!/usr/bin/env python3
"""The invariant density of the commit engine (in the spirit of TigerBeetle's assertion density):
core/ (its sources and headers, the catalogs included; not its tests) holds at least one
COMMITLAB_CHECK or COMMITLAB_DCHECK per LINES_PER_CHECK lines, and every one says why: its second
argument starts with a string literal.

Fails naming each check without a reason, or the count a growing core/ now needs.
Usage: check_invariants.py REPO_ROOT"""
import os
import re
import subprocess
import sys

LINES_PER_CHECK = 150

CALL = re.compile(r'\bCOMMITLAB_D?CHECK\(')


def arguments(text, start):
    """The top-level arguments of the call whose '(' is at text[start - 1], or None if unclosed."""
    args, depth, i, begin = [], 1, start, start
    while i < len(text) and depth > 0:
        c = text[i]
        if c in '"\'':  # a string or character literal: skip it whole
            i += 1
            while i < len(text) and text[i] != c:
                i += 2 if text[i] == '\\' else 1
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                args.append(text[begin:i].strip())
        elif c == ',' and depth == 1:
            args.append(text[begin:i].strip())
            begin = i + 1
        i += 1
    return args if depth == 0 else None


def main():
    os.chdir(sys.argv[1])
    tracked = subprocess.check_output(['git', 'ls-files', 'core/*.cc', 'core/*.h'], text=True).split()
    measured = [f for f in tracked if '/tests/' not in f and '/testing/' not in f]
    lines, checks, bad = 0, 0, []
    for f in measured:
        text = open(f, encoding='utf-8').read()
        lines += text.count('\n')
        for m in CALL.finditer(text):
            line_start = text.rfind('\n', 0, m.start()) + 1
            if text[line_start:m.start()].lstrip().startswith(('//', '#')):
                continue  # the macros' own definitions and comments that name them
            args = arguments(text, m.end())
            line = text.count('\n', 0, m.start()) + 1
            if args is None or len(args) != 2 or not args[1].startswith('"'):
                bad.append(f'{f}:{line}: a check without its reason: the second argument is a string literal '
                           f'saying what the condition guards')
            checks += 1
    for b in bad:
        print(b)
    needed = -(-lines // LINES_PER_CHECK)
    print(f'{checks} checks in {lines} lines of core/: one per {lines // max(checks, 1)} lines '
          f'(at least one per {LINES_PER_CHECK} needed: {needed})')
    if checks < needed:
        print(f'assert {needed - checks} more invariants where they must hold (docs/architecture.md, "Checks")')
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
