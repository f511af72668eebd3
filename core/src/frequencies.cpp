// core/src/frequencies.cpp — the frequency ladder and HF transformers' five
// context-extension variants of it.
//
// Every variant mirrors one function of HF's `modeling_rope_utils.py` (transformers v5, the
// `rope_parameters` version), branch for branch and default for default; the only intended
// difference is precision: HF evaluates the ladder in float32, posenc in double.
// Validation is stricter than HF's `_validate_*_rope_parameters`, which mostly log a warning
// and carry on: what HF warns about (factor < 1, high_freq_factor ≤ low_freq_factor, wrong
// short/long_factor lengths, attention_factor < 0, beta_fast < beta_slow) throws here.
#include "posenc/frequencies.hpp"

#include "posenc/detail/check.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numbers>
#include <string>

namespace posenc {
namespace {

using detail::fail_argument;

constexpr double kPi = std::numbers::pi;

// ---- validation -------------------------------------------------------------------------

void check_at_least(const char* name, double value, double lo) {
  if (!std::isfinite(value) || value < lo)
    fail_argument(name, " must be a finite number >= ", lo, ", got ", value);
}

void check_above(const char* name, double value, double lo) {
  if (!std::isfinite(value) || !(value > lo))
    fail_argument(name, " must be a finite number > ", lo, ", got ", value);
}

void check_length(const char* name, int value) {
  detail::check_range(name, value, 1, INT_MAX);
}

// A key HF requires for `type` (KeyError in HF's `_check_received_keys`).
template <class T>
void require_key(const std::optional<T>& value, const char* name, scaling_type type) {
  if (!value)
    fail_argument(name, " is required for scaling.type '", std::string(to_string(type)), "'");
}

// HF `standardize_rope_params`: llama3/yarn/longrope fall back to max_position_embeddings.
int original_length(const scaling& s) {
  if (s.original_max_position_embeddings) return *s.original_max_position_embeddings;
  if (s.max_position_embeddings) return *s.max_position_embeddings;
  fail_argument("scaling.original_max_position_embeddings (or scaling.max_position_embeddings)"
                " is required for scaling.type '", std::string(to_string(s.type)), "'");
}

// yarn/longrope: `if factor is None: factor = max_position_embeddings / original`.
double factor_or_ratio(const scaling& s, int original) {
  if (s.factor) return *s.factor;
  if (!s.max_position_embeddings)
    fail_argument("scaling.factor (or scaling.max_position_embeddings) is required for "
                  "scaling.type '", std::string(to_string(s.type)), "'");
  return static_cast<double>(*s.max_position_embeddings) / original;
}

void check_factors(const char* name, const std::vector<double>& values, int dim) {
  if (values.size() != static_cast<std::size_t>(dim / 2))
    fail_argument(name, " must hold dim/2 = ", dim / 2, " values, got ", values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]) || !(values[i] > 0.0))
      fail_argument(name, "[", i, "] must be a finite number > 0, got ", values[i]);
}

// HF's `if rope_type == "dynamic" and rope_parameters.get("alpha")`: a non-zero alpha.
bool uses_alpha(const scaling& s) { return s.alpha && *s.alpha != 0.0; }

