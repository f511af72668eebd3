// tests/fuzz/fuzz_config.cpp — libFuzzer target for posenc/config.hpp: rope_from_config on
// flattened config.json maps built from the keys HF's configuration_*.py and
// modeling_rope_utils.py read (top level, rope_scaling, rope_parameters flat and per layer
// type, text_config, vision_config) with values of every kind — numbers at and past their
// limits (NaN, ±inf, huge, negative, fractional), strings of known names and of arbitrary
// bytes (controls, NUL, invalid UTF-8, long), number lists, booleans, nulls, objects,
// unreadable arrays — and every option (layout, seq_len, layer_type, tower) including
// invalid ones. Either the call throws posenc::error, whose message is bounded and carries
// no control character of the input (caller strings are quoted short and escaped), or it
// returns a rope_config that builds a rotator whose rows are finite.
#include "fuzz_input.hpp"

#include "posenc/config.hpp"

#include <string>

namespace {

using namespace posenc;
using posenc::fuzz::expect;

// Key paths HF reads (and a few it does not), before a container prefix is put in front.
constexpr const char* kLeafKeys[] = {
    "head_dim", "hidden_size", "num_attention_heads", "rope_theta", "partial_rotary_factor",
    "max_position_embeddings", "original_max_position_embeddings", "model_type", "rotary_pct",
    "rotary_emb_base", "rotary_dim", "n_embd", "n_head", "qk_rope_head_dim", "rope_interleave",
    "rope_local_base_freq", "embed_dim", "num_heads", "rope_type", "type", "factor",
    "attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate",
    "low_freq_factor", "high_freq_factor", "short_factor", "long_factor", "mrope_section",
    "mrope_interleaved", "unknown_key"};
constexpr const char* kContainers[] = {
    "", "rope_scaling.", "rope_parameters.", "rope_parameters.full_attention.",
    "rope_parameters.sliding_attention.", "text_config.", "text_config.rope_scaling.",
    "text_config.rope_parameters.", "vision_config."};
constexpr const char* kNames[] = {
    "default", "linear", "dynamic", "yarn", "llama3", "longrope", "su", "mrope", "llama",
    "gemma2", "gemma3", "gemma3_text", "phi3", "gptj", "codegen", "deepseek_v2", "deepseek_v3",
    "qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "pixtral", "gpt_neox", "Yarn", ""};

template <std::size_t N>
const char* pick(fuzz::input& in, const char* const (&list)[N]) {
  return list[in.between<std::size_t>(0, N - 1)];
}

std::string arbitrary_text(fuzz::input& in) {
  std::string s;
  const std::size_t n = in.rarely(16) ? in.between<std::size_t>(0, 5000) : in.between<std::size_t>(0, 24);
  for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(in.between<int>(0, 255));
  return s;
}

config_value value(fuzz::input& in) {
  switch (in.between<int>(0, 9)) {
    case 0: case 1: case 2: return config_value::of(static_cast<double>(in.between<int>(-4, 8192)));
    case 3: return config_value::of(in.flag() ? in.special_double() : in.real(-1e7, 1e7));
    case 4: return config_value::of_text(in.flag() ? std::string(pick(in, kNames)) : arbitrary_text(in));
    case 5: {
      std::vector<double> v(in.between<std::size_t>(0, 80));
      for (double& x : v) x = in.rarely(8) ? in.special_double() : in.real(0.5, 40.0);
      return config_value::of_numbers(std::move(v));
    }
    case 6: return config_value::of_bool(in.flag());
    case 7: return config_value::null_value();
    case 8: return config_value::object();
    default: return config_value::other();
  }
}

hf_config make_config(fuzz::input& in) {
  hf_config c;
  const std::size_t keys = in.between<std::size_t>(0, 24);
  for (std::size_t k = 0; k < keys; ++k) {
    std::string prefix = pick(in, kContainers);
    const std::string key = in.rarely(20) ? arbitrary_text(in) : std::string(pick(in, kLeafKeys));
    // The containers themselves are object entries, as a binding flattens them (rarely not).
    if (!prefix.empty() && !in.rarely(16)) {
      for (std::size_t dot = prefix.find('.'); dot != std::string::npos; dot = prefix.find('.', dot + 1))
        c.emplace(prefix.substr(0, dot), config_value::object());
    }
    c[prefix + key] = value(in);
  }
  return c;
}

config_options make_options(fuzz::input& in) {
  config_options o;
  if (in.rarely(4)) o.layout = static_cast<rope_layout>(in.between<int>(0, in.rarely(8) ? 7 : 1));
  if (in.rarely(4)) o.seq_len = in.flag() ? in.between<int>(1, 1 << 20) : in.between<int>(INT_MIN, INT_MAX);
  if (in.rarely(4)) o.layer_type = in.flag() ? std::string("sliding_attention") : arbitrary_text(in);
  if (in.rarely(4)) o.tower = in.flag() ? std::string("vision") : arbitrary_text(in);
  return o;
}

// A message is bounded and carries no control character: a caller's strings are excerpts.
void check_message(const char* what) {
  const std::string m = what;
  expect(m.size() <= 2048, "error messages stay short", static_cast<double>(m.size()), 2048);
  for (unsigned char ch : m) expect(ch >= 0x20 && ch != 0x7f, "no control character in a message", ch, 0x20);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  const hf_config config = make_config(in);
  const config_options options = make_options(in);
  fuzz::note("%zu keys, tower %.20s, layer %.20s", config.size(), options.tower.c_str(),
             options.layer_type.c_str());
  rope_config rc;
  try {
    rc = rope_from_config(config, options);
  } catch (const posenc::error& e) {
    check_message(e.what());
    return 0;
  }
  expect(rc.head_dim >= 2 && rc.head_dim <= max_dim, "head_dim in [2, max_dim]", rc.head_dim, max_dim);
  expect(rc.rotary_dim >= 0 && rc.rotary_dim <= rc.head_dim, "rotary_dim in [0, head_dim]", rc.rotary_dim,
         rc.head_dim);
  try {
    const rotary_cache cache(rc, 0, 4);
    std::vector<float> c(static_cast<std::size_t>(cache.rotary_dim() / 2)), s(c.size());
    cache.row(3, c.data(), s.data());
    for (std::size_t i = 0; i < c.size(); ++i)
      expect(std::isfinite(c[i]) && std::isfinite(s[i]), "rows of a config's rotator are finite", c[i], 0);
  } catch (const posenc::error& e) {
    check_message(e.what());  // a config HF accepts whose numbers posenc refuses, by name
  }
  return 0;
}
