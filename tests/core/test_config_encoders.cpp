// test_config_encoders.cpp — text encoders through model_from_config / rope_from_config:
// ModernBERT (ModernBertConfig.__post_init__ / convert_rope_params_to_dict, ModernBertAttention,
// create_bidirectional_sliding_window_mask), EuroBERT, nomic_bert and jina_embeddings_v3 (their
// *RotaryEmbedding.compute_default_rope_parameters: θ_i = 1 / base^(2i / d), d = head_dim or
// hidden / heads; is_causal False), transformers c49429ed, evaluated in float64.
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <cmath>
#include <string>

namespace {

using posenc::config_value;

// The shape keys only, head_dim left to hidden / heads.
posenc::hf_config encoder(const std::string& type, int hidden, int heads, int layers) {
  return posenc::test::config_shape(type, hidden, heads, 0, layers);
}

// compute_default_rope_parameters over the whole head, rung by rung; `factor` divides every
// rung (linear).
void check_ladder(const posenc::rope_config& r, int dims, double theta, double factor = 1.0) {
  posenc::test::check_default_ladder(r, dims, dims, theta, factor);
}

}  // namespace

TEST_CASE("config modernbert: every 3rd layer full at θ 160000, the rest a symmetric window at θ 10000",
          "[config][families]") {
  posenc::hf_config c = encoder("modernbert", 768, 12, 22);
  const posenc::model_info m = posenc::model_from_config(c);
  CHECK(m.family == "modernbert");
  REQUIRE(m.layers.size() == 22);
  REQUIRE(m.encodings.size() == 2);
  for (const posenc::layer_info& l : m.layers) {
    const bool full = l.index % 3 == 0;  // "sliding_attention" if bool(i % 3)
    CHECK(l.bidirectional);
    CHECK(l.attention == (full ? posenc::attention_kind::full : posenc::attention_kind::sliding));
    // sliding_window = local_attention // 2 = 64; the mask keeps |i − j| ≤ 64.
    CHECK(l.window == (full ? std::nullopt : std::optional<int>(65)));
    CHECK(l.lookahead == (full ? std::nullopt : std::optional<int>(64)));
    REQUIRE(l.rope.has_value());
    check_ladder(m.encodings[*l.rope], 64, full ? 160000.0 : 10000.0);
  }
  // The Hub's kwargs: local_attention, global_attn_every_n_layers, global / local_rope_theta.
  c["local_attention"] = config_value::of(256);
  c["global_attn_every_n_layers"] = config_value::of(2);
  c["global_rope_theta"] = config_value::of(80000.0);
  c["local_rope_theta"] = config_value::of(20000.0);
  const posenc::model_info g = posenc::model_from_config(c);
  for (const posenc::layer_info& l : g.layers) {
    const bool full = l.index % 2 == 0;
    CHECK(l.window == (full ? std::nullopt : std::optional<int>(129)));
    CHECK(l.lookahead == (full ? std::nullopt : std::optional<int>(128)));
    check_ladder(g.encodings[*l.rope], 64, full ? 80000.0 : 20000.0);
  }
  // rope_scaling updates both layer types' dicts (convert_rope_params_to_dict).
  c["rope_scaling"] = config_value::object();
  c["rope_scaling.rope_type"] = config_value::of_text("linear");
  c["rope_scaling.factor"] = config_value::of(2.0);
  check_ladder(posenc::rope_from_config(c), 64, 80000.0, 2.0);
  check_ladder(posenc::rope_from_config(c, {.layer_type = "sliding_attention"}), 64, 20000.0, 2.0);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c, {.stack = "decoder"}); },
      "stack 'decoder': modernbert has only an encoder");
}

TEST_CASE("config eurobert, nomic_bert, jina_embeddings_v3: one bidirectional full-attention stack",
          "[config][families]") {
  struct row {
    const char* type;
    int hidden, heads;
    double theta;  // the class's default_theta (EuroBERT: the mixin's 10000)
  };
  for (const row& r : {row{"eurobert", 768, 12, 10000.0}, row{"nomic_bert", 768, 12, 1000.0},
                       row{"jina_embeddings_v3", 1024, 16, 20000.0}}) {
    CAPTURE(r.type);
    posenc::hf_config c = encoder(r.type, r.hidden, r.heads, 3);
    const posenc::model_info m = posenc::model_from_config(c);
    CHECK(m.family == r.type);
    REQUIRE(m.encodings.size() == 1);
    check_ladder(m.encodings[0], r.hidden / r.heads, r.theta);
    for (const posenc::layer_info& l : m.layers) {
      CHECK(l.attention == posenc::attention_kind::full);
      CHECK(l.bidirectional);
      CHECK_FALSE(l.window.has_value());
      CHECK_FALSE(l.lookahead.has_value());
    }
    c["rope_parameters"] = config_value::object();
    c["rope_parameters.rope_type"] = config_value::of_text("default");
    c["rope_parameters.rope_theta"] = config_value::of(250000.0);
    c["head_dim"] = config_value::of(128);  // getattr(config, "head_dim", None) wins
    check_ladder(posenc::rope_from_config(c), 128, 250000.0);
    posenc::hf_config null_theta = encoder(r.type, r.hidden, r.heads, 3);
    null_theta["rope_theta"] = config_value::null_value();
    posenc::test::require_throws<posenc::invalid_argument>(
        [&] { (void)posenc::rope_from_config(null_theta); }, "rope_theta");
  }
}

TEST_CASE("config esm: RoPE only with position_embedding_type 'rotary'; roformer: interleaved at 10000",
          "[config][families]") {
  // EsmRotaryEmbedding.compute_default_rope_parameters: config.rope_theta over hidden / heads.
  posenc::hf_config esm = encoder("esm", 320, 20, 6);  // ESM-2 8M's shape
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(esm); },
      "position_embedding_type is not 'rotary': esm then builds no rotary");
  for (const posenc::layer_info& l : posenc::model_from_config(esm).layers) CHECK_FALSE(l.rope.has_value());
  esm["position_embedding_type"] = config_value::of_text("rotary");
  const posenc::model_info m = posenc::model_from_config(esm);
  REQUIRE(m.encodings.size() == 1);
  check_ladder(m.encodings[0], 16, 10000.0);
  for (const posenc::layer_info& l : m.layers) CHECK(l.bidirectional);
  esm["is_decoder"] = config_value::of_bool(true);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(esm); }, "is_decoder = true: EsmSelfAttention is then causal");
  // RoFormerSinusoidalPositionalEmbedding: pos / 10000^(2 (j // 2) / dim), dim = hidden / heads;
  // apply_rotary_position_embeddings pairs (2i, 2i + 1).
  posenc::hf_config ro = encoder("roformer", 768, 12, 12);
  const posenc::rope_config r = posenc::rope_from_config(ro);
  CHECK(r.layout == posenc::rope_layout::interleaved);
  CHECK(r.head_dim == 64);
  CHECK(r.base == 10000.0);
  ro["rotary_value"] = config_value::of_bool(true);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(ro); }, "rotary_value = true: apply_rotary_position_embeddings");
  ro["rotary_value"] = config_value::of_bool(false);
  ro["rope_theta"] = config_value::of(20000.0);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(ro); }, "rope_theta is not read by roformer");
}