// Every field the type reads, before any arithmetic (so no NaN ever reaches the ladder).
void validate(int dim, const scaling& s) {
  if (s.type == scaling_type::none) return;  // HF's default type reads no rope_scaling key
  if (s.factor) check_at_least("scaling.factor", *s.factor, 1.0);
  if (s.original_max_position_embeddings)
    check_length("scaling.original_max_position_embeddings", *s.original_max_position_embeddings);
  if (s.max_position_embeddings)
    check_length("scaling.max_position_embeddings", *s.max_position_embeddings);
  if (s.seq_len) check_length("scaling.seq_len", *s.seq_len);
  if (s.attention_factor) check_above("scaling.attention_factor", *s.attention_factor, 0.0);
  switch (s.type) {
    case scaling_type::none: return;  // unreachable, handled above
    case scaling_type::linear: require_key(s.factor, "scaling.factor", s.type); return;
    case scaling_type::dynamic:
      // HF raises ZeroDivisionError in dim / (dim − 2) for dim = 2.
      detail::check_even("dim", dim, 4, max_dim);
      if (s.alpha) check_at_least("scaling.alpha", *s.alpha, 0.0);
      if (uses_alpha(s)) return;
      require_key(s.factor, "scaling.factor", s.type);
      require_key(s.max_position_embeddings, "scaling.max_position_embeddings", s.type);
      return;
    case scaling_type::proportional:
      if (s.partial_rotary_factor &&
          !(*s.partial_rotary_factor > 0.0 && *s.partial_rotary_factor <= 1.0))
        fail_argument("scaling.partial_rotary_factor must be in (0, 1], got ",
                      *s.partial_rotary_factor);
      return;
    case scaling_type::yarn:
      check_at_least("scaling.beta_fast", s.beta_fast, 0.0);
      check_at_least("scaling.beta_slow", s.beta_slow, 0.0);
      if (s.mscale) check_at_least("scaling.mscale", *s.mscale, 0.0);
      if (s.mscale_all_dim) check_at_least("scaling.mscale_all_dim", *s.mscale_all_dim, 0.0);
      return;
    case scaling_type::llama3:
      require_key(s.factor, "scaling.factor", s.type);
      check_above("scaling.low_freq_factor", s.low_freq_factor, 0.0);
      // Equal factors (Llama 4) are HF's too: no blended band, a step at original/factor.
      check_at_least("scaling.high_freq_factor", s.high_freq_factor, s.low_freq_factor);
      return;
    case scaling_type::longrope:
      check_factors("scaling.short_factor", s.short_factor, dim);
      check_factors("scaling.long_factor", s.long_factor, dim);
      return;
  }
}

// ---- the variants -----------------------------------------------------------------------

// the contract, HF `_compute_default_rope_parameters`: θ_i = b^(−y), y = i/(d/2).
// Rounding y to double costs up to ln(b)·2⁻⁵⁴ relative in θ (measured: 7 ulp at b = 10⁶ for
// pow(b, −y), 16 ulp for exp(−y·ln b)), so y is split as y_hi + y_lo (y_lo exact by fma) and
// b^(−y) = pow(b, −y_hi)·(1 − y_lo·ln b): the correction is < 2⁻⁵³·ln b, so its own error
// is negligible and θ_i stays within 1 ulp (pow's error) of b^(−2i/d).
double ladder_term(double base, double log_base, int i, int half) {
  const double h = half;
  const double y_hi = i / h;
  const double y_lo = std::fma(-y_hi, h, static_cast<double>(i)) / h;
  const double p = std::pow(base, -y_hi);
  return std::fma(p, -y_lo * log_base, p);
}

std::vector<double> default_ladder(int dim, double base) {
  std::vector<double> inv(static_cast<std::size_t>(dim / 2));
  const double log_base = std::log(base);
  for (int i = 0; i < dim / 2; ++i)
    inv[static_cast<std::size_t>(i)] = ladder_term(base, log_base, i, dim / 2);
  return inv;
}

// HF `_compute_linear_scaling_rope_parameters`: position interpolation, inv_freq /= factor.
frequencies linear(int dim, double base, const scaling& s) {
  frequencies out{default_ladder(dim, base), 1.0};
  for (double& v : out.inv_freq) v /= *s.factor;
  return out;
}

