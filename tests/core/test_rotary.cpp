// test_rotary.cpp — RoPE: the cache, apply/inverse in both layouts, partial rotary, GQA,
// shift, int32 and int64 positions, against (a) the scalar references of
// detail/rotary_kernels.hpp driven by a loop written here and (b) a long-double rotation by
// the exact angle, plus a one-pair hand check, the shift-invariance promise and every
// refused input.
#include "detail/rotary_kernels.hpp"
#include "posenc/errors.hpp"
#include "posenc/rotary.hpp"

#include "accuracy.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using posenc::direction;
using posenc::rope_config;
using posenc::rope_layout;
using posenc::rotary_cache;
using posenc::tensor_view;

namespace {

// A tensor [tokens][heads][dim] in a buffer, either dense or stored [heads][tokens][dim],
// each row padded by `pad` floats (the padding must never change).
struct tensor {
  std::int64_t tokens, heads, dim, pad;
  bool transposed;
  std::vector<float> data;

  tensor(std::int64_t t, std::int64_t h, std::int64_t d, std::int64_t p = 0,
         bool tr = false)
      : tokens(t), heads(h), dim(d), pad(p), transposed(tr),
        data(static_cast<std::size_t>(t * h * (d + p))) {}

  std::int64_t token_stride() const { return transposed ? dim + pad : heads * (dim + pad); }
  std::int64_t head_stride() const { return transposed ? tokens * (dim + pad) : dim + pad; }
  tensor_view view() {
    return {data.data(), data.size(), tokens, heads, dim, token_stride(), head_stride()};
  }
  float& at(std::int64_t t, std::int64_t h, std::int64_t j) {
    return data[static_cast<std::size_t>(t * token_stride() + h * head_stride() + j)];
  }
  float* row(std::int64_t t, std::int64_t h) { return &at(t, h, 0); }
};

void fill(std::vector<float>& v, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& x : v) x = u(rng);
}

// The member indices of pair i in a row.
std::pair<std::int64_t, std::int64_t> pair_of(rope_layout layout, std::int64_t i,
                                              std::int64_t r) {
  return layout == rope_layout::half ? std::pair{i, i + r / 2} : std::pair{2 * i, 2 * i + 1};
}

// Written here, independently of rotary.cpp's driver: one cache.row per token and the
// scalar kernels, with the attention factor rule of HF (×f forward, ×1/f inverse).
void reference_apply(const rotary_cache& cache, tensor& x,
                     const std::vector<std::int64_t>& positions, direction dir) {
  const auto half = static_cast<std::size_t>(cache.rotary_dim() / 2);
  std::vector<float> c(half), s(half);
  const float sign = dir == direction::forward ? 1.0f : -1.0f;
  const double f = cache.attention_factor();
  const auto g = static_cast<float>(dir == direction::forward ? f : 1.0 / f);
  for (std::int64_t t = 0; t < x.tokens; ++t) {
    cache.row(positions[static_cast<std::size_t>(t)], c.data(), s.data());
    for (std::int64_t h = 0; h < x.heads; ++h) {
      float* row = x.row(t, h);
      posenc::detail::token_rows<float> job;
      job.cos = c.data();
      job.sin = s.data();
      job.half = half;
      job.sign = sign;
      job.g = g;
      job.in = job.out = row;
      job.heads = 1;
      job.dim = x.dim;
      if (cache.layout() == rope_layout::half)
        posenc::detail::rotate_token_scalar<float, false>(job);
      else
        posenc::detail::rotate_token_scalar<float, true>(job);
    }
  }
}

// Exact rotation of a pair by p·θ (long double angle from the exactly split product).
std::pair<double, double> exact_rotate(double a, double b, double p, double theta, double f) {
  const double hi = p * theta;
  const double lo = std::fma(p, theta, -hi);
  const long double two_pi = 6.283185307179586476925286766559L;
  const long double angle = std::remainder(static_cast<long double>(hi), two_pi) + lo;
  const long double c = std::cos(angle), s = std::sin(angle);
  return {static_cast<double>(f * (a * c - b * s)), static_cast<double>(f * (b * c + a * s))};
}

std::vector<std::int64_t> iota_positions(std::int64_t start, std::int64_t n) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = start + i;
  return p;
}

std::vector<std::int32_t> to_int32(const std::vector<std::int64_t>& p) {
  return {p.begin(), p.end()};
}

double dot(const float* a, const float* b, std::int64_t n) {
  double sum = 0;
  for (std::int64_t i = 0; i < n; ++i) sum += static_cast<double>(a[i]) * b[i];
  return sum;
}

constexpr float kUlp = 1.1920929e-7f;  // 2^-23

// |got − want| ≤ tol · (|a| + |b|) for every rotated pair of every row (a, b: the input).
bool pairs_close(tensor& got, tensor& want, tensor& input, rope_layout layout,
                 std::int64_t r, double tol, double* worst = nullptr) {
  bool ok = true;
  for (std::int64_t t = 0; t < got.tokens; ++t)
    for (std::int64_t h = 0; h < got.heads; ++h)
      for (std::int64_t i = 0; i < r / 2; ++i) {
        const auto [ja, jb] = pair_of(layout, i, r);
        const double scale = std::fabs(input.at(t, h, ja)) + std::fabs(input.at(t, h, jb));
        for (std::int64_t j : {ja, jb}) {
          const double err = std::fabs(double(got.at(t, h, j)) - double(want.at(t, h, j)));
          if (worst && scale > 0) *worst = std::max(*worst, err / scale);
          if (err > tol * scale) ok = false;
        }
      }
  return ok;
}

} // namespace

