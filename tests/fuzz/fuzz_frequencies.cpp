// tests/fuzz/fuzz_frequencies.cpp — libFuzzer target for posenc/frequencies.hpp: the ladder
// θ_i and wavelengths for any dim and base under every scaling type and parameter (NaN, inf,
// huge, negative, missing keys, wrong longrope list lengths), plus the name parsers.
// Either a call succeeds or it throws posenc::error; on success the ladder must be usable:
// dim/2 finite θ_i ≥ 0 and a finite attention factor > 0 (rotary multiplies by both).
#include "fuzz_input.hpp"

#include <string>

namespace {

using namespace posenc;
using posenc::fuzz::expect;

// Reference in long double (64-bit mantissa): b^(−2i/d).
long double reference_theta(double base, int i, int dim) {
  return std::pow(static_cast<long double>(base),
                  -static_cast<long double>(2 * i) / static_cast<long double>(dim));
}

void check_ladder(const frequencies& f, int dim) {
  expect(f.inv_freq.size() == static_cast<std::size_t>(dim / 2), "inv_freq holds dim/2 values",
         static_cast<double>(f.inv_freq.size()), dim / 2);
  for (double theta : f.inv_freq)
    expect(std::isfinite(theta) && theta >= 0.0, "every theta_i is finite and >= 0", theta, 0);
  expect(std::isfinite(f.attention_factor) && f.attention_factor > 0.0,
         "attention_factor is finite and > 0", f.attention_factor, 0);
}

// The unscaled ladder: θ_0 = 1, non-increasing, and for bases ≤ 1e12 each θ_i within the
// documented 1 ulp of b^(−2i/d) (checked on a sample of indices for large dims). The long
// double reference is off by up to |ln θ|·2⁻⁶³ relative (its exponent and ln b are rounded
// to 64 bits): ≤ 0.03 ulp(double) for these bases, allowed on top. (Past that it is too
// coarse: at base 2^1023 it is 0.6 ulp off, where a 60-digit check gives posenc 0.97 ulp.)
void check_default(const frequencies& f, int dim, double base) {
  const auto& th = f.inv_freq;
  expect(th[0] == 1.0, "theta_0 == 1", th[0], 1.0);
  for (std::size_t i = 1; i < th.size(); ++i)
    expect(th[i] <= th[i - 1], "theta is non-increasing", th[i], th[i - 1]);
  if (!(base <= 1e12)) return;
  const std::size_t step = th.size() <= 512 ? 1 : th.size() / 256;
  for (std::size_t i = 0; i < th.size(); i += step) {
    const long double ref = reference_theta(base, static_cast<int>(i), dim);
    const double ulp = 1.05 * (std::nextafter(th[i], INFINITY) - th[i]);
    const double err = static_cast<double>(std::fabs(static_cast<long double>(th[i]) - ref));
    if (!(err <= ulp)) {
      fuzz::note("dim %d, base %.17g, i %zu: theta %.17g, b^(-2i/d) %.21Lg", dim, base, i,
                 th[i], ref);
      fuzz::fail("theta_i within 1 ulp of b^(-2i/d)", err, ulp);
    }
  }
}

void fuzz_ladder(fuzz::input& in) {
  const int dim = in.dim(in.flag() ? 256 : max_dim);
  const double base = in.base();
  const scaling s = in.scaling_for(dim);
  fuzz::note("dim %d, base %.17g, scaling %d factor %.17g", dim, base, static_cast<int>(s.type),
             s.factor.value_or(-1.0));
  frequencies f;
  if (!fuzz::attempt([&] { f = inverse_frequencies(dim, base, s); })) {
    // The same arguments must be refused by wavelengths as well.
    expect(!fuzz::attempt([&] { (void)wavelengths(dim, base, s); }),
           "wavelengths refuses what inverse_frequencies refuses");
    return;
  }
  check_ladder(f, dim);
  if (s.type == scaling_type::none) check_default(f, dim, base);
  if (s.type == scaling_type::linear) {  // θ_i = default θ_i / factor, same operations
    const frequencies plain = inverse_frequencies(dim, base);
    for (std::size_t i = 0; i < plain.inv_freq.size(); ++i)
      expect(f.inv_freq[i] == plain.inv_freq[i] / *s.factor, "linear = default / factor",
             f.inv_freq[i], plain.inv_freq[i] / *s.factor);
  }
  const std::vector<double> lambda = wavelengths(dim, base, s);
  expect(lambda.size() == f.inv_freq.size(), "wavelengths holds dim/2 values");
  for (std::size_t i = 0; i < lambda.size(); ++i)
    expect(lambda[i] == 2.0 * 3.141592653589793 / f.inv_freq[i], "lambda_i = 2pi/theta_i",
           lambda[i], f.inv_freq[i]);
}

// Name parsers: the known names round-trip; anything else throws posenc::error.
void fuzz_names(fuzz::input& in) {
  std::string name;
  const auto n = in.between<std::size_t>(0, 12);
  for (std::size_t i = 0; i < n; ++i) name += static_cast<char>(in.between<int>(0, 255));
  if (in.flag())
    name = in.one_of<const char*>({"default", "linear", "dynamic", "yarn", "llama3",
                                   "longrope", "half", "interleaved", "concat", "none",
                                   "additive", "rotary", "", "Yarn", "linear "});
  scaling_type t{};
  if (fuzz::attempt([&] { t = parse_scaling_type(name); }))
    expect(to_string(t) == name, "to_string(parse_scaling_type(name)) == name");
  rope_layout r{};
  if (fuzz::attempt([&] { r = parse_rope_layout(name); }))
    expect(to_string(r) == name, "to_string(parse_rope_layout(name)) == name");
  pe_layout p{};
  if (fuzz::attempt([&] { p = parse_pe_layout(name); }))
    expect(to_string(p) == name, "to_string(parse_pe_layout(name)) == name");
  score_mode m{};
  if (fuzz::attempt([&] { m = parse_score_mode(name); }))
    expect(to_string(m) == name, "to_string(parse_score_mode(name)) == name");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::input in(data, size);
  if (in.rarely(16))
    fuzz_names(in);
  else
    fuzz_ladder(in);
  return 0;
}
