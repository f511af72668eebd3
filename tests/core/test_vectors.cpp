// tests/core/test_vectors.cpp — the core against the golden float64 cases of tests/vectors/
// (one set of truths for the C++, JS and page tests).
//
// Each check compares a float32 (or double) output with the float64 truth within the error
// bound the function's contract documents, and requires worst(error / bound) ≤ 1; run with
// `-s` to see the worst ratio of each file.
#include "vectors.hpp"

#include "posenc/frequencies.hpp"
#include "posenc/rotary.hpp"
#include "posenc/scores.hpp"
#include "posenc/sinusoidal.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using posenc_test::json;
using posenc_test::numbers;
using posenc_test::value_or;

namespace {

// Tracks the worst error/bound ratio over a file, naming the case and index where it was.
struct worst_ratio {
  double ratio = 0;
  std::string where;

  void add(double got, double want, double bound, const std::string& name, std::size_t i) {
    const double r = std::abs(got - want) / bound;
    if (!(r <= ratio)) {  // also catches NaN
      ratio = std::isnan(r) ? HUGE_VAL : r;
      std::ostringstream out;
      out.precision(17);
      out << name << "[" << i << "]: got " << got << ", want " << want << ", bound " << bound;
      where = out.str();
    }
  }
};

// Over-estimates half an ulp of float at |v| (2⁻²⁴·|v| ≥ ½ ulp for every normal float).
double half_float_ulp(double v) { return std::ldexp(std::abs(v), -24); }

void require_within(const worst_ratio& w) {
  INFO("worst error/bound " << w.ratio << " at " << w.where);
  REQUIRE(w.ratio <= 1.0);
}

} // namespace

TEST_CASE("golden ladder.json: θ, attention factor and wavelengths", "[vectors][frequencies]") {
  worst_ratio w;
  for (const json& c : posenc_test::load_cases("ladder.json")) {
    const json& p = c["params"];
    const std::string name = c["name"];
    const int dim = p["dim"];
    const double base = p["base"];
    const posenc::scaling s = posenc_test::scaling_from(p);
    const posenc::frequencies f = posenc::inverse_frequencies(dim, base, s);
    const auto theta = numbers<double>(c["expected"]["invFreq"]);
    const auto lambda = numbers<double>(c["expected"]["wavelengths"]);
    const auto got_lambda = posenc::wavelengths(dim, base, s);
    REQUIRE(f.inv_freq.size() == theta.size());
    REQUIRE(got_lambda.size() == lambda.size());
    // Both sides are double evaluations of one formula (libm vs V8): a few ulp apart.
    for (std::size_t i = 0; i < theta.size(); ++i) {
      w.add(f.inv_freq[i], theta[i], 1e-14 * theta[i], name + ".invFreq", i);
      w.add(got_lambda[i], lambda[i], 1e-14 * lambda[i], name + ".wavelengths", i);
    }
    const double a = c["expected"]["attentionFactor"];
    w.add(f.attention_factor, a, 1e-15 * a, name + ".attentionFactor", 0);
  }
  require_within(w);
}

