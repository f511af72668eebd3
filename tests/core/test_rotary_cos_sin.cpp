// test_rotary_cos_sin.cpp — rope_cos_sin (HF's full-width pair): both layouts, partial
// rotary, the attention factor, int32 / int64 positions and start, against cos/sin in long
// double; and every refused input leaves the outputs untouched.
#include "posenc/errors.hpp"
#include "posenc/rotary.hpp"

#include <catch2/catch.hpp>

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
