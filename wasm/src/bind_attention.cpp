// wasm/src/bind_attention.cpp — the small multi-head self-attention (core:
// posenc/attention.hpp). x, the four weight matrices and positions arrive staged in the
// heap; the option object was normalized by wasm/js/attention.js.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/attention.hpp"

#include <emscripten/bind.h>

#include <string>

namespace posenc::wasm {
namespace {

attention_options options_from_js(const val& js) {
  attention_options o;
  o.tokens = js["tokens"].as<int>();
  o.model_dim = js["modelDim"].as<int>();
  o.heads = js["heads"].as<int>();
  o.positions = parse_score_mode(js["mode"].as<std::string>());
  o.causal = js["causal"].as<bool>();
  o.base = js["base"].as<double>();
  o.layout = parse_rope_layout(js["layout"].as<std::string>());
  o.pe_layout = parse_pe_layout(js["peLayout"].as<std::string>());
  return o;
}

std::vector<float> floats_at(std::uintptr_t address, std::size_t n) {
  const float* p = from_address<const float>(address);
  return {p, p + n};
}

// The four matrices staged back to back at `w` (wq, wk, wv, wo), `n` floats each.
attention_weights weights_at(int model_dim, std::uintptr_t w, std::size_t n) {
  return {model_dim, floats_at(w, n), floats_at(w + 4 * n, n), floats_at(w + 8 * n, n),
          floats_at(w + 12 * n, n)};
}

// → { wq, wk, wv, wo: Float32Array(modelDim²) }
val make_attention_weights(int model_dim, std::uint32_t seed_lo, std::uint32_t seed_hi) {
  return guarded([&] {
    const attention_weights w =
        posenc::make_attention_weights(model_dim, seed_of(seed_lo, seed_hi));
    val out = val::object();
    out.set("wq", copy_to_js(w.wq));
    out.set("wk", copy_to_js(w.wk));
    out.set("wv", copy_to_js(w.wv));
    out.set("wo", copy_to_js(w.wo));
    return out;
  });
}

// → { output: Float32Array(T·D), weights: Float32Array(H·T·T) }
val self_attention(std::uintptr_t x, std::size_t x_len, std::uintptr_t w, std::size_t w_len,
                   std::uintptr_t positions, std::size_t n_positions, val options) {
  return guarded([&] {
    const attention_options o = options_from_js(options);
    const attention_result r = posenc::self_attention(
        {from_address<const float>(x), x_len}, weights_at(o.model_dim, w, w_len), o,
        {from_address<const std::int32_t>(positions), n_positions});
    val out = val::object();
    out.set("output", copy_to_js(r.output));
    out.set("weights", copy_to_js(r.weights));
    return out;
  });
}

val permutation_test(std::uintptr_t x, std::size_t x_len, std::uintptr_t w, std::size_t w_len,
                     val options, std::uint32_t seed_lo, std::uint32_t seed_hi) {
  return guarded([&] {
    const attention_options o = options_from_js(options);
    return val(posenc::permutation_test({from_address<const float>(x), x_len},
                                        weights_at(o.model_dim, w, w_len), o,
                                        seed_of(seed_lo, seed_hi)));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_attention) {
  using namespace posenc::wasm;
  emscripten::function("makeAttentionWeights", &make_attention_weights);
  emscripten::function("selfAttention", &self_attention);
  emscripten::function("permutationTest", &permutation_test);
}
