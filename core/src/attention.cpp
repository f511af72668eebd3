// attention.cpp — multi-head self-attention (attention.hpp) built from the other concepts:
// the sinusoidal table (sinusoidal.hpp), RoPE (rotary.hpp) and the score dot kernel
// (detail/dot_kernels.hpp, run through detail/dispatch.hpp), the one matrix product of posenc.
#include "posenc/attention.hpp"

#include "posenc/detail/check.hpp"
#include "posenc/random.hpp"

#include "detail/dispatch.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace posenc {
namespace {

// The validated shape: T tokens, model dim D, H heads of width h = D/H.
struct dims {
  std::size_t tokens, model, heads, head;
};

void check_enums(const attention_options& o) {
  if (o.positions != score_mode::none && o.positions != score_mode::additive &&
      o.positions != score_mode::rotary)
    detail::fail_argument("positions must be score_mode none, additive or rotary, got ",
                          static_cast<int>(o.positions));
  if (o.layout != rope_layout::half && o.layout != rope_layout::interleaved)
    detail::fail_argument("layout must be rope_layout half or interleaved, got ",
                          static_cast<int>(o.layout));
  if (o.pe_layout != pe_layout::interleaved && o.pe_layout != pe_layout::concat)
    detail::fail_argument("pe_layout must be pe_layout interleaved or concat, got ",
                          static_cast<int>(o.pe_layout));
}

dims check_options(const attention_options& o) {
  detail::check_range("tokens", o.tokens, 1, max_attention_tokens);
  detail::check_range("model_dim", o.model_dim, 1, max_attention_model_dim);
  detail::check_range("heads", o.heads, 1, o.model_dim);
  if (o.model_dim % o.heads != 0)
    detail::fail_argument("model_dim (", o.model_dim, ") must be divisible by heads, got ",
                          o.heads);
  check_enums(o);
  const int head_dim = o.model_dim / o.heads;
  if (o.positions == score_mode::additive && o.model_dim % 2 != 0)
    detail::fail_argument("model_dim must be even for additive positions (sin/cos pairs), got ",
                          o.model_dim);
  if (o.positions == score_mode::rotary && head_dim % 2 != 0)
    detail::fail_argument("head_dim = model_dim / heads must be even for rotary positions, "
                          "got ", o.model_dim, " / ", o.heads, " = ", head_dim);
  detail::check_finite("base", o.base);
  if (!(o.base > 1.0)) detail::fail_argument("base must be a finite number > 1, got ", o.base);

  const dims d{static_cast<std::size_t>(o.tokens), static_cast<std::size_t>(o.model_dim),
               static_cast<std::size_t>(o.heads), static_cast<std::size_t>(head_dim)};
  const std::size_t weights = detail::checked_mul(
      "heads x tokens^2", d.heads, detail::checked_mul("tokens^2", d.tokens, d.tokens));
  if (weights > static_cast<std::size_t>(max_attention_weights))
    detail::fail_length("heads x tokens^2 (the attention weights) must be <= ",
                        max_attention_weights, ", got ", d.heads, " x ", d.tokens, "^2");
  return d;
}

void check_matrix(const char* name, const std::vector<float>& m, std::size_t n) {
  if (m.size() != n)
    detail::fail_length(name, " holds ", m.size(), " floats but model_dim^2 = ", n,
                        " are needed");
}

void check_inputs(std::span<const float> x, const attention_weights& w, const dims& d,
                  std::span<const std::int32_t> positions) {
  const std::size_t need = detail::checked_mul("tokens x model_dim", d.tokens, d.model);
  if (x.size() != need)
    detail::fail_length("x holds ", x.size(), " floats but tokens x model_dim = ", need,
                        " are needed");
  if (w.model_dim < 0 || static_cast<std::size_t>(w.model_dim) != d.model)
    detail::fail_argument("w.model_dim must equal options.model_dim (", d.model, "), got ",
                          w.model_dim);
  const std::size_t square = detail::checked_mul("model_dim^2", d.model, d.model);
  check_matrix("w.wq", w.wq, square);
  check_matrix("w.wk", w.wk, square);
  check_matrix("w.wv", w.wv, square);
  check_matrix("w.wo", w.wo, square);
  if (!positions.empty() && positions.size() != d.tokens)
    detail::fail_length("positions holds ", positions.size(),
                        " values but must be empty or hold one per token (", d.tokens, ")");
}

// out[r·cols + c] = scale·⟨a_r, b_c⟩ for dense rows a [rows][dim] and b [cols][dim]: A·Bᵀ.
// Every product here (projections, QKᵀ, A·V) is this, so all of them run the score kernel.
void matmul_bt(const float* a, std::size_t rows, const float* b, std::size_t cols,
               std::size_t dim, double scale, float* out) {
  detail::dispatched::score_matrix(a, rows, b, cols, dim, scale, out);
}

// X + PE(p) for additive positions (sinusoidal table, model_dim wide), else X itself.
std::vector<float> positioned_input(std::span<const float> x, const attention_options& o,
                                    std::span<const std::int32_t> positions) {
  std::vector<float> xin(x.begin(), x.end());
  if (o.positions != score_mode::additive) return xin;
  std::vector<float> pe(xin.size());
  sinusoidal_table(pe.data(), pe.size(), o.model_dim, o.base, positions, o.pe_layout);
  for (std::size_t j = 0; j < xin.size(); ++j) xin[j] += pe[j];
  return xin;
}

// Head-major projections: q, k [H][T][h] (rows of head h are rows h·h … of Wq, Wk, which
// are contiguous, so each head is one A·Bᵀ); vt [H][h][T] is V transposed, so A·V is A·(Vᵀ)ᵀ.
struct projections {
  std::vector<float> q, k, vt;
};

projections project(const std::vector<float>& xin, const attention_weights& w, const dims& d) {
  const std::size_t per_head = d.tokens * d.head;
  projections p{std::vector<float>(d.heads * per_head), std::vector<float>(d.heads * per_head),
                std::vector<float>(d.heads * per_head)};
  for (std::size_t h = 0; h < d.heads; ++h) {
    const std::size_t rows = h * d.head * d.model;  // first W row of head h
    matmul_bt(xin.data(), d.tokens, w.wq.data() + rows, d.head, d.model, 1.0,
              p.q.data() + h * per_head);
    matmul_bt(xin.data(), d.tokens, w.wk.data() + rows, d.head, d.model, 1.0,
              p.k.data() + h * per_head);
    matmul_bt(w.wv.data() + rows, d.head, xin.data(), d.tokens, d.model, 1.0,
              p.vt.data() + h * per_head);
  }
  return p;
}

// RoPE on Q and K (never V), all heads sharing one cos/sin row per token (rotary.hpp).
void rotate_qk(projections& p, const dims& d, const attention_options& o,
               std::span<const std::int32_t> positions) {
  const rotary_cache cache(rope_config{static_cast<int>(d.head), 0, o.base, o.layout, {}});
  const auto view = [&](std::vector<float>& m) {  // [heads][tokens][dim] storage
    return tensor_view{m.data(), m.size(), static_cast<std::int64_t>(d.tokens),
                       static_cast<std::int64_t>(d.heads), static_cast<std::int64_t>(d.head),
                       static_cast<std::int64_t>(d.head),
                       static_cast<std::int64_t>(d.tokens * d.head)};
  };
  rope_apply_qk(cache, view(p.q), view(p.k), positions);
}

// Softmax of one row of logits over its first `valid` entries, in double with the row
// maximum subtracted (exp never overflows; the largest term is exactly 1). Entries from
// `valid` on are masked keys (j > i under a causal mask) and become exactly 0.
void softmax_row(float* row, std::size_t valid, std::size_t n, std::vector<double>& e) {
  const double m = *std::max_element(row, row + valid);
  double sum = 0;
  for (std::size_t j = 0; j < valid; ++j) {
    e[j] = std::exp(static_cast<double>(row[j]) - m);
    sum += e[j];
  }
  for (std::size_t j = 0; j < valid; ++j) row[j] = static_cast<float>(e[j] / sum);
  std::fill(row + valid, row + n, 0.0f);
}

// One head: weights = softmax(Q_h K_hᵀ/√h) into `a` [T][T], then A·V_h into concat's
// columns h·head … (concat is [T][D]).
void attend_head(const projections& p, const dims& d, std::size_t h, bool causal, float* a,
                 std::vector<float>& concat) {
  const std::size_t per_head = d.tokens * d.head;
  const float* q = p.q.data() + h * per_head;
  const float* k = p.k.data() + h * per_head;
  matmul_bt(q, d.tokens, k, d.tokens, d.head, 1.0 / std::sqrt(static_cast<double>(d.head)), a);
  std::vector<double> e(d.tokens);
  for (std::size_t i = 0; i < d.tokens; ++i)
    softmax_row(a + i * d.tokens, causal ? i + 1 : d.tokens, d.tokens, e);

  std::vector<float> head_out(per_head);  // [T][h]
  matmul_bt(a, d.tokens, p.vt.data() + h * per_head, d.head, d.tokens, 1.0, head_out.data());
  for (std::size_t t = 0; t < d.tokens; ++t)
    std::copy_n(head_out.data() + t * d.head, d.head, concat.data() + t * d.model + h * d.head);
}

} // namespace

