// core/src/rotary_cos_sin.cpp — HF's full-width (cos, sin) pair from a rotary_cache.
//
// A multi-axis cache (multimodal.hpp) gives each token's merged row (rung i from the axis
// HF's section merge picks), so the pair is what apply_multimodal_rotary_pos_emb /
// apply_interleaved_mrope / apply_rotary_pos_emb_vision multiply by.
#include "posenc/rotary.hpp"
#include "posenc/detail/check.hpp"
#include "posenc/multimodal.hpp"

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <limits>
#include <span>
#include <vector>

namespace posenc {
namespace {

// tokens·rotary_dim, or length_error naming tokens when it does not fit size_t (wasm32: a
// wrapped product would let a too-small output pass the size check).
std::size_t pair_floats(std::size_t tokens, std::size_t r) {
  if (tokens > std::numeric_limits<std::size_t>::max() / r)
    detail::fail_length("tokens·rotary_dim = ", tokens, "·", r, " floats exceeds the address space");
  return tokens * r;
}

void check_out(const char* name, std::span<float> out, std::size_t want) {
  if (out.size() != want)
    detail::fail_length(name, " must hold tokens·rotary_dim = ", want, " floats, got ", out.size());
}

// row_at(t, c, s) writes token t's half-width row; every position is checked before anything
// is written (rotary_cache::row checks again, cheaply, per row).
template <class RowAt>
void fill(const rotary_cache& cache, std::size_t tokens, RowAt row_at,
          std::span<float> cos_out, std::span<float> sin_out) {
  const auto r = static_cast<std::size_t>(cache.rotary_dim());
  const std::size_t half = r / 2;
  check_out("cos", cos_out, pair_floats(tokens, r));
  check_out("sin", sin_out, pair_floats(tokens, r));
  if (tokens != 0 && cos_out.data() < sin_out.data() + sin_out.size() &&
      sin_out.data() < cos_out.data() + cos_out.size())
    detail::fail_length("cos and sin must not overlap");
  const double f = cache.attention_factor();
  std::vector<float> c(half), s(half);
  // The two dims of rung i: (2i, 2i + 1) interleaved; (i, i + r/2) half; within its chunk
  // (o + j, o + d/2 + j) for half pairs per axis chunk (rotary_cache::chunks).
  std::vector<std::size_t> first(half), second(half);
  const bool interleaved = cache.layout() == rope_layout::interleaved;
  for (std::size_t i = 0; i < half; ++i) {
    first[i] = interleaved ? 2 * i : i;
    second[i] = interleaved ? 2 * i + 1 : i + half;
  }
  for (const auto& [offset, dims] : cache.chunks())
    for (std::size_t j = 0; j < static_cast<std::size_t>(dims / 2); ++j) {
      first[offset / 2 + j] = offset + j;
      second[offset / 2 + j] = offset + dims / 2 + j;
    }
  for (std::size_t t = 0; t < tokens; ++t) {
    row_at(t, c.data(), s.data());
    float* co = cos_out.data() + t * r;
    float* so = sin_out.data() + t * r;
    for (std::size_t i = 0; i < half; ++i) {
      const auto fc = static_cast<float>(f * c[i]);
      const auto fs = static_cast<float>(f * s[i]);
      co[first[i]] = co[second[i]] = fc;
      so[first[i]] = so[second[i]] = fs;
    }
  }
}

// A multi-axis cache takes axes·tokens positions, [axes][tokens] (HF's position_ids order).
template <class Int>
void fill_positions(const rotary_cache& cache, std::span<const Int> positions,
                    std::span<float> cos_out, std::span<float> sin_out) {
  for (const Int p : positions) {
    if constexpr (std::is_floating_point_v<Int>) {
      if (!(std::abs(p) <= static_cast<double>(max_position)))
        detail::fail_argument("positions must be finite and within ±", max_position, ", got ", p);
    } else {
      detail::check_range("positions", static_cast<long long>(p), -max_position, max_position);
    }
  }
  const auto axes = static_cast<std::size_t>(cache.axes());
  if (positions.size() % axes != 0)
    detail::fail_length("positions holds ", positions.size(), " values, not a multiple of ", axes,
                        " (a ", cache.axes_name(), " rotator takes [", axes,
                        "][tokens])");
  const std::size_t tokens = positions.size() / axes;
  fill(cache, tokens, [&](std::size_t t, float* c, float* s) {
    using Position = std::conditional_t<std::is_floating_point_v<Int>, double, std::int64_t>;
    Position p[max_axes] = {};
    for (std::size_t a = 0; a < axes; ++a) p[a] = positions[a * tokens + t];
    if constexpr (std::is_floating_point_v<Int>) {
      cache.row(std::span<const double>(p, axes), c, s);
    } else {
      if (axes == 1) cache.row(p[0], c, s);
      else cache.row(std::span<const std::int64_t>(p, axes), c, s);
    }
  }, cos_out, sin_out);
}

} // namespace

void rope_cos_sin(const rotary_cache& cache, std::span<const std::int32_t> positions,
                  std::span<float> cos_out, std::span<float> sin_out) {
  fill_positions(cache, positions, cos_out, sin_out);
}

void rope_cos_sin(const rotary_cache& cache, std::span<const std::int64_t> positions,
                  std::span<float> cos_out, std::span<float> sin_out) {
  fill_positions(cache, positions, cos_out, sin_out);
}

void rope_cos_sin(const rotary_cache& cache, std::span<const double> positions,
                  std::span<float> cos_out, std::span<float> sin_out) {
  fill_positions(cache, positions, cos_out, sin_out);
}

void rope_cos_sin(const rotary_cache& cache, std::int64_t start, std::size_t tokens,
                  std::span<float> cos_out, std::span<float> sin_out) {
  detail::check_range("start", start, -max_position, max_position);
  if (static_cast<std::uint64_t>(tokens) > std::uint64_t{1} << 54)  // size_t may be 32-bit
    detail::fail_argument("tokens must be at most 2^54, got ", tokens);
  if (tokens != 0)
    detail::check_range("start", start + static_cast<std::int64_t>(tokens - 1), -max_position,
                        max_position);
  if (cache.axes() > 1 && !cache.shared_ladder())
    detail::fail_argument("a ", cache.axes(), "-axis rotary (", cache.axes_name(),
                          ") takes positions [", cache.axes(), "][tokens], not start");
  // M-RoPE text tokens: t = h = w, the plain row (bit-identical, multimodal.hpp).
  fill(cache, tokens, [&](std::size_t t, float* c, float* s) {
    cache.row(start + static_cast<std::int64_t>(t), c, s);
  }, cos_out, sin_out);
}

} // namespace posenc
