// core/src/angle_table.cpp — p·θ_i for listed positions.
#include "posenc/angle_table.hpp"

#include "posenc/detail/check.hpp"
#include "posenc/frequencies.hpp"

namespace posenc {

std::vector<double> position_angles(int dim, double base, std::span<const std::int32_t> positions) {
  const std::vector<double> inv = inverse_frequencies(dim, base).inv_freq;
  std::vector<double> out;
  out.reserve(detail::checked_mul("positions x dim/2", positions.size(), inv.size()));
  for (const std::int32_t p : positions)
    for (const double theta : inv) out.push_back(static_cast<double>(p) * theta);
  return out;
}

} // namespace posenc