TEST_CASE("golden sinusoidal.json: tables, shift matrix, dot by distance", "[vectors][sinusoidal]") {
  worst_ratio w;
  for (const json& c : posenc_test::load_cases("sinusoidal.json")) {
    const json& p = c["params"];
    const std::string name = c["name"], kind = c["kind"];
    const int dim = p["dim"];
    const double base = p["base"];
    const auto layout = posenc::parse_pe_layout(value_or<std::string>(p, "layout", "interleaved"));
    const json& e = c["expected"];
    if (kind == "table") {
      const auto want = numbers<double>(e["values"]);
      const std::size_t rows = want.size() / dim;
      const auto positions = posenc_test::position_list(p, static_cast<std::int64_t>(rows));
      std::vector<float> got(want.size());
      if (p["positions"].is_array())
        posenc::sinusoidal_table(got.data(), got.size(), dim, base, positions, layout);
      else
        posenc::sinusoidal_table(got.data(), got.size(), dim, base,
                                 value_or<std::int64_t>(p, "start", 0),
                                 static_cast<std::int64_t>(rows), layout);
      // Contract: 0.5 ulp(float) + 1e−9 per value (sinusoidal.hpp).
      for (std::size_t i = 0; i < want.size(); ++i)
        w.add(got[i], want[i], half_float_ulp(want[i]) + 1e-9, name, i);
      for (std::size_t r = 0; r < rows; ++r) {
        const auto row = posenc::sinusoidal_row(dim, base, positions[r], layout);
        for (int j = 0; j < dim; ++j)
          w.add(row[j], want[r * dim + j], half_float_ulp(want[r * dim + j]) + 1e-9,
                name + ".row", r * dim + j);
      }
    } else if (kind == "shift") {
      const std::int64_t k = p["k"];
      const auto m = posenc::shift_matrix(dim, base, k, layout);
      const auto want = numbers<double>(e["matrix"]);
      REQUIRE(m.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i)  // 1 ulp(double) + 1e−9
        w.add(m[i], want[i], 1e-9 + 2.3e-16 * std::abs(want[i]), name + ".matrix", i);
      const auto pe5 = posenc::sinusoidal_row(dim, base, 5, layout);
      const auto shifted = posenc::apply_shift(dim, base, k, pe5, layout);
      const auto want8 = numbers<double>(e["shiftedRow5"]);
      // Against M·PE(5) in float64 the float32 rounding of PE(5) dominates: two terms of
      // ≤ 6e−8 each per output value.
      for (std::size_t i = 0; i < want8.size(); ++i)
        w.add(shifted[i], want8[i], 1.2e-7 + 1e-9, name + ".shiftedRow5", i);
    } else if (kind == "dotByDistance") {
      const auto ks = numbers<std::int64_t>(p["ks"]);
      const auto want = numbers<double>(e["values"]);
      for (std::size_t i = 0; i < ks.size(); ++i) {
        w.add(posenc::pe_dot_closed_form(dim, base, ks[i], 1).at(0), want[i], dim * 1e-9,
              name + ".closedForm", i);
        w.add(posenc::pe_dot_by_distance(dim, base, 5, ks[i], 1).at(0), want[i], dim * 6e-8,
              name + ".byDistance", i);
      }
    } else {
      FAIL("unknown kind " << kind << " in sinusoidal.json case " << name);
    }
  }
  require_within(w);
}

namespace {

// Checks one rope.json case: x holds the core's result, the case its input and truth.
// Contract (rotary.hpp): per rotated element ≤ 4e−7·g·(|a| + |b|) with g the gain applied
// (f forward, 1/f inverse, 1 for shift); pass-through elements untouched (exact).
void check_rope_row(worst_ratio& w, const std::vector<float>& x, const std::vector<float>& in,
                    const std::vector<double>& want, std::size_t offset,
                    const posenc::rope_config& cfg, double gain, const std::string& name) {
  const int r = cfg.rotary_dim, half = r / 2;
  for (int i = 0; i < half; ++i) {
    const bool is_half = cfg.layout == posenc::rope_layout::half;
    const std::size_t a = offset + (is_half ? i : 2 * i);
    const std::size_t b = offset + (is_half ? i + half : 2 * i + 1);
    const double bound = 4e-7 * gain * (std::abs(in[a]) + std::abs(in[b])) + 1e-12;
    w.add(x[a], want[a], bound, name, a);
    w.add(x[b], want[b], bound, name, b);
  }
  for (int j = r; j < cfg.head_dim; ++j)
    w.add(x[offset + j], want[offset + j], 1e-300, name + ".passThrough", offset + j);
}

// Runs one rope.json case through `cache`, in place or out of place (apply cases), and
// returns the result; `gain` receives the factor the rotated pairs carry.
std::vector<float> run_rope(const posenc::rotary_cache& cache, const json& c, bool in_place,
                            double& gain) {
  const json& p = c["params"];
  const std::int64_t tokens = p["tokens"], heads = p["heads"], dim = cache.head_dim();
  const auto ts = value_or<std::int64_t>(p, "tokenStride", heads * dim);
  const auto hs = value_or<std::int64_t>(p, "headStride", dim);
  const auto in = numbers<float>(c["input"]["x"]);
  std::vector<float> x = in;
  const posenc::tensor_view view{x.data(), x.size(), tokens, heads, dim, ts, hs};
  if (c["kind"] == "shift") {
    gain = 1.0;
    posenc::rope_shift(cache, view, p["delta"].get<std::int64_t>());
    return x;
  }
  const bool inverse = value_or(p, "inverse", false);
  const auto dir = inverse ? posenc::direction::inverse : posenc::direction::forward;
  gain = inverse ? 1.0 / cache.attention_factor() : cache.attention_factor();
  const posenc::const_tensor_view source{in.data(), in.size(), tokens, heads, dim, ts, hs};
  const auto positions = posenc_test::position_list(p, tokens);
  const bool listed = p.contains("positions");
  const std::int64_t start = value_or<std::int64_t>(p, "start", 0);
  if (in_place && listed) posenc::rope_apply(cache, view, positions, dir);
  if (in_place && !listed) posenc::rope_apply(cache, view, start, dir);
  if (!in_place && listed) posenc::rope_apply(cache, source, view, positions, dir);
  if (!in_place && !listed) posenc::rope_apply(cache, source, view, start, dir);
  return x;
}

} // namespace

