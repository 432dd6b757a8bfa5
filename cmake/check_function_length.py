#!/usr/bin/env python3
"""The function-length ratchet (in the spirit of TigerBeetle's tidy.zig): no function of the
libraries and the CLI is longer than LIMIT lines, and LIMIT only ever goes down, to the goal of 100.

A function is a definition whose body opens at the end of a line and closes with a '}' alone at the
same indentation; its length counts the lines from the signature's first line to the closing brace.
Lambdas and local classes count toward the function that holds them. Tests are not measured: a test
body is a script, read top to bottom.

Fails when a function is longer than LIMIT, and when LIMIT could be lower (the longest function is
now shorter than LIMIT and LIMIT is above the goal): lower it in this file, so the ratchet holds.
A function in PENDING (being split on another branch) has its own ceiling instead, its length when
it was listed: it may not grow, and once it fits under LIMIT its entry must go.
Usage: check_function_length.py REPO_ROOT [--list N]"""
import os
import re
import subprocess
import sys

GOAL = 100
LIMIT = 100  # the longest function today outside PENDING; lower it as functions are split, down to GOAL

# (file, function name) -> its length when listed. Each is being split on a branch of its own.
PENDING = {}


def pending_entry(path, signature):
    """The PENDING key of the function `signature` of `path`, or None."""
    for f, name in PENDING:
        if f == path and re.search(r'\b' + re.escape(name) + r'\(', signature):
            return (f, name)
    return None

OPEN = re.compile(r'^(\s*)(?!(?:if|for|while|switch|else|do|try|catch|namespace|struct|class|enum|union|extern)\b)'
                  r'[^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:final\s*)?(?:->\s*[^{;]+)?'
                  r'(?:try\s*)?(?::[^{;]*)?\{\s*(?://.*)?$')


CONTROL = re.compile(r'^\s*(?:\}\s*)?(?:if|for|while|switch|else|do|try|catch|return|case)\b')


def functions(path):
    """(signature line, start line, length) of each function definition in `path`."""
    lines = open(path, encoding='utf-8').read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        if not OPEN.match(lines[i]):
            i += 1
            continue
        # The signature may start a few lines up (wrapped parameters, an initializer list): back up
        # to the line that opens it.
        start = i
        while start > 0 and lines[start - 1].strip() and not lines[start - 1].rstrip().endswith((';', '{', '}')) \
                and not lines[start - 1].lstrip().startswith(('//', '#', 'public:', 'private:', 'protected:')):
            start -= 1
        if CONTROL.match(lines[start]) or lines[start].rstrip().endswith(':') and not lines[start].rstrip().endswith('::'):
            i += 1  # a wrapped condition of an if, for or while, not a function
            continue
        indent = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
        closing = indent + '}'
        end = i + 1
        while end < len(lines) and not (lines[end].rstrip() == closing or lines[end].startswith(closing + ' ') or
                                         lines[end].startswith(closing + ';')):
            end += 1
        if end >= len(lines):
            i += 1
            continue
        out.append((lines[start].strip(), start + 1, end - start + 1))
        i = end + 1
    return out


def main():
    root = sys.argv[1]
    show = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == '--list' else 0
    os.chdir(root)
    tracked = subprocess.check_output(['git', 'ls-files', '*.cc', '*.h'], text=True).split()
    measured = [f for f in tracked if '/tests/' not in f and '/fuzz/' not in f and '/testing/' not in f
                and not f.startswith('cmake/')]
    found = []
    for f in measured:
        for name, line, length in functions(f):
            found.append((length, f, line, name))
    found.sort(reverse=True)
    for length, f, line, name in found[:show]:
        print(f'{length:4} {f}:{line}: {name[:80]}')
    failed = False
    seen_pending = set()
    longest = 0
    for length, f, line, name in found:
        entry = pending_entry(f, name)
        if entry is None:
            longest = max(longest, length)
            if length > LIMIT:
                print(f'{f}:{line}: a function of {length} lines, over the limit of {LIMIT} (goal {GOAL}): '
                      f'split it: {name[:60]}')
                failed = True
            continue
        seen_pending.add(entry)
        ceiling = PENDING[entry]
        if length > ceiling:
            print(f'{f}:{line}: a function of {length} lines, over its PENDING ceiling of {ceiling}: '
                  f'split it, do not grow it: {name[:60]}')
            failed = True
        elif length <= LIMIT:
            print(f'{f}:{line}: now {length} lines, within LIMIT {LIMIT}: remove its entry from PENDING '
                  f'in cmake/check_function_length.py')
            failed = True
    for f, name in PENDING:
        if (f, name) not in seen_pending:
            print(f'{f}: no function {name} any more: remove its entry from PENDING in cmake/check_function_length.py')
            failed = True
    if failed:
        return 1
    if LIMIT > GOAL and longest < LIMIT:
        print(f'the longest function is now {max(longest, GOAL)} lines: lower LIMIT in cmake/check_function_length.py '
              f'from {LIMIT} to {max(longest, GOAL)}, so it cannot grow back')
        return 1
    return 0

if __name__ == '__main__':
    sys.exit(main())
