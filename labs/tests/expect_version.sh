#!/usr/bin/env bash
# expect_version.sh SOURCE_DIR -- COMMITLAB: passes when `COMMITLAB --version` prints the commit
# SOURCE_DIR has checked out (with or without -dirty), or "unknown" when SOURCE_DIR is not a git
# checkout of its own.
set -u
src=$1
shift 2
out=$("$@" --version) || { printf 'exit code %s\n' "$?"; exit 1; }
out=${out%%$'\n'*}  # the first line; the second names the allocator
got=${out##* (}
got=${got%)}
top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) || top=
if [ -z "$top" ] || [ "$(cd "$top" && pwd -P)" != "$(cd "$src" && pwd -P)" ]; then
  [ "$got" = unknown ] && exit 0
  printf 'not a git checkout, expected (unknown): %s\n' "$out"
  exit 1
fi
head=$(git -C "$src" rev-parse HEAD)
case "$head" in
  "${got%-dirty}"*) [ -n "${got%-dirty}" ] && exit 0 ;;
esac
printf 'HEAD is %s; --version says: %s\n' "$head" "$out"
exit 1
