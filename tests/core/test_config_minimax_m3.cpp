// test_config_minimax_m3.cpp — MiniMax-M3 (models/minimax_m3_vl, transformers c49429ed) through
// model_from_config / rope_from_config: MiniMaxM3VLTextConfig's layer_types (given, or from
// sparse_attention_config.sparse_attention_freq), MiniMaxM3VLRotaryEmbedding's default ladder
// over int(head_dim · partial_rotary_factor) dims in float64, and MiniMaxM3VLIndexer's rotary:
// apply_rotary_pos_emb(idx_q, idx_k, cos[..., :index_head_dim], sin[..., :index_head_dim]),
// the layer's rotary dims of an index_head_dim-wide head.
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace {

using posenc::config_value;

// The text config's RoPE keys as MiniMax-M3 publishes them (head 128, 64 rotated, θ 5e6).
posenc::hf_config m3(int layers) {
  posenc::hf_config c = posenc::test::config_shape("minimax_m3_vl_text", 6144, 64, 128, layers, "text_config.");
  c["model_type"] = config_value::of_text("minimax_m3_vl");
  c["text_config.rotary_dim"] = config_value::of(64);
  c["text_config.partial_rotary_factor"] = config_value::of(0.5);
  c["text_config.rope_theta"] = config_value::of(5e6);
  return c;
}

// compute_default_rope_parameters: 1 / θ^(2i / dim), rung by rung.
using posenc::test::check_default_ladder;

}  // namespace

TEST_CASE("config minimax_m3: sparse_attention_freq gives the sparse layers; one rotary for all",
          "[config][families]") {
  posenc::hf_config c = m3(4);
  c["text_config.sparse_attention_config"] = config_value::object();
  c["text_config.sparse_attention_config.sparse_attention_freq"] = config_value::of_numbers({0, 1, 1, 0});
  const posenc::model_info m = posenc::model_from_config(c);
  CHECK(m.family == "minimax_m3");
  REQUIRE(m.encodings.size() == 1);
  check_default_ladder(m.encodings[0], 128, 64, 5e6);
  for (const posenc::layer_info& l : m.layers) {
    const bool sparse = l.index == 1 || l.index == 2;
    CHECK(l.attention == (sparse ? posenc::attention_kind::sparse : posenc::attention_kind::full));
    CHECK(l.rope == std::optional<std::size_t>(0));
    CHECK_FALSE(l.window.has_value());
  }
  // layer_types, when given, decide (MiniMaxM3VLTextConfig reads the flags only without them).
  c["text_config.layer_types"] = config_value::strings(4);
  for (int i = 0; i < 4; ++i)
    c["text_config.layer_types." + std::to_string(i)] = config_value::of_text(i == 3 ? "minimax_m3_sparse" : "full_attention");
  const posenc::model_info listed = posenc::model_from_config(c);
  for (const posenc::layer_info& l : listed.layers)
    CHECK(l.attention == (l.index == 3 ? posenc::attention_kind::sparse : posenc::attention_kind::full));
  c["text_config.layer_types.0"] = config_value::of_text("sliding_attention");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); },
      "text_config.layer_types[0] = 'sliding_attention' is not a layer type of minimax_m3 (full_attention, minimax_m3_sparse");
  // Without either, every layer is full attention.
  for (const posenc::layer_info& l : posenc::model_from_config(m3(3)).layers)
    CHECK(l.attention == posenc::attention_kind::full);
  posenc::hf_config bad = m3(4);
  bad["text_config.sparse_attention_config"] = config_value::object();
  bad["text_config.sparse_attention_config.sparse_attention_freq"] = config_value::of_numbers({0, 1, 1});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(bad); },
      "text_config.sparse_attention_config.sparse_attention_freq must hold one entry per layer (4), got 3");
}

TEST_CASE("config minimax_m3: the indexer rotates the layer's rotary dims of its index_head_dim head",
          "[config][families]") {
  posenc::hf_config c = m3(2);
  // index_head_dim's class default 128: cos[..., :128] is the whole 64-wide cos.
  check_default_ladder(posenc::rope_from_config(c, {.part = "indexer"}), 128, 64, 5e6);
  c["text_config.index_head_dim"] = config_value::of(96);
  check_default_ladder(posenc::rope_from_config(c, {.part = "indexer"}), 96, 64, 5e6);
  // The legacy sparse_attention_config.sparse_index_dim is set last: it wins.
  c["text_config.sparse_attention_config"] = config_value::object();
  c["text_config.sparse_attention_config.sparse_index_dim"] = config_value::of(64);
  check_default_ladder(posenc::rope_from_config(c, {.part = "indexer"}), 64, 64, 5e6);
  // Narrower than the rotary: cos[..., :32] pairs different rungs — refused by name.
  c["text_config.sparse_attention_config.sparse_index_dim"] = config_value::of(32);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(c, {.part = "indexer"}); },
      "text_config.sparse_attention_config.sparse_index_dim = 32 is narrower than the 64 rotated dims");
  // The main attention is unaffected by the indexer's width.
  check_default_ladder(posenc::rope_from_config(c), 128, 64, 5e6);
}

TEST_CASE("config minimax_m3: rotary_dim, which transformers does not read, must agree with the factor",
          "[config][families]") {
  // MiniMaxM3VLRotaryEmbedding rotates int(head_dim · partial_rotary_factor) dims (default
  // factor 1.0); the class's rotary_dim (64) is never read.
  posenc::hf_config c = m3(2);
  c.erase("text_config.partial_rotary_factor");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(c); }, "text_config.rotary_dim is not read by transformers");
  c.erase("text_config.rotary_dim");
  check_default_ladder(posenc::rope_from_config(c), 128, 128, 5e6);
}
