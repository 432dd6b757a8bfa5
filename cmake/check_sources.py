#!/usr/bin/env python3
"""The sources test: every tracked .cc file is named by a CMake file, so none joins or leaves the
build by accident (the build lists its sources rather than globbing them).

A file at DIR/SUB/x.cc is named when a CMakeLists.txt or *.cmake file in DIR, or in a folder below
the repository root on the way to DIR, mentions SUB/x.cc (its path relative to that file's folder,
or to the folder CMake includes it from). Usage: check_sources.py REPO_ROOT"""
import os
import subprocess
import sys

root = sys.argv[1]
os.chdir(root)
tracked = subprocess.check_output(['git', 'ls-files'], text=True).split()
cmake_files = [f for f in tracked if os.path.basename(f) == 'CMakeLists.txt' or f.endswith('.cmake')]
texts = {}
for f in cmake_files:
    # A *.cmake file under tests/ is included from its parent folder's CMakeLists.txt: its paths are
    # relative to that folder.
    folder = os.path.dirname(f)
    if f.endswith('.cmake') and os.path.basename(folder) == 'tests':
        folder = os.path.dirname(folder)
    texts.setdefault(folder, []).append(open(f, encoding='utf-8').read())

missing = []
for src in tracked:
    if not src.endswith('.cc'):
        continue
    named = False
    folder = os.path.dirname(src)
    while True:
        rel = os.path.relpath(src, folder or '.')
        if any(rel in t for t in texts.get(folder, [])):
            named = True
            break
        if not folder:
            break
        folder = os.path.dirname(folder)
    if not named:
        missing.append(src)
for m in missing:
    print(f'{m}: no CMakeLists.txt or *.cmake file names it; list it in its target (or delete it)')
sys.exit(1 if missing else 0)
