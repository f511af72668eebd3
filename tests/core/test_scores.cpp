// test_scores.cpp — attention logits (posenc/scores.hpp): the hand check through
// both rotary paths, relative vs absolute behaviour under a shift of 10⁶, the additive
// four-term split, 1/√d scaling, the decay bound, the SIMD dot kernel against its float64
// reference on ragged lengths, and every bad argument.
#include "detail/dot_kernels.hpp"
#include "posenc/errors.hpp"
#include "posenc/scores.hpp"

#include <catch2/catch.hpp>
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using posenc::test::require_throws;

using posenc::rope_layout;
using posenc::score_mode;
using posenc::score_options;

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo = -1, float hi = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

std::vector<std::int32_t> random_positions(std::size_t n, std::uint64_t seed, int lo, int hi) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> u(lo, hi);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

// One attention_scores call into a fresh [tq][tk] matrix.
std::vector<float> scores(const std::vector<float>& q, const std::vector<float>& k,
                          const std::vector<std::int32_t>& qp, const std::vector<std::int32_t>& kp,
                          const score_options& o, posenc::score_terms* terms = nullptr) {
  std::vector<float> out(qp.size() * kp.size());
  posenc::attention_scores(q, qp.size(), k, kp.size(), qp, kp, o, out, terms);
  return out;
}

double max_abs(const std::vector<float>& v) {
  double m = 0;
  for (float x : v) m = std::max(m, static_cast<double>(std::fabs(x)));
  return m;
}

}  // namespace

TEST_CASE("hand check: -sin 0.3 at (2,5), (5,8), (0,3), (97,100)", "[scores]") {
  // d = 8 has θ = [1, 0.1, 0.01, 0.001]; q = (1, 0) and k = (0, 1) in the θ = 0.1 pair,
  // which is (x[1], x[5]) in the half layout and (x[2], x[3]) interleaved.
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const std::size_t a = layout == rope_layout::half ? 1 : 2;
  const std::size_t b = layout == rope_layout::half ? 5 : 3;
  std::vector<float> q(4 * 8, 0.0f), k(4 * 8, 0.0f);
  for (std::size_t t = 0; t < 4; ++t) {
    q[t * 8 + a] = 1;
    k[t * 8 + b] = 1;
  }
  const std::vector<std::int32_t> qp = {2, 5, 0, 97}, kp = {5, 8, 3, 100};
  score_options o;
  o.dim = 8;
  o.layout = layout;
  const auto s = scores(q, k, qp, kp, o);
  for (int t = 0; t < 4; ++t) {
    CAPTURE(qp[t], kp[t]);
    CHECK(s[t * 4 + t] == Approx(-0.295520).margin(5e-7));
  }
  const std::vector<float> q1(q.begin(), q.begin() + 8), k1(k.begin(), k.begin() + 8);
  const auto kv = posenc::relative_kernel(q1, k1, 8, 10000, 3, layout);
  CHECK(kv.score == Approx(-0.295520).margin(5e-7));
  CHECK(kv.dot == Approx(0.0).margin(1e-15));  // q1k1 + q2k2 = 0
  CHECK(kv.area == Approx(-std::sin(0.3)));     // (q2k1 − q1k2)·sin 0.3 = −sin 0.3
}

TEST_CASE("relative_kernel equals rotary scores for random vectors", "[scores]") {
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  const int dim = GENERATE(2, 10, 64, 128);
  const auto q = random_floats(3 * dim, 1), k = random_floats(5 * dim, 2);
  const auto qp = random_positions(3, 3, -5000, 5000), kp = random_positions(5, 4, -5000, 5000);
  score_options o;
  o.dim = dim;
  o.layout = layout;
  const auto s = scores(q, k, qp, kp, o);
  for (int m = 0; m < 3; ++m)
    for (int n = 0; n < 5; ++n) {
      const std::span<const float> qm(q.data() + m * dim, dim), kn(k.data() + n * dim, dim);
      const auto kv = posenc::relative_kernel(qm, kn, dim, 10000, kp[n] - qp[m], layout);
      CAPTURE(dim, m, n);
      CHECK(kv.score == Approx(kv.dot + kv.area));
      CHECK(s[m * 5 + n] == Approx(kv.score).margin(1e-5 * dim));
    }
}

