#!/usr/bin/env bash
# commitlab's one entry point. On a fresh Debian 12 machine it installs what is missing, builds
# Release into build/, and then:
#   ./run.sh            run the labs (the CLI is build/commitlab)
#   ./run.sh test       run the whole test suite with ctest
#   ./run.sh bench      run the Google Benchmark binaries; JSON lands in results/bench/
#   ./run.sh asan       build with ASan+UBSan into build/asan and run the tests there
#   ./run.sh tsan       build with TSan into build/tsan and run the tests there
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build needs; the first five are usually missing on a fresh machine.
PACKAGES=(libboost-program-options-dev libboost-context-dev libfmt-dev cmake g++
          libgtest-dev libgmock-dev libbenchmark-dev)

install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "run.sh: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
}

build() {  # build PRESET
  local preset=$1
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)"
}

run_tests() {  # run_tests PRESET
  ctest --preset "$1" -j "$(nproc)"
}

cmd=${1:-lab}
case "$cmd" in
  lab)
    install_missing "${PACKAGES[@]}"
    build release
    rm -rf results/tmp
    ./build/commitlab race --store dir
    ;;
  test)
    install_missing "${PACKAGES[@]}"
    build release
    run_tests release
    ;;
  bench)
    install_missing "${PACKAGES[@]}"
    build release
    mkdir -p results/bench
    for b in build/bench/*_bench; do
      name=$(basename "$b")
      "$b" --benchmark_out="results/bench/$name.json" --benchmark_out_format=json
    done
    ;;
  asan|tsan)
    install_missing "${PACKAGES[@]}"
    build "$cmd"
    run_tests "$cmd"
    ;;
  *)
    echo "run.sh: unknown command '$cmd' (expected one of lab, test, bench, asan, tsan)" >&2
    exit 2
    ;;
esac
