// test_attention.cpp — multi-head self-attention: the permutation fact, softmax
// and mask invariants, RoPE shift invariance, a float64 reference, and argument errors.
#include "posenc/attention.hpp"

#include "posenc/errors.hpp"
#include "posenc/random.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <tuple>
#include <vector>

namespace {

using posenc::score_mode;

struct shape {
  int tokens, model_dim, heads;
};

posenc::attention_options options_for(shape s, score_mode mode, bool causal = false) {
  posenc::attention_options o;
  o.tokens = s.tokens;
  o.model_dim = s.model_dim;
  o.heads = s.heads;
  o.positions = mode;
  o.causal = causal;
  return o;
}

std::vector<float> random_input(shape s, std::uint64_t seed) {
  std::vector<float> x(static_cast<std::size_t>(s.tokens) * s.model_dim);
  posenc::fill_uniform(x, seed, -1.0f, 1.0f);
  return x;
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
  return m;
}

// ── A straightforward float64 reference, written from the formulas in attention.hpp and
// with its own sin/cos — it shares no code with posenc. ──────────────────────────
using matrix = std::vector<double>;  // row-major

double theta(int i, int dim, double base) { return std::pow(base, -2.0 * i / dim); }

// y[t][o] = Σ_i x[t][i]·w[o][i]
matrix linear(const matrix& x, const std::vector<float>& w, int rows, int dim) {
  matrix y(static_cast<std::size_t>(rows) * dim, 0.0);
  for (int t = 0; t < rows; ++t)
    for (int o = 0; o < dim; ++o)
      for (int i = 0; i < dim; ++i) y[t * dim + o] += x[t * dim + i] * w[o * dim + i];
  return y;
}

void add_sinusoidal(matrix& x, const std::vector<int>& pos, int dim, double base,
                    posenc::pe_layout layout) {
  for (std::size_t t = 0; t < pos.size(); ++t)
    for (int i = 0; i < dim / 2; ++i) {
      const double a = pos[t] * theta(i, dim, base);
      const bool inter = layout == posenc::pe_layout::interleaved;
      x[t * dim + (inter ? 2 * i : i)] += std::sin(a);
      x[t * dim + (inter ? 2 * i + 1 : dim / 2 + i)] += std::cos(a);
    }
}

// Rotates every head row of x [T][D] by R(p·θ), pairs chosen by `layout`.
void rotate(matrix& x, const std::vector<int>& pos, int dim, int heads, double base,
            posenc::rope_layout layout) {
  const int hd = dim / heads;
  for (std::size_t t = 0; t < pos.size(); ++t)
    for (int h = 0; h < heads; ++h)
      for (int i = 0; i < hd / 2; ++i) {
        const bool half = layout == posenc::rope_layout::half;
        double& a = x[t * dim + h * hd + (half ? i : 2 * i)];
        double& b = x[t * dim + h * hd + (half ? i + hd / 2 : 2 * i + 1)];
        const double ang = pos[t] * theta(i, hd, base);
        const double a2 = a * std::cos(ang) - b * std::sin(ang);
        const double b2 = b * std::cos(ang) + a * std::sin(ang);
        a = a2;
        b = b2;
      }
}

struct reference_result {
  matrix output, weights;
};

reference_result reference_attention(const std::vector<float>& x_in,
                                     const posenc::attention_weights& w,
                                     const posenc::attention_options& o,
                                     const std::vector<int>& pos) {
  const int T = o.tokens, D = o.model_dim, H = o.heads, hd = D / H;
  matrix x(x_in.begin(), x_in.end());
  if (o.positions == score_mode::additive) add_sinusoidal(x, pos, D, o.base, o.pe_layout);
  matrix q = linear(x, w.wq, T, D), k = linear(x, w.wk, T, D), v = linear(x, w.wv, T, D);
  if (o.positions == score_mode::rotary) {
    rotate(q, pos, D, H, o.base, o.layout);
    rotate(k, pos, D, H, o.base, o.layout);
  }
  reference_result r{matrix(static_cast<std::size_t>(T) * D, 0.0),
                     matrix(static_cast<std::size_t>(H) * T * T, 0.0)};
  matrix concat(static_cast<std::size_t>(T) * D, 0.0);
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < T; ++i) {
      const int last = o.causal ? i : T - 1;
      std::vector<double> s(last + 1);
      for (int j = 0; j <= last; ++j) {
        for (int c = 0; c < hd; ++c) s[j] += q[i * D + h * hd + c] * k[j * D + h * hd + c];
        s[j] /= std::sqrt(static_cast<double>(hd));
      }
      const double mx = *std::max_element(s.begin(), s.end());
      double sum = 0;
      for (double& e : s) sum += (e = std::exp(e - mx));
      for (int j = 0; j <= last; ++j) {
        const double p = s[j] / sum;
        r.weights[(h * T + i) * T + j] = p;
        for (int c = 0; c < hd; ++c) concat[i * D + h * hd + c] += p * v[j * D + h * hd + c];
      }
    }
  r.output = linear(concat, w.wo, T, D);
  return r;
}

} // namespace

