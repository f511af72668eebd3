#!/usr/bin/env bash
# Builds the WebAssembly binaries of the npm package into wasm/dist/ (gitignored):
#   posenc-simd.{js,wasm}    core with xsimd's sse2 path lowered to WASM SIMD128
#   posenc-scalar.{js,wasm}  core from its scalar references (POSENC_SCALAR), no SIMD ops
#   posenc-train-{simd,scalar}.{js,wasm}  the trainer ('posenc/train'), linked in the same
#                            build trees from the same compiled core
# Each flavour has its own build tree (build/wasm-simd, build/wasm-scalar) that is
# configured once and then rebuilt incrementally, so a no-change run takes seconds.
# Then bundles the package's JS entries (scripts/build-package.mjs) and prints the sizes.
# Env: JOBS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
# As npm's prepack/prepare the log goes to stderr: `npm pack --json` keeps stdout for its JSON.
[[ ${npm_lifecycle_event:-} == prepack || ${npm_lifecycle_event:-} == prepare ]] && exec 1>&2
bash scripts/bootstrap.sh wasm
for tool in emcmake em++; do
  command -v "$tool" >/dev/null ||
    { echo "build-wasm: $tool not found: the package's WebAssembly needs Emscripten 3.1.x (scripts/bootstrap.sh)" >&2; exit 1; }
done

# Debian's emcc runs its JS optimizer on Node, which needs the Debian `acorn` module.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=${JOBS:-2}

# Several people and `npm test` may run this at once: two builds in one tree corrupt it.
mkdir -p build
exec 9>build/.wasm-build.lock
flock 9

build() {  # build <flavour> <cmake args...>
  local flavour=$1; shift
  local dir=build/wasm-$flavour
  local out=$PWD/$dir/dist  # the linker writes here (POSENC_WASM_DIST); publish() copies
  # (Re)configured when new or when this script's arguments for it changed (stamp file).
  local args="$out $*"
  if [[ ! -f $dir/CMakeCache.txt ]] || [[ $(cat "$dir/.build-wasm-args" 2>/dev/null) != "$args" ]]; then
    emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPOSENC_BUILD_TESTS=OFF \
      -DPOSENC_INSTALL=OFF "-DPOSENC_WASM_DIST=$out" "$@" >/dev/null
    printf '%s\n' "$args" >"$dir/.build-wasm-args"
  fi
  # One target per call: the first regenerates a tree configured before a target was added.
  cmake --build "$dir" -j "$jobs" --target posenc_wasm
  cmake --build "$dir" -j "$jobs" --target posenc_train_wasm
  local name
  for name in "$flavour" "train-$flavour"; do
    minify_glue "$out/posenc-$name.js"
    node scripts/tag-wasm.mjs "$out/posenc-$name.wasm" "$name"
    publish "$out" "$name"
  done
}

# Emscripten minifies the glue's whitespace only (identifiers need the Closure Compiler, a
# Java tool this machine lacks). esbuild (a devDependency) also renames locals and shortens
# syntax: the SIMD glue 9.2 → 6.9 KiB gzip. It renames no property, so every name the
# loader, embind and the .wasm use survives. Rerun on every build: linking rewrites the
# glue, and minifying twice changes nothing.
minify_glue() {  # minify_glue <glue.js>
  node_modules/.bin/esbuild "$1" --minify --format=esm --target=es2020 --log-level=warning \
    --outfile="$1.min" && mv -f "$1.min" "$1"
}

# Copies changed files of a binary into wasm/dist/ by rename (atomic on one filesystem);
# the .wasm goes first and the glue last, the symbol map (tests only, not packed) between.
publish() {  # publish <linker output dir> <name: simd, scalar, train-simd, train-scalar>
  mkdir -p wasm/dist
  local f
  for f in posenc-$2.wasm posenc-$2.js.symbols posenc-$2.js; do
    if ! cmp -s "$1/$f" "wasm/dist/$f"; then
      cp "$1/$f" "wasm/dist/.$f.tmp" && mv -f "wasm/dist/.$f.tmp" "wasm/dist/$f"
    fi
  done
}

# Exceptions (wasm/CMakeLists.txt): the SIMD binary uses WebAssembly's own (-fwasm-exceptions:
# no invoke_* JS wrappers, 5 KiB smaller gzip; engines with SIMD128 nearly all have it, and
# wasm/js/loader.js checks both); the scalar fallback keeps JS-based ones for old engines.
# The SIMD binary also converts doubles to integers with the non-trapping instructions
# (-mnontrapping-fptoint: one instruction instead of a range-checked branch per conversion);
# every engine with SIMD128 has them (they shipped first: Chrome 75, Firefox 64, Safari 15).
build simd -DPOSENC_SCALAR=OFF "-DCMAKE_CXX_FLAGS=-msimd128 -msse2 -mnontrapping-fptoint" -DPOSENC_WASM_EXCEPTIONS=wasm
build scalar -DPOSENC_SCALAR=ON "-DCMAKE_CXX_FLAGS=" -DPOSENC_WASM_EXCEPTIONS=js
# The package's entries: one bundled module each (scripts/build-package.mjs).
node scripts/build-package.mjs
# What a browser downloads on each path, as the README's table shows it.
node scripts/sizes.mjs
