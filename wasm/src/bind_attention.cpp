// wasm/src/bind_attention.cpp — the small multi-head self-attention (core:
// posenc/attention.hpp). x, the four weight matrices and positions arrive staged in the
// heap; the options as primitives read and checked by wasm/js/attention.js.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/attention.hpp"

#include <emscripten/bind.h>

#include <string>

namespace posenc::wasm {
namespace {

// The options wasm/js/attention.js read and checked, as primitives.
attention_options options_of(int tokens, int model_dim, int heads, const std::string& mode,
                             bool causal, double base, const std::string& layout,
                             const std::string& pe_layout) {
  attention_options o;
  o.tokens = tokens;
  o.model_dim = model_dim;
  o.heads = heads;
  o.positions = parse_score_mode(mode);
  o.causal = causal;
  o.base = base;
  o.layout = parse_rope_layout(layout);
  o.pe_layout = parse_pe_layout(pe_layout);
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

// → Float32Array view [wq | wk | wv | wo], modelDim² floats each
val make_attention_weights(int model_dim, std::uint32_t seed_lo, std::uint32_t seed_hi) {
  return guarded([&] {
    const attention_weights w =
        posenc::make_attention_weights(model_dim, seed_of(seed_lo, seed_hi));
    std::vector<float> all;
    all.reserve(4 * w.wq.size());
    for (const std::vector<float>* m : {&w.wq, &w.wk, &w.wv, &w.wo})
      all.insert(all.end(), m->begin(), m->end());
    return hand_over(std::move(all));
  });
}

// → Float32Array view [output (T·D) | weights (H·T·T)]
val self_attention(std::uintptr_t x, std::size_t x_len, std::uintptr_t w, std::size_t w_len,
                   std::uintptr_t positions, std::size_t n_positions, int tokens, int model_dim,
                   int heads, std::string mode, bool causal, double base, std::string layout,
                   std::string pe_layout) {
  return guarded([&] {
    const attention_options o =
        options_of(tokens, model_dim, heads, mode, causal, base, layout, pe_layout);
    attention_result r = posenc::self_attention(
        {from_address<const float>(x), x_len}, weights_at(o.model_dim, w, w_len), o,
        {from_address<const std::int32_t>(positions), n_positions});
    r.output.insert(r.output.end(), r.weights.begin(), r.weights.end());
    return hand_over(std::move(r.output));
  });
}

val permutation_test(std::uintptr_t x, std::size_t x_len, std::uintptr_t w, std::size_t w_len,
                     int tokens, int model_dim, int heads, std::string mode, bool causal,
                     double base, std::string layout, std::string pe_layout,
                     std::uint32_t seed_lo, std::uint32_t seed_hi) {
  return guarded([&] {
    const attention_options o =
        options_of(tokens, model_dim, heads, mode, causal, base, layout, pe_layout);
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
