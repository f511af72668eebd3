// tests/fuzz/fuzz_scores.cpp — libFuzzer target for posenc/scores.hpp: attention_scores in
// every mode (none, additive with its four terms, rotary with partial rotary and scaling),
// relative_kernel, shift_invariance with extreme shifts, and decay_bound; q, k, positions and
// out sized exactly as claimed, or one element off. Small tq, tk, dim keep executions fast.
// Either a call succeeds or it throws posenc::error. On success, for finite moderate data:
// scores are finite; the additive terms sum to the score; a 1×1 rotary score equals
// relative_kernel(n − m); shift_invariance is exactly 0 without positions and float noise
// with rotary; decay_bound starts at (d/2 + 1)/2 and stays in [0, that].
#include "fuzz_input.hpp"

#include <span>

namespace {

using namespace posenc;
using fuzz::expect;
using fuzz::moderate;

bool small_positions(std::span<const std::int32_t> p) {
  for (std::int32_t x : p)
    if (x < -(1 << 24) || x > (1 << 24)) return false;
  return true;
}

double row_norm(std::span<const float> x, std::size_t r, std::size_t dim) {
  double s = 0;
  for (std::size_t j = 0; j < dim; ++j) s += double{x[r * dim + j]} * x[r * dim + j];
  return std::sqrt(s);
}

score_options decode_options(fuzz::input& in) {
  score_options o;
  o.mode = in.pick_score_mode();
  o.dim = in.dim(in.flag() ? 16 : 96);
  o.layout = in.pick_rope_layout();
  o.pe_layout = in.pick_pe_layout();
  o.base = in.base();
  o.rotary_dim = in.rotary_dim(o.dim);
  if (in.rarely(4)) o.scaling = in.scaling_for(o.rotary_dim ? o.rotary_dim : o.dim);
  o.scale = in.flag();
  return o;
}

struct problem {
  std::size_t tq = 0, tk = 0;
  std::vector<float> q, k;
  std::vector<std::int32_t> qpos, kpos;
};

// Sizes mostly as claimed, rarely one off (must be refused).
std::size_t maybe_off(fuzz::input& in, std::size_t n) {
  if (!in.rarely(16)) return n;
  return in.flag() ? n + 1 : (n > 0 ? n - 1 : 0);
}

problem decode_problem(fuzz::input& in, const score_options& o, bool specials) {
  problem p;
  p.tq = in.between<std::size_t>(0, 6);
  p.tk = in.between<std::size_t>(0, 6);
  if (in.rarely(32)) p.tq = in.one_of<std::size_t>({SIZE_MAX, SIZE_MAX / 2, std::size_t{1} << 40});
  const auto dim = static_cast<std::size_t>(std::clamp(o.dim, 0, 96));
  const std::size_t tq = std::min<std::size_t>(p.tq, 6);
  p.q = in.values(maybe_off(in, tq * dim), specials);
  p.k = in.values(maybe_off(in, p.tk * dim), specials);
  p.qpos = in.positions(maybe_off(in, tq));
  p.kpos = in.positions(maybe_off(in, p.tk));
  return p;
}

void note_problem(const char* what, const score_options& o, const problem& p) {
  fuzz::note("%s mode %d dim %d rotary_dim %d layout %d pe_layout %d base %.17g scaling %d "
             "scale %d | tq %zu tk %zu | q %zu k %zu qpos %zu kpos %zu",
             what, static_cast<int>(o.mode), o.dim, o.rotary_dim, static_cast<int>(o.layout),
             static_cast<int>(o.pe_layout), o.base, static_cast<int>(o.scaling.type), o.scale,
             p.tq, p.tk, p.q.size(), p.k.size(), p.qpos.size(), p.kpos.size());
}

void fuzz_attention_scores(fuzz::input& in) {
  const score_options o = decode_options(in);
  const problem p = decode_problem(in, o, in.rarely(4));
  const std::size_t cells = std::min<std::size_t>(p.tq, 6) * p.tk;
  fuzz::buffer out(maybe_off(in, cells));
  std::fill(out.begin(), out.end(), std::numeric_limits<float>::quiet_NaN());  // unwritten shows
  score_terms terms;
  score_terms* want_terms = in.flag() ? &terms : nullptr;
  note_problem("scores", o, p);
  if (!fuzz::attempt([&] {
        attention_scores(p.q, p.tq, p.k, p.tk, p.qpos, p.kpos, o,
                         std::span<float>(out.begin(), out.size), want_terms);
      }))
    return;
  if (!moderate(p.q) || !moderate(p.k)) return;
  const auto dim = static_cast<std::size_t>(o.dim);
  const std::span<const float> s(out.begin(), cells);
  if (o.mode == score_mode::rotary) {
    // Rotated rows are multiplied by the attention factor f: scores scale with f².
    const frequencies ladder =
        inverse_frequencies(o.rotary_dim ? o.rotary_dim : o.dim, o.base, o.scaling);
    const double f = ladder.attention_factor;
    // Accepted factors are bounded (finding-attention-factor-beyond-float, fixed).
    expect(f > 0 && f <= max_attention_factor, "attention factor in (0, max]", f);
  }
  for (float v : s) expect(std::isfinite(v), "scores finite for moderate data", v);
  if (o.mode == score_mode::additive && want_terms) {
    // (q + p_m)·(k + p_n) = q·k + q·p_n + p_m·k + p_m·p_n, each term a float32
    // dot product (≤ 1.3e−6 relative at dim 128): allow 1e−5 of the operands' norms.
    const double pe = std::sqrt(dim / 2.0);
    const double scale = o.scale ? 1.0 / std::sqrt(double(dim)) : 1.0;
    for (std::size_t m = 0; m < p.tq; ++m)
      for (std::size_t n = 0; n < p.tk; ++n) {
        const std::size_t c = m * p.tk + n;
        const double sum = double{terms.content[c]} + terms.query_position[c] +
                           terms.position_key[c] + terms.position_position[c];
        const double tol =
            1e-5 * scale * (row_norm(p.q, m, dim) + pe) * (row_norm(p.k, n, dim) + pe) + 1e-30;
        expect(std::fabs(sum - s[c]) <= tol, "additive terms sum to the score", sum - s[c], tol);
      }
  }
  // One pair in rotary mode, full rotary, no scaling: the score is the relative kernel.
  if (o.mode == score_mode::rotary && p.tq == 1 && p.tk == 1 && o.scaling.type == scaling_type::none &&
      (o.rotary_dim == 0 || o.rotary_dim == o.dim) && !o.scale && small_positions(p.qpos) &&
      small_positions(p.kpos)) {
    const kernel_value kv = relative_kernel(p.q, p.k, o.dim, o.base,
                                            std::int64_t{p.kpos[0]} - p.qpos[0], o.layout);
    const double tol = 1e-5 * row_norm(p.q, 0, dim) * row_norm(p.k, 0, dim) + 1e-30;
    expect(std::fabs(kv.score - s[0]) <= tol, "rotary score == relative_kernel(n - m)",
           kv.score - s[0], tol);
    expect(std::fabs(kv.dot + kv.area - kv.score) <= 1e-12 * (std::fabs(kv.dot) + std::fabs(kv.area)),
           "kernel score == dot + area");
  }
}

void fuzz_relative_kernel(fuzz::input& in) {
  const int dim = in.dim(in.flag() ? 16 : 128);
  const double base = in.base();
  const auto n = static_cast<std::size_t>(std::clamp(dim, 0, 128));
  const std::vector<float> q = in.values(maybe_off(in, n), true);
  const std::vector<float> k = in.values(maybe_off(in, n), true);
  const std::int64_t delta = in.position();
  const rope_layout layout = in.pick_rope_layout();
  fuzz::note("relative_kernel dim %d base %.17g delta %lld layout %d", dim, base,
             static_cast<long long>(delta), static_cast<int>(layout));
  kernel_value v{};
  if (!fuzz::attempt([&] { v = relative_kernel(q, k, dim, base, delta, layout); })) return;
  if (!moderate(q) || !moderate(k)) return;
  expect(std::isfinite(v.score), "kernel finite for moderate data", v.score);
  // |qᵀR k| ≤ ‖q‖‖k‖ (R is orthogonal).
  const double bound = row_norm(q, 0, n) * row_norm(k, 0, n);
  expect(std::fabs(v.score) <= bound * (1 + 1e-12) + 1e-300, "|kernel| <= |q||k|", v.score, bound);
}

void fuzz_shift_invariance(fuzz::input& in) {
  const score_options o = decode_options(in);
  const problem p = decode_problem(in, o, in.rarely(4));
  const std::int64_t shift = in.flag() ? in.between<std::int64_t>(-1 << 20, 1 << 20) : in.position();
  note_problem("shift_invariance", o, p);
  double worst = 0;
  if (!fuzz::attempt([&] {
        worst = shift_invariance(p.q, p.tq, p.k, p.tk, p.qpos, p.kpos, o, shift);
      }))
    return;
  if (!moderate(p.q) || !moderate(p.k)) return;
  if (o.mode == score_mode::none)
    expect(worst == 0.0, "no positions: shift changes nothing", worst, 0);
  if (o.mode == score_mode::rotary && o.scaling.type == scaling_type::none &&
      small_positions(p.qpos) && small_positions(p.kpos) && std::llabs(shift) <= (1 << 24)) {
    // shift-invariant to float32 noise; allow 1e−5 of the largest ‖q‖‖k‖.
    const auto dim = static_cast<std::size_t>(o.dim);
    double scale = 0;
    for (std::size_t m = 0; m < p.tq; ++m)
      for (std::size_t n = 0; n < p.tk; ++n)
        scale = std::max(scale, row_norm(p.q, m, dim) * row_norm(p.k, n, dim));
    expect(worst <= 1e-5 * scale + 1e-30, "rotary scores shift-invariant", worst, 1e-5 * scale);
  }
}

void fuzz_decay(fuzz::input& in) {
  const int dim = in.dim(in.flag() ? 16 : 256);
  const double base = in.base();
  std::int64_t max_distance = in.between<std::int64_t>(0, 64);
  if (in.rarely(16))
    max_distance = in.one_of<std::int64_t>({-1, INT64_MIN, INT64_MAX, (std::int64_t{1} << 24) + 1,
                                            (std::int64_t{1} << 30) / std::max(1, dim / 2)});
  fuzz::note("decay dim %d base %.17g max_distance %lld", dim, base,
             static_cast<long long>(max_distance));
  std::vector<double> out;
  if (!fuzz::attempt([&] { out = decay_bound(dim, base, max_distance); })) return;
  const double top = (dim / 2 + 1) / 2.0;
  expect(out.size() == static_cast<std::size_t>(max_distance + 1), "decay holds max_distance + 1");
  expect(std::fabs(out[0] - top) <= 1e-12 * top, "decay[0] == (d/2 + 1)/2", out[0], top);
  for (double v : out)
    expect(v >= 0 && v <= top * (1 + 1e-12), "decay in [0, (d/2 + 1)/2]", v, top);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  switch (in.between<int>(0, 3)) {
    case 0: fuzz_attention_scores(in); break;
    case 1: fuzz_relative_kernel(in); break;
    case 2: fuzz_shift_invariance(in); break;
    default: fuzz_decay(in); break;
  }
  return 0;
}
