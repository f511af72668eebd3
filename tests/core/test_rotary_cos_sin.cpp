// test_rotary_cos_sin.cpp — rope_cos_sin (HF's full-width pair): both layouts, partial
// rotary, the attention factor, int32 / int64 positions and start, against cos/sin in long
// double; and every refused input leaves the outputs untouched.
#include "posenc/errors.hpp"
#include "posenc/multimodal.hpp"
#include "posenc/rotary.hpp"
#include "posenc/tensor.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

posenc::rotary_cache make(posenc::rope_layout layout, bool yarn, std::int64_t count) {
  posenc::rope_config c{.head_dim = 64, .rotary_dim = 48, .base = 10000.0, .layout = layout};
  if (yarn) {
    c.scaling.type = posenc::scaling_type::yarn;
    c.scaling.factor = 4;
    c.scaling.original_max_position_embeddings = 4096;
  }
  return posenc::rotary_cache(c, 0, count);
}

// Every value against f·cos/sin(p·θ_i) in long double, at its place in the layout.
void check_pair(const posenc::rotary_cache& cache, const std::vector<std::int64_t>& pos,
                const std::vector<float>& co, const std::vector<float>& si) {
  const std::size_t r = 48, half = 24;
  const long double f = cache.attention_factor();
  for (std::size_t t = 0; t < pos.size(); ++t)
    for (std::size_t i = 0; i < half; ++i) {
      const long double a = static_cast<long double>(pos[t]) * cache.inv_freq()[i];
      const bool il = cache.layout() == posenc::rope_layout::interleaved;
      for (const std::size_t j : {il ? 2 * i : i, il ? 2 * i + 1 : i + half}) {
        INFO("t " << t << " i " << i << " j " << j);
        CHECK(std::abs(co[t * r + j] - f * std::cos(a)) <= 1e-7L * f);
        CHECK(std::abs(si[t * r + j] - f * std::sin(a)) <= 1e-7L * f);
      }
    }
}

} // namespace

TEST_CASE("rope_cos_sin: HF's full-width pair in both layouts, scaled by the attention factor") {
  for (const auto layout : {posenc::rope_layout::half, posenc::rope_layout::interleaved})
    for (const bool yarn : {false, true})
      for (const std::int64_t count : {0, 64}) {
        const auto cache = make(layout, yarn, count);
        const std::vector<std::int64_t> pos{0, 5, 63, 64, 4000, -7, 65535};
        std::vector<float> co(pos.size() * 48), si(pos.size() * 48);
        posenc::rope_cos_sin(cache, std::span<const std::int64_t>(pos), co, si);
        check_pair(cache, pos, co, si);
        std::vector<std::int32_t> p32(pos.begin(), pos.end());
        std::vector<float> co32(co.size()), si32(si.size());
        posenc::rope_cos_sin(cache, std::span<const std::int32_t>(p32), co32, si32);
        CHECK(co32 == co);
        CHECK(si32 == si);
        std::vector<float> cs(3 * 48), ss(3 * 48);
        posenc::rope_cos_sin(cache, 62, 3, cs, ss);
        check_pair(cache, {62, 63, 64}, cs, ss);
      }
}

TEST_CASE("rope_cos_sin: refused inputs name the argument and write nothing") {
  const auto cache = make(posenc::rope_layout::half, false, 0);
  std::vector<float> co(2 * 48, 9.f), si(2 * 48, 9.f);
  const std::vector<std::int64_t> far{0, posenc::max_position + 1};
  CHECK_THROWS_WITH(posenc::rope_cos_sin(cache, std::span<const std::int64_t>(far), co, si),
                    Catch::Contains("positions"));
  CHECK_THROWS_WITH(posenc::rope_cos_sin(cache, posenc::max_position, 2, co, si),
                    Catch::Contains("start"));
  std::vector<float> small(47);
  CHECK_THROWS_AS(posenc::rope_cos_sin(cache, 0, 1, small, si), posenc::length_error);
  CHECK_THROWS_WITH(posenc::rope_cos_sin(cache, 0, 2, co, std::span<float>(si.data(), 10)),
                    Catch::Contains("sin"));
  CHECK_THROWS_WITH(posenc::rope_cos_sin(cache, 0, 2, co, co), Catch::Contains("overlap"));
  for (const float v : co) CHECK(v == 9.f);
  for (const float v : si) CHECK(v == 9.f);
}

TEST_CASE("rope_cos_sin: multi-axis rotators give HF's merged pair, [axes][tokens] positions") {
  using posenc::rope_axes_kind;
  // Each rotator's pair against what rope_apply rotates with: a row (1 … 1, 0 … 0) rotated
  // forward becomes (f·c_i, f·s_i), so the merged row is read off apply's output.
  struct kind_case {
    rope_axes_kind kind;
    int head_dim;
    std::array<int, 3> section;
  };
  for (const kind_case k : {kind_case{rope_axes_kind::mrope, 128, {16, 24, 24}},
                            kind_case{rope_axes_kind::mrope_interleaved, 128, {24, 20, 20}},
                            kind_case{rope_axes_kind::vision_qwen2vl, 80, {}},
                            kind_case{rope_axes_kind::vision_pixtral, 64, {}}}) {
    posenc::rope_config c{.head_dim = k.head_dim, .base = 10000.0};
    c.axes = {k.kind, k.section};
    const posenc::rotary_cache cache(c);
    const auto axes = static_cast<std::size_t>(cache.axes());
    const std::size_t tokens = 5, r = static_cast<std::size_t>(k.head_dim), half = r / 2;
    std::vector<std::int64_t> pos(axes * tokens);
    for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = static_cast<std::int64_t>(7 * i * i + 3 * i);
    std::vector<float> co(tokens * r, -9), si(tokens * r, -9);
    posenc::rope_cos_sin(cache, std::span<const std::int64_t>(pos), co, si);
    std::vector<float> x(tokens * r, 0);
    for (std::size_t t = 0; t < tokens; ++t) std::fill_n(x.begin() + t * r, half, 1.0f);
    std::vector<std::int32_t> p32(pos.begin(), pos.end());
    posenc::rope_apply(cache, posenc::tensor_view::dense(x.data(), x.size(), tokens, 1, r),
                       std::span<const std::int32_t>(p32));
    INFO("axes kind " << static_cast<int>(k.kind));
    for (std::size_t t = 0; t < tokens; ++t)
      for (std::size_t i = 0; i < half; ++i) {
        CHECK(co[t * r + i] == Approx(x[t * r + i]).margin(1e-6));
        CHECK(co[t * r + half + i] == co[t * r + i]);
        CHECK(si[t * r + i] == Approx(x[t * r + half + i]).margin(1e-6));
        CHECK(si[t * r + half + i] == si[t * r + i]);
      }
    std::vector<std::int64_t> odd(axes * tokens + 1, 0);
    CHECK_THROWS_AS(posenc::rope_cos_sin(cache, std::span<const std::int64_t>(odd), co, si),
                    posenc::length_error);
    if (axes == 2)
      CHECK_THROWS_WITH(posenc::rope_cos_sin(cache, 0, tokens, co, si), Catch::Contains("not start"));
  }
}
