#!/usr/bin/env bash
# `npm test`: builds and runs every test — native Catch2 suite (plain and ASan+UBSan),
# the installed-package consumers (CMake, pkg-config), the native packaging checks (xsimd
# versions, shared library, parent projects), the libFuzzer targets, the WASM package under
# Node, the packed tarball (CommonJS, clean clone, git dependency), the bundler matrix and
# the page in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

jobs=$(nproc)
started=$SECONDS
step() { printf '\n==> [%d s] %s\n' $((SECONDS - started)) "$*"; }

# Many trees compile the same sources: the native ones (plain, each xsimd version, scalar)
# the test sources, and the packaging test's clean clone (inside build/) the WebAssembly ones
# of this checkout. ccache serves those repeats from this run's own cache (inside build/, so a
# clean clone starts cold); paths under the checkout are hashed relative to it, so a clone
# inside it hits too. Whatever differs (another xsimd, other flags) compiles anew.
if command -v ccache >/dev/null; then
  export CCACHE_DIR=$PWD/build/ccache CCACHE_BASEDIR=$PWD CCACHE_MAXSIZE=2G CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi

# first_then_rest <files…> -- <all…>: sets `ordered` to the named files, then the rest of
# <all…> once each (test files started longest first, so two slots finish together).
first_then_rest() {
  ordered=()
  while [[ $1 != -- ]]; do ordered+=("$1"); shift; done
  shift
  local f
  for f in "$@"; do [[ " ${ordered[*]} " == *" $f "* ]] || ordered+=("$f"); done
}

step "native build and ctest"
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j "$jobs"
ctest --test-dir build/native --output-on-failure -j "$jobs"

step "native packaging: xsimd versions, shared library, parent projects"
bash scripts/cmake-checks.sh

step "native ctest under AddressSanitizer + UndefinedBehaviorSanitizer"
JOBS=$jobs bash scripts/asan-tree.sh   # the suite and the fuzz targets over one instrumented library
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs" -E '^consumer\.'

step "libFuzzer targets under ASan + UBSan (bounded run; scripts/fuzz.sh --long SECONDS for more)"
bash scripts/fuzz.sh

step "WASM package (SIMD and scalar binaries)"
bash scripts/build-wasm.sh
step "Node tests of the package"
node --test --test-concurrency=2 tests/js/

step "the packed package (tarball, CommonJS consumer, clean clone, git dependency) and the bundler matrix (Vite 7 and 8, webpack 5, Parcel 2, esbuild, Rollup) in Chromium"
# Two files at a time: the clean-clone file waits on npm and single-threaded links a third of
# its time, so the bundler matrix runs beside it (concurrent packs of this checkout are safe:
# scripts/build-wasm.sh holds a lock and every output is renamed into place).
first_then_rest tests/packaging/clone.test.mjs -- tests/bundlers/*.test.mjs tests/packaging/*.test.mjs
node --test --test-concurrency=2 "${ordered[@]}"

step "demo page build (web/dist)"
bash scripts/build-web.sh
step "browser tests (Chromium): the package in a plain page and a worker, the demo page"
# Two files at a time: a page test waits on the browser as much as it computes. The longest
# files start first, so both slots finish together.
first_then_rest tests/web/{page-interact,microscope,rows-b,multiaxis,schema-edges,mobile,articles-a,pairs-counter,kv-shift}.test.mjs \
  -- tests/web/*.test.mjs
node --test --test-concurrency=2 "${ordered[@]}"
step "all tests passed"