TEST_CASE("rotary scores are shift-invariant at s = 1e6, additive ones are not", "[scores]") {
  const int dim = 128;
  const std::size_t tq = 16, tk = 24;
  const auto q = random_floats(tq * dim, 10), k = random_floats(tk * dim, 11);
  const auto qp = random_positions(tq, 12, 0, 4096), kp = random_positions(tk, 13, 0, 4096);
  score_options o;
  o.dim = dim;
  const auto layout = GENERATE(rope_layout::half, rope_layout::interleaved);
  o.layout = layout;

  o.mode = score_mode::rotary;
  const double rotary = posenc::shift_invariance(q, tq, k, tk, qp, kp, o, 1000000);
  const double rotary_scale = max_abs(scores(q, k, qp, kp, o));
  o.mode = score_mode::additive;
  const double additive = posenc::shift_invariance(q, tq, k, tk, qp, kp, o, 1000000);
  o.mode = score_mode::none;
  const double none = posenc::shift_invariance(q, tq, k, tk, qp, kp, o, 1000000);
  CAPTURE(rotary, rotary_scale, additive);
  CHECK(rotary / rotary_scale <= 1e-5);  // relative 1e−5
  CHECK(additive > 0.1);                 // the cross terms q·p_n, p_m·k move with position
  CHECK(none == 0.0);
}

TEST_CASE("float32 angles (the common way) drift at s = 1e6; posenc's exact angles do not",
          "[scores]") {
  const int dim = 128;
  const std::size_t tq = 8, tk = 8;
  const auto q = random_floats(tq * dim, 30), k = random_floats(tk * dim, 31);
  const auto qp = random_positions(tq, 32, 0, 512), kp = random_positions(tk, 33, 0, 512);
  score_options o;
  o.dim = dim;
  o.mode = score_mode::rotary;
  const double scale = max_abs(scores(q, k, qp, kp, o));
  const double exact = posenc::shift_invariance(q, tq, k, tk, qp, kp, o, 1000000);
  o.angles = posenc::angle_precision::float32;
  const double at_zero = posenc::shift_invariance(q, tq, k, tk, qp, kp, o, 0);
  const double float32 = posenc::shift_invariance(q, tq, k, tk, qp, kp, o, 1000000);
  CAPTURE(scale, exact, float32);
  CHECK(at_zero == 0.0);
  CHECK(exact / scale <= 1e-5);
  CHECK(float32 / scale > 1e-3);  // ~|p|·2^-24 rad of angle error per pair
  CHECK(float32 > 100 * exact);
}

TEST_CASE("additive: the four terms sum to the score; p_m·p_n is the closed form", "[scores]") {
  const int dim = GENERATE(8, 64);
  const auto pe_layout = GENERATE(posenc::pe_layout::interleaved, posenc::pe_layout::concat);
  const bool scale = GENERATE(false, true);
  const std::size_t tq = 5, tk = 7;
  const auto q = random_floats(tq * dim, 20), k = random_floats(tk * dim, 21);
  const auto qp = random_positions(tq, 22, 0, 300), kp = random_positions(tk, 23, 0, 300);
  score_options o;
  o.dim = dim;
  o.mode = score_mode::additive;
  o.pe_layout = pe_layout;
  o.scale = scale;
  posenc::score_terms terms;
  const auto s = scores(q, k, qp, kp, o, &terms);
  REQUIRE(terms.content.size() == tq * tk);
  const double f = scale ? 1.0 / std::sqrt(dim) : 1.0;
  for (std::size_t m = 0; m < tq; ++m)
    for (std::size_t n = 0; n < tk; ++n) {
      const std::size_t c = m * tk + n;
      const double sum = double(terms.content[c]) + terms.query_position[c] +
                         terms.position_key[c] + terms.position_position[c];
      CAPTURE(dim, scale, m, n);
      CHECK(sum == Approx(s[c]).margin(2e-5 * dim));
      const auto pp = posenc::pe_dot_closed_form(dim, 10000, kp[n] - qp[m], 1);
      CHECK(terms.position_position[c] == Approx(f * pp[0]).margin(1e-5 * dim));
    }
  // q·k is the none-mode score.
  o.mode = score_mode::none;
  CHECK(scores(q, k, qp, kp, o) == terms.content);
}

