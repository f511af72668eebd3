// core/src/scores.cpp — attention logits under none / additive / rotary positions, the
// additive four-term split, RoPE's relative kernel and the long-term-decay bound.
#include "posenc/scores.hpp"

#include "detail/angles.hpp"
#include "detail/dispatch.hpp"
#include "posenc/detail/check.hpp"
#include "posenc/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

namespace posenc {
namespace {

using detail::check_range;
using detail::fail_length;

// Largest max_distance of decay_bound, and its work cap (δ values × pairs).
constexpr std::int64_t max_decay_distance = std::int64_t{1} << 24;
constexpr std::int64_t max_decay_work = std::int64_t{1} << 30;

// Dense float32 rows [rows][dim] as the score kernels read them.
struct rows_view {
  const float* data;
  std::size_t rows;
};

// n·dim elements, checked against overflow and max_score_elements.
std::size_t matrix_size(const char* what, std::size_t n, std::size_t dim) {
  const std::size_t size = detail::checked_mul(what, n, dim);
  if (size > max_score_elements)
    fail_length(what, " = ", size, " exceeds the maximum of ", max_score_elements, " elements");
  return size;
}

void check_rows(const char* name, std::span<const float> x, std::size_t t, std::size_t dim,
                const char* t_name) {
  const std::size_t need = matrix_size(detail::concat(t_name, " * options.dim").c_str(), t, dim);
  if (x.size() != need)
    fail_length(name, " holds ", x.size(), " elements but ", t_name, " * options.dim = ", need,
                " are needed");
}

void check_positions(const char* name, std::span<const std::int32_t> p, std::size_t t,
                     const char* t_name) {
  if (p.size() != t)
    fail_length(name, " holds ", p.size(), " positions but ", t_name, " = ", t);
}

// Validates the options' own ranges (dim parity depends on the mode).
void check_options(const score_options& o) {
  // Enums may arrive cast from integers (bindings, fuzzers): refuse values no name maps to.
  check_range("options.mode", static_cast<int>(o.mode), 0, 2);
  check_range("options.layout", static_cast<int>(o.layout), 0, 1);
  check_range("options.pe_layout", static_cast<int>(o.pe_layout), 0, 1);
  check_range("options.angles", static_cast<int>(o.angles), 0, 1);
  if (o.mode == score_mode::none) {
    check_range("options.dim", o.dim, 1, max_dim);
    return;
  }
  detail::check_even("options.dim", o.dim, 2, max_dim);
  if (o.mode == score_mode::rotary && o.rotary_dim != 0)
    detail::check_even("options.rotary_dim", o.rotary_dim, 2, o.dim);
}

// All argument checks of attention_scores except the output buffer.
void check_inputs(std::span<const float> q, std::size_t tq, std::span<const float> k,
                  std::size_t tk, std::span<const std::int32_t> qpos,
                  std::span<const std::int32_t> kpos, const score_options& o) {
  check_options(o);
  const auto dim = static_cast<std::size_t>(o.dim);
  check_rows("q", q, tq, dim, "tq");
  check_rows("k", k, tk, dim, "tk");
  check_positions("q_positions", qpos, tq, "tq");
  check_positions("k_positions", kpos, tk, "tk");
  matrix_size("tq * tk", tq, tk);
}

// out = scale·Q·Kᵀ through the dot kernels.
void score_matrix(rows_view q, rows_view k, std::size_t dim, double scale, float* out) {
  detail::dispatched::score_matrix(q.data, q.rows, k.data, k.rows, dim, scale, out);
}

// PE rows of the positions, [t][dim].
std::vector<float> pe_rows(std::span<const std::int32_t> positions, const score_options& o) {
  std::vector<float> pe(positions.size() * static_cast<std::size_t>(o.dim));
  sinusoidal_table(pe.data(), pe.size(), o.dim, o.base, positions, o.pe_layout);
  return pe;
}

// x + PE, element by element (one float rounding).
std::vector<float> add_rows(std::span<const float> x, const std::vector<float>& pe) {
  std::vector<float> sum(x.size());
  for (std::size_t j = 0; j < x.size(); ++j) sum[j] = x[j] + pe[j];
  return sum;
}

// RoPE(x) at the positions, [t][dim], via rotary.hpp (one head per token).
std::vector<float> rotate_rows(const rotary_cache& cache, std::span<const float> x,
                               std::span<const std::int32_t> positions, std::size_t dim) {
  std::vector<float> y(x.begin(), x.end());
  const auto t = static_cast<std::int64_t>(positions.size());
  rope_apply(cache, tensor_view::dense(y.data(), y.size(), t, 1, static_cast<std::int64_t>(dim)),
             positions);
  return y;
}

rope_config rope_config_of(const score_options& o) {
  return {o.dim, o.rotary_dim == 0 ? o.dim : o.rotary_dim, o.base, o.layout, o.scaling, o.angles};
}

// The additive mode: scores, and the four terms when asked.
void additive_scores(std::span<const float> q, std::span<const float> k,
                     std::span<const std::int32_t> qpos, std::span<const std::int32_t> kpos,
                     const score_options& o, double scale, float* out, score_terms* terms) {
  const auto dim = static_cast<std::size_t>(o.dim);
  const std::vector<float> pq = pe_rows(qpos, o), pk = pe_rows(kpos, o);
  const std::vector<float> qs = add_rows(q, pq), ks = add_rows(k, pk);
  const rows_view q_rows{q.data(), qpos.size()}, k_rows{k.data(), kpos.size()};
  const rows_view pq_rows{pq.data(), qpos.size()}, pk_rows{pk.data(), kpos.size()};
  score_matrix({qs.data(), qpos.size()}, {ks.data(), kpos.size()}, dim, scale, out);
  if (terms == nullptr) return;
  // (q + p_m)·(k + p_n) = q·k + q·p_n + p_m·k + p_m·p_n.
  const std::size_t cells = qpos.size() * kpos.size();
  for (auto* term : {&terms->content, &terms->query_position, &terms->position_key,
                     &terms->position_position})
    term->assign(cells, 0.0f);
  score_matrix(q_rows, k_rows, dim, scale, terms->content.data());
  score_matrix(q_rows, pk_rows, dim, scale, terms->query_position.data());
  score_matrix(pq_rows, k_rows, dim, scale, terms->position_key.data());
  score_matrix(pq_rows, pk_rows, dim, scale, terms->position_position.data());
}

}  // namespace

score_mode parse_score_mode(std::string_view name) {
  if (name == "none") return score_mode::none;
  if (name == "additive") return score_mode::additive;
  if (name == "rotary") return score_mode::rotary;
  detail::fail_argument("mode must be 'none', 'additive' or 'rotary', got ", detail::quoted(name));
}

std::string_view to_string(score_mode mode) noexcept {
  switch (mode) {
    case score_mode::none: return "none";
    case score_mode::additive: return "additive";
    case score_mode::rotary: return "rotary";
  }
  return "rotary";
}

void attention_scores(std::span<const float> q, std::size_t tq, std::span<const float> k,
                      std::size_t tk, std::span<const std::int32_t> q_positions,
                      std::span<const std::int32_t> k_positions, const score_options& options,
                      std::span<float> out, score_terms* terms) {
  check_inputs(q, tq, k, tk, q_positions, k_positions, options);
  detail::check_buffer("out", out.size(), tq * tk);
  const auto dim = static_cast<std::size_t>(options.dim);
  const double scale = options.scale ? 1.0 / std::sqrt(static_cast<double>(dim)) : 1.0;
  switch (options.mode) {
    case score_mode::none:
      score_matrix({q.data(), tq}, {k.data(), tk}, dim, scale, out.data());
      return;
    case score_mode::additive:
      additive_scores(q, k, q_positions, k_positions, options, scale, out.data(), terms);
      return;
    case score_mode::rotary: {
      const rotary_cache cache(rope_config_of(options));  // validates base and scaling
      const std::vector<float> qr = rotate_rows(cache, q, q_positions, dim);
      const std::vector<float> kr = rotate_rows(cache, k, k_positions, dim);
      score_matrix({qr.data(), tq}, {kr.data(), tk}, dim, scale, out.data());
      return;
    }
  }
}

kernel_value relative_kernel(std::span<const float> q, std::span<const float> k, int dim,
                             double base, std::int64_t delta, rope_layout layout) {
  const std::vector<double> inv = inverse_frequencies(dim, base).inv_freq;  // checks dim, base
  check_range("layout", static_cast<int>(layout), 0, 1);
  if (q.size() != static_cast<std::size_t>(dim))
    fail_length("q holds ", q.size(), " elements but dim = ", dim, " are needed");
  if (k.size() != static_cast<std::size_t>(dim))
    fail_length("k holds ", k.size(), " elements but dim = ", dim, " are needed");
  check_range("delta", delta, -max_position, max_position);
  const std::size_t half = inv.size();
  kernel_value v{0, 0, 0};
  for (std::size_t i = 0; i < half; ++i) {
    // Pair i: (x[i], x[i + d/2]) for half, (x[2i], x[2i+1]) for interleaved.
    const std::size_t a = layout == rope_layout::half ? i : 2 * i;
    const std::size_t b = layout == rope_layout::half ? i + half : 2 * i + 1;
    const double q1 = q[a], q2 = q[b], k1 = k[a], k2 = k[b];
    const double angle = detail::reduce_product(static_cast<double>(delta), inv[i]);
    v.dot += (q1 * k1 + q2 * k2) * std::cos(angle);   // the contract, RoFormer eq. (16)
    v.area += (q2 * k1 - q1 * k2) * std::sin(angle);
  }
  v.score = v.dot + v.area;
  return v;
}

double shift_invariance(std::span<const float> q, std::size_t tq, std::span<const float> k,
                        std::size_t tk, std::span<const std::int32_t> q_positions,
                        std::span<const std::int32_t> k_positions, const score_options& options,
                        std::int64_t shift) {
  check_inputs(q, tq, k, tk, q_positions, k_positions, options);
  constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int32_t>::max();
  auto shifted = [&](std::span<const std::int32_t> p) {
    std::vector<std::int32_t> s(p.size());
    for (std::size_t j = 0; j < p.size(); ++j) {
      const std::int64_t moved = p[j] + shift;  // |shift| is bounded first: no overflow
      if (moved < lo || moved > hi)
        detail::fail_argument("shift moves position ", p[j], " to ", moved,
                              ", outside the int32 range");
      s[j] = static_cast<std::int32_t>(moved);
    }
    return s;
  };
  check_range("shift", shift, lo - hi, hi - lo);
  const std::vector<std::int32_t> qs = shifted(q_positions), ks = shifted(k_positions);
  std::vector<float> before(tq * tk), after(tq * tk);
  attention_scores(q, tq, k, tk, q_positions, k_positions, options, before);
  attention_scores(q, tq, k, tk, qs, ks, options, after);
  double worst = 0;
  for (std::size_t j = 0; j < before.size(); ++j)
    worst = std::max(worst, std::fabs(static_cast<double>(after[j]) - before[j]));
  return worst;
}

std::vector<double> decay_bound(int dim, double base, std::int64_t max_distance) {
  const std::vector<double> inv = inverse_frequencies(dim, base).inv_freq;  // checks dim, base
  check_range("max_distance", max_distance, 0, max_decay_distance);
  const auto half = static_cast<std::int64_t>(inv.size());
  if ((max_distance + 1) * half > max_decay_work)
    fail_length("(max_distance + 1) * dim / 2 = ", (max_distance + 1) * half,
                " exceeds the maximum of ", max_decay_work);
  std::vector<double> out(static_cast<std::size_t>(max_distance + 1));
  for (std::size_t delta = 0; delta < out.size(); ++delta) {
    // RoFormer §3.4.3: S_j = Σ_{l<j} e^{i·δ·θ_l}, bound (1/(d/2))·Σ_{j=1}^{d/2} |S_j|.
    std::complex<double> partial = 0;
    double total = 0;
    for (double theta : inv) {
      const double angle = detail::reduce_product(static_cast<double>(delta), theta);
      partial += std::complex<double>(std::cos(angle), std::sin(angle));
      total += std::abs(partial);
    }
    out[delta] = total / static_cast<double>(half);
  }
  return out;
}

}  // namespace posenc
