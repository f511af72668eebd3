#!/usr/bin/env bash
# The page's default run (recall; none, sinusoidal, learned, alibi, rope-half; seeds 1-3)
# in WebAssembly SIMD under Node, one thread: builds the core with Emscripten as
# scripts/build-wasm.sh builds the package's SIMD binary, links posenc_extrapolation
# against it and writes bench/results/extrapolation-wasm.md, to be compared with the native
# report (scripts/extrapolation.sh) for time and agreement.
# Env: JOBS (build parallelism, default 2), OUT (report path).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${JOBS:-2}
out=${OUT:-bench/results/extrapolation-wasm.md}
dir=build/wasm-extrapolation
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
flags="-msimd128 -msse2 -mnontrapping-fptoint"
if [[ ! -f $dir/CMakeCache.txt ]]; then
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPOSENC_BUILD_TESTS=OFF \
    -DPOSENC_INSTALL=OFF "-DCMAKE_CXX_FLAGS=$flags" -DPOSENC_WASM_EXCEPTIONS=wasm >/dev/null
fi
cmake --build "$dir" -j "$jobs" --target posenc >&2
# shellcheck disable=SC2086  # $flags is a list of flags
em++ -std=c++20 -O3 $flags -fwasm-exceptions -Icore/include bench/extrapolation.cpp \
  "$dir/libposenc.a" -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=1 \
  -o "$dir/posenc_extrapolation.js"
# The package is "type": "module"; this glue is CommonJS. Its fetch() path cannot load a
# file path, so Node's fetch is turned off and the glue reads the .wasm from disk.
cp "$dir/posenc_extrapolation.js" "$dir/posenc_extrapolation.cjs"
node --no-experimental-fetch "$dir/posenc_extrapolation.cjs" --out "$out" --seeds 1,2,3 \
  --task recall --encodings none,sinusoidal,learned,alibi,rope-half
echo "wrote $out" >&2