TEST_CASE("scale multiplies every score by 1/sqrt(dim)", "[scores]") {
  const auto mode = GENERATE(score_mode::none, score_mode::additive, score_mode::rotary);
  const int dim = 96;
  const auto q = random_floats(4 * dim, 30), k = random_floats(6 * dim, 31);
  const auto qp = random_positions(4, 32, -100, 100), kp = random_positions(6, 33, -100, 100);
  score_options o;
  o.dim = dim;
  o.mode = mode;
  const auto raw = scores(q, k, qp, kp, o);
  o.scale = true;
  const auto scaled = scores(q, k, qp, kp, o);
  for (std::size_t j = 0; j < raw.size(); ++j)
    CHECK(scaled[j] == Approx(raw[j] / std::sqrt(96.0)).epsilon(1e-6));
  CHECK(posenc::parse_score_mode(posenc::to_string(mode)) == mode);
}

TEST_CASE("none mode is the plain dot product; partial rotary leaves the tail alone",
          "[scores]") {
  const int dim = 10;
  const auto q = random_floats(2 * dim, 40), k = random_floats(3 * dim, 41);
  const std::vector<std::int32_t> qp = {0, 9}, kp = {1, 2, 700};
  score_options o;
  o.dim = dim;
  o.mode = score_mode::none;
  const auto s = scores(q, k, qp, kp, o);
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 3; ++n)
      CHECK(s[m * 3 + n] ==
            Approx(posenc::detail::dot_reference(&q[m * dim], &k[n * dim], dim)).epsilon(1e-6));
  // rotary_dim = 4: only dims 0..3 rotate; q, k zero there except dims ≥ 4 → positions
  // do not matter at all.
  std::vector<float> qt(q), kt(k);
  for (int t = 0; t < 2; ++t) std::fill_n(&qt[t * dim], 4, 0.0f);
  for (int t = 0; t < 3; ++t) std::fill_n(&kt[t * dim], 4, 0.0f);
  const auto plain = scores(qt, kt, qp, kp, o);
  o.mode = score_mode::rotary;
  o.rotary_dim = 4;
  CHECK(scores(qt, kt, qp, kp, o) == plain);
}

TEST_CASE("empty query or key sets give empty score matrices", "[scores]") {
  const auto mode = GENERATE(score_mode::none, score_mode::additive, score_mode::rotary);
  score_options o;
  o.dim = 8;
  o.mode = mode;
  const std::vector<float> k(16, 1.0f);
  const std::vector<std::int32_t> kp = {3, 4};
  std::vector<float> out;
  posenc::score_terms terms;
  posenc::attention_scores({}, 0, k, 2, {}, kp, o, out, &terms);
  CHECK(terms.content.empty());
  CHECK(posenc::shift_invariance(k, 2, {}, 0, kp, {}, o, 5) == 0.0);
}

