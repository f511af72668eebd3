// wasm/src/bind_scores.cpp — attention logits and the maths that explains them (core:
// posenc/scores.hpp). q, k and positions arrive staged in the heap (addresses + counts);
// the option object was normalized by wasm/js/scores.js.
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

score_options options_from_js(const val& js) {
  score_options o;
  o.dim = js["dim"].as<int>();
  o.mode = parse_score_mode(js["mode"].as<std::string>());
  o.layout = parse_rope_layout(js["layout"].as<std::string>());
  o.pe_layout = parse_pe_layout(js["peLayout"].as<std::string>());
  o.base = js["base"].as<double>();
  o.rotary_dim = js["rotaryDim"].as<int>();
  o.scaling = scaling_from_js(js["scaling"]);
  o.scale = js["scale"].as<bool>();
  o.angles = parse_angle_precision(js["angles"].as<std::string>());
  return o;
}

// → { scores: Float32Array(tq·tk), terms?: { content, queryPosition, positionKey,
// positionPosition } } (terms in additive mode only)
val attention_scores(std::uintptr_t q, std::size_t q_len, std::size_t tq, std::uintptr_t k,
                     std::size_t k_len, std::size_t tk, std::uintptr_t q_pos, std::size_t q_pos_len,
                     std::uintptr_t k_pos, std::size_t k_pos_len, val options) {
  return guarded([&] {
    const score_inputs in = inputs_at(q, q_len, tq, k, k_len, tk, q_pos, q_pos_len, k_pos, k_pos_len);
    const score_options o = options_from_js(options);
    // tq·tk within the core's documented maximum before allocating the output for it.
    if (tk != 0 && tq > max_score_elements / tk)
      detail::fail_length("q rows x k rows = ", tq, " x ", tk, " exceeds ", max_score_elements);
    std::vector<float> out(tq * tk);
    score_terms terms;
    posenc::attention_scores(in.q, tq, in.k, tk, in.q_positions, in.k_positions, o, out, &terms);
    val result = val::object();
    result.set("scores", copy_to_js(out));
    if (o.mode == score_mode::additive) {
      val t = val::object();
      t.set("content", copy_to_js(terms.content));
      t.set("queryPosition", copy_to_js(terms.query_position));
      t.set("positionKey", copy_to_js(terms.position_key));
      t.set("positionPosition", copy_to_js(terms.position_position));
      result.set("terms", t);
    }
    return result;
  });
}

val shift_invariance(std::uintptr_t q, std::size_t q_len, std::size_t tq, std::uintptr_t k,
                     std::size_t k_len, std::size_t tk, std::uintptr_t q_pos, std::size_t q_pos_len,
                     std::uintptr_t k_pos, std::size_t k_pos_len, val options, double shift) {
  return guarded([&] {
    const score_inputs in = inputs_at(q, q_len, tq, k, k_len, tk, q_pos, q_pos_len, k_pos, k_pos_len);
    return val(posenc::shift_invariance(in.q, tq, in.k, tk, in.q_positions, in.k_positions,
                                        options_from_js(options), i64(shift)));
  });
}

// → { score, dot, area }
val relative_kernel(std::uintptr_t q, std::size_t q_len, std::uintptr_t k, std::size_t k_len,
                    int dim, double base, double delta, std::string layout) {
  return guarded([&] {
    const kernel_value v = posenc::relative_kernel(
        {from_address<const float>(q), q_len}, {from_address<const float>(k), k_len}, dim, base,
        i64(delta), parse_rope_layout(layout));
    val out = val::object();
    out.set("score", v.score);
    out.set("dot", v.dot);
    out.set("area", v.area);
    return out;
  });
}

val decay_bound(int dim, double base, double max_distance) {
  return guarded([&] {
    return copy_to_js(posenc::decay_bound(dim, base, i64(max_distance)));
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
