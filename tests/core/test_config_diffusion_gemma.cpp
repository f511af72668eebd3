// test_config_diffusion_gemma.cpp — DiffusionGemma (models/diffusion_gemma, transformers
// c49429ed) through model_from_config / rope_from_config. One DiffusionGemmaTextConfig runs two
// stacks: the prompt encoder (DiffusionGemmaEncoderTextAttention: is_causal unless
// use_bidirectional_attention 'all'; create_causal_mask / create_sliding_window_causal_mask) and
// the canvas decoder (DiffusionGemmaDecoderTextAttention: is_causal False, bidirectional_mask_function
// over the cached prompt keys and the canvas). The layer records are checked against those mask
// functions (masking_utils.py) re-implemented here, the rotaries against
// DiffusionGemmaTextRotaryEmbedding (compute_default_rope_parameters; _compute_proportional_rope_parameters
// on full layers) in float64.
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>

namespace {

using posenc::config_value;

// DiffusionGemmaConfig with its text config nested, head_dim 256 (global 512 by default).
posenc::hf_config diffusion(int layers) {
  posenc::hf_config c = posenc::test::config_shape("diffusion_gemma_text", 2816, 16, 256, layers, "text_config.");
  c["model_type"] = config_value::of_text("diffusion_gemma");
  return c;
}

using mask_fn = std::function<bool(int q, int kv)>;

// masking_utils.py, at absolute positions (q_idx, kv_idx).
const mask_fn causal = [](int q, int kv) { return kv <= q; };            // causal_mask_function
const mask_fn both_ways = [](int, int) { return true; };                // bidirectional_mask_function
mask_fn sliding_causal(int w) {  // sliding_window_causal_mask_function
  return [w](int q, int kv) { return kv > q - w && kv <= q; };
}
mask_fn sliding_both_ways(int w) {  // sliding_window_bidirectional_mask_function
  return [w](int q, int kv) { return std::abs(q - kv) <= w; };
}

// What posenc's layer record says a query at i sees of a key at j (posenc/config.hpp layer_info).
bool record_sees(const posenc::layer_info& l, int i, int j) {
  if (!l.bidirectional && j > i) return false;
  if (l.window && i - j >= *l.window) return false;
  if (l.lookahead && j - i > *l.lookahead) return false;
  return true;
}

// The record and HF's mask agree on every (query, key) pair of positions [0, n).
void check_mask(const posenc::layer_info& l, const mask_fn& hf, int n) {
  int differ = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) differ += record_sees(l, i, j) != hf(i, j);
  INFO("layer " << l.index);
  CHECK(differ == 0);
}

// The two rotaries of DiffusionGemmaTextConfig's default rope_parameters, in float64:
// sliding {default, 1e4} over head_dim 256; full {proportional, p 0.25, 1e6} over 512.
void check_rotaries(const posenc::model_info& m) {
  REQUIRE(m.encodings.size() == 2);
  const posenc::rope_config& local = m.encodings[*m.layers[0].rope];
  const posenc::rope_config& global = m.encodings[*m.layers[5].rope];
  CHECK(local.head_dim == 256);
  CHECK(local.rotary_dim == 256);
  const posenc::frequencies lf = posenc::inverse_frequencies(256, local.base, local.scaling);
  for (int i = 0; i < 128; ++i)  // compute_default_rope_parameters: 1 / 1e4^(2i / 256)
    CHECK(lf.inv_freq[static_cast<std::size_t>(i)] == Approx(1.0 / std::pow(1e4, 2.0 * i / 256)).epsilon(1e-15));
  CHECK(global.head_dim == 512);
  CHECK(global.scaling.type == posenc::scaling_type::proportional);
  const posenc::frequencies gf = posenc::inverse_frequencies(512, global.base, global.scaling);
  for (int i = 0; i < 256; ++i)  // the first int(0.25 · 512 / 2) = 64 rungs over 512, then 0
    CHECK(gf.inv_freq[static_cast<std::size_t>(i)] ==
          Approx(i < 64 ? 1.0 / std::pow(1e6, 2.0 * i / 512) : 0.0).epsilon(1e-15));
}

}  // namespace

TEST_CASE("config diffusion_gemma: one text config, two stacks; stack is required",
          "[config][families]") {
  const posenc::hf_config c = diffusion(6);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); },
      "stack is required: 'diffusion_gemma_text' runs one text config as two stacks");
  posenc::hf_config text = posenc::test::config_shape("diffusion_gemma_text", 2816, 16, 256, 6);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(text); }, "pass stack 'encoder' (the prompt's layers)");
  CHECK(posenc::model_from_config(text, {.stack = "encoder"}).layers.size() == 6);
  posenc::hf_config bare = posenc::test::config_shape("diffusion_gemma", 2816, 16, 256, 6);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(bare, {.stack = "encoder"}); },
      "text_config must be an object: diffusion_gemma reads its text model from it");
}