TEST_CASE("rope layouts parse and print", "[rotary]") {
  CHECK(posenc::parse_rope_layout("half") == rope_layout::half);
  CHECK(posenc::parse_rope_layout("interleaved") == rope_layout::interleaved);
  CHECK(posenc::to_string(rope_layout::half) == "half");
  CHECK(posenc::to_string(rope_layout::interleaved) == "interleaved");
  CHECK_THROWS_AS(posenc::parse_rope_layout("neox"), posenc::invalid_argument);
  CHECK_THROWS_WITH(posenc::parse_rope_layout(""), Catch::Contains("layout"));
}

TEST_CASE("the cache holds theta, the factor and the rows it was asked for", "[rotary]") {
  const rotary_cache cache({.head_dim = 10, .rotary_dim = 8}, -3, 5);
  CHECK(cache.head_dim() == 10);
  CHECK(cache.rotary_dim() == 8);
  CHECK(cache.inv_freq().size() == 4);
  CHECK(cache.inv_freq()[1] == Approx(0.1).epsilon(1e-15));  // d=8 → θ1 = 0.1
  CHECK(cache.attention_factor() == 1.0);
  CHECK(cache.cos_table().size() == 20);
  CHECK(cache.sin_table().size() == 20);
  CHECK(cache.cached(-3));
  CHECK(cache.cached(1));
  CHECK_FALSE(cache.cached(2));
  CHECK_FALSE(cache.cached(-4));
  // Row k is position first + k: cos((−3 + 4)·θ0) = cos 1.
  CHECK(cache.cos_table()[4 * 4] == Approx(std::cos(1.0)).margin(6e-8));
  CHECK(cache.sin_table()[0] == Approx(std::sin(-3.0)).margin(6e-8));
  // rotary_dim 0 means head_dim.
  CHECK(rotary_cache({.head_dim = 6}).rotary_dim() == 6);
}

TEST_CASE("cache tables are within 3e-7 of float64 truth up to |p| = 2^24", "[rotary]") {
  const std::int64_t m = std::int64_t{1} << 24;
  const std::int64_t first = GENERATE_COPY(-m, std::int64_t{-2}, m - 7);
  const rotary_cache cache({.head_dim = 128, .rotary_dim = 96}, first, 8);
  const auto theta = cache.inv_freq();
  double worst = 0;
  for (std::int64_t k = 0; k < 8; ++k)
    for (std::size_t i = 0; i < theta.size(); ++i) {
      const double p = static_cast<double>(first + k);
      const auto [c, s] = exact_rotate(1.0, 0.0, p, theta[i], 1.0);  // R(pθ)·(1, 0)
      const std::size_t at = static_cast<std::size_t>(k) * theta.size() + i;
      worst = std::max({worst, std::fabs(cache.cos_table()[at] - c),
                        std::fabs(cache.sin_table()[at] - s)});
    }
  CAPTURE(first, worst);
  CHECK(worst <= 3e-7);
}

TEST_CASE("cached values are float64 truth correctly rounded (max error 3e-8 below 2^16)",
          "[rotary]") {
  // Every value, not a sample: the whole range [0, 2^16) in two caches' worth of rows at
  // its ends and on-the-fly rows between, for a full and a partial rotary dim. A table
  // built with float32 angles or by a recurrence that drifts fails rounds_to.
  const int rotary_dim = GENERATE(128, 96);
  const rotary_cache low({.head_dim = 128, .rotary_dim = rotary_dim}, 0, 4096);
  const rotary_cache high({.head_dim = 128, .rotary_dim = rotary_dim}, 65536 - 4096, 4096);
  const auto theta = low.inv_freq();
  const std::size_t n = theta.size();
  std::vector<float> c(n), s(n);
  double worst = 0;
  std::int64_t misrounded = 0;
  auto check_row = [&](std::int64_t p, const float* cos_row, const float* sin_row) {
    for (std::size_t i = 0; i < n; ++i) {
      const double pd = static_cast<double>(p);
      const auto t = posenc::test::exact_sincos(pd, theta[i]);
      const double slack = posenc::test::exact_slack(pd, theta[i]);
      misrounded += !posenc::test::rounds_to(cos_row[i], t.cos, slack);
      misrounded += !posenc::test::rounds_to(sin_row[i], t.sin, slack);
      worst = std::max({worst, static_cast<double>(std::fabs(cos_row[i] - t.cos)),
                        static_cast<double>(std::fabs(sin_row[i] - t.sin))});
    }
  };
  for (std::int64_t k = 0; k < 4096; ++k) {
    const auto at = static_cast<std::size_t>(k) * n;
    check_row(k, low.cos_table().data() + at, low.sin_table().data() + at);
    check_row(65536 - 4096 + k, high.cos_table().data() + at, high.sin_table().data() + at);
  }
  for (std::int64_t p = 4096; p < 65536 - 4096; p += 7) {
    low.row(p, c.data(), s.data());
    check_row(p, c.data(), s.data());
  }
  CAPTURE(rotary_dim, worst, misrounded);
  CHECK(misrounded == 0);
  CHECK(worst <= 3e-8);
}