attention_weights make_attention_weights(int model_dim, std::uint64_t seed) {
  detail::check_range("model_dim", model_dim, 1, max_attention_model_dim);
  const auto n = static_cast<std::size_t>(model_dim) * static_cast<std::size_t>(model_dim);
  // sqrt is correctly rounded (IEEE 754), so the bound is the same float on every target.
  const auto bound = static_cast<float>(1.0 / std::sqrt(static_cast<double>(model_dim)));
  std::vector<float> all(4 * n);
  fill_uniform(all, seed, -bound, bound);
  const auto part = [&](std::size_t i) {
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(i * n);
    return std::vector<float>(first, first + static_cast<std::ptrdiff_t>(n));
  };
  return {model_dim, part(0), part(1), part(2), part(3)};
}

attention_result self_attention(std::span<const float> x, const attention_weights& w,
                                const attention_options& options,
                                std::span<const std::int32_t> positions) {
  const dims d = check_options(options);
  check_inputs(x, w, d, positions);
  std::vector<std::int32_t> default_positions;
  if (positions.empty()) {
    default_positions.resize(d.tokens);
    std::iota(default_positions.begin(), default_positions.end(), 0);
    positions = default_positions;
  }

  projections p = project(positioned_input(x, options, positions), w, d);
  if (options.positions == score_mode::rotary) rotate_qk(p, d, options, positions);

  attention_result r{std::vector<float>(d.tokens * d.model),
                     std::vector<float>(d.heads * d.tokens * d.tokens)};
  std::vector<float> concat(d.tokens * d.model);
  for (std::size_t h = 0; h < d.heads; ++h)
    attend_head(p, d, h, options.causal, r.weights.data() + h * d.tokens * d.tokens, concat);
  matmul_bt(concat.data(), d.tokens, w.wo.data(), d.model, d.model, 1.0, r.output.data());
  return r;
}

double permutation_test(std::span<const float> x, const attention_weights& w,
                        const attention_options& options, std::uint64_t seed) {
  const std::vector<float> out = self_attention(x, w, options).output;  // validates
  const auto row = static_cast<std::size_t>(options.model_dim);
  const std::vector<std::int32_t> perm = permutation(options.tokens, seed);
  std::vector<float> shuffled(x.size());
  for (std::size_t i = 0; i < perm.size(); ++i)
    std::copy_n(x.data() + static_cast<std::size_t>(perm[i]) * row, row,
                shuffled.data() + i * row);
  const std::vector<float> out_shuffled = self_attention(shuffled, w, options).output;

  double worst = 0;
  for (std::size_t i = 0; i < perm.size(); ++i)
    for (std::size_t c = 0; c < row; ++c) {
      const float a = out[static_cast<std::size_t>(perm[i]) * row + c];
      worst = std::max(worst, std::abs(static_cast<double>(a) - out_shuffled[i * row + c]));
    }
  return worst;
}

} // namespace posenc
