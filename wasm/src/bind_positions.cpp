// wasm/src/bind_positions.cpp — the angle table p·θ_i (core: posenc/angle_table.hpp) and the
// input layer scale·e + PE(p) (core: posenc/embedding.hpp). Arrays arrive staged in the heap.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/angle_table.hpp"
#include "posenc/embedding.hpp"

#include <emscripten/bind.h>

#include <span>
#include <string>

namespace posenc::wasm {
namespace {

// p·θ_i for the n int32 positions staged at `positions` → Float64Array(n·dim/2).
val position_angles(int dim, double base, std::uintptr_t positions, std::size_t n) {
  return guarded([&] {
    const std::span<const std::int32_t> p(from_address<const std::int32_t>(positions), n);
    return hand_over(posenc::position_angles(dim, base, p));
  });
}

// scale·e + PE(p) for e (e_len floats) and n positions, both staged → Float32Array.
val add_sinusoidal(std::uintptr_t e, std::size_t e_len, int dim, double base,
                   std::uintptr_t positions, std::size_t n, double scale, std::string layout) {
  return guarded([&] {
    const std::span<const float> x(from_address<const float>(e), e_len);
    const std::span<const std::int32_t> p(from_address<const std::int32_t>(positions), n);
    return hand_over(posenc::add_sinusoidal(x, dim, base, p, scale, parse_pe_layout(layout)));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_positions) {
  using namespace posenc::wasm;
  emscripten::function("positionAngles", &position_angles);
  emscripten::function("addSinusoidal", &add_sinusoidal);
}