TEST_CASE("cached values from |p| = 2^24 to 2^53 are truth correctly rounded", "[rotary]") {
  // Every build (the scalar references too): past 2^24 rad the angle is the exact product.
  const std::int64_t m = std::int64_t{1} << 24;
  const std::int64_t first = GENERATE_COPY(-m, m - 300, (std::int64_t{1} << 40) - 150,
                                           -(std::int64_t{1} << 48) - 150, -posenc::max_position,
                                           posenc::max_position - 299);
  const rotary_cache cache({.head_dim = 64}, first, 300);
  const rotary_cache empty({.head_dim = 64});
  const auto theta = cache.inv_freq();
  const std::size_t n = theta.size();
  std::vector<float> c(n), s(n);
  std::int64_t misrounded = 0, differ = 0;
  for (std::int64_t k = 0; k < 300; ++k) {
    const double p = static_cast<double>(first + k);
    const auto at = static_cast<std::size_t>(k) * n;
    empty.row(first + k, c.data(), s.data());
    for (std::size_t i = 0; i < n; ++i) {
      differ += c[i] != cache.cos_table()[at + i] || s[i] != cache.sin_table()[at + i];
      const auto t = posenc::test::exact_sincos(p, theta[i]);
      const double slack = posenc::test::exact_slack(p, theta[i]);
      misrounded += !posenc::test::rounds_to(cache.cos_table()[at + i], t.cos, slack);
      misrounded += !posenc::test::rounds_to(cache.sin_table()[at + i], t.sin, slack);
    }
  }
  CAPTURE(first, misrounded, differ);
  CHECK(misrounded == 0);
  CHECK(differ == 0);  // on-the-fly rows equal cached rows bit for bit, anchors at ±2^53 too
}

TEST_CASE("positions near +-2^53 rotate (a pure rotation keeps the norm)", "[rotary]") {
  const rotary_cache cache({.head_dim = 64, .layout = rope_layout::interleaved});
  for (std::int64_t start : {posenc::max_position - 3, -posenc::max_position}) {
    tensor x(4, 1, 64);
    std::mt19937 rng(12);
    fill(x.data, rng);
    const tensor before = x;
    posenc::rope_apply(cache, x.view(), start);
    for (std::int64_t t = 0; t < 4; ++t) {
      const double n0 = dot(before.data.data() + 64 * t, before.data.data() + 64 * t, 64);
      const double n1 = dot(x.row(t, 0), x.row(t, 0), 64);
      CHECK(std::fabs(std::sqrt(n1 / n0) - 1) < 1e-6);
    }
  }
}

TEST_CASE("rows outside the cache equal rows inside, bit for bit", "[rotary]") {
  const rope_config config{.head_dim = 96, .layout = rope_layout::interleaved};
  const rotary_cache cached(config, -100, 400);
  const rotary_cache empty(config);
  std::vector<float> c1(48), s1(48), c2(48), s2(48);
  for (std::int64_t p : {-100, -1, 0, 1, 17, 299}) {
    cached.row(p, c1.data(), s1.data());
    empty.row(p, c2.data(), s2.data());
    CHECK(std::memcmp(c1.data(), c2.data(), 48 * sizeof(float)) == 0);
    CHECK(std::memcmp(s1.data(), s2.data(), 48 * sizeof(float)) == 0);
  }
  // And whole applications: in-cache rows vs on-the-fly rows.
  std::mt19937 rng(3);
  tensor a(7, 3, 96), b(7, 3, 96);
  fill(a.data, rng);
  b.data = a.data;
  const std::vector<std::int32_t> pos = {-100, 5, 299, 0, 42, -7, 150};
  posenc::rope_apply(cached, a.view(), pos);
  posenc::rope_apply(empty, b.view(), pos);
  CHECK(std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0);
}

TEST_CASE("rope_apply matches the scalar reference on random shapes", "[rotary]") {
  const int head_dim = GENERATE(2, 4, 6, 10, 64, 80, 96, 128, 256);
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const bool transposed = GENERATE(false, true);
  std::mt19937 rng(static_cast<unsigned>(head_dim * 4 + int(layout) * 2 + int(transposed)));
  for (int trial = 0; trial < 4; ++trial) {
    // Full rotary, then partial ones (rotary_dim < head_dim) when the head allows it.
    int rotary_dim = head_dim;
    if (trial > 0 && head_dim > 2)
      rotary_dim = 2 * std::uniform_int_distribution<int>(1, head_dim / 2 - 1)(rng);
    const std::int64_t heads = 2 * std::uniform_int_distribution<int>(0, 3)(rng) + 1;  // odd
    const std::int64_t tokens = std::uniform_int_distribution<int>(1, 9)(rng);
    const std::int64_t pad = std::uniform_int_distribution<int>(0, 3)(rng);
    const rope_config config{.head_dim = head_dim, .rotary_dim = rotary_dim, .layout = layout};
    const rotary_cache cache(config, 0, 6);  // some positions cached, some not
    std::vector<std::int64_t> pos(static_cast<std::size_t>(tokens));
    for (auto& p : pos) p = std::uniform_int_distribution<std::int64_t>(-50, 5000)(rng);
    CAPTURE(head_dim, rotary_dim, layout, transposed, heads, tokens, pad);

    tensor x(tokens, heads, head_dim, pad, transposed);
    fill(x.data, rng);
    tensor want = x, input = x;
    for (auto dir : {direction::forward, direction::inverse}) {
      posenc::rope_apply(cache, x.view(), to_int32(pos), dir);
      reference_apply(cache, want, pos, dir);
      double worst = 0;
      const bool close = pairs_close(x, want, input, layout, rotary_dim, kUlp, &worst);
      CAPTURE(dir, worst);
      CHECK(close);
      // Pass-through dims and row padding are bit-identical to the input.
      // Every layout here stores rows in (head_dim + pad)-float slots.
      for (std::size_t i = 0; i < x.data.size(); ++i)
        if (static_cast<std::int64_t>(i) % (head_dim + pad) >= rotary_dim)
          REQUIRE(x.data[i] == input.data[i]);
      input = x;  // the next direction starts from this call's output, on both sides
      want = x;
    }
  }
}

