#!/usr/bin/env bash
# Installs what a posenc script needs and is missing, so that every npm script works on a fresh
# clone: Debian packages (as root via apt-get; otherwise it prints the exact command and
# stops) and the npm dependencies from the lock file.
#   bootstrap.sh [wasm|bench|instructions|all]   wasm: what scripts/build-wasm.sh needs (the npm
#     package); bench: + the native benchmark; instructions: + valgrind (npm run bench --
#     --instructions); peers: bench + the peers of npm run bench -- --peers (npm packages
#     in bench/peers/, from its own lock); all (default): + the tests
set -euo pipefail
cd "$(dirname "$0")/.."

need=${1:-all}
wasm=(cmake libxsimd-dev emscripten binaryen)
# clang-14 does not depend on its sanitizer and libFuzzer runtimes (libclang-rt-14-dev),
# so they are named here.
case "$need" in
  wasm)  DEBS=("${wasm[@]}") ;;
  bench) DEBS=(g++ libbenchmark-dev "${wasm[@]}") ;;
  instructions) DEBS=(g++ libbenchmark-dev valgrind "${wasm[@]}") ;;
  peers) DEBS=(g++ libbenchmark-dev "${wasm[@]}") ;;
  all)   DEBS=(g++ clang-14 libclang-rt-14-dev catch2 nlohmann-json3-dev libbenchmark-dev
               pkg-config ccache "${wasm[@]}" chromium fonts-nanum) ;;
  *) echo "bootstrap: unknown group '$need' (wasm, bench, instructions, peers or all)" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null; then
  # Not Debian/Ubuntu: nothing to install from here; say what is needed if it is missing.
  command -v emcc >/dev/null || {
    echo "bootstrap: emcc (Emscripten 3.1.x) not found; posenc builds its WebAssembly from" \
         "source and needs it (Debian/Ubuntu packages: ${DEBS[*]})" >&2
    exit 1
  }
else
  missing=()
  for pkg in "${DEBS[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    cmd="apt-get update && apt-get install -y ${missing[*]}"
    if [[ $(id -u) -eq 0 ]]; then
      echo "bootstrap: installing Debian packages: ${missing[*]}"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -q && apt-get install -y -q "${missing[@]}"
    else
      echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
      echo "bootstrap: run as root:  sudo sh -c '$cmd'" >&2
      exit 1
    fi
  fi
fi

# npm dependencies: reinstall from the lock file when node_modules is missing or stale. Not
# inside npm's own `prepare` (npm is installing them at that moment).
if [[ -f package-lock.json && ${npm_lifecycle_event:-} != prepare ]]; then
  if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "bootstrap: npm ci"
    # Under `npm pack --dry-run` / `npm publish --dry-run` npm exports npm_config_dry_run to
    # its lifecycle scripts; an `npm ci` inheriting it would install nothing.
    npm_config_dry_run=false npm ci --no-audit --no-fund --dry-run=false
  fi
fi
if [[ ${npm_lifecycle_event:-} != prepare && -f package-lock.json && ! -x node_modules/.bin/esbuild ]]; then
  echo "bootstrap: node_modules/.bin/esbuild is missing after npm ci: run 'npm ci' in $(pwd), then retry" >&2
  exit 1
fi

# The benchmark's peers (onnxruntime-web; ggml's CPU libraries as an npm package ships them)
# live in bench/peers/ with their own lock, so the package's lock and npm test never see them.
if [[ $need == peers ]]; then
  peers=bench/peers
  if [[ ! -f $peers/node_modules/.package-lock.json || $peers/package-lock.json -nt $peers/node_modules/.package-lock.json ]]; then
    echo "bootstrap: npm ci in $peers"
    npm ci --prefix "$peers" --no-audit --no-fund --ignore-scripts
  fi
fi
