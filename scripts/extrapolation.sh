#!/usr/bin/env bash
# "Train short, test long", natively: builds posenc_extrapolation (Release, baseline x86-64,
# as scripts/bench.sh builds the benchmarks) and runs the full protocol, writing
# bench/results/extrapolation.md. Text files given as arguments add the character-level
# language-model task (no text ships with posenc; the recorded run used the four articles).
#   scripts/extrapolation.sh [TEXT_FILE]...
# Env: JOBS (build parallelism, default 2), OUT (report path).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${JOBS:-2}
out=${OUT:-bench/results/extrapolation.md}
if [[ ! -f build/bench-native/CMakeCache.txt ]]; then
  cmake -S . -B build/bench-native -DCMAKE_BUILD_TYPE=Release -DPOSENC_BUILD_BENCH=ON \
    -DPOSENC_BUILD_TESTS=OFF -DPOSENC_INSTALL=OFF >/dev/null
fi
cmake --build build/bench-native -j "$jobs" --target posenc_extrapolation >&2

# recall and copy with the protocol's defaults (dim 16, 2 heads, 2 layers, 300 steps);
# induction needs a wider model and more steps before any encoding learns it at L.
args=(--out "$out" --seeds 1,2,3
      --task recall
      --task copy
      --task induction --dim 32 --heads 4 --mlp 64 --steps 1000 --lr 0.005 --symbols 8)
texts=()
for f in "$@"; do texts+=(--text "$f"); done
if (( $# > 0 )); then args+=("${texts[@]}" --task text); fi
build/bench-native/bench/posenc_extrapolation "${args[@]}"
echo "wrote $out" >&2
