// core/src/embedding.cpp — scale·e + PE(p), the sinusoidal transformer's input layer.
#include "posenc/embedding.hpp"

#include "posenc/detail/check.hpp"

namespace posenc {

std::vector<float> add_sinusoidal(std::span<const float> e, int dim, double base,
                                  std::span<const std::int32_t> positions, double scale,
                                  pe_layout layout) {
  detail::check_finite("scale", scale);
  // Validates dim, base and the positions before e's length is compared with them.
  sinusoidal_table(nullptr, 0, dim, base, positions.first(0), layout);
  const std::size_t n = detail::checked_mul("positions x dim", positions.size(),
                                            static_cast<std::size_t>(dim));
  if (e.size() != n) detail::fail_length("e must hold positions x dim = ", n, " floats, got ", e.size());
  std::vector<float> out(n);
  sinusoidal_table(out.data(), n, dim, base, positions, layout);
  // One rounding per value: the product and the sum are exact enough in double.
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<float>(scale * static_cast<double>(e[i]) + static_cast<double>(out[i]));
  return out;
}

} // namespace posenc