TEST_CASE("decay bound: (d/2+1)/2 at 0, falls over the first wavelength and beyond",
          "[scores]") {
  const int dim = GENERATE(8, 64, 128);
  const auto v = posenc::decay_bound(dim, 10000, 2000);
  REQUIRE(v.size() == 2001);
  // δ = 0: every S_j = j, so the mean of |S_j| over j = 1 … d/2 is (d/2 + 1)/2.
  CHECK(v[0] == Approx((dim / 2 + 1) / 2.0));
  // d=8 by hand at δ = 1: the mean of |S_1| … |S_4|, S_j = Σ_{l<j} e^{iθ_l}.
  if (dim == 8) {
    std::complex<double> sj = 0;
    double total = 0;
    for (double theta : {1.0, 0.1, 0.01, 0.001}) total += std::abs(sj += std::polar(1.0, theta));
    CHECK(v[1] == Approx(total / 4));
  }
  for (double x : v) CHECK(x <= v[0] + 1e-12);
  if (dim >= 64) {
    // Strictly falling over the first wavelength of θ_0 = 1 (2π positions) ...
    for (int d = 1; d <= 6; ++d) CHECK(v[d] < v[d - 1]);
    // ... and far below the start at long range.
    const double tail = *std::max_element(v.begin() + 1000, v.end());
    CHECK(tail < 0.5 * v[0]);
  }
}

TEST_CASE("SIMD dot kernel matches the float64 reference on ragged lengths", "[scores]") {
#if POSENC_SCALAR_ONLY
  SUCCEED("scalar-only build");
#else
  using arch = xsimd::default_arch;
  constexpr std::size_t w = xsimd::batch<float, arch>::size;
  std::mt19937_64 rng(50);
  std::uniform_int_distribution<std::size_t> len(0, 300);
  std::vector<std::size_t> lengths = {0, 1, w - 1, w, w + 1, 2 * w - 1, 2 * w, 2 * w + 1, 3 * w + 3,
                                      64, 80, 96, 128, 256};
  for (int i = 0; i < 40; ++i) lengths.push_back(len(rng));
  double worst_ratio = 0;
  for (std::size_t n : lengths) {
    const auto a = random_floats(n + 1, n, -3, 3), b = random_floats(n + 1, n + 1000, -3, 3);
    // Offset by one element: unaligned loads.
    const float got = posenc::detail::dot<arch>(a.data() + 1, b.data() + 1, n);
    const double ref = posenc::detail::dot_reference(a.data() + 1, b.data() + 1, n);
    double abs_sum = 0;
    for (std::size_t j = 1; j <= n; ++j) abs_sum += std::fabs(double(a[j]) * b[j]);
    const double k = std::ceil(n / (2.0 * w)) + std::log2(2.0 * w) + w + 1;
    const double bound = k * std::ldexp(1.0, -24) * abs_sum;
    CAPTURE(n, got, ref, bound);
    CHECK(std::fabs(got - ref) <= bound);
    if (abs_sum > 0) worst_ratio = std::max(worst_ratio, std::fabs(got - ref) / abs_sum);
  }
  CAPTURE(worst_ratio);
  CHECK(worst_ratio < 1e-6);
  // The matrix kernels agree too.
  const std::size_t tq = 3, tk = 5, dim = 37;
  const auto q = random_floats(tq * dim, 60), k = random_floats(tk * dim, 61);
  std::vector<float> simd(tq * tk), ref(tq * tk);
  posenc::detail::score_matrix<arch>(q.data(), tq, k.data(), tk, dim, 0.5, simd.data());
  posenc::detail::score_matrix_scalar(q.data(), tq, k.data(), tk, dim, 0.5, ref.data());
  for (std::size_t j = 0; j < ref.size(); ++j) CHECK(simd[j] == Approx(ref[j]).margin(1e-5));
#endif
}