TEST_CASE("attention: make_attention_weights is the documented random stream", "[attention]") {
  const int d = GENERATE(1, 5, 16);
  const auto w = posenc::make_attention_weights(d, 42);
  const std::size_t n = static_cast<std::size_t>(d) * d;
  REQUIRE(w.model_dim == d);
  REQUIRE(w.wq.size() == n);
  REQUIRE(w.wo.size() == n);
  const float bound = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
  std::vector<float> stream(4 * n);
  posenc::fill_uniform(stream, 42, -bound, bound);
  CHECK(std::equal(w.wq.begin(), w.wq.end(), stream.begin()));
  CHECK(std::equal(w.wk.begin(), w.wk.end(), stream.begin() + n));
  CHECK(std::equal(w.wv.begin(), w.wv.end(), stream.begin() + 2 * n));
  CHECK(std::equal(w.wo.begin(), w.wo.end(), stream.begin() + 3 * n));
  for (const auto* m : {&w.wq, &w.wk, &w.wv, &w.wo})
    for (const float v : *m) CHECK((v >= -bound && v < bound));
  CHECK(posenc::make_attention_weights(d, 43).wq != w.wq);
}

TEST_CASE("attention: permutation fact", "[attention]") {
  const auto s = GENERATE(shape{8, 16, 2}, shape{13, 24, 3}, shape{5, 8, 1}, shape{32, 64, 4});
  const auto seed = GENERATE(std::uint64_t{1}, std::uint64_t{2024});
  const auto x = random_input(s, seed);
  const auto w = posenc::make_attention_weights(s.model_dim, seed + 1);
  INFO("T=" << s.tokens << " D=" << s.model_dim << " H=" << s.heads << " seed=" << seed);

  SECTION("without positions, shuffling rows shuffles the output (float32 noise)") {
    const double d = posenc::permutation_test(x, w, options_for(s, score_mode::none), seed);
    INFO("max diff " << d);
    CHECK(d <= 1e-6);
  }
  SECTION("additive sinusoidal positions break equivariance") {
    const double d = posenc::permutation_test(x, w, options_for(s, score_mode::additive), seed);
    INFO("max diff " << d);
    CHECK(d > 1e-3);
  }
  SECTION("rotary positions break equivariance") {
    const double d = posenc::permutation_test(x, w, options_for(s, score_mode::rotary), seed);
    INFO("max diff " << d);
    CHECK(d > 1e-3);
  }
  SECTION("a causal mask breaks it even without positions") {
    const double d =
        posenc::permutation_test(x, w, options_for(s, score_mode::none, true), seed);
    CHECK(d > 1e-3);
  }
}

TEST_CASE("attention: softmax rows sum to 1, causal rows are zero above the diagonal",
          "[attention]") {
  const auto s = GENERATE(shape{1, 4, 2}, shape{7, 12, 3}, shape{17, 32, 4});
  const auto mode = GENERATE(score_mode::none, score_mode::additive, score_mode::rotary);
  const bool causal = GENERATE(false, true);
  const auto x = random_input(s, 7);
  const auto w = posenc::make_attention_weights(s.model_dim, 8);
  const auto r = posenc::self_attention(x, w, options_for(s, mode, causal));
  const std::size_t T = s.tokens;
  REQUIRE(r.output.size() == T * s.model_dim);
  REQUIRE(r.weights.size() == s.heads * T * T);
  for (std::size_t h = 0; h < static_cast<std::size_t>(s.heads); ++h)
    for (std::size_t i = 0; i < T; ++i) {
      const float* row = &r.weights[(h * T + i) * T];
      const double sum = std::accumulate(row, row + T, 0.0);
      CHECK(sum == Approx(1.0).margin(1e-6));
      for (std::size_t j = 0; j < T; ++j) {
        CHECK((row[j] >= 0.0f && row[j] <= 1.0f));
        if (causal && j > i) CHECK(row[j] == 0.0f);
      }
    }
  if (causal) {  // the first query sees only itself
    for (std::size_t h = 0; h < static_cast<std::size_t>(s.heads); ++h)
      CHECK(r.weights[h * T * T] == 1.0f);
  }
}

