// bench/native/bench_train.cpp — one step of the "train short, test long" trainer
// (posenc::protocol_trainer) on the page's default model: recall, RoPE half, 8 sequences of
// 64, dim 16, 2 heads, 2 layers, MLP 32. bench/wasm/run.mjs times the same step through
// pe.train beside a plain-JS step of the same model.
#include "harness.hpp"

#include "posenc/train_protocol.hpp"

#include <memory>

namespace posenc::bench {
namespace {

const bool registered = [] {
  register_paired("train/step/recall-rope-half/8x64", [] {
    protocol_config c;  // the protocol's defaults are the page's model and batch
    c.steps = 1000000;  // a schedule long enough for every timed step
    c.eval_lengths = {64};
    auto trainer = std::make_shared<protocol_trainer>(c, train_encoding::rope_half, 1);
    return std::vector<member>{{"posenc", [trainer] { benchmark::DoNotOptimize(trainer->step()); }}};
  });
  return true;
}();

}  // namespace
}  // namespace posenc::bench
