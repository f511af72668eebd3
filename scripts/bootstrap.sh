#!/usr/bin/env bash
# Installs what posenc's build and tests need and are missing: Debian packages (as root via
# apt-get, otherwise prints the exact command and stops) and npm dependencies from the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang-14 does not depend on its sanitizer and libFuzzer runtimes (libclang-rt-14-dev),
# so they are named here.
DEBS=(cmake g++ clang-14 libclang-rt-14-dev libxsimd-dev catch2 nlohmann-json3-dev
      libbenchmark-dev emscripten binaryen chromium fonts-nanum)
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

# npm dependencies: reinstall from the lock file when node_modules is missing or stale.
if [[ -f package-lock.json ]]; then
  if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "bootstrap: npm ci"
    npm ci --no-audit --no-fund
  fi
fi