TEST_CASE("attention: causal outputs ignore later tokens", "[attention]") {
  const shape s{9, 16, 2};
  const auto mode = GENERATE(score_mode::none, score_mode::additive, score_mode::rotary);
  auto x = random_input(s, 11);
  const auto w = posenc::make_attention_weights(s.model_dim, 12);
  const auto o = options_for(s, mode, true);
  const auto before = posenc::self_attention(x, w, o).output;
  const std::size_t keep = 5 * s.model_dim;  // tokens 0..4 unchanged, 5..8 redrawn
  std::vector<float> tail(x.size() - keep);
  posenc::fill_uniform(tail, 13, -1.0f, 1.0f);
  std::copy(tail.begin(), tail.end(), x.begin() + static_cast<std::ptrdiff_t>(keep));
  const auto after = posenc::self_attention(x, w, o).output;
  CHECK(std::equal(before.begin(), before.begin() + static_cast<std::ptrdiff_t>(keep),
                   after.begin()));
  CHECK(max_abs_diff(before, after) > 1e-3);  // the later rows did change
}

TEST_CASE("attention: rotary attention is invariant to shifting every position",
          "[attention]") {
  const auto s = GENERATE(shape{6, 16, 2}, shape{11, 48, 3});
  const int shift = GENERATE(1, 37, -500, 100000);
  const auto layout = GENERATE(posenc::rope_layout::half, posenc::rope_layout::interleaved);
  const bool causal = GENERATE(false, true);
  const auto x = random_input(s, 21);
  const auto w = posenc::make_attention_weights(s.model_dim, 22);
  std::vector<std::int32_t> p(s.tokens), shifted(s.tokens);
  for (int t = 0; t < s.tokens; ++t) {
    p[t] = 3 * t - 4;  // arbitrary, non-contiguous
    shifted[t] = p[t] + shift;
  }
  auto o = options_for(s, score_mode::rotary, causal);
  o.layout = layout;
  const auto a = posenc::self_attention(x, w, o, p);
  const auto b = posenc::self_attention(x, w, o, shifted);
  INFO("shift " << shift);
  CHECK(max_abs_diff(a.output, b.output) <= 1e-5);
  CHECK(max_abs_diff(a.weights, b.weights) <= 1e-5);

  SECTION("additive positions are not shift invariant") {
    o.positions = score_mode::additive;
    const auto c = posenc::self_attention(x, w, o, p);
    const auto d = posenc::self_attention(x, w, o, shifted);
    CHECK(max_abs_diff(c.output, d.output) > 1e-3);
  }
}

TEST_CASE("attention: default positions are 0..T-1", "[attention]") {
  const shape s{6, 8, 2};
  const auto mode = GENERATE(score_mode::additive, score_mode::rotary);
  const auto x = random_input(s, 31);
  const auto w = posenc::make_attention_weights(s.model_dim, 32);
  std::vector<std::int32_t> p(s.tokens);
  std::iota(p.begin(), p.end(), 0);
  const auto o = options_for(s, mode);
  CHECK(posenc::self_attention(x, w, o).output == posenc::self_attention(x, w, o, p).output);
  p[0] = 1;
  CHECK(posenc::self_attention(x, w, o).output != posenc::self_attention(x, w, o, p).output);
}

TEST_CASE("attention: matches a float64 reference on tiny cases", "[attention]") {
  const auto s = GENERATE(shape{1, 2, 1}, shape{4, 8, 2}, shape{5, 12, 3}, shape{3, 6, 1});
  const auto mode = GENERATE(score_mode::none, score_mode::additive, score_mode::rotary);
  const bool causal = GENERATE(false, true);
  const auto rl = GENERATE(posenc::rope_layout::half, posenc::rope_layout::interleaved);
  const auto pl = GENERATE(posenc::pe_layout::interleaved, posenc::pe_layout::concat);
  const double base = GENERATE(10000.0, 100.0);
  if (mode == score_mode::rotary && (s.model_dim / s.heads) % 2 != 0) return;
  auto o = options_for(s, mode, causal);
  o.base = base;
  o.layout = rl;
  o.pe_layout = pl;
  const auto x = random_input(s, 41);
  const auto w = posenc::make_attention_weights(s.model_dim, 42);
  const std::vector<std::int32_t> pos32 = {3, -2, 7, 7, 1000};  // repeats and negatives
  const std::span<const std::int32_t> p(pos32.data(), static_cast<std::size_t>(s.tokens));
  const std::vector<int> pos(p.begin(), p.end());

  const auto got = posenc::self_attention(x, w, o, p);
  const auto want = reference_attention(x, w, o, pos);
  INFO("T=" << s.tokens << " D=" << s.model_dim << " H=" << s.heads << " mode="
            << static_cast<int>(mode) << " causal=" << causal);
  double out_err = 0, w_err = 0;
  for (std::size_t i = 0; i < want.output.size(); ++i)
    out_err = std::max(out_err, std::abs(got.output[i] - want.output[i]));
  for (std::size_t i = 0; i < want.weights.size(); ++i)
    w_err = std::max(w_err, std::abs(got.weights[i] - want.weights[i]));
  INFO("output err " << out_err << ", weights err " << w_err);
  CHECK(out_err <= 1e-6);  // the documented bound; measured ≤ 1e-7
  CHECK(w_err <= 1e-6);
}

