// wasm/src/bind_sinusoidal.cpp — sinusoidal tables and their algebra (core:
// posenc/sinusoidal.hpp). Positions, counts and shifts arrive as doubles holding safe
// integers (checked in wasm/js/check.js) and are exact as int64.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/detail/check.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/sinusoidal_2d.hpp"

#include <emscripten/bind.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <string>

namespace posenc::wasm {
namespace {

// positions·dim floats as a size_t (32 bits here), or length_error: `positions` may be any
// count ≥ 0 that JS accepted, up to 2^53, and a plain cast would trap in WebAssembly.
std::size_t table_floats(double positions, int dim) {
  const double n = positions * dim;
  if (!(n <= static_cast<double>(std::numeric_limits<std::size_t>::max())))
    detail::fail_length("positions x dim = ", positions, " x ", dim,
                        " floats exceeds WebAssembly memory");
  return static_cast<std::size_t>(n);
}

// A malloc'd block of n floats, left uninitialised (the table fills every float), that JS
// copies out with one .slice() and frees (wasm/js/sinusoidal.js): a std::vector would
// zero-fill it first and embind's `new Float32Array(view)` would copy it once more.
float* table_block(std::size_t n) {
  // n·4 bytes would wrap in a 32-bit size_t past 1 Gi floats.
  if (n > std::numeric_limits<std::size_t>::max() / sizeof(float)) throw std::bad_alloc();
  void* p = std::malloc(std::max<std::size_t>(n, 1) * sizeof(float));
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<float*>(p);
}

// Where a table of `floats` floats goes: into `out` (out_len floats: a tensor's or a
// scratch block, see wasm/js/sinusoidal.js), whose length must match, or with out = 0 into
// a new table_block that JS frees. Taken after the core validated every other argument (an
// empty call), so a bad dim is reported as such and not as a wrong out length or an
// allocation failure. result(): out, or the new block's address (released to JS).
class table_destination {
public:
  table_destination(std::uintptr_t out, std::size_t out_len, std::size_t floats)
      : out_(out), block_(out == 0 ? table_block(floats) : nullptr, std::free) {
    if (out != 0 && out_len != floats)
      detail::fail_length("out must hold positions x dim = ", floats, " floats, got ", out_len);
  }
  float* floats() const { return out_ != 0 ? from_address<float>(out_) : block_.get(); }
  val result() { return val(out_ != 0 ? out_ : reinterpret_cast<std::uintptr_t>(block_.release())); }

private:
  std::uintptr_t out_;
  std::unique_ptr<float, void (*)(void*)> block_;
};

// Rows start … start+count−1 (see table_destination for out/out_len).
val sinusoidal_table(int dim, double base, double start, double count, std::string layout,
                     std::uintptr_t out, std::size_t out_len) {
  return guarded([&] {
    const pe_layout l = parse_pe_layout(layout);
    posenc::sinusoidal_table(nullptr, 0, dim, base, i64(start), 0, l);  // validation only
    const std::size_t n = table_floats(count, dim);
    table_destination dest(out, out_len, n);
    posenc::sinusoidal_table(dest.floats(), n, dim, base, i64(start), i64(count), l);
    return dest.result();
  });
}

// Rows PE(positions[r]) for n int32 positions staged at `positions` (see table_destination).
val sinusoidal_table_at(int dim, double base, std::uintptr_t positions, std::size_t n,
                        std::string layout, std::uintptr_t out, std::size_t out_len) {
  return guarded([&] {
    const pe_layout l = parse_pe_layout(layout);
    const std::span<const std::int32_t> p(from_address<const std::int32_t>(positions), n);
    posenc::sinusoidal_table(nullptr, 0, dim, base, p.first(0), l);  // validation only
    const std::size_t floats = table_floats(static_cast<double>(n), dim);
    table_destination dest(out, out_len, floats);
    posenc::sinusoidal_table(dest.floats(), floats, dim, base, p, l);
    return dest.result();
  });
}

// The 2-D table of get_2d_sincos_pos_embed (posenc/sinusoidal_2d.hpp): into `out` (a tensor's
// or scratch floats, see table_destination) or, out = 0, a new block JS frees.
val sinusoidal_2d_table(int dim, int height, int width, double base_size, double interpolation_scale,
                        int max_size, int extra_tokens, std::uintptr_t out, std::size_t out_len) {
  return guarded([&] {
    const sinusoidal_2d_options o{dim, height, width, base_size, interpolation_scale, max_size,
                                  extra_tokens};
    const std::size_t floats = posenc::sinusoidal_2d_rows(o) * static_cast<std::size_t>(dim);
    table_destination dest(out, out_len, floats);
    posenc::sinusoidal_2d(dest.floats(), floats, o);
    return dest.result();
  });
}

val sinusoidal_row(int dim, double base, double position, std::string layout) {
  return guarded([&] {
    return hand_over(posenc::sinusoidal_row(dim, base, i64(position), parse_pe_layout(layout)));
  });
}

val shift_matrix(int dim, double base, double k, std::string layout) {
  return guarded([&] {
    return hand_over(posenc::shift_matrix(dim, base, i64(k), parse_pe_layout(layout)));
  });
}

// M(k)·row for the dim floats staged at `row`.
val apply_shift(int dim, double base, double k, std::uintptr_t row, std::size_t n,
                std::string layout) {
  return guarded([&] {
    const std::span<const float> r(from_address<const float>(row), n);
    return hand_over(posenc::apply_shift(dim, base, i64(k), r, parse_pe_layout(layout)));
  });
}

val pe_dot_by_distance(int dim, double base, double p, double k_first, double k_count) {
  return guarded([&] {
    return hand_over(posenc::pe_dot_by_distance(dim, base, i64(p), i64(k_first), i64(k_count)));
  });
}

val pe_dot_closed_form(int dim, double base, double k_first, double k_count) {
  return guarded([&] {
    return hand_over(posenc::pe_dot_closed_form(dim, base, i64(k_first), i64(k_count)));
  });
}

val pe_norms(int dim, double base, double first, double count) {
  return guarded([&] { return hand_over(posenc::pe_norms(dim, base, i64(first), i64(count))); });
}

// → Float64Array view [distance, p, q]
val pe_min_distance(int dim, double base, double first, double count) {
  return guarded([&] {
    const min_distance m = posenc::pe_min_distance(dim, base, i64(first), i64(count));
    return hand_over(std::vector<double>{m.distance, static_cast<double>(m.p),
                                         static_cast<double>(m.q)});
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_sinusoidal) {
  using namespace posenc::wasm;
  emscripten::function("sinusoidalTable", &sinusoidal_table);
  emscripten::function("sinusoidalTableAt", &sinusoidal_table_at);
  emscripten::function("sinusoidalRow", &sinusoidal_row);
  emscripten::function("sinusoidal2d", &sinusoidal_2d_table);
  emscripten::function("shiftMatrix", &shift_matrix);
  emscripten::function("applyShift", &apply_shift);
  emscripten::function("peDotByDistance", &pe_dot_by_distance);
  emscripten::function("peDotClosedForm", &pe_dot_closed_form);
  emscripten::function("peNorms", &pe_norms);
  emscripten::function("peMinDistance", &pe_min_distance);
}
