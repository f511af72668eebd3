// wasm/src/bind_random.cpp — the seeded generator (core: posenc/random.hpp). Seeds are
// 64-bit and arrive as two uint32 halves (seed_of).
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/random.hpp"

#include <emscripten/bind.h>

namespace posenc::wasm {
namespace {

// Fills the n floats at `out` (scratch or a tensor) in place.
val fill_uniform(std::uintptr_t out, std::size_t n, std::uint32_t seed_lo, std::uint32_t seed_hi,
                 double lo, double hi) {
  return guarded([&] {
    posenc::fill_uniform({from_address<float>(out), n}, seed_of(seed_lo, seed_hi),
                         static_cast<float>(lo), static_cast<float>(hi));
    return val::undefined();
  });
}

// → Int32Array(n)
val permutation(double n, std::uint32_t seed_lo, std::uint32_t seed_hi) {
  return guarded([&] {
    return hand_over(posenc::permutation(i64(n), seed_of(seed_lo, seed_hi)));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_random) {
  using namespace posenc::wasm;
  emscripten::function("fillUniform", &fill_uniform);
  emscripten::function("permutation", &permutation);
}
