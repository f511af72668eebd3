// test_config_zaya.cpp — Zaya (ZAYA1) through model_from_config / rope_from_config: its own
// layer-type names 'hybrid' (full attention) and 'hybrid_sliding' (sliding window), one rope
// dict per name, and ZayaRotaryEmbedding.compute_default_rope_parameters +
// apply_rotary_pos_emb (models/zaya, transformers c49429ed) evaluated in float64: θ_i =
// 1 / rope_theta^(2i / d), d = int(head_dim · partial_rotary_factor), rotate_half over the
// first d dims of the head.
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

// ZayaConfig's shape keys as ZAYA1-8B's (hidden 2048, 8 heads, head_dim 128), n layers.
posenc::hf_config zaya(int layers) { return posenc::test::config_shape("zaya", 2048, 8, 128, layers); }

void put_types(posenc::hf_config& c, const std::vector<std::string>& types) {
  posenc::test::put_strings(c, "layer_types", types);
}

void put_rope(posenc::hf_config& c, const std::string& type, double theta, double partial) {
  const std::string d = "rope_parameters." + type;
  c["rope_parameters"] = config_value::object();
  c[d] = config_value::object();
  c[d + ".rope_type"] = config_value::of_text("default");
  c[d + ".rope_theta"] = config_value::of(theta);
  c[d + ".partial_rotary_factor"] = config_value::of(partial);
}

// ZayaRotaryEmbedding.compute_default_rope_parameters in double, checked rung by rung.
void check_ladder(const posenc::rope_config& r, double theta, int dims) {
  CHECK(r.scaling.type == posenc::scaling_type::none);
  posenc::test::check_default_ladder(r, 128, dims, theta);
}

}  // namespace

TEST_CASE("config zaya: class defaults, every layer 'hybrid' (full attention) at θ 5e6 over half the head",
          "[config][families]") {
  // ZayaConfig.__post_init__: layer_types ["hybrid"] * n, default_rope_params.
  const posenc::model_info m = posenc::model_from_config(zaya(40));
  CHECK(m.family == "zaya");
  REQUIRE(m.layers.size() == 40);
  REQUIRE(m.encodings.size() == 1);
  check_ladder(m.encodings[0], 5e6, 64);
  for (const posenc::layer_info& l : m.layers) {
    CHECK(l.attention == posenc::attention_kind::full);
    CHECK(l.rope == std::optional<std::size_t>(0));
    CHECK_FALSE(l.window.has_value());
    CHECK_FALSE(l.bidirectional);
  }
  check_ladder(posenc::rope_from_config(zaya(40)), 5e6, 64);
  // The class's hybrid_sliding dict: θ 1e4 over int(128 · 0.5) dims, by either name.
  check_ladder(posenc::rope_from_config(zaya(40), {.layer_type = "sliding_attention"}), 1e4, 64);
  check_ladder(posenc::rope_from_config(zaya(40), {.layer_type = "hybrid_sliding"}), 1e4, 64);
  check_ladder(posenc::rope_from_config(zaya(40), {.layer_type = "hybrid"}), 5e6, 64);
  posenc::hf_config llama;
  llama["model_type"] = config_value::of_text("llama");
  llama["hidden_size"] = config_value::of(4096);
  llama["num_attention_heads"] = config_value::of(32);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(llama, {.layer_type = "hybrid"}); },
      "layer_type 'hybrid' is not a layer type of llama");
}

TEST_CASE("config zaya: 'hybrid_sliding' layers slide at sliding_window with their own rope dict",
          "[config][families]") {
  posenc::hf_config c = zaya(4);
  put_types(c, {"hybrid", "hybrid_sliding", "hybrid_sliding", "hybrid"});
  c["sliding_window"] = config_value::of(4096);
  put_rope(c, "hybrid", 5e6, 0.5);
  c["rope_parameters.hybrid_sliding"] = config_value::object();
  c["rope_parameters.hybrid_sliding.rope_type"] = config_value::of_text("default");
  c["rope_parameters.hybrid_sliding.rope_theta"] = config_value::of(1e5);
  c["rope_parameters.hybrid_sliding.partial_rotary_factor"] = config_value::of(0.25);
  const posenc::model_info m = posenc::model_from_config(c);
  REQUIRE(m.encodings.size() == 2);
  for (const posenc::layer_info& l : m.layers) {
    const bool sliding = l.index == 1 || l.index == 2;
    CHECK(l.attention == (sliding ? posenc::attention_kind::sliding : posenc::attention_kind::full));
    CHECK(l.window == (sliding ? std::optional<int>(4096) : std::nullopt));
    REQUIRE(l.rope.has_value());
    check_ladder(m.encodings[*l.rope], sliding ? 1e5 : 5e6, sliding ? 32 : 64);
    check_ladder(*posenc::layer_rope_from_config(c, {.layer = l.index}), sliding ? 1e5 : 5e6,
                 sliding ? 32 : 64);
  }
  // ZayaConfig.validate_architecture: hybrid_sliding needs sliding_window.
  c["sliding_window"] = config_value::null_value();
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); }, "sliding_window is required");
}

TEST_CASE("config zaya: other layer-type names, missing dicts and θ are refused by name",
          "[config][families]") {
  // ZayaModel's masks know 'hybrid' and 'hybrid_sliding' only.
  posenc::hf_config c = zaya(2);
  put_types(c, {"hybrid", "full_attention"});
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); },
      "layer_types[1] = 'full_attention' is not a layer type of zaya (hybrid, hybrid_sliding");
  // rope_parameters[layer_type] with [] in ZayaRotaryEmbedding: a listed type needs its dict.
  posenc::hf_config d = zaya(2);
  put_types(d, {"hybrid", "hybrid_sliding"});
  d["sliding_window"] = config_value::of(512);
  put_rope(d, "hybrid", 5e6, 0.5);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(d); }, "rope_parameters.hybrid_sliding is missing");
  // compute_default_rope_parameters reads rope_parameters[layer_type]["rope_theta"].
  posenc::hf_config t = zaya(2);
  put_rope(t, "hybrid", 5e6, 0.5);
  t.erase("rope_parameters.hybrid.rope_theta");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(t); }, "rope_parameters.hybrid.rope_theta is required");
  // convert_rope_params_to_dict has no flat form: a flat dict is not per layer type.
  posenc::hf_config f = zaya(2);
  f["rope_parameters"] = config_value::object();
  f["rope_parameters.rope_type"] = config_value::of_text("default");
  f["rope_parameters.rope_theta"] = config_value::of(5e6);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(f); }, "rope_parameters must hold one object per layer type");
  // A per-type dict posenc's names would use is not Zaya's.
  posenc::hf_config n = zaya(2);
  put_rope(n, "hybrid", 5e6, 0.5);
  n["rope_parameters.full_attention"] = config_value::object();
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(n); },
      "rope_parameters.full_attention is not a layer type of zaya (hybrid, hybrid_sliding)");
}