// The driver picks the kernel per call by the bytes it touches and whether a row is off a
// 64-byte line (in cache, on or off a line; streaming from memory; large in-place calls off a
// line: rotary.cpp); every tier must give the reference's numbers.
TEST_CASE("rope_apply matches the scalar reference in every size tier, on and off a line", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const std::int64_t tokens = GENERATE(2, 64, 384);  // 32 KiB, 1 MiB, 6 MiB of 32 × 128 rows
  const std::size_t offset = GENERATE(0u, 4u, 8u);   // floats past a 64-byte line
  const bool in_place = GENERATE(true, false);
  const bool scaled = GENERATE(false, true);  // yarn: the kernels' g ≠ 1 entries
  CAPTURE(layout, tokens, offset, in_place, scaled);
  constexpr std::int64_t heads = 32, dim = 128;
  posenc::scaling yarn;
  yarn.type = posenc::scaling_type::yarn;
  yarn.factor = 4.0;
  yarn.original_max_position_embeddings = 64;
  const rotary_cache cache({.head_dim = dim, .layout = layout, .scaling = scaled ? yarn : posenc::scaling{}},
                           0, tokens);
  const auto n = static_cast<std::size_t>(tokens * heads * dim);
  std::vector<float> in_buf(n + 32), out_buf(n + 32);
  const auto on_line = [offset](std::vector<float>& b) {
    const auto skip = (64 - reinterpret_cast<std::uintptr_t>(b.data()) % 64) % 64 / sizeof(float);
    return b.data() + skip + offset;
  };
  float* const x = on_line(in_buf);
  float* const y = in_place ? x : on_line(out_buf);
  std::mt19937 rng(static_cast<unsigned>(tokens + offset));
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (std::size_t i = 0; i < n; ++i) x[i] = u(rng);
  tensor want(tokens, heads, dim);
  std::copy(x, x + n, want.data.begin());
  tensor input = want;
  posenc::rope_apply(cache, posenc::const_tensor_view::dense(x, n, tokens, heads, dim),
                     tensor_view::dense(y, n, tokens, heads, dim), 0);
  reference_apply(cache, want, iota_positions(0, tokens), direction::forward);
  tensor got(tokens, heads, dim);
  std::copy(y, y + n, got.data.begin());
  CHECK(pairs_close(got, want, input, layout, dim, 2 * kUlp));
}

TEST_CASE("rotation matches a long-double rotation by the exact angle", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const int head_dim = GENERATE(64, 128);
  posenc::scaling yarn;
  yarn.type = posenc::scaling_type::yarn;
  yarn.factor = 4;
  yarn.original_max_position_embeddings = 4096;
  const bool scaled = GENERATE(false, true);
  const rotary_cache cache({.head_dim = head_dim, .layout = layout,
                            .scaling = scaled ? yarn : posenc::scaling{}});
  if (scaled) CHECK(cache.attention_factor() > 1.0);  // yarn's 0.1·ln 4 + 1
  // |p| up to 2^24, including both extremes.
  std::vector<std::int64_t> pos = {0, 1, -1, 1000000, -1000000, 16777215, 16777216, -16777216};
  tensor x(static_cast<std::int64_t>(pos.size()), 2, head_dim);
  std::mt19937 rng(5);
  fill(x.data, rng);
  tensor input = x;
  posenc::rope_apply(cache, x.view(), std::span<const std::int32_t>(to_int32(pos)));
  double worst = 0;
  for (std::int64_t t = 0; t < x.tokens; ++t)
    for (std::int64_t h = 0; h < x.heads; ++h)
      for (std::int64_t i = 0; i < head_dim / 2; ++i) {
        const auto [ja, jb] = pair_of(layout, i, head_dim);
        const double a = input.at(t, h, ja), b = input.at(t, h, jb);
        const auto [ea, eb] = exact_rotate(a, b, double(pos[std::size_t(t)]),
                                           cache.inv_freq()[std::size_t(i)],
                                           cache.attention_factor());
        const double scale = cache.attention_factor() * (std::fabs(a) + std::fabs(b));
        worst = std::max({worst, std::fabs(x.at(t, h, ja) - ea) / scale,
                          std::fabs(x.at(t, h, jb) - eb) / scale});
      }
  CAPTURE(worst);
  CHECK(worst <= 4e-7);
}

TEST_CASE("inverse undoes forward, in and out of place", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  posenc::scaling yarn;  // yarn: an attention factor ≠ 1 exercises the 1/f path
  yarn.type = posenc::scaling_type::yarn;
  yarn.factor = 8;
  yarn.original_max_position_embeddings = 2048;
  const rotary_cache cache({.head_dim = 80, .rotary_dim = 64, .layout = layout,
                            .scaling = yarn},
                           0, 64);
  std::mt19937 rng(9);
  tensor x(13, 5, 80, 1, true);
  fill(x.data, rng);
  const tensor original = x;
  tensor y(13, 5, 80, 0, false);  // out of place into a different layout
  posenc::rope_apply(cache, posenc::const_tensor_view(x.view()), y.view(), 1000);
  posenc::rope_apply(cache, y.view(), 1000, direction::inverse);
  double worst = 0;
  for (std::int64_t t = 0; t < 13; ++t)
    for (std::int64_t h = 0; h < 5; ++h)
      for (std::int64_t j = 0; j < 80; ++j) {
        const double want = x.at(t, h, j);
        worst = std::max(worst, std::fabs(y.at(t, h, j) - want));
        if (j >= 64) REQUIRE(y.at(t, h, j) == x.at(t, h, j));  // copied bit for bit
      }
  CAPTURE(worst);
  CHECK(worst <= 1e-6);  // inputs in [−1, 1]: relative to the row scale
  CHECK(x.data == original.data);  // the input of an out-of-place call is untouched
}