TEST_CASE("config diffusion_gemma: the prompt encoder is Gemma 4's causal stack (sliding w, every 6th full)",
          "[config][families]") {
  const posenc::model_info m = posenc::model_from_config(diffusion(12), {.stack = "encoder"});
  CHECK(m.family == "diffusion_gemma");
  REQUIRE(m.layers.size() == 12);
  for (const posenc::layer_info& l : m.layers) {
    const bool full = (l.index + 1) % 6 == 0;
    CHECK(l.attention == (full ? posenc::attention_kind::full : posenc::attention_kind::sliding));
    CHECK_FALSE(l.bidirectional);
    CHECK(l.cross == posenc::cross_attention::none);
    check_mask(l, full ? causal : sliding_causal(512), 1100);
  }
  check_rotaries(m);

  // use_bidirectional_attention 'all': is_causal False, sliding_window (512 // 2) + 1 = 257.
  posenc::hf_config all = diffusion(12);
  all["text_config.use_bidirectional_attention"] = config_value::of_text("all");
  const posenc::model_info a = posenc::model_from_config(all, {.stack = "encoder"});
  for (const posenc::layer_info& l : a.layers) {
    CHECK(l.bidirectional);
    check_mask(l, l.attention == posenc::attention_kind::full ? both_ways : sliding_both_ways(257), 700);
  }
  check_rotaries(a);
}

TEST_CASE("config diffusion_gemma: the canvas decoder is bidirectional; its sliding layers are refused",
          "[config][families]") {
  // Default layer_types: sliding layers, whose keys are bounded by the canvas block, not the query.
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(diffusion(6), {.stack = "decoder"}); },
      "text_config.layer_types[0] is sliding_attention on diffusion_gemma's decoder stack");
  // Their rotaries are read exactly all the same, one layer at a time (shared with the encoder).
  const posenc::model_info enc = posenc::model_from_config(diffusion(6), {.stack = "encoder"});
  for (int layer : {0, 5}) {
    const posenc::rope_config r = posenc::rope_from_config(diffusion(6), {.layer = layer, .stack = "decoder"});
    const posenc::rope_config& e = enc.encodings[*enc.layers[static_cast<std::size_t>(layer)].rope];
    CHECK(r.head_dim == e.head_dim);
    CHECK(r.base == e.base);
    CHECK(r.scaling.type == e.scaling.type);
  }
  // Full-attention layers only: every layer bidirectional over the prompt keys and the canvas.
  posenc::hf_config full = diffusion(4);
  posenc::test::put_strings(full, "text_config.layer_types",
                            {"full_attention", "full_attention", "full_attention", "full_attention"});
  const posenc::model_info d = posenc::model_from_config(full, {.stack = "decoder"});
  for (const posenc::layer_info& l : d.layers) {
    CHECK(l.attention == posenc::attention_kind::full);
    CHECK(l.bidirectional);
    CHECK(l.cross == posenc::cross_attention::none);
    CHECK(l.rope == std::optional<std::size_t>(0));
    check_mask(l, both_ways, 300);
  }
  CHECK(d.encodings[0].head_dim == 512);  // global_head_dim on full layers
  // The encoder of the same config stays causal.
  for (const posenc::layer_info& l : posenc::model_from_config(full, {.stack = "encoder"}).layers)
    CHECK_FALSE(l.bidirectional);
}

TEST_CASE("config diffusion_gemma: a default-type partial factor is refused (its cos would not broadcast)",
          "[config][families]") {
  posenc::hf_config c = diffusion(6);
  const std::string d = "text_config.rope_parameters.";
  c["text_config.rope_parameters"] = config_value::object();
  c[d + "sliding_attention"] = config_value::object();
  c[d + "sliding_attention.rope_type"] = config_value::of_text("default");
  c[d + "sliding_attention.rope_theta"] = config_value::of(1e4);
  c[d + "sliding_attention.partial_rotary_factor"] = config_value::of(0.5);
  c[d + "full_attention"] = config_value::object();
  c[d + "full_attention.rope_type"] = config_value::of_text("proportional");
  c[d + "full_attention.rope_theta"] = config_value::of(1e6);
  c[d + "full_attention.partial_rotary_factor"] = config_value::of(0.25);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c, {.stack = "encoder"}); },
      "partial_rotary_factor = 0.5 is not read by diffusion_gemma's default rotary");
  c[d + "sliding_attention.partial_rotary_factor"] = config_value::of(1.0);
  CHECK(posenc::model_from_config(c, {.stack = "encoder"}).encodings[0].rotary_dim == 256);
}