TEST_CASE("golden rope.json: apply, inverse and shift", "[vectors][rotary]") {
  worst_ratio w;
  for (const json& c : posenc_test::load_cases("rope.json")) {
    const json& p = c["params"];
    const std::string name = c["name"];
    posenc::rope_config cfg;
    cfg.head_dim = p["headDim"];
    cfg.rotary_dim = value_or(p, "rotaryDim", cfg.head_dim);
    cfg.base = p["base"];
    cfg.layout = posenc::parse_rope_layout(value_or<std::string>(p, "layout", "half"));
    cfg.scaling = posenc_test::scaling_from(p);
    const std::int64_t tokens = p["tokens"], heads = p["heads"];
    const auto ts = value_or<std::int64_t>(p, "tokenStride", heads * cfg.head_dim);
    const auto hs = value_or<std::int64_t>(p, "headStride", cfg.head_dim);
    const auto in = numbers<float>(c["input"]["x"]);
    const auto want = numbers<double>(c["expected"]["x"]);
    const auto positions = posenc_test::position_list(p, tokens);
    const auto [lo, hi] = std::minmax_element(positions.begin(), positions.end());
    // Both the on-the-fly path (empty cache) and, where the span is small, the cached rows.
    std::vector<posenc::rotary_cache> caches{posenc::rotary_cache(cfg)};
    if (*hi - *lo < 8192) caches.emplace_back(cfg, *lo, std::int64_t{*hi} - *lo + 1);
    for (const auto& cache : caches) {
      const double a = c["expected"]["attentionFactor"];
      w.add(cache.attention_factor(), a, 1e-15 * a, name + ".attentionFactor", 0);
      for (const bool in_place : {true, false}) {
        if (!in_place && c["kind"] == "shift") continue;  // rope_shift is in place only
        double gain = 1.0;
        const auto x = run_rope(cache, c, in_place, gain);
        const std::string where = name + (cache.count() ? ".cached" : ".onTheFly") +
                                  (in_place ? "" : ".outOfPlace");
        for (std::int64_t t = 0; t < tokens; ++t)
          for (std::int64_t h = 0; h < heads; ++h)
            check_rope_row(w, x, in, want, static_cast<std::size_t>(t * ts + h * hs), cfg,
                           gain, where);
      }
    }
  }
  require_within(w);
}