TEST_CASE("out of place equals in place; a start equals explicit positions", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const rotary_cache cache({.head_dim = 64, .rotary_dim = 48, .layout = layout}, 0, 10);
  std::mt19937 rng(1);
  tensor a(9, 3, 64, 0, true), b(9, 3, 64, 2, false), c(9, 3, 64);
  fill(a.data, rng);
  for (std::int64_t t = 0; t < 9; ++t)
    for (std::int64_t h = 0; h < 3; ++h)
      for (std::int64_t j = 0; j < 64; ++j) c.at(t, h, j) = a.at(t, h, j);
  posenc::rope_apply(cache, posenc::const_tensor_view(a.view()), b.view(), std::int64_t{-4});
  posenc::rope_apply(cache, c.view(), to_int32(iota_positions(-4, 9)));
  for (std::int64_t t = 0; t < 9; ++t)
    for (std::int64_t h = 0; h < 3; ++h)
      for (std::int64_t j = 0; j < 64; ++j) REQUIRE(b.at(t, h, j) == c.at(t, h, j));
}

// The kernel a call takes depends on its size and on whether its rows sit on 64-byte lines
// (AVX-512 CPUs take AVX2 kernels for some calls with a row off a line), and the library is
// compiled without implicit fused multiply-adds so that every arch's kernel computes the same
// bits: the same data at each of the 16 float offsets of a line, in place (at a start and at
// explicit positions), out of place and through rope_apply_qk beside an aligned q, rotates to
// the same bits. Shapes in cache and past 64 KiB (the streaming tier), both layouts, the
// attention factor 1 and ≠ 1, positions before the cache (rows computed on the fly) and in it.
TEST_CASE("a result does not depend on where the tensor sits (every kernel the same bits)", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const double factor = GENERATE(1.0, 4.0);
  // 15 × 16 × 64 (60 KiB; rotary 48: a 16-lane batch and an 8-lane tail on AVX-512, three
  // 8-lane batches on AVX2), 48 × 8 × 128 (192 KiB; rotary 112).
  const bool small = GENERATE(true, false);
  const std::int64_t tokens = small ? 15 : 48, heads = small ? 16 : 8, dim = small ? 64 : 128;
  posenc::scaling yarn{};
  if (factor != 1.0) {
    yarn.type = posenc::scaling_type::yarn;
    yarn.factor = factor;
    yarn.original_max_position_embeddings = 64;
  }
  const rotary_cache cache(
      {.head_dim = static_cast<int>(dim), .rotary_dim = small ? 48 : 112, .layout = layout, .scaling = yarn}, 0, 64);
  const auto n = static_cast<std::size_t>(tokens * heads * dim);
  std::vector<float> x(n);
  std::mt19937 rng(7);
  fill(x, rng);
  const auto view_at = [&](std::vector<float>& buffer, std::size_t offset) {
    return tensor_view::dense(buffer.data() + offset, n, tokens, heads, dim);
  };
  std::vector<float> want(x.size() + 16), in(x.size() + 16), out(x.size() + 16), q(x.size() + 16);
  std::copy(x.begin(), x.end(), want.begin());
  posenc::rope_apply(cache, view_at(want, 0), std::int64_t{-4});
  const auto same = [&](const std::vector<float>& got, std::size_t offset) {
    return std::equal(got.begin() + static_cast<std::ptrdiff_t>(offset),
                      got.begin() + static_cast<std::ptrdiff_t>(offset + n), want.begin());
  };
  for (std::size_t offset = 0; offset < 16; ++offset) {
    CAPTURE(offset);
    std::copy(x.begin(), x.end(), in.begin() + static_cast<std::ptrdiff_t>(offset));
    posenc::rope_apply(cache, posenc::const_tensor_view(view_at(in, offset)), view_at(out, 15 - offset),
                       std::int64_t{-4});
    CHECK(same(out, 15 - offset));
    posenc::rope_apply(cache, view_at(in, offset), std::int64_t{-4});
    CHECK(same(in, offset));
    std::copy(x.begin(), x.end(), in.begin() + static_cast<std::ptrdiff_t>(offset));
    posenc::rope_apply(cache, view_at(in, offset), to_int32(iota_positions(-4, tokens)));
    CHECK(same(in, offset));
    std::copy(x.begin(), x.end(), in.begin() + static_cast<std::ptrdiff_t>(offset));
    std::copy(x.begin(), x.end(), q.begin());
    posenc::rope_apply_qk(cache, view_at(q, 0), view_at(in, offset), to_int32(iota_positions(-4, tokens)));
    CHECK(same(q, 0));
    CHECK(same(in, offset));
  }
}

// One token's view of x (token t alone), for applying it at a start.
tensor_view token_view(tensor& x, std::int64_t t) {
  tensor_view v = x.view();
  v.data = x.row(t, 0);
  v.size -= static_cast<std::size_t>(t * x.token_stride());
  v.tokens = 1;
  return v;
}

