#!/usr/bin/env bash
# Installs the posenc build into a scratch prefix, extracts the README's C++ example (the
# ```cpp block between <!-- cpp-example --> markers) and builds and runs it in an outside
# project with find_package(posenc). Usage: run.sh <source dir> <build dir> <scratch dir>
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null

awk '/<!-- cpp-example -->/{on=1; next} /<!-- \/cpp-example -->/{on=0} on' "$src/README.md" \
  | sed '/^```/d' > "$work/readme_example.cpp"
[[ -s "$work/readme_example.cpp" ]] || { echo "README has no cpp-example block" >&2; exit 1; }
cp "$src/tests/core/consumer/CMakeLists.txt" "$work/"

cmake -S "$work" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/readme_example" | tee "$work/output.txt"
# The example prints one rotated value per line; it must print something numeric.
grep -Eq '^-?[0-9]' "$work/output.txt"
