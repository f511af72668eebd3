// bench/native/bench_calibration.cpp — how much of a core this run really got. On a shared
// machine the hypervisor and other tenants take cycles that still count as our CPU time;
// a chain of dependent integer adds costs exactly one core cycle each, so its measured time
// per add is the run's effective cycle time. bench/report.mjs prints it beside the absolute
// targets (decode µs, values/s), whose ratios to the other members need no such correction.
#include <benchmark/benchmark.h>

#include <cstdint>

namespace {

constexpr std::int64_t kAdds = 1 << 20;

void add_chain(benchmark::State& state) {
  for (auto _ : state) {
    std::int64_t x = 0;
    for (std::int64_t i = 0; i < kAdds; ++i) {
      x += i;
      asm volatile("" : "+r"(x));  // x stays in a register: one add per cycle, kept
    }
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations() * kAdds);
}
BENCHMARK(add_chain)->Name("calibration/add_chain/posenc");

}  // namespace