TEST_CASE("int64 positions equal int32 ones and starts, up to +-2^53", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const rotary_cache cache({.head_dim = 64, .rotary_dim = 48, .layout = layout}, 0, 10);
  std::mt19937 rng(5);
  const std::int64_t big = std::int64_t{1} << 40;
  const std::vector<std::int64_t> pos64 = {-4, 3, 9, big, -posenc::max_position,
                                           posenc::max_position, 7, 7, std::int64_t{1} << 31};
  const auto n = static_cast<std::int64_t>(pos64.size());
  tensor x(n, 3, 64, 2, true), want(n, 3, 64, 2, true), y(n, 3, 64);
  fill(x.data, rng);
  want = x;
  posenc::rope_apply(cache, x.view(), std::span<const std::int64_t>(pos64));
  for (std::int64_t t = 0; t < n; ++t)  // each token alone at its position as a start
    posenc::rope_apply(cache, token_view(want, t), pos64[static_cast<std::size_t>(t)]);
  CHECK(x.data == want.data);

  // Inverse, out of place, undoes it; int32-range ids equal the int32 overload bit for bit.
  tensor back = y;
  posenc::rope_apply(cache, posenc::const_tensor_view(x.view()), back.view(),
                     std::span<const std::int64_t>(pos64), direction::inverse);
  tensor x0 = want;
  for (std::int64_t t = 0; t < n; ++t)
    posenc::rope_apply(cache, token_view(x0, t), pos64[static_cast<std::size_t>(t)],
                       direction::inverse);
  for (std::int64_t t = 0; t < n; ++t)
    for (std::int64_t h = 0; h < 3; ++h)
      for (std::int64_t j = 0; j < 64; ++j) REQUIRE(back.at(t, h, j) == x0.at(t, h, j));
  const std::vector<std::int64_t> small64 = {-4, 3, 9, 100000, -7};
  const std::vector<std::int32_t> small32(small64.begin(), small64.end());
  tensor q(5, 4, 64), k(5, 2, 64, 0, true);
  fill(q.data, rng);
  fill(k.data, rng);
  tensor q2 = q, k2 = k;
  posenc::rope_apply_qk(cache, q.view(), k.view(), std::span<const std::int64_t>(small64));
  posenc::rope_apply_qk(cache, q2.view(), k2.view(), small32);
  CHECK(q.data == q2.data);
  CHECK(k.data == k2.data);
}

TEST_CASE("int64 positions outside +-2^53 throw, naming the index, and write nothing", "[rotary]") {
  const rotary_cache cache({.head_dim = 8});
  tensor x(3, 2, 8), out(3, 2, 8);
  std::mt19937 rng(6);
  fill(x.data, rng);
  const auto before = x.data;
  const std::vector<std::int64_t> bad = {0, 1, posenc::max_position + 1};
  const std::vector<std::int64_t> low = {-posenc::max_position - 1, 0, 1};
  const std::vector<std::int64_t> two = {0, 1};
  CHECK_THROWS_WITH(posenc::rope_apply(cache, x.view(), std::span<const std::int64_t>(bad)),
                    Catch::Contains("positions[2]"));
  CHECK_THROWS_AS(posenc::rope_apply(cache, x.view(), std::span<const std::int64_t>(low)),
                  posenc::invalid_argument);
  CHECK_THROWS_WITH(posenc::rope_apply(cache, posenc::const_tensor_view(x.view()), out.view(),
                                       std::span<const std::int64_t>(low)),
                    Catch::Contains("positions[0]"));
  CHECK_THROWS_AS(posenc::rope_apply(cache, x.view(), std::span<const std::int64_t>(two)),
                  posenc::length_error);
  tensor k(3, 1, 8);
  CHECK_THROWS_WITH(posenc::rope_apply_qk(cache, x.view(), k.view(),
                                          std::span<const std::int64_t>(bad)),
                    Catch::Contains("positions[2]"));
  CHECK(x.data == before);
  CHECK(std::all_of(out.data.begin(), out.data.end(), [](float v) { return v == 0.0f; }));
}

TEST_CASE("rope_apply_qk equals separate q and k calls (GQA)", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const rotary_cache cache({.head_dim = 64, .layout = layout}, 0, 8);
  std::mt19937 rng(2);
  tensor q(6, 8, 64), k(6, 2, 64, 0, true);
  fill(q.data, rng);
  fill(k.data, rng);
  tensor q2 = q, k2 = k;
  const std::vector<std::int32_t> pos = {3, 9, -2, 3, 100000, 7};
  posenc::rope_apply_qk(cache, q.view(), k.view(), pos);
  posenc::rope_apply(cache, q2.view(), pos);
  posenc::rope_apply(cache, k2.view(), pos);
  CHECK(q.data == q2.data);
  CHECK(k.data == k2.data);
  posenc::rope_apply_qk(cache, q.view(), k.view(), std::int64_t{20});
  posenc::rope_apply(cache, q2.view(), std::int64_t{20});
  posenc::rope_apply(cache, k2.view(), std::int64_t{20});
  CHECK(q.data == q2.data);
  CHECK(k.data == k2.data);
  // Tensors past the in-cache size (they stream): all rows cached (q, then k, one after the
  // other) and not (token by token), both equal to separate calls.
  const rotary_cache big_cache({.head_dim = 64, .layout = layout}, 0, 128);
  for (const std::int32_t last : {95, 100000}) {
    tensor bq(96, 8, 64), bk(96, 2, 64, 0, true);
    fill(bq.data, rng);
    fill(bk.data, rng);
    tensor bq2 = bq, bk2 = bk;
    std::vector<std::int32_t> ids(96);
    for (std::int32_t t = 0; t < 96; ++t) ids[static_cast<std::size_t>(t)] = t;
    ids.back() = last;
    posenc::rope_apply_qk(big_cache, bq.view(), bk.view(), ids);
    posenc::rope_apply(big_cache, bq2.view(), ids);
    posenc::rope_apply(big_cache, bk2.view(), ids);
    CHECK(bq.data == bq2.data);
    CHECK(bk.data == bk2.data);
    posenc::rope_apply_qk(big_cache, bq.view(), bk.view(), std::int64_t{last - 95});
    posenc::rope_apply(big_cache, bq2.view(), std::int64_t{last - 95});
    posenc::rope_apply(big_cache, bk2.view(), std::int64_t{last - 95});
    CHECK(bq.data == bq2.data);
    CHECK(bk.data == bk2.data);
  }
}

