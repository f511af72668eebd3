// tests/fuzz/fuzz_attention.cpp — libFuzzer target for posenc/attention.hpp and random.hpp:
// make_attention_weights, self_attention (every positions mode, causal or not, any head
// split, explicit int32 positions incl. extremes, weights and x sized exactly or one off),
// permutation_test, and the seeded generator (random::uniform/below, fill_uniform,
// permutation) with any seed and bounds. Shapes are capped (T ≤ 12, D ≤ 32).
// Either a call succeeds or it throws posenc::error. On success: outputs finite for finite
// moderate x; every softmax row sums to 1 and is 0 past the diagonal when causal; no
// positions and no mask → permutation_test ~1e−6; fill_uniform in [lo, hi) and a prefix of
// the same stream; permutation is a permutation.
#include "fuzz_input.hpp"

#include <span>

namespace {

using namespace posenc;
using fuzz::expect;
using fuzz::moderate;

std::vector<float> maybe_resized(fuzz::input& in, std::vector<float> v) {
  if (in.rarely(32)) v.resize(in.flag() ? v.size() + 1 : (v.empty() ? 0 : v.size() - 1));
  return v;
}

attention_options decode_options(fuzz::input& in) {
  attention_options o;
  o.tokens = in.rarely(16) ? in.one_of<int>({0, -1, max_attention_tokens + 1, INT_MIN})
                           : in.between<int>(1, 12);
  o.model_dim = in.rarely(16) ? in.one_of<int>({0, -4, max_attention_model_dim + 1, INT_MAX})
                              : in.between<int>(1, 32);
  o.heads = in.rarely(16) ? in.one_of<int>({0, -1, 3, 64, INT_MAX}) : in.between<int>(1, 8);
  o.positions = in.pick_score_mode();
  o.causal = in.flag();
  o.base = in.base();
  o.layout = in.pick_rope_layout();
  o.pe_layout = in.pick_pe_layout();
  return o;
}

void check_result(const attention_result& r, const attention_options& o) {
  const auto t = static_cast<std::size_t>(o.tokens);
  for (float v : r.output) expect(std::isfinite(v), "output finite for moderate x", v);
  for (std::size_t h = 0; h < static_cast<std::size_t>(o.heads); ++h)
    for (std::size_t i = 0; i < t; ++i) {
      const float* row = r.weights.data() + (h * t + i) * t;
      double sum = 0;
      for (std::size_t j = 0; j < t; ++j) {
        expect(row[j] >= 0.0f && row[j] <= 1.0f, "softmax weight in [0, 1]", row[j]);
        if (o.causal && j > i) expect(row[j] == 0.0f, "causal: no weight past the diagonal", row[j]);
        sum += row[j];
      }
      expect(std::fabs(sum - 1.0) <= 1e-5, "softmax row sums to 1", sum, 1.0);
    }
}

void fuzz_self_attention(fuzz::input& in) {
  const attention_options o = decode_options(in);
  const int d = std::clamp(o.model_dim, 0, 32), t = std::clamp(o.tokens, 0, 12);
  attention_weights w;
  if (!fuzz::attempt([&] { w = make_attention_weights(in.flag() ? d : o.model_dim, in.between<std::uint64_t>(0, UINT64_MAX)); }))
    return;
  w.wq = maybe_resized(in, std::move(w.wq));
  w.wo = maybe_resized(in, std::move(w.wo));
  const bool specials = in.rarely(8);
  const std::vector<float> x = maybe_resized(in, in.values(static_cast<std::size_t>(t * d), specials));
  std::vector<std::int32_t> pos;
  if (in.flag()) pos = in.positions(static_cast<std::size_t>(in.rarely(16) ? t + 1 : t));
  fuzz::note("self_attention T %d D %d H %d positions %d causal %d base %.17g layout %d "
             "pe_layout %d | x %zu wq %zu positions %zu",
             o.tokens, o.model_dim, o.heads, static_cast<int>(o.positions), o.causal, o.base,
             static_cast<int>(o.layout), static_cast<int>(o.pe_layout), x.size(), w.wq.size(),
             pos.size());
  attention_result r;
  if (!fuzz::attempt([&] { r = self_attention(x, w, o, pos); })) return;
  expect(r.output.size() == x.size(), "output is [T][D]");
  expect(r.weights.size() == static_cast<std::size_t>(o.heads) * t * t, "weights are [H][T][T]");
  if (moderate(x)) check_result(r, o);

  if (!in.flag()) return;
  double worst = 0;
  if (!fuzz::attempt([&] { worst = permutation_test(x, w, o, in.between<std::uint64_t>(0, UINT64_MAX)); }))
    return;
  // attention.hpp: ~1e−7 without positions or mask (outputs are O(1) for |x| ≤ 4 and
  // nn.Linear-scaled weights); allow 1e−5.
  if (o.positions == score_mode::none && !o.causal && moderate(x))
    expect(worst <= 1e-5, "no positions: permutation-equivariant", worst, 1e-5);
}

void fuzz_random(fuzz::input& in) {
  const std::uint64_t seed = in.between<std::uint64_t>(0, UINT64_MAX);
  const auto bound = [&] {
    if (in.rarely(8)) return static_cast<float>(in.special_double());
    return static_cast<float>(in.real(-1e6, 1e6));
  };
  const float lo = bound(), hi = bound();
  const auto n = in.between<std::size_t>(0, 64);
  fuzz::note("random seed %llu lo %.9g hi %.9g n %zu", static_cast<unsigned long long>(seed),
             static_cast<double>(lo), static_cast<double>(hi), n);
  std::vector<float> a(n);
  if (fuzz::attempt([&] { fill_uniform(a, seed, lo, hi); })) {
    for (float v : a) expect(v >= lo && v < hi, "fill_uniform in [lo, hi)", v, hi);
    std::vector<float> prefix(n / 2);
    fill_uniform(prefix, seed, lo, hi);
    expect(fuzz::same_bits(prefix.data(), a.data(), prefix.size()), "a shorter fill is a prefix");
    posenc::random g(seed);
    for (float v : a) {
      const float u = g.uniform(lo, hi);
      expect(fuzz::same_bits(&v, &u, 1), "fill_uniform == repeated uniform", v, u);
    }
  }
  posenc::random g(seed);
  const auto b = in.between<std::uint32_t>(0, UINT32_MAX);
  std::uint32_t r = 0;
  if (fuzz::attempt([&] { r = g.below(b); })) expect(r < b, "below(b) < b", r, b);
  const std::int64_t size = in.rarely(16) ? in.one_of<std::int64_t>({-1, max_permutation_size + 1, INT64_MIN})
                                          : in.between<std::int64_t>(0, 64);
  std::vector<std::int32_t> perm;
  if (!fuzz::attempt([&] { perm = permutation(size, seed); })) return;
  std::vector<char> seen(perm.size(), 0);
  for (std::int32_t v : perm) {
    expect(v >= 0 && static_cast<std::size_t>(v) < perm.size() && !seen[static_cast<std::size_t>(v)],
           "permutation holds 0 .. n-1 once each", v);
    seen[static_cast<std::size_t>(v)] = 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  if (in.rarely(4))
    fuzz_random(in);
  else
    fuzz_self_attention(in);
  return 0;
}
