#!/usr/bin/env bash
# `npm run bench`: native and WASM benchmarks side by side, from one run.
#   1. builds the native benchmark (Release, baseline x86-64 + runtime dispatch) in
#      build/bench-native, and brings the WASM package up to date (scripts/build-wasm.sh);
#   2. runs Google Benchmark (one thread; each operation's members interleaved, medians;
#      bench/native/harness.hpp) → build/bench/native.json;
#   3. runs the Node benchmark through the package → build/bench/wasm.json;
#   4. prints the markdown tables and writes build/bench/results.{md,json} (bench/report.mjs).
#   5. before the tables, the targets on stable measures (bench/stable.mjs: 5 processes of
#      in-cache pairings; with --instructions also per-call instruction counts under valgrind,
#      recorded in bench/results/<cpu>.instructions.md).
#   6. with --peers, posenc against onnxruntime-web's RotaryEmbedding and ggml's rope
#      (bench/peers/run.mjs; the peers install into bench/peers/ with their own lock).
# Env: JOBS (build parallelism, default 2), BENCH_QUICK=1 (fewer repetitions, for a smoke run).
# Flags: --instructions (installs valgrind through the bootstrap if it is missing),
#        --peers (installs the peers through the bootstrap if they are missing).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${JOBS:-2}
stable_args=() peers=0 targets=(posenc_bench posenc_stable)
for arg in "$@"; do
  case "$arg" in
    --instructions) stable_args+=(--instructions); bash scripts/bootstrap.sh instructions ;;
    --peers) peers=1 targets+=(posenc_peer_ggml); bash scripts/bootstrap.sh peers ;;
    *) echo "bench: unknown flag '$arg' (--instructions, --peers)" >&2; exit 2 ;;
  esac
done
out=build/bench
mkdir -p "$out"

if [[ ! -f build/bench-native/CMakeCache.txt ]]; then
  cmake -S . -B build/bench-native -DCMAKE_BUILD_TYPE=Release -DPOSENC_BUILD_BENCH=ON \
    -DPOSENC_BUILD_TESTS=OFF -DPOSENC_INSTALL=OFF >/dev/null
fi
cmake --build build/bench-native -j "$jobs" --target "${targets[@]}" >&2

# Incremental (a no-change run takes seconds), so the bench always measures current sources.
JOBS=$jobs bash scripts/build-wasm.sh >&2

min_time=0.5 wasm_args=()
if [[ ${BENCH_QUICK:-0} == 1 ]]; then min_time=0.05 wasm_args=(--quick); fi

echo "stable measures…" >&2
node bench/stable.mjs "$out" "${stable_args[@]}" >/dev/null

echo "native benchmarks…" >&2
build/bench-native/bench/posenc_bench --benchmark_min_time="$min_time" \
  --benchmark_out="$out/native.json" --benchmark_out_format=json >/dev/null

echo "WASM benchmarks…" >&2
node bench/wasm/run.mjs "$out/wasm.json" "${wasm_args[@]}"

node bench/report.mjs "$out"

if ((peers)); then
  echo "peers (onnxruntime-web, ggml)…" >&2
  node bench/peers/run.mjs "$out"
fi