TEST_CASE("shift by delta equals rotating at p + delta, and never drifts", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const int head_dim = GENERATE(2, 64, 128);
  const rotary_cache cache({.head_dim = head_dim, .layout = layout}, 0, 256);
  std::mt19937 rng(4);
  tensor k(10, 3, head_dim), direct(10, 3, head_dim);
  fill(k.data, rng);
  direct.data = k.data;
  const tensor input = k;
  const std::vector<std::int64_t> pos = {0, 1, 5, 255, 256, 4000, 99, -3, 70000, 12};
  for (std::int64_t delta : {std::int64_t{-128}, std::int64_t{1}, std::int64_t{1000000}}) {
    tensor shifted = k;
    posenc::rope_apply(cache, shifted.view(), to_int32(pos));
    posenc::rope_shift(cache, shifted.view(), delta);
    std::vector<std::int64_t> moved = pos;
    for (auto& p : moved) p += delta;
    direct.data = k.data;
    posenc::rope_apply(cache, direct.view(), to_int32(moved));
    double worst = 0;
    tensor in = input;
    pairs_close(shifted, direct, in, layout, head_dim, 2e-6, &worst);
    CAPTURE(delta, worst);
    CHECK(worst <= 2e-6);
  }
  // 1000 shifts by Δ = 7: each head row keeps its norm.
  tensor walked = k;
  for (int i = 0; i < 1000; ++i) posenc::rope_shift(cache, walked.view(), 7);
  double worst_drift = 0;
  for (std::int64_t t = 0; t < 10; ++t)
    for (std::int64_t h = 0; h < 3; ++h) {
      const double before = std::sqrt(dot(k.row(t, h), k.row(t, h), head_dim));
      const double after = std::sqrt(dot(walked.row(t, h), walked.row(t, h), head_dim));
      worst_drift = std::max(worst_drift, std::fabs(after / before - 1));
    }
  CAPTURE(worst_drift);
  CHECK(worst_drift <= 1e-5);
}

TEST_CASE("RoPE scores are shift-invariant when both positions move by 1e6", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const rotary_cache cache({.head_dim = 128, .layout = layout});
  std::mt19937 rng(6);
  tensor q(1, 1, 128), k(1, 1, 128);
  fill(q.data, rng);
  fill(k.data, rng);
  const double scale = std::sqrt(dot(q.row(0, 0), q.row(0, 0), 128) *
                                 dot(k.row(0, 0), k.row(0, 0), 128));
  double worst = 0;
  for (auto [m, n] : {std::pair{0, 0}, {2, 5}, {100, 3}, {4096, 0}, {7, 70000}}) {
    double score[2];
    for (int moved = 0; moved < 2; ++moved) {
      tensor qr = q, kr = k;
      const std::int32_t s = moved ? 1000000 : 0;
      posenc::rope_apply(cache, qr.view(), std::int64_t{m + s});
      posenc::rope_apply(cache, kr.view(), std::int64_t{n + s});
      score[moved] = dot(qr.row(0, 0), kr.row(0, 0), 128);
    }
    worst = std::max(worst, std::fabs(score[1] - score[0]) / scale);
  }
  CAPTURE(worst);
  CHECK(worst <= 1e-5);  // relative to ‖q‖·‖k‖, the scale of any score
}

TEST_CASE("hand check: one pair theta = 0.1, score = -sin 0.3", "[rotary]") {
  // dim 4 and base 100 give θ = [1, 0.1]; the check uses the second pair only.
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const rotary_cache cache({.head_dim = 4, .base = 100.0, .layout = layout});
  REQUIRE(cache.inv_freq()[1] == Approx(0.1).epsilon(1e-15));
  const auto [ja, jb] = pair_of(layout, 1, 4);
  for (auto [m, n] : {std::pair{2, 5}, {5, 8}, {0, 3}, {97, 100}}) {
    tensor q(1, 1, 4), k(1, 1, 4);
    q.at(0, 0, ja) = 1;  // q = (1, 0)
    k.at(0, 0, jb) = 1;  // k = (0, 1)
    posenc::rope_apply(cache, q.view(), std::int64_t{m});
    posenc::rope_apply(cache, k.view(), std::int64_t{n});
    const double score = dot(q.row(0, 0), k.row(0, 0), 4);
    CAPTURE(m, n, score);
    CHECK(std::fabs(score - (-0.295520)) < 5e-7);  // to the printed 6 decimals
    CHECK(score == Approx(-std::sin(0.3)).margin(2e-7));
  }
}

TEST_CASE("bad rotary configurations throw, naming the argument", "[rotary]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 0}), Catch::Contains("head_dim"));
  CHECK_THROWS_AS(rotary_cache({.head_dim = posenc::max_dim + 2}), invalid_argument);
  // No rotary_dim given: an odd head_dim is named as head_dim, the argument the caller set.
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 7}), Catch::StartsWith("posenc: head_dim must be an even integer in [2, 65536], got 7"));
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 8, .rotary_dim = 5}), Catch::Contains("rotary_dim"));
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 8, .rotary_dim = 10}), Catch::Contains("rotary_dim"));
  CHECK_THROWS_AS(rotary_cache({.head_dim = 8, .rotary_dim = -2}), invalid_argument);
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 8, .base = 1.0}), Catch::Contains("base"));
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 8, .base = std::nan("")}), Catch::Contains("base"));
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 8}, 0, -1), Catch::Contains("count"));
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 8}, posenc::max_position + 1, 1),
                    Catch::Contains("first"));
  CHECK_THROWS_WITH(rotary_cache({.head_dim = 8}, posenc::max_position, 2),
                    Catch::Contains("first"));
  // count·rotary_dim/2 above the table limit, and overflowing size_t outright.
  CHECK_THROWS_AS(rotary_cache({.head_dim = 128}, 0, std::int64_t{1} << 40), length_error);
  CHECK_THROWS_AS(rotary_cache({.head_dim = posenc::max_dim}, -posenc::max_position,
                               posenc::max_position),
                  length_error);
  const rotary_cache cache({.head_dim = 8});
  float c[4], s[4];
  CHECK_THROWS_WITH(cache.row(posenc::max_position + 1, c, s), Catch::Contains("position"));
}

