// wasm/src/bind_config.cpp — a Hugging Face config.json → the rope_config posenc would build
// (core: posenc/config.hpp rope_from_config).
//
// wasm/js/config.js flattens the parsed JSON (reading nothing but own enumerable keys) and
// stages it as two blocks, decoded here in order:
//   entries (doubles): [count, then per entry: kind, key length, a, b … , then the values
//     of every number list, concatenated]; kind 0 null, 1 boolean (a = 0 | 1), 2 number
//     (a), 3 string (a = its length), 4 number list (a = its count), 5 object, 6 other;
//   text (UTF-16 code units): each entry's key path, then its string value, in entry order.
// The result goes back as numbers only (see config_result): JS builds the rotator from them
// through the same path as pe.rope(options), so nothing here creates a rotator.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/config.hpp"
#include "posenc/detail/check.hpp"
#include "posenc/multimodal.hpp"

#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace posenc::wasm {
namespace {

// UTF-16 (as JS strings hold it) → UTF-8; a lone surrogate becomes U+FFFD.
void append_utf8(std::string& out, const std::uint16_t* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
      c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
    else if (c >= 0xD800 && c <= 0xDFFF)
      c = 0xFFFD;
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
}

// Reads the staged blocks; every count is checked against the block sizes (JS wrote them,
// but a miscount must not read outside the blocks).
class staged_config {
public:
  staged_config(const double* entries, std::size_t n_entries, const std::uint16_t* text,
                std::size_t n_text)
      : e_(entries), ne_(n_entries), t_(text), nt_(n_text) {}

  hf_config decode() {
    hf_config out;
    const std::size_t count = count_at(0);
    std::size_t values = 1 + 4 * count;
    if (values > ne_) bad();
    for (std::size_t i = 0; i < count; ++i) {
      const double* entry = e_ + 1 + 4 * i;
      const std::string key = text(count_of(entry[1]));
      config_value v;
      switch (static_cast<int>(entry[0])) {
        case 0: break;
        case 1: v = config_value::of_bool(entry[2] != 0); break;
        case 2: v = config_value::of(entry[2]); break;
        case 3: v = config_value::of_text(text(count_of(entry[2]))); break;
        case 4: {
          const std::size_t n = count_of(entry[2]);
          if (n > ne_ - values) bad();
          v = config_value::of_numbers(std::vector<double>(e_ + values, e_ + values + n));
          values += n;
          break;
        }
        case 5: v = config_value::object(); break;
        default: v = config_value::other(); break;
      }
      out[key] = std::move(v);
    }
    return out;
  }

private:
  [[noreturn]] static void bad() { detail::fail_length("config: the staged block is malformed"); }
  std::size_t count_of(double v) const {
    if (!(v >= 0 && v <= static_cast<double>(ne_ + nt_))) bad();
    return static_cast<std::size_t>(v);
  }
  std::size_t count_at(std::size_t i) const {
    if (i >= ne_) bad();
    return count_of(e_[i]);
  }
  std::string text(std::size_t n) {
    if (n > nt_ - at_) bad();
    std::string out;
    append_utf8(out, t_ + at_, n);
    at_ += n;
    return out;
  }

  const double* e_;
  std::size_t ne_;
  const std::uint16_t* t_;
  std::size_t nt_;
  std::size_t at_ = 0;
};

double or_nan(const std::optional<double>& v) {
  return v ? *v : std::numeric_limits<double>::quiet_NaN();
}
double or_nan(const std::optional<int>& v) {
  return v ? static_cast<double>(*v) : std::numeric_limits<double>::quiet_NaN();
}

// → [head_dim, rotary_dim, base, layout (0 half, 1 interleaved), axes (0 none, 1 mrope,
//    2 mrope-interleaved, 3 qwen2-vl, 4 pixtral), section t, h, w, scaling type (0 default,
//    1 linear, 2 dynamic, 3 yarn, 4 llama3, 5 longrope), then the scaling block of
//    wasm/js/scaling.js (its 12 fields, NaN when unset; the counts of short_factor and
//    long_factor; their values)].
std::vector<double> config_result(const rope_config& c) {
  const scaling& s = c.scaling;
  std::vector<double> out = {
      static_cast<double>(c.head_dim), static_cast<double>(c.rotary_dim), c.base,
      c.layout == rope_layout::interleaved ? 1.0 : 0.0, static_cast<double>(c.axes.kind),
      static_cast<double>(c.axes.section[0]), static_cast<double>(c.axes.section[1]),
      static_cast<double>(c.axes.section[2]), static_cast<double>(s.type),
      or_nan(s.factor), or_nan(s.original_max_position_embeddings),
      or_nan(s.max_position_embeddings), or_nan(s.seq_len), or_nan(s.attention_factor),
      s.beta_fast, s.beta_slow, or_nan(s.mscale), or_nan(s.mscale_all_dim),
      s.truncate ? 1.0 : 0.0, s.low_freq_factor, s.high_freq_factor,
      static_cast<double>(s.short_factor.size()), static_cast<double>(s.long_factor.size())};
  out.insert(out.end(), s.short_factor.begin(), s.short_factor.end());
  out.insert(out.end(), s.long_factor.begin(), s.long_factor.end());
  return out;
}

// layout: "" (the family's) | "half" | "interleaved"; seq_len NaN when not given (else an
// integer JS checked); layer_type and tower as config_options names them.
val rope_from_config_at(std::uintptr_t entries, std::size_t n_entries, std::uintptr_t text,
                        std::size_t n_text, std::string layout, double seq_len,
                        std::string layer_type, std::string tower) {
  return guarded([&] {
    staged_config staged(from_address<const double>(entries), n_entries,
                         from_address<const std::uint16_t>(text), n_text);
    config_options options;
    if (!layout.empty()) options.layout = parse_rope_layout(layout);
    if (!std::isnan(seq_len)) options.seq_len = static_cast<int>(seq_len);
    options.layer_type = std::move(layer_type);
    options.tower = std::move(tower);
    return hand_over(config_result(rope_from_config(staged.decode(), options)));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_config) {
  emscripten::function("ropeFromConfig", &posenc::wasm::rope_from_config_at);
}
