// wasm/src/bind_mrope_positions.cpp — M-RoPE position ids (core: posenc/mrope_positions.hpp).
// The items arrive staged as 5 doubles each (wasm/js/mrope_positions.js): kind (0 text,
// 1 image, 2 video), then the text count or grid (t, h, w), then seconds per grid; one more
// double after them receives delta.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/mrope_positions.hpp"

#include <emscripten/bind.h>

#include <string>
#include <vector>

namespace posenc::wasm {
namespace {

// → Int32Array of the [3][tokens] positions; delta is written to the double after the items.
val mrope_positions(std::uintptr_t block, std::size_t count, int spatial_merge, std::string model,
                    double tokens_per_second) {
  return guarded([&] {
    const double* v = from_address<const double>(block);
    std::vector<posenc::mrope_item> items;
    items.reserve(count);
    for (std::size_t i = 0; i < count; ++i, v += 5) {
      const int kind = static_cast<int>(v[0]);
      if (kind == 0)
        items.push_back(posenc::mrope_item::text_run(i64(v[1])));
      else if (kind == 1)
        items.push_back(posenc::mrope_item::image(i64(v[1]), i64(v[2]), i64(v[3])));
      else
        items.push_back(posenc::mrope_item::video(i64(v[1]), i64(v[2]), i64(v[3]), v[4]));
    }
    auto r = posenc::mrope_positions(items, spatial_merge, posenc::parse_mrope_model(model),
                                     tokens_per_second);
    *from_address<double>(block + 5 * sizeof(double) * count) = static_cast<double>(r.delta);
    return hand_over(std::move(r.positions));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_mrope_positions) {
  emscripten::function("mropePositions", &posenc::wasm::mrope_positions);
}
