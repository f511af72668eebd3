// config_reader.hpp — typed lookups into a flattened config.json (posenc/config.hpp), shared by
// config.cpp (one rotator) and config_layers.cpp (the decoder's layer map). Internal.
#pragma once

#include "posenc/config.hpp"
#include "posenc/detail/check.hpp"

#include "config_families.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::detail {

std::string_view kind_name(config_value::kind k);

// Typed lookups of key paths; every error names the path. A JSON null reads as absent, as
// HF's `getattr(config, key, None)` and `dict.get(key)` do; `refuse_null` is for the keys
// transformers needs a number at.
class reader {
public:
  using kind = config_value::kind;
  explicit reader(const hf_config& config) : config_(config) {}

  const config_value* find(const std::string& path) const {
    const auto it = config_.find(path);
    if (it == config_.end() || it->second.type == kind::null) return nullptr;
    return &it->second;
  }
  bool has(const std::string& path) const { return find(path) != nullptr; }
  bool is_null(const std::string& path) const {
    const auto it = config_.find(path);
    return it != config_.end() && it->second.type == kind::null;
  }
  bool is_object(const std::string& path) const {
    const config_value* v = find(path);
    return v && v->type == kind::object;
  }
  // A key transformers reads as a number (rope_theta, original_max_position_embeddings, …):
  // an explicit null is refused by name rather than read as "absent".
  void refuse_null(const std::string& path, std::string_view why) const {
    if (is_null(path))
      fail_argument(path, " is null, but transformers needs a number here (", why,
                    "): remove the key or give its value");
  }

  std::optional<double> number(const std::string& path) const {
    const config_value* v = typed(path, kind::number, "a number");
    if (!v) return std::nullopt;
    if (!std::isfinite(v->number)) fail_argument(path, " must be finite, got ", v->number);
    return v->number;
  }
  std::optional<int> integer(const std::string& path, int lo) const {
    const std::optional<double> v = number(path);
    if (!v) return std::nullopt;
    if (*v != std::floor(*v) || *v < lo || *v > 2147483647.0)
      fail_argument(path, " must be an integer in [", lo, ", 2147483647], got ", *v);
    return static_cast<int>(*v);
  }
  std::optional<std::string> text(const std::string& path) const {
    const config_value* v = typed(path, kind::string, "a string");
    return v ? std::optional<std::string>(v->text) : std::nullopt;
  }
  std::optional<bool> flag(const std::string& path) const {
    const config_value* v = typed(path, kind::boolean, "a boolean");
    return v ? std::optional<bool>(v->boolean) : std::nullopt;
  }
  std::optional<std::vector<double>> numbers(const std::string& path) const {
    const config_value* v = typed(path, kind::numbers, "a list of numbers");
    return v ? std::optional<std::vector<double>>(v->numbers) : std::nullopt;
  }
  // A list of strings (kind strings: its elements are the entries path.0, path.1, …).
  std::optional<std::vector<std::string>> texts(const std::string& path) const;

  // Names of the direct children of the object at `path` (nulls included: a key is a key).
  std::vector<std::string> children(const std::string& path) const;

private:
  const config_value* typed(const std::string& path, kind want, const char* what) const {
    const config_value* v = find(path);
    if (v && v->type != want)
      fail_argument(path, " must be ", what, ", got ", kind_name(v->type));
    return v;
  }

  const hf_config& config_;
};

// What every rule of one config reads: the reader, the prefix of the text model's keys
// ("", "text_config.", an encoder-decoder's "decoder." …), the family whose rules apply and
// the stack read ("encoder": bidirectional layers; "decoder").
struct text_context {
  const reader& r;
  std::string p;
  const family& f;
  std::string model_type;
  std::string stack = "decoder";
};

// The text context of a config: text_config when nested; the family of model_type, or the
// one options.family names. An unlisted model_type is refused naming it.
text_context text_context_of(const reader& r, const config_options& options);

// The rotary of one layer type ("full_attention", "sliding_attention", "chunked_attention");
// `layer_theta` replaces rope_theta (GraniteSWA's layer_rope_theta, named by `theta_key`).
struct layer_theta {
  double value = 0.0;
  std::string key;
};
rope_config text_rope(const text_context& c, const std::string& layer_type,
                      const config_options& options, const std::optional<layer_theta>& theta = {});

// The config as Step3p7TextConfig completes it from per-layer rope lists (family rope_lists):
// layer_types and the lists cut to num_hidden_layers, one rope_parameters dict per layer type.
hf_config with_rope_lists(const hf_config& config, const text_context& c);

// index_head_dim (the family's indexer_dim, or its alias when present; else its class default).
std::pair<int, std::string> indexer_dim_of(const text_context& c);

// The config as DeepseekV4Config completes it (family compress rule): legacy keys folded,
// layer_types listed, compress_rates filled, rope_parameters keyed `main` / `compress`.
hf_config with_compressed(const hf_config& config, const text_context& c);

// The vision tower's 2-D rotary, its layer count and its layers (rope 0, bidirectional; the
// family's vision_windows rule marks its windowed layers).
// The key of the vision tower's config: vision_config, or thinker_config.vision_config
// (Qwen2.5-Omni / Qwen3-Omni).
std::string vision_key(const reader& r);
rope_config vision_rope(const reader& r, const config_options& options);
int vision_layer_count(const reader& r);
std::vector<layer_info> vision_layers(const reader& r);

}  // namespace posenc::detail