namespace {

posenc::score_options score_options_from(const json& p) {
  posenc::score_options o;
  o.dim = p["dim"];
  o.mode = posenc::parse_score_mode(value_or<std::string>(p, "mode", "rotary"));
  o.layout = posenc::parse_rope_layout(value_or<std::string>(p, "layout", "half"));
  o.pe_layout = posenc::parse_pe_layout(value_or<std::string>(p, "peLayout", "interleaved"));
  o.base = value_or(p, "base", 10000.0);
  o.rotary_dim = value_or(p, "rotaryDim", 0);
  o.scaling = posenc_test::scaling_from(p);
  o.scale = value_or(p, "scale", false);
  return o;
}

// Scores are float32 dot products: ~1e−5 of the matrix's largest magnitude.
void check_matrix(worst_ratio& w, const std::vector<float>& got, const json& expected,
                  const std::string& name) {
  const auto want = numbers<double>(expected);
  REQUIRE(got.size() == want.size());
  double peak = 1.0;
  for (const double v : want) peak = std::max(peak, std::abs(v));
  for (std::size_t i = 0; i < want.size(); ++i) w.add(got[i], want[i], 1e-5 * peak, name, i);
}

} // namespace

TEST_CASE("golden scores.json: none / additive terms / rotary, relative kernel", "[vectors][scores]") {
  worst_ratio w;
  for (const json& c : posenc_test::load_cases("scores.json")) {
    const json& p = c["params"];
    const std::string name = c["name"], kind = c["kind"];
    const auto q = numbers<float>(c["input"]["q"]);
    const auto k = numbers<float>(c["input"]["k"]);
    const int dim = p["dim"];
    const json& e = c["expected"];
    if (kind == "relativeKernel") {
      const auto layout = posenc::parse_rope_layout(value_or<std::string>(p, "layout", "half"));
      const auto kv = posenc::relative_kernel(q, k, dim, p["base"], p["delta"], layout);
      w.add(kv.score, e["score"], 1e-12, name + ".score", 0);
      w.add(kv.dot, e["dot"], 1e-12, name + ".dot", 0);
      w.add(kv.area, e["area"], 1e-12, name + ".area", 0);
      continue;
    }
    REQUIRE(kind == "scores");
    const auto qpos = numbers<std::int32_t>(p["qPositions"]);
    const auto kpos = numbers<std::int32_t>(p["kPositions"]);
    const std::size_t tq = qpos.size(), tk = kpos.size();
    std::vector<float> out(tq * tk);
    posenc::score_terms terms;
    posenc::attention_scores(q, tq, k, tk, qpos, kpos, score_options_from(p), out, &terms);
    check_matrix(w, out, e["scores"], name + ".scores");
    if (e.contains("terms")) {
      check_matrix(w, terms.content, e["terms"]["content"], name + ".content");
      check_matrix(w, terms.query_position, e["terms"]["queryPosition"], name + ".queryPosition");
      check_matrix(w, terms.position_key, e["terms"]["positionKey"], name + ".positionKey");
      check_matrix(w, terms.position_position, e["terms"]["positionPosition"],
                   name + ".positionPosition");
    }
    if (name == "hand-check-rotary")  // every diagonal entry is −sin 0.3
      for (std::size_t m = 0; m < tq; ++m) REQUIRE(out[m * tk + m] == Approx(-0.295520).margin(1e-6));
  }
  require_within(w);
}

TEST_CASE("golden decay.json: long-term-decay bound", "[vectors][scores]") {
  worst_ratio w;
  for (const json& c : posenc_test::load_cases("decay.json")) {
    const json& p = c["params"];
    const int dim = p["dim"];
    const auto deltas = numbers<std::int64_t>(p["deltas"]);
    const auto want = numbers<double>(c["expected"]["values"]);
    const auto curve = posenc::decay_bound(dim, p["base"], *std::max_element(deltas.begin(), deltas.end()));
    for (std::size_t i = 0; i < deltas.size(); ++i)  // contract: dim·1e−15 + 1e−9
      w.add(curve.at(static_cast<std::size_t>(deltas[i])), want[i], dim * 1e-15 + 1e-9,
            c["name"].get<std::string>(), i);
  }
  require_within(w);
}