// HF `_compute_dynamic_ntk_parameters`: seq_len = max(seq_len, M) (M when unset), then
// base' = base·((factor·seq_len/M) − (factor − 1))^(d/(d−2)). HF's bracket is evaluated as
// the equal 1 + factor·(seq_len − M)/M: HF's form cancels to 0 (NaN θ) once factor ≥ 2⁵³.
frequencies dynamic(int dim, double base, const scaling& s) {
  if (uses_alpha(s)) {  // HunYuanDenseV1RotaryEmbedding: base·α^(d/(d−2)), no length rule
    const double scaled = base * std::pow(*s.alpha, static_cast<double>(dim) / (dim - 2));
    if (!std::isfinite(scaled) || !(scaled > 1.0))
      fail_argument("scaling.alpha = ", *s.alpha, " gives the dynamic base ", scaled,
                    " (base·alpha^(d/(d−2)) must be finite and > 1)");
    return {default_ladder(dim, scaled), 1.0};
  }
  const double m = *s.max_position_embeddings;
  const double len = std::max(static_cast<double>(s.seq_len.value_or(0)), m);
  const double factor = *s.factor;
  const double scale = 1.0 + factor * ((len - m) / m);
  const double scaled = base * std::pow(scale, static_cast<double>(dim) / (dim - 2));
  if (!std::isfinite(scaled))
    fail_argument("scaling.factor = ", factor, " with seq_len ", len, " overflows the dynamic "
                  "base (base·(1 + factor·(seq_len − M)/M)^(d/(d−2)) must be finite)");
  return {default_ladder(dim, scaled), 1.0};
}

// HF `_compute_yarn_parameters` → `get_mscale`: 1 for scale ≤ 1, else 0.1·m·ln(scale) + 1.
double yarn_mscale(double scale, double m = 1.0) {
  return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0;
}

// HF yarn `find_correction_dim`: the dimension index whose wavelength fits `rotations`
// turns into `length` positions, d·ln(L/(2π·rot)) / (2·ln b).
double yarn_correction_dim(double rotations, int dim, double base, double length) {
  return dim * std::log(length / (rotations * 2.0 * kPi)) / (2.0 * std::log(base));
}

// HF yarn: the attention factor — given, else the mscale ratio when both mscale and
// mscale_all_dim are truthy (non-zero), else get_mscale(factor).
double yarn_attention(const scaling& s, double factor) {
  if (s.attention_factor) return *s.attention_factor;
  const double m = s.mscale.value_or(0.0), m_all = s.mscale_all_dim.value_or(0.0);
  if (m == 0.0 || m_all == 0.0) return yarn_mscale(factor);
  const double ratio = yarn_mscale(factor, m) / yarn_mscale(factor, m_all);
  // Huge mscales overflow get_mscale (inf/inf, x/inf): refuse rather than scale by 0 or NaN.
  if (!std::isfinite(ratio) || !(ratio > 0.0))
    fail_argument("scaling.mscale = ", m, " and scaling.mscale_all_dim = ", m_all,
                  " give a non-finite yarn attention factor");
  return ratio;
}

// HF `_compute_yarn_parameters`: θ_i/factor (interpolation) for low dims' long wavelengths,
// θ_i (extrapolation) for high-frequency dims, a linear ramp between dims low … high.
frequencies yarn(int dim, double base, const scaling& s) {
  const int original = original_length(s);
  const double factor = factor_or_ratio(s, original);
  // HF: `beta_fast = get("beta_fast") or 32`, `beta_slow = get("beta_slow") or 1`.
  const double beta_fast = s.beta_fast != 0.0 ? s.beta_fast : 32.0;
  const double beta_slow = s.beta_slow != 0.0 ? s.beta_slow : 1.0;
  if (beta_fast < beta_slow)
    fail_argument("scaling.beta_fast must be >= scaling.beta_slow, got beta_fast = ", beta_fast,
                  " and beta_slow = ", beta_slow);
  // find_correction_range: floor/ceil when truncate, then clamp to [0, dim − 1].
  double low = yarn_correction_dim(beta_fast, dim, base, original);
  double high = yarn_correction_dim(beta_slow, dim, base, original);
  // Subnormal betas overflow original/(β·2π); HF would ramp over ±inf and produce NaN.
  if (!std::isfinite(low) || !std::isfinite(high))
    fail_argument("scaling.beta_fast = ", beta_fast, " and scaling.beta_slow = ", beta_slow,
                  " give a non-finite yarn correction range");
  if (s.truncate) low = std::floor(low), high = std::ceil(high);
  low = std::max(low, 0.0);
  high = std::min(high, static_cast<double>(dim - 1));
  if (low == high) high += 0.001;  // HF linear_ramp_factor: "Prevent singularity"
  frequencies out{default_ladder(dim, base), yarn_attention(s, factor)};
  for (std::size_t i = 0; i < out.inv_freq.size(); ++i) {
    const double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    const double extrapolation = 1.0 - ramp;  // HF inv_freq_extrapolation_factor
    const double theta = out.inv_freq[i];
    out.inv_freq[i] = theta / factor * (1.0 - extrapolation) + theta * extrapolation;
  }
  return out;
}

