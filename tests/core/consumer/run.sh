#!/usr/bin/env bash
# Installs the posenc build into a scratch prefix, extracts the README's C++ example (the
# ```cpp block between <!-- cpp-example --> markers) and builds and runs it in an outside
# project with find_package(posenc), then with pkg-config (after moving the prefix: the .pc
# file is relocatable). Both must print what the README says the example prints (the ```text
# block after <!-- cpp-output -->). Usage: run.sh <source dir> <build dir> <scratch dir>
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null

awk '/<!-- cpp-example -->/{on=1; next} /<!-- \/cpp-example -->/{on=0} on' "$src/README.md" \
  | sed '/^```/d' > "$work/readme_example.cpp"
[[ -s "$work/readme_example.cpp" ]] || { echo "README has no cpp-example block" >&2; exit 1; }
awk '/<!-- cpp-output -->/{on=1; next} on && /^```text/{next} on && /^```/{exit} on' "$src/README.md" > "$work/expected.txt"
[[ -s "$work/expected.txt" ]] || { echo "README shows no cpp-output block" >&2; exit 1; }
cp "$src/tests/core/consumer/CMakeLists.txt" "$work/"

echo "find_package(posenc):"
cmake -S "$work" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/readme_example" | tee "$work/output.txt"
diff "$work/expected.txt" "$work/output.txt"

echo "pkg-config posenc (prefix moved after install):"
mv "$work/prefix" "$work/moved"
pc=$(find "$work/moved" -name posenc.pc)
[[ -n $pc ]] || { echo "no posenc.pc installed" >&2; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
[[ $(pkg-config --modversion posenc) == "$(sed -n 's/^project(posenc VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")" ]]
pkg-config --cflags posenc | grep -q -- "-I$work/moved/" || { echo "pkg-config --cflags: $(pkg-config --cflags posenc)" >&2; exit 1; }
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
c++ -std=c++20 -O2 "$work/readme_example.cpp" $(pkg-config --cflags --libs posenc) -o "$work/pc_example"
"$work/pc_example" | tee "$work/pc_output.txt"
diff "$work/expected.txt" "$work/pc_output.txt"
