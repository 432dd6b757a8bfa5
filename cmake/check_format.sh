#!/bin/sh
# The style test: every tracked .h and .cc file is as clang-format (.clang-format) would write it.
# Prints each place that differs; `git ls-files '*.h' '*.cc' | xargs clang-format -i` fixes them.
set -eu
cd "$1"
# .clang-format is written for clang-format 14 (Debian 12's); another version formats differently.
format=clang-format-14
command -v "$format" >/dev/null 2>&1 || { echo "clang-format-14 is not installed (./run.sh test installs it)" >&2; exit 1; }
files=$(git ls-files '*.h' '*.cc') || { echo "not a git checkout: cannot list the tracked sources" >&2; exit 1; }
[ -n "$files" ] || { echo "no tracked .h or .cc files under $1" >&2; exit 1; }
# shellcheck disable=SC2086
"$format" --dry-run --Werror $files