TEST_CASE("scores: bad input throws naming the argument", "[scores]") {
  using posenc::invalid_argument;
  using posenc::length_error;
  const int dim = 8;
  const auto q = random_floats(2 * dim, 70), k = random_floats(3 * dim, 71);
  const std::vector<std::int32_t> qp = {0, 1}, kp = {0, 1, 2};
  std::vector<float> out(6, 42.0f);
  auto call = [&](score_options o, std::size_t tq = 2, std::size_t tk = 3) {
    posenc::attention_scores(q, tq, k, tk, qp, kp, o, out);
  };
  score_options good;
  good.dim = dim;
  auto with = [&](auto edit) {
    score_options o = good;
    edit(o);
    return o;
  };
  require_throws<invalid_argument>([&] { posenc::parse_score_mode("absolute"); }, "mode");
  require_throws<invalid_argument>([&] { call(with([](auto& o) { o.dim = 7; })); }, "options.dim");
  require_throws<invalid_argument>(
      [&] { call(with([](auto& o) { o.dim = 0; o.mode = score_mode::none; })); }, "options.dim");
  require_throws<invalid_argument>(
      [&] { call(with([](auto& o) { o.dim = 7; o.mode = score_mode::additive; })); },
      "options.dim");
  require_throws<invalid_argument>([&] { call(with([](auto& o) { o.rotary_dim = 3; })); },
                                   "options.rotary_dim");
  require_throws<invalid_argument>([&] { call(with([](auto& o) { o.rotary_dim = 10; })); },
                                   "options.rotary_dim");
  require_throws<invalid_argument>([&] { call(with([](auto& o) { o.base = 0.5; })); }, "base");
  require_throws<invalid_argument>(
      [&] { call(with([](auto& o) { o.base = NAN; o.mode = score_mode::additive; })); }, "base");
  require_throws<length_error>([&] { call(good, 3, 3); }, "q");
  require_throws<length_error>([&] { call(good, 2, 2); }, "k");
  {
    const std::vector<std::int32_t> short_qp = {0};
    require_throws<length_error>(
        [&] { posenc::attention_scores(q, 2, k, 3, short_qp, kp, good, out); }, "q_positions");
    require_throws<length_error>(
        [&] { posenc::attention_scores(q, 2, k, 3, qp, short_qp, good, out); }, "k_positions");
    std::vector<float> small(5);
    require_throws<length_error>(
        [&] { posenc::attention_scores(q, 2, k, 3, qp, kp, good, small); }, "out");
  }
  {
    // tq·tk = 2^30 > max_score_elements, with inputs that are otherwise consistent.
    const std::size_t t = 1 << 15;
    const std::vector<float> big(t);
    const std::vector<std::int32_t> pos(t);
    const score_options one = with([](auto& o) { o.dim = 1; o.mode = score_mode::none; });
    require_throws<length_error>(
        [&] { posenc::attention_scores(big, t, big, t, pos, pos, one, out); }, "tq * tk");
  }
  require_throws<invalid_argument>(
      [&] { posenc::shift_invariance(q, 2, k, 3, qp, kp, good, std::int64_t{1} << 31); },
      "shift");
  require_throws<invalid_argument>(
      [&] { posenc::shift_invariance(q, 2, k, 3, qp, kp, good, std::int64_t{1} << 40); },
      "shift");
  const std::vector<float> v8(8), v6(6);
  require_throws<length_error>([&] { posenc::relative_kernel(v6, v8, 8, 10000, 1); }, "q");
  require_throws<length_error>([&] { posenc::relative_kernel(v8, v6, 8, 10000, 1); }, "k");
  require_throws<invalid_argument>([&] { posenc::relative_kernel(v8, v8, 9, 10000, 1); }, "dim");
  require_throws<invalid_argument>(
      [&] { posenc::relative_kernel(v8, v8, 8, 10000, posenc::max_position + 1); }, "delta");
  require_throws<invalid_argument>([&] { posenc::decay_bound(8, 10000, -1); }, "max_distance");
  require_throws<invalid_argument>([&] { posenc::decay_bound(8, 1.0, 10); }, "base");
  require_throws<length_error>([&] { posenc::decay_bound(4096, 10000, 1 << 20); },
                               "max_distance");
  for (float x : out) CHECK(x == 42.0f);  // no failed call wrote
}