TEST_CASE("bad rope_apply arguments throw and leave the data alone", "[rotary]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  const rotary_cache cache({.head_dim = 8});
  tensor x(3, 2, 8);
  std::mt19937 rng(8);
  fill(x.data, rng);
  const auto before = x.data;
  const std::vector<std::int32_t> pos3 = {0, 1, 2}, pos2 = {0, 1};

  tensor wrong_dim(3, 2, 6);
  CHECK_THROWS_WITH(posenc::rope_apply(cache, wrong_dim.view(), pos3), Catch::Contains("x.dim"));
  CHECK_THROWS_AS(posenc::rope_apply(cache, x.view(), pos2), length_error);
  CHECK_THROWS_WITH(posenc::rope_apply(cache, x.view(), pos2), Catch::Contains("positions"));
  CHECK_THROWS_WITH(posenc::rope_apply(cache, x.view(), posenc::max_position + 1),
                    Catch::Contains("start"));
  CHECK_THROWS_WITH(posenc::rope_apply(cache, x.view(), posenc::max_position - 1),
                    Catch::Contains("start"));
  auto small = x.view();
  small.size -= 1;
  CHECK_THROWS_AS(posenc::rope_apply(cache, small, pos3), length_error);
  auto overlapping = x.view();
  overlapping.token_stride = 4;
  CHECK_THROWS_AS(posenc::rope_apply(cache, overlapping, pos3), length_error);

  // Out of place: shapes must match and the views must not partly share memory.
  tensor out(3, 1, 8);
  CHECK_THROWS_WITH(posenc::rope_apply(cache, posenc::const_tensor_view(x.view()), out.view(),
                                       pos3),
                    Catch::Contains("out"));
  auto shifted_out = x.view();
  shifted_out.data += 1;
  shifted_out.size -= 1;
  shifted_out.dim = 8;
  shifted_out.tokens = 2;
  auto in2 = x.view();
  in2.tokens = 2;
  CHECK_THROWS_AS(posenc::rope_apply(cache, posenc::const_tensor_view(in2), shifted_out, pos2),
                  invalid_argument);

  // GQA: token counts must agree; q and k must be distinct memory.
  tensor k2(2, 1, 8);
  CHECK_THROWS_WITH(posenc::rope_apply_qk(cache, x.view(), k2.view(), pos3),
                    Catch::Contains("k.tokens"));
  CHECK_THROWS_AS(posenc::rope_apply_qk(cache, x.view(), x.view(), pos3), invalid_argument);
  tensor kd(3, 1, 4);
  CHECK_THROWS_WITH(posenc::rope_apply_qk(cache, x.view(), kd.view(), std::int64_t{0}),
                    Catch::Contains("k.dim"));

  CHECK_THROWS_WITH(posenc::rope_shift(cache, x.view(), posenc::max_position + 1),
                    Catch::Contains("delta"));
  CHECK_THROWS_WITH(posenc::rope_shift(cache, wrong_dim.view(), 1), Catch::Contains("k.dim"));
  CHECK(x.data == before);

  // Empty tensors are valid and touch nothing.
  tensor empty(0, 2, 8);
  CHECK_NOTHROW(posenc::rope_apply(cache, empty.view(), std::span<const std::int32_t>{}));
  CHECK_NOTHROW(posenc::rope_shift(cache, empty.view(), 5));
}

// set_l2_bytes changes how heads are grouped (rotary.cpp, head_group), never a bit of the
// result: all heads per row block, one head at a time and the reported size agree exactly,
// in place and out of place, both layouts, rows on a line and 16 bytes off one (the peel).
TEST_CASE("the L2 size the kernels plan with changes no bit of a result", "[rotary]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const bool in_place = GENERATE(true, false);
  const std::size_t offset = GENERATE(0, 4);
  const std::int64_t tokens = 64, heads = 32, dim = 128;
  const rotary_cache cache(rope_config{.head_dim = int(dim), .layout = layout});
  const auto n = static_cast<std::size_t>(tokens * heads * dim);
  std::vector<float> input(n + 32);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& v : input) v = u(rng);
  const auto rotated = [&](std::int64_t l2) {
    posenc::set_l2_bytes(l2);
    std::vector<float> in_buf = input, out_buf(n + 32);
    float* const x = in_buf.data() + offset;
    float* const y = in_place ? x : out_buf.data() + offset;
    posenc::rope_apply(cache, posenc::const_tensor_view::dense(x, n, tokens, heads, dim),
                       tensor_view::dense(y, n, tokens, heads, dim), 1000);
    return std::vector<float>(y, y + n);
  };
  const std::vector<float> reported = rotated(0);
  CHECK(posenc::l2_bytes() > 0);
  const std::vector<float> one_head = rotated(4096);  // every call streams: one head at a time
  const std::vector<float> all = rotated(std::int64_t{1} << 40);  // every call: all heads
  CHECK(posenc::l2_bytes() == std::int64_t{1} << 40);
  posenc::set_l2_bytes(0);
  CHECK(std::memcmp(one_head.data(), reported.data(), n * sizeof(float)) == 0);
  CHECK(std::memcmp(all.data(), reported.data(), n * sizeof(float)) == 0);
}

TEST_CASE("set_l2_bytes refuses sizes outside 0 or [4096, 2^40], naming bytes", "[rotary]") {
  const std::int64_t before = posenc::l2_bytes();
  for (const std::int64_t bad : {std::int64_t{-1}, std::int64_t{1}, std::int64_t{4095},
                                 (std::int64_t{1} << 40) + 1})
    CHECK_THROWS_WITH(posenc::set_l2_bytes(bad), Catch::Contains("bytes") && Catch::Contains("4096"));
  CHECK(posenc::l2_bytes() == before);
}