// HF `_compute_llama3_parameters` (Llama 3.1): wavelengths above original/low_freq_factor are
// divided by factor, those below original/high_freq_factor kept, the band between blended by
// smooth = (original/λ − low_freq_factor)/(high_freq_factor − low_freq_factor).
frequencies llama3(int dim, double base, const scaling& s) {
  const double original = original_length(s);
  const double factor = *s.factor;
  const double low_wavelen = original / s.low_freq_factor;
  const double high_wavelen = original / s.high_freq_factor;
  frequencies out{default_ladder(dim, base), 1.0};
  for (double& theta : out.inv_freq) {
    const double wavelen = 2.0 * kPi / theta;
    if (wavelen > low_wavelen) {
      theta /= factor;
    } else if (!(wavelen < high_wavelen)) {  // HF is_medium_freq
      if (s.high_freq_factor == s.low_freq_factor)  // HF: 0/0, a NaN frequency
        fail_argument("scaling.high_freq_factor = scaling.low_freq_factor = ", s.low_freq_factor,
                      " puts theta_i's wavelength exactly on original/low_freq_factor, where "
                      "the blend is 0/0");
      const double smooth =
          (original / wavelen - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
      theta = (1.0 - smooth) * theta / factor + smooth * theta;
    }
  }
  return out;
}

// HF `_compute_longrope_parameters` (Phi-3): θ_i / ext_i with ext = long_factor when
// seq_len > original, else short_factor; attention factor √(1 + ln(factor)/ln(original))
// (1 when factor ≤ 1) unless given.
frequencies longrope(int dim, double base, const scaling& s) {
  const int original = original_length(s);
  const double factor = factor_or_ratio(s, original);
  double attention = 1.0;
  if (s.attention_factor) {
    attention = *s.attention_factor;
  } else if (factor > 1.0) {
    if (original < 2)  // HF: ZeroDivisionError from ln(1)
      fail_argument("scaling.original_max_position_embeddings must be >= 2 to derive the "
                    "longrope attention factor, got ", original);
    attention = std::sqrt(1.0 + std::log(factor) / std::log(static_cast<double>(original)));
  }
  const bool long_context = s.seq_len && *s.seq_len > original;
  const std::vector<double>& ext = long_context ? s.long_factor : s.short_factor;
  frequencies out{default_ladder(dim, base), attention};
  for (std::size_t i = 0; i < out.inv_freq.size(); ++i) {
    out.inv_freq[i] /= ext[i];
    if (!std::isfinite(out.inv_freq[i]))  // a subnormal factor overflows θ_i / ext_i
      fail_argument(long_context ? "scaling.long_factor[" : "scaling.short_factor[", i,
                    "] = ", ext[i], " overflows theta_", i, " / factor");
  }
  return out;
}

// HF `_compute_proportional_rope_parameters` (Gemma 4): the ladder over the whole dim for
// the first ⌊p·d/2⌋ rungs (Python's `int(p * head_dim // 2)`), zero after, all / factor.
frequencies proportional(int dim, double base, const scaling& s) {
  const double rotated = std::floor(s.partial_rotary_factor.value_or(1.0) * dim / 2.0);
  frequencies out{default_ladder(dim, base), 1.0};
  for (std::size_t i = 0; i < out.inv_freq.size(); ++i) {
    if (static_cast<double>(i) >= rotated) out.inv_freq[i] = 0.0;
    out.inv_freq[i] /= s.factor.value_or(1.0);
  }
  return out;
}

} // namespace

