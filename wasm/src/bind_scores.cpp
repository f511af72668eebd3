// wasm/src/bind_scores.cpp — attention logits and the maths that explains them (core:
// posenc/scores.hpp). q, k and positions arrive staged in the heap (addresses + counts);
// the options arrive as primitives read and checked by wasm/js/scores.js.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/detail/check.hpp"
#include "posenc/scores.hpp"

#include <emscripten/bind.h>

#include <string>

namespace posenc::wasm {
namespace {

// The staged inputs of one scores call: q [tq][dim], k [tk][dim], one position per row.
struct score_inputs {
  std::span<const float> q, k;
  std::size_t tq, tk;
  std::span<const std::int32_t> q_positions, k_positions;
};

score_inputs inputs_at(std::uintptr_t q, std::size_t q_len, std::size_t tq, std::uintptr_t k,
                       std::size_t k_len, std::size_t tk, std::uintptr_t q_pos,
                       std::size_t q_pos_len, std::uintptr_t k_pos, std::size_t k_pos_len) {
  return {{from_address<const float>(q), q_len}, {from_address<const float>(k), k_len}, tq, tk,
          {from_address<const std::int32_t>(q_pos), q_pos_len},
          {from_address<const std::int32_t>(k_pos), k_pos_len}};
}

// The options wasm/js/scores.js read and checked, as primitives (the scaling as a block).
score_options options_of(int dim, const std::string& mode, const std::string& layout,
                         const std::string& pe_layout, double base, int rotary_dim,
                         const std::string& scaling_type, std::uintptr_t scaling, bool scale,
                         const std::string& angles) {
  score_options o;
  o.dim = dim;
  o.mode = parse_score_mode(mode);
  o.layout = parse_rope_layout(layout);
  o.pe_layout = parse_pe_layout(pe_layout);
  o.base = base;
  o.rotary_dim = rotary_dim;
  o.scaling = scaling_at(scaling_type, scaling);
  o.scale = scale;
  o.angles = parse_angle_precision(angles);
  return o;
}

// → Float32Array view [scores | content | queryPosition | positionKey | positionPosition],
// tq·tk floats each (the four terms in additive mode only)
val attention_scores(std::uintptr_t q, std::size_t q_len, std::size_t tq, std::uintptr_t k,
                     std::size_t k_len, std::size_t tk, std::uintptr_t q_pos, std::size_t q_pos_len,
                     std::uintptr_t k_pos, std::size_t k_pos_len, int dim, std::string mode,
                     std::string layout, std::string pe_layout, double base, int rotary_dim,
                     std::string scaling_type, std::uintptr_t scaling, bool scale,
                     std::string angles) {
  return guarded([&] {
    const score_inputs in = inputs_at(q, q_len, tq, k, k_len, tk, q_pos, q_pos_len, k_pos, k_pos_len);
    const score_options o = options_of(dim, mode, layout, pe_layout, base, rotary_dim,
                                       scaling_type, scaling, scale, angles);
    // tq·tk within the core's documented maximum before allocating the output for it.
    if (tk != 0 && tq > max_score_elements / tk)
      detail::fail_length("q rows x k rows = ", tq, " x ", tk, " exceeds ", max_score_elements);
    std::vector<float> out(tq * tk);
    score_terms terms;
    posenc::attention_scores(in.q, tq, in.k, tk, in.q_positions, in.k_positions, o, out, &terms);
    if (o.mode == score_mode::additive)
      for (const std::vector<float>* t : {&terms.content, &terms.query_position,
                                          &terms.position_key, &terms.position_position})
        out.insert(out.end(), t->begin(), t->end());
    return hand_over(std::move(out));
  });
}

val shift_invariance(std::uintptr_t q, std::size_t q_len, std::size_t tq, std::uintptr_t k,
                     std::size_t k_len, std::size_t tk, std::uintptr_t q_pos, std::size_t q_pos_len,
                     std::uintptr_t k_pos, std::size_t k_pos_len, int dim, std::string mode,
                     std::string layout, std::string pe_layout, double base, int rotary_dim,
                     std::string scaling_type, std::uintptr_t scaling, bool scale,
                     std::string angles, double shift) {
  return guarded([&] {
    const score_inputs in = inputs_at(q, q_len, tq, k, k_len, tk, q_pos, q_pos_len, k_pos, k_pos_len);
    const score_options o = options_of(dim, mode, layout, pe_layout, base, rotary_dim,
                                       scaling_type, scaling, scale, angles);
    return val(posenc::shift_invariance(in.q, tq, in.k, tk, in.q_positions, in.k_positions, o,
                                        i64(shift)));
  });
}

// → Float64Array view [score, dot, area]
val relative_kernel(std::uintptr_t q, std::size_t q_len, std::uintptr_t k, std::size_t k_len,
                    int dim, double base, double delta, std::string layout) {
  return guarded([&] {
    const kernel_value v = posenc::relative_kernel(
        {from_address<const float>(q), q_len}, {from_address<const float>(k), k_len}, dim, base,
        i64(delta), parse_rope_layout(layout));
    return hand_over(std::vector<double>{v.score, v.dot, v.area});
  });
}

val decay_bound(int dim, double base, double max_distance) {
  return guarded([&] {
    return hand_over(posenc::decay_bound(dim, base, i64(max_distance)));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_scores) {
  using namespace posenc::wasm;
  emscripten::function("attentionScores", &attention_scores);
  emscripten::function("shiftInvariance", &shift_invariance);
  emscripten::function("relativeKernel", &relative_kernel);
  emscripten::function("decayBound", &decay_bound);
}
