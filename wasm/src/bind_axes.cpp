// wasm/src/bind_axes.cpp — the position grids of image and video models (core:
// posenc/axes_positions.hpp).
// wasm/js/axes.js reads and type-checks every option; ranges are the core's.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/axes_positions.hpp"

#include <emscripten/bind.h>

#include <string>
#include <vector>

namespace posenc::wasm {
namespace {

// → Float64Array [axes][tokens] of `model`'s grid; the references arrive as n (height, width)
// pairs of doubles at `refs`. JS reads axes from the length and tokens (tokens ≥ 1).
val axes_positions(std::string model, int frames, int height, int width, int text_tokens,
                   std::uintptr_t refs, std::size_t n, std::string version, int base_height,
                   int base_width, int prefix_tokens) {
  return guarded([&] {
    axes_grid_request r{.model = model, .frames = frames, .height = height, .width = width,
                        .text_tokens = text_tokens, .version = version,
                        .base_height = base_height, .base_width = base_width,
                        .prefix_tokens = prefix_tokens};
    const double* v = from_address<const double>(refs);
    for (std::size_t k = 0; k < n; ++k)
      r.references.push_back({static_cast<int>(v[2 * k]), static_cast<int>(v[2 * k + 1])});
    axes_grid g = posenc::axes_positions(r);
    g.positions.push_back(g.axes);  // the axis count rides last
    return hand_over(std::move(g.positions));
  });
}

}  // namespace
}  // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_axes) {
  emscripten::function("axesPositions", &posenc::wasm::axes_positions);
}
