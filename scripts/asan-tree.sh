#!/usr/bin/env bash
# The sanitizer build tree, build/asan: clang 14, ASan + UBSan (no recovery), line tables only
# for symbolized reports, the Catch2 suite and the libFuzzer targets over one instrumented
# library. Configures it and builds TARGET... (all targets when none is named); scripts/test.sh
# runs its ctest, scripts/fuzz.sh its fuzzers.
#   scripts/asan-tree.sh [TARGET...]      Env: CXX_SANITIZE (default clang++-14), JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=${CXX_SANITIZE:-clang++-14}
command -v "$cxx" >/dev/null || { echo "asan-tree.sh: $cxx not found (scripts/bootstrap.sh installs clang-14)" >&2; exit 1; }
CXX="$cxx" cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" \
  -DPOSENC_SANITIZE=ON -DPOSENC_BUILD_FUZZ=ON >/dev/null
args=()
(($#)) && args=(--target "$@")
cmake --build build/asan -j "${JOBS:-2}" "${args[@]}"