scaling_type parse_scaling_type(std::string_view name) {
  if (name == "default") return scaling_type::none;
  if (name == "linear") return scaling_type::linear;
  if (name == "dynamic") return scaling_type::dynamic;
  if (name == "yarn") return scaling_type::yarn;
  if (name == "llama3") return scaling_type::llama3;
  if (name == "longrope") return scaling_type::longrope;
  if (name == "proportional") return scaling_type::proportional;
  fail_argument("scaling.type must be one of default, linear, dynamic, yarn, llama3, "
                "longrope, proportional, got ", detail::quoted(name));
}

std::string_view to_string(scaling_type type) noexcept {
  switch (type) {
    case scaling_type::none: return "default";
    case scaling_type::linear: return "linear";
    case scaling_type::dynamic: return "dynamic";
    case scaling_type::yarn: return "yarn";
    case scaling_type::llama3: return "llama3";
    case scaling_type::longrope: return "longrope";
    case scaling_type::proportional: return "proportional";
  }
  return "default";
}

namespace {

frequencies scaled_ladder(int dim, double base, const scaling& s) {
  switch (s.type) {
    case scaling_type::none: return {default_ladder(dim, base), 1.0};
    case scaling_type::linear: return linear(dim, base, s);
    case scaling_type::dynamic: return dynamic(dim, base, s);
    case scaling_type::yarn: return yarn(dim, base, s);
    case scaling_type::llama3: return llama3(dim, base, s);
    case scaling_type::longrope: return longrope(dim, base, s);
    case scaling_type::proportional: return proportional(dim, base, s);
  }
  fail_argument("scaling.type is not a known scaling_type (", static_cast<int>(s.type), ")");
}

// Each parameter may be in range while their combination is not (a longrope factor of
// 1e−300 divides θ into overflow; an attention factor past float range turns every rotated
// value into inf). The consumers need θ_i finite in (0, max_inv_freq] — so p·θ stays finite
// for every accepted position — and an attention factor that is a finite float.
void check_result(const frequencies& f, scaling_type type) {
  for (double theta : f.inv_freq)
    if (!(theta == 0.0 && type == scaling_type::proportional) &&
        !(theta > 0.0 && theta <= max_inv_freq))
      fail_argument("scaling parameters give a frequency theta = ", theta,
                    " outside (0, ", max_inv_freq, "]: check scaling.factor / short_factor / long_factor");
  if (!(f.attention_factor >= min_attention_factor && f.attention_factor <= max_attention_factor))
    fail_argument("scaling.attention_factor (given, or the ratio of scaling.mscale and "
                  "scaling.mscale_all_dim) must be in [", min_attention_factor, ", ", max_attention_factor, "], got ",
                  f.attention_factor);
}

} // namespace

frequencies inverse_frequencies(int dim, double base, const scaling& s) {
  detail::check_even("dim", dim, 2, max_dim);
  check_above("base", base, 1.0);
  validate(dim, s);
  frequencies f = scaled_ladder(dim, base, s);
  check_result(f, s.type);
  return f;
}

std::vector<double> wavelengths(int dim, double base, const scaling& s) {
  std::vector<double> out = inverse_frequencies(dim, base, s).inv_freq;
  for (double& v : out) v = 2.0 * kPi / v;
  return out;
}

} // namespace posenc
