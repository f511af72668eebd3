// test_config_audio.cpp — speech language models whose decoders are Llama's: Sesame CSM's
// backbone and depth decoder (CsmConfig / CsmDepthDecoderConfig default_theta 500000,
// CsmRotaryEmbedding) and Higgs Audio v2 (HiggsAudioV2Config.__post_init__'s llama3 dict when
// the config has none: factor 32, low / high freq factor 0.125 / 0.5, original 1024, θ 500000;
// modeling_rope_utils._compute_llama3_parameters), transformers c49429ed, in float64.
#include "posenc/config.hpp"
#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <string>

namespace {

using posenc::config_value;

posenc::hf_config shape(const std::string& type) {
  return posenc::test::config_shape(type, 3072, 24, 0, 4);
}

}  // namespace

TEST_CASE("config csm: backbone and depth decoder rotate the whole head at θ 500000", "[config][families]") {
  for (const char* type : {"csm", "csm_depth_decoder_model"}) {
    CAPTURE(type);
    const posenc::rope_config r = posenc::rope_from_config(shape(type));
    CHECK(r.head_dim == 128);
    CHECK(r.rotary_dim == 128);
    CHECK(r.base == 500000.0);
    CHECK(r.scaling.type == posenc::scaling_type::none);
  }
}

TEST_CASE("config higgs_audio_v2: the class's llama3 dict when the config has none", "[config][families]") {
  const posenc::rope_config r = posenc::rope_from_config(shape("higgs_audio_v2"));  // head_dim 128
  CHECK(r.head_dim == 128);
  CHECK(r.base == 500000.0);
  REQUIRE(r.scaling.type == posenc::scaling_type::llama3);
  const posenc::frequencies f = posenc::inverse_frequencies(r.rotary_dim, r.base, r.scaling);
  const std::vector<double> want = posenc::test::hf_llama3(128, 500000.0, 32.0, 0.125, 0.5, 1024.0);
  REQUIRE(f.inv_freq.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(f.inv_freq[i] == Approx(want[i]).epsilon(1e-14));
  // A rope_parameters of its own replaces the class's dict.
  posenc::hf_config c = shape("higgs_audio_v2");
  c["rope_parameters"] = config_value::object();
  c["rope_parameters.rope_type"] = config_value::of_text("default");
  c["rope_parameters.rope_theta"] = config_value::of(10000.0);
  const posenc::rope_config own = posenc::rope_from_config(c);
  CHECK(own.base == 10000.0);
  CHECK(own.scaling.type == posenc::scaling_type::none);
}

TEST_CASE("config dia: a bidirectional encoder and a causal decoder, cross-attention without RoPE",
          "[config][families]") {
  // DiaConfig: encoder_config / decoder_config (DiaEncoderConfig, DiaDecoderConfig: head_dim 128);
  // DiaEncoderLayer's DiaSelfAttention(is_causal=False), DiaDecoderLayer's is_causal=True and a
  // DiaCrossAttention whose queries and keys are not rotated; DiaRotaryEmbedding at θ 10000.
  posenc::hf_config c = posenc::test::config_shape("dia_encoder", 1024, 16, 0, 3, "encoder_config.");
  c.merge(posenc::test::config_shape("dia_decoder", 2048, 16, 0, 4, "decoder_config."));
  c["model_type"] = config_value::of_text("dia");
  posenc::test::require_throws<posenc::invalid_argument>(
      [&] { (void)posenc::model_from_config(c); }, "stack is required");
  for (const std::string stack : {"encoder", "decoder"}) {
    CAPTURE(stack);
    const posenc::model_info m = posenc::model_from_config(c, {.stack = stack});
    CHECK(m.family == "dia");
    REQUIRE(m.encodings.size() == 1);
    CHECK(m.encodings[0].head_dim == 128);
    CHECK(m.encodings[0].base == 10000.0);
    REQUIRE(m.layers.size() == (stack == "encoder" ? 3u : 4u));
    for (const posenc::layer_info& l : m.layers) {
      CHECK(l.attention == posenc::attention_kind::full);
      CHECK(l.bidirectional == (stack == "encoder"));
      CHECK(l.cross == (stack == "encoder" ? posenc::cross_attention::none : posenc::cross_attention::separate));
    }
  }
  posenc::hf_config decoder;
  for (const auto& [k, v] : c)
    if (k.starts_with("decoder_config.")) decoder[k.substr(15)] = v;
  const posenc::model_info d = posenc::model_from_config(decoder);  // a dia_decoder config is that stack
  CHECK(d.layers.size() == 4);
  CHECK_FALSE(d.layers[0].bidirectional);
}
