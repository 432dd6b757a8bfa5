#!/usr/bin/env bash
# commitlab's one entry point. On a fresh Debian 12 machine it installs what is missing, builds
# Release into build/, and then:
#   ./run.sh            build only the CLI (build/commitlab) and run the labs: lab paimon, iceberg, delta
#   ./run.sh test       run the whole test suite with ctest in build/, then the unit, scenario and golden
#                       tests again in build/debug, where every assert and COMMITLAB_DCHECK is live
#   ./run.sh golden     regenerate results/golden/*.jsonl (each scenario's trace) and say which changed
#   ./run.sh screenshot  retake results/timeline/paimon_conflict.png and paimon_conflict_stepped.png (the
#                       README's timeline, whole and stepped to the refusal) in headless chromium
#   ./run.sh bench      the retry-policy sweep (results/retry-sweep/), then Google Benchmark (JSON into results/bench/)
#   ./run.sh asan       build with ASan+UBSan into build/asan and run the tests there
#   ./run.sh tsan       build with TSan into build/tsan and run the tests there
#   ./run.sh fuzz [S]   build the libFuzzer targets with clang into build/fuzz and mutate each one's
#                       corpus for S seconds (default 10); `test` runs this too, for 10 s each
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages the build and the tests need; the Boost, fmt and JSON ones are usually missing on a
# fresh machine. python3-jsonschema validates histories and reports against docs/*.schema.json.
# libpq-dev (found through pkg-config) is the PostgreSQL client of Iceberg's JDBC catalog;
# libmimalloc-dev is the CLI's allocator (COMMITLAB_MALLOC in CMakeLists.txt).
# ninja-build runs the builds; ccache keeps what they compiled, so a second build of the same sources
# (another clone, a rebuild after a checkout) takes seconds per unchanged file.
PACKAGES=(libboost-program-options-dev libboost-context-dev libfmt-dev nlohmann-json3-dev cmake g++
          libgtest-dev libgmock-dev libbenchmark-dev python3-jsonschema libpq-dev pkg-config
          libmimalloc-dev ninja-build ccache)
# The tests also open timeline pages in headless chromium and render their SVG with rsvg-convert,
# and fuzz each parser with clang's libFuzzer (libclang-rt-14-dev holds its runtime); clang-format
# checks that the sources keep their style.
FUZZ_PACKAGES=(clang libclang-rt-14-dev)
# The catalog tests start a throwaway PostgreSQL server (initdb, pg_ctl) from Debian's postgresql,
# validate the REST server's answers against the specification's OpenAPI YAML (python3-yaml), and
# run iceberg-js (npm) against it on Node.js; the cluster test starts a single-node Slurm cluster
# (munged, slurmctld, slurmd; sbatch from slurm-client). The documentation's examples, which
# docs.examples runs, call curl (the REST catalog) and jq (reading a history).
TEST_PACKAGES=("${PACKAGES[@]}" chromium librsvg2-bin clang-format postgresql python3-yaml slurmctld slurmd
               slurm-client munge curl jq "${FUZZ_PACKAGES[@]}")
# Node.js and npm: Debian's, unless the machine has its own (nodesource's nodejs brings npm, and
# Debian's npm would conflict with it).
NODE_PACKAGES=(nodejs npm)

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

# ccache, keyed on paths relative to the checkout, so that clones in other folders share it.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi

configure() {  # configure PRESET [CMAKE ARGS...]
  local preset=$1 dir
  shift
  dir=build/$preset
  [ "$preset" = release ] && dir=build
  # A tree configured by an older run.sh with Unix Makefiles: the presets now use Ninja.
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  cmake --preset "$preset" "$@" >/dev/null
}

build() {  # build PRESET [BUILD PRESET]: configure PRESET, build the targets of BUILD PRESET (default PRESET)
  configure "$1"
  cmake --build --preset "${2:-$1}" -j "$(nproc)"
}

run_tests() {  # run_tests PRESET
  ctest --preset "$1" -j "$(nproc)"
}

# Each fuzz target mutates its corpus (scenarios/fuzz/corpus, the example scenarios) for SECONDS;
# a crash, sanitizer report, leak or timeout fails its test and leaves the input in build/fuzz.
fuzz_smoke() {  # fuzz_smoke SECONDS
  configure fuzz -DCOMMITLAB_FUZZ_SECONDS="$1"
  cmake --build --preset fuzz -j "$(nproc)"
  ctest --preset fuzz -j "$(nproc)"
}

