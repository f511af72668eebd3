// core/src/frequencies.cpp — the frequency ladder (DESIGN §2). Scaling variants follow.
#include "posenc/frequencies.hpp"

#include "posenc/detail/check.hpp"

#include <cmath>
#include <numbers>

namespace posenc {

scaling_type parse_scaling_type(std::string_view name) {
  if (name == "default") return scaling_type::none;
  if (name == "linear") return scaling_type::linear;
  if (name == "dynamic") return scaling_type::dynamic;
  if (name == "yarn") return scaling_type::yarn;
  if (name == "llama3") return scaling_type::llama3;
  if (name == "longrope") return scaling_type::longrope;
  detail::fail_argument("scaling.type must be one of default, linear, dynamic, yarn, llama3, "
                        "longrope, got '", std::string(name), "'");
}

std::string_view to_string(scaling_type type) noexcept {
  switch (type) {
    case scaling_type::none: return "default";
    case scaling_type::linear: return "linear";
    case scaling_type::dynamic: return "dynamic";
    case scaling_type::yarn: return "yarn";
    case scaling_type::llama3: return "llama3";
    case scaling_type::longrope: return "longrope";
  }
  return "default";
}

frequencies inverse_frequencies(int dim, double base, const scaling& s) {
  detail::check_even("dim", dim, 2, max_dim);
  detail::check_finite("base", base);
  if (!(base > 1.0)) detail::fail_argument("base must be a finite number > 1, got ", base);
  (void)s;
  frequencies out;
  out.inv_freq.resize(static_cast<std::size_t>(dim / 2));
  const double log_base = std::log(base);
  for (int i = 0; i < dim / 2; ++i)
    out.inv_freq[static_cast<std::size_t>(i)] = std::exp(-(2.0 * i / dim) * log_base);
  return out;
}

std::vector<double> wavelengths(int dim, double base, const scaling& s) {
  std::vector<double> out = inverse_frequencies(dim, base, s).inv_freq;
  for (double& v : out) v = 2.0 * std::numbers::pi / v;
  return out;
}

} // namespace posenc
