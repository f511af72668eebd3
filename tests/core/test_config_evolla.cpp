// test_config_evolla.cpp — decoders with cross-attention blocks beside their self-attention:
// Evolla's language model (EvollaConfig, EvollaDecoderLayer: a sequence aligner, a
// cross-attention without RoPE, after the self-attention of layer i when
// (i + 1) % max(num_hidden_layers // aligner_num_add_layers, 1) == 0; EvollaRotaryEmbedding's
// default ladder at θ 500000), IDEFICS (IdeficsModel.forward: a gated cross-attention block
// before layer i when i % cross_layer_interval == 0; IdeficsEmbedding(head_dim), base 10000;
// IdeficsAttention rotates only its self-attention), Chameleon (ChameleonRotaryEmbedding, hidden / heads) and the
// refusal of HRM-Text (HrmTextModel.forward's prefix-LM mask), transformers c49429ed.
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace {

using posenc::config_value;

posenc::hf_config decoder(const std::string& type, int layers) {
  return posenc::test::config_shape(type, 4096, 32, 0, layers);
}

// The layers EvollaDecoderLayer gives an adapter, counted the way its __init__ does.
bool evolla_adapter(int i, int n, int k) { return (i + 1) % std::max(n / k, 1) == 0; }

}  // namespace

TEST_CASE("config evolla: RoPE on every layer, a cross-attention without RoPE on every (n // 8)-th",
          "[config][families]") {
  for (const auto& [n, k] : {std::pair{32, 8}, std::pair{32, 5}, std::pair{6, 8}, std::pair{33, 4}}) {
    CAPTURE(n, k);
    posenc::hf_config c = decoder("evolla", n);
    if (k != 8) c["aligner_num_add_layers"] = config_value::of(k);
    const posenc::model_info m = posenc::model_from_config(c);
    CHECK(m.family == "evolla");
    REQUIRE(m.encodings.size() == 1);
    posenc::test::check_default_ladder(m.encodings[0], 128, 128, 500000.0);
    int adapters = 0;
    for (const posenc::layer_info& l : m.layers) {
      CHECK(l.rope == std::optional<std::size_t>(0));
      CHECK(l.attention == posenc::attention_kind::full);
      CHECK_FALSE(l.bidirectional);
      const bool adapter = evolla_adapter(l.index, n, k);
      adapters += adapter;
      CHECK(l.cross == (adapter ? posenc::cross_attention::separate : posenc::cross_attention::none));
    }
    CHECK(adapters == n / std::max(n / k, 1));
  }
  posenc::hf_config c = decoder("evolla", 32);
  c["aligner_num_add_layers"] = config_value::null_value();
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); }, "aligner_num_add_layers is null");
}

TEST_CASE("config chameleon: hidden / heads, θ 10000; hrm_text refused for its prefix-LM mask",
          "[config][families]") {
  const posenc::rope_config r = posenc::rope_from_config(decoder("chameleon", 32));
  CHECK(r.head_dim == 128);
  CHECK(r.rotary_dim == 128);
  CHECK(r.base == 10000.0);
  CHECK(r.layout == posenc::rope_layout::half);
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(decoder("hrm_text", 16)); },
      "model_type = 'hrm_text' is refused: with prefix_lm");
}

TEST_CASE("config idefics: θ 10000 over hidden / heads, a gated cross-attention every cross_layer_interval",
          "[config][families]") {
  for (const int k : {1, 4}) {
    CAPTURE(k);
    posenc::hf_config c = decoder("idefics", 32);
    if (k != 1) c["cross_layer_interval"] = config_value::of(k);
    const posenc::model_info m = posenc::model_from_config(c);
    REQUIRE(m.encodings.size() == 1);
    CHECK(m.encodings[0].head_dim == 128);
    CHECK(m.encodings[0].base == 10000.0);
    for (const posenc::layer_info& l : m.layers) {
      CHECK(l.rope == std::optional<std::size_t>(0));
      CHECK(l.cross == (l.index % k == 0 ? posenc::cross_attention::separate : posenc::cross_attention::none));
    }
  }
  posenc::hf_config c = decoder("idefics", 32);
  c["rope_theta"] = config_value::of(1e6);  // IdeficsEmbedding takes no base from the config
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::rope_from_config(c); }, "rope_theta is not read by idefics");
}
