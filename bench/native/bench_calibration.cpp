// bench/native/bench_calibration.cpp — how much of a core this run really got. On a shared
// machine the hypervisor and other tenants take cycles that still count as our CPU time;
// a chain of dependent integer adds costs exactly one core cycle each, so its measured time
// per add is the run's effective cycle time. bench/report.mjs prints it beside the absolute
// targets (decode µs, values/s), whose ratios to the other members need no such correction.
#include "harness.hpp"

namespace posenc::bench {
namespace {

constexpr std::int64_t kAdds = 1 << 20;

const bool registered = [] {
  register_paired("calibration/add_chain", [] {
    return std::vector<member>{{"posenc", [] {
                                  std::int64_t x = 0;
                                  for (std::int64_t i = 0; i < kAdds; ++i) {
                                    x += i;
                                    asm volatile("" : "+r"(x));  // stays in a register: 1 cycle
                                  }
                                  benchmark::DoNotOptimize(x);
                                }}};
  });
  return true;
}();

}  // namespace
}  // namespace posenc::bench