TEST_CASE("attention: bad arguments throw naming the argument", "[attention]") {
  const shape s{4, 8, 2};
  const auto x = random_input(s, 51);
  const auto w = posenc::make_attention_weights(s.model_dim, 52);
  const auto good = options_for(s, score_mode::rotary);
  auto with = [&](auto edit) {
    auto o = good;
    edit(o);
    return o;
  };
  using posenc::self_attention;
  using Catch::Contains;
  CHECK_NOTHROW(self_attention(x, w, good));

  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.tokens = 0; })),
                    Contains("tokens must be an integer in [1, 4096]"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.tokens = 5000; })),
                    Contains("tokens"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.model_dim = 0; })),
                    Contains("model_dim must be an integer in [1, 4096]"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.heads = 0; })),
                    Contains("heads must be an integer in [1, 8]"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.heads = 3; })),
                    Contains("divisible by heads"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.heads = 8; })),
                    Contains("head_dim"));  // head_dim 1 is odd: no RoPE pairs
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.base = 1.0; })),
                    Contains("base"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) { o.base = NAN; })),
                    Contains("base"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) {
                      o.positions = static_cast<score_mode>(9);
                    })),
                    Contains("positions"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) {
                      o.layout = static_cast<posenc::rope_layout>(7);
                    })),
                    Contains("layout"));
  CHECK_THROWS_WITH(self_attention(x, w, with([](auto& o) {
                      o.pe_layout = static_cast<posenc::pe_layout>(7);
                    })),
                    Contains("pe_layout"));

  // Sizes.
  const std::span<const float> short_x(x.data(), x.size() - 1);
  CHECK_THROWS_WITH(self_attention(short_x, w, good), Contains("x holds 31"));
  auto bad_w = w;
  bad_w.wv.pop_back();
  CHECK_THROWS_WITH(self_attention(x, bad_w, good), Contains("w.wv"));
  bad_w = w;
  bad_w.model_dim = 4;
  CHECK_THROWS_WITH(self_attention(x, bad_w, good), Contains("w.model_dim"));
  const std::vector<std::int32_t> three = {0, 1, 2};
  CHECK_THROWS_WITH(self_attention(x, w, good, three), Contains("positions"));
  CHECK_THROWS_AS(self_attention(x, w, good, three), posenc::length_error);

  // The weights matrix H·T² is capped before anything is allocated.
  const auto huge = with([](auto& o) {
    o.tokens = 4096;
    o.model_dim = 4096;
    o.heads = 8;
  });
  CHECK_THROWS_WITH(self_attention(x, w, huge), Contains("heads x tokens^2"));
  CHECK_THROWS_AS(self_attention(x, w, huge), posenc::length_error);

  CHECK_THROWS_WITH(posenc::make_attention_weights(0, 1), Contains("model_dim"));
  CHECK_THROWS_WITH(posenc::make_attention_weights(4097, 1), Contains("model_dim"));
  CHECK_THROWS_WITH(posenc::permutation_test(short_x, w, good, 1), Contains("x holds"));
}

TEST_CASE("attention: additive positions need an even model_dim", "[attention]") {
  const shape s{3, 5, 1};
  const auto x = random_input(s, 61);
  const auto w = posenc::make_attention_weights(s.model_dim, 62);
  CHECK_NOTHROW(posenc::self_attention(x, w, options_for(s, score_mode::none)));
  CHECK_THROWS_WITH(posenc::self_attention(x, w, options_for(s, score_mode::additive)),
                    Catch::Contains("model_dim must be even"));
}
