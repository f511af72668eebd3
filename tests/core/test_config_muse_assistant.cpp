// test_config_muse_assistant.cpp — Muse Glimmer's draft model (models/muse_glimmer_assistant,
// transformers c49429ed) through model_from_config: MuseGlimmerAssistantConfig's layer_types
// (default every layer sliding_attention, sliding_window 2048), its masks
// (create_bidirectional_mask / create_bidirectional_sliding_window_mask: |q − k| ≤ w at
// absolute positions) and MuseGlimmerAssistantRotaryEmbedding.compute_default_rope_parameters
// (the whole head, rope_theta, default 500000) in float64.
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <cmath>
#include <string>

namespace {

using posenc::config_value;

posenc::hf_config assistant(int layers) {
  return posenc::test::config_shape("muse_glimmer_assistant", 6656, 32, 128, layers);
}

}  // namespace

TEST_CASE("config muse_glimmer_assistant: one bidirectional stack, every layer sliding |i − j| ≤ 2048",
          "[config][families]") {
  const posenc::model_info m = posenc::model_from_config(assistant(5));
  CHECK(m.family == "muse_glimmer_assistant");
  REQUIRE(m.encodings.size() == 1);
  posenc::test::check_default_ladder(m.encodings[0], 128, 128, 500000.0);
  for (const posenc::layer_info& l : m.layers) {
    CHECK(l.attention == posenc::attention_kind::sliding);
    CHECK(l.bidirectional);
    CHECK(l.window == 2049);  // keys at or before the query: 0 ≤ i − j ≤ 2048
    CHECK(l.lookahead == 2048);
    CHECK(l.rope == std::optional<std::size_t>(0));
  }
  // A listed full_attention layer: create_bidirectional_mask, no window.
  posenc::hf_config c = assistant(2);
  c["layer_types"] = config_value::strings(2);
  c["layer_types.0"] = config_value::of_text("full_attention");
  c["layer_types.1"] = config_value::of_text("sliding_attention");
  c["sliding_window"] = config_value::of(512);
  c["rope_parameters"] = config_value::object();
  c["rope_parameters.rope_type"] = config_value::of_text("default");
  c["rope_parameters.rope_theta"] = config_value::of(1e6);
  const posenc::model_info listed = posenc::model_from_config(c);
  CHECK(listed.layers[0].attention == posenc::attention_kind::full);
  CHECK(listed.layers[0].bidirectional);
  CHECK_FALSE(listed.layers[0].window.has_value());
  CHECK(listed.layers[1].window == 513);
  CHECK(listed.layers[1].lookahead == 512);
  CHECK(listed.encodings[0].base == 1e6);
  // compute_default_rope_parameters spans head_dim: a partial factor is not read.
  c["rope_parameters.partial_rotary_factor"] = config_value::of(0.5);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); }, "partial_rotary_factor = 0.5 is not read by muse_glimmer_assistant");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(assistant(2), {.stack = "decoder"}); }, "stack 'decoder'");
}
