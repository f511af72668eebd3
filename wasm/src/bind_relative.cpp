// wasm/src/bind_relative.cpp — ALiBi, T5 buckets, Shaw distances and the learned-table
// stand-in (core: posenc/relative.hpp). Counts arrive as doubles holding safe integers
// (wasm/js/relative.js checks that); the core checks every range.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/relative.hpp"

#include <emscripten/bind.h>

namespace posenc::wasm {
namespace {

// → Float64Array(heads)
val alibi_slopes(double heads) {
  return guarded([&] { return hand_over(posenc::alibi_slopes(i64(heads))); });
}

// → Float32Array [heads][queries][keys]
val alibi_bias(double heads, double queries, double keys, bool causal) {
  return guarded([&] {
    return hand_over(posenc::alibi_bias(i64(heads), i64(queries), i64(keys), causal));
  });
}

// → Int32Array [queries][keys]
val t5_buckets(double queries, double keys, bool bidirectional, double num_buckets,
               double max_distance) {
  return guarded([&] {
    return hand_over(posenc::t5_buckets(i64(queries), i64(keys), bidirectional, i64(num_buckets),
                                         i64(max_distance)));
  });
}

// → Int32Array [queries][keys]
val clipped_distances(double queries, double keys, double max_distance) {
  return guarded([&] {
    return hand_over(posenc::clipped_distances(i64(queries), i64(keys), i64(max_distance)));
  });
}

// → Float32Array [positions][dim], the whole table (the JS side serves rows from it)
val learned_table(double positions, double dim, std::uint32_t seed_lo, std::uint32_t seed_hi) {
  return guarded([&] {
    const posenc::learned_table t(i64(positions), i64(dim), seed_of(seed_lo, seed_hi));
    return hand_over(std::vector<float>(t.data().begin(), t.data().end()));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_relative) {
  using namespace posenc::wasm;
  emscripten::function("alibiSlopes", &alibi_slopes);
  emscripten::function("alibiBias", &alibi_bias);
  emscripten::function("t5Buckets", &t5_buckets);
  emscripten::function("clippedDistances", &clipped_distances);
  emscripten::function("learnedTable", &learned_table);
}