# The history of every scenario file for its own seed, simulated, into results/golden/NAME.jsonl;
# the test suite replays each (scenario.golden.NAME). Says which histories changed. The build that
# recorded a history is in its header; a history that differs only there is left as it was.
# A history without the "commitlab" (build) member of its header.
without_build() { sed '1s/"commitlab":{[^}]*},//' "$1"; }

regenerate_golden() {
  mkdir -p results/golden
  local f name out tmp changed=() added=() sched=()
  tmp=$(mktemp)
  for f in scenarios/*.scn; do
    name=$(basename "$f" .scn)
    out="results/golden/$name.jsonl"
    sched=()
    grep -Eq '^sched[[:space:]]+free' "$f" && sched=(--sched random)  # a golden trace is simulated
    # A golden history is a run that passes: one whose expectations failed (exit 1) would make the
    # golden test pass on a broken run, so it is not recorded; nor is bad input (exit 2).
    local code=0
    ./build/commitlab run "$f" "${sched[@]}" --trace "$tmp" >/dev/null || code=$?
    if [ "$code" -ne 0 ]; then
      echo "run.sh: $f exits $code (its expectations or invariants failed, or bad input): not recording it; \`build/commitlab run $f\` says why" >&2
      rm -f "$tmp"
      return 1
    fi
    [ -s "$tmp" ] || { echo "run.sh: no trace for $f" >&2; rm -f "$tmp"; return 1; }
    if [ ! -f "$out" ]; then
      added+=("$name")
    elif cmp -s <(without_build "$tmp") <(without_build "$out"); then
      continue
    else
      changed+=("$name")
    fi
    mv "$tmp" "$out"
    tmp=$(mktemp)
  done
  rm -f "$tmp"
  for name in results/golden/*.jsonl; do
    name=$(basename "$name" .jsonl)
    [ -f "scenarios/$name.scn" ] || { rm "results/golden/$name.jsonl"; echo "removed: $name (no scenario file)"; }
  done
  [ ${#added[@]} -eq 0 ] || echo "added: ${added[*]}"
  [ ${#changed[@]} -eq 0 ] || echo "changed: ${changed[*]}"
  if [ ${#added[@]} -eq 0 ] && [ ${#changed[@]} -eq 0 ]; then echo "golden histories: all unchanged"; fi
}

cmd=${1:-lab}
case "$cmd" in
  lab)
    install_missing "${PACKAGES[@]}"
    build release lab  # the CLI alone: the labs need neither the tests nor the benchmarks
    rm -rf results/tmp
    status=0
    for lab in paimon iceberg delta; do
      ./build/commitlab lab "$lab" || status=1
      echo
    done
    exit "$status"
    ;;
  golden)
    install_missing "${PACKAGES[@]}"
    build release lab
    regenerate_golden
    ;;
  test)
    install_missing "${TEST_PACKAGES[@]}"
    command -v npm >/dev/null || install_missing "${NODE_PACKAGES[@]}"
    build release
    # iceberg-js for the catalog tests, as the lock file pins it (the test installs it too if missing).
    (cd build/iceberg-js && npm ci --no-audit --no-fund --loglevel=error)
    run_tests release
    build debug checked  # only the binaries the checked labels run
    run_tests checked
    fuzz_smoke 10
    ;;
  fuzz)
    install_missing "${PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
    fuzz_smoke "${2:-10}"
    ;;
  bench)
    install_missing "${PACKAGES[@]}"
    build release
    # The retry-policy sweep first (results/retry-sweep/; it prints each experiment's wall time).
    ./build/commitlab sweep
    mkdir -p results/bench
    for b in build/bench/*_bench; do
      name=$(basename "$b")
      "$b" --benchmark_out="results/bench/$name.json" --benchmark_out_format=json
    done
    ;;
  screenshot)
    # The README's timeline pictures, taken by the browser tests from a real chromium window: the
    # whole run, and the page stepped to the refusal with its state panel.
    install_missing "${TEST_PACKAGES[@]}"
    build release
    COMMITLAB_SCREENSHOT_DIR=results/timeline ./build/labs/timeline_browser_test \
      --gtest_filter='*LeavesAScreenshot:*TheStepperWalksEveryStepOfTheConflict*' >/dev/null
    echo "results/timeline/paimon_conflict.png results/timeline/paimon_conflict_stepped.png"
    ;;
  asan|tsan)
    install_missing "${TEST_PACKAGES[@]}"
    build "$cmd"
    run_tests "$cmd"
    ;;
  *)
    echo "run.sh: unknown command '$cmd' (expected one of lab, test, golden, bench, screenshot, asan, tsan, fuzz)" >&2
    exit 2
    ;;
esac
