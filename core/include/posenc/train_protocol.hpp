// posenc/train_protocol.hpp — "train short, test long": train a model per encoding and
// seed at length L for a fixed number of steps, then score it at several lengths.
//
// For a seed s, every encoding sees the same training batches (task_source::sample from
// posenc::random(s ^ data_stream)) and starts from weights drawn from posenc::random(s), so
// encodings are compared on paired runs. Every model is scored on the same evaluation
// batches: length T's come from posenc::random(eval_seed + T). A rope-half model is also
// scored with each of `extensions` (PI, YaRN) past L, reported as its own row.
// Memory: one model (parameters, gradients, Adam's two moments: 4 × parameters scalars) and
// one sequence's workspace at the longest length (transformer::workspace), plus one batch.
#pragma once

#include "posenc/train.hpp"
#include "posenc/train_tasks.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace posenc {

inline constexpr std::uint64_t train_data_stream = 0x5DEECE66DULL;

struct protocol_config {
  task_config task;
  // Model shape; vocab comes from the task, encoding from `encodings`, and max_positions is
  // raised to the longest of train_length and eval_lengths. The defaults (here and below)
  // are the recorded run's: small enough that 5 encodings × 3 seeds train in seconds, large
  // enough that every encoding able to express the recall task reaches 100% at L.
  model_config model = {.vocab = 0, .dim = 16, .heads = 2, .layers = 2, .mlp = 32};
  std::vector<train_encoding> encodings = {
      train_encoding::none, train_encoding::sinusoidal, train_encoding::learned,
      train_encoding::t5, train_encoding::alibi, train_encoding::rope_half,
      train_encoding::rope_interleaved};
  std::vector<rope_extension> extensions = {rope_extension::pi, rope_extension::yarn};
  int train_length = 64;                             // in the task's [min_length, max_length]
  std::vector<int> eval_lengths = {64, 128, 256, 512};  // each in the task's range, ≤ max_train_positions
  int steps = 300;                                   // in [1, 10⁶]
  int batch = 8;                                     // sequences per step, in [1, 4096]
  adam_config adam = {.learning_rate = 0.01};
  std::vector<std::uint64_t> seeds = {1, 2, 3};      // at least one
  // Tokens scored per length: ⌈eval_tokens / T⌉ sequences of length T, in [1, 2²⁰].
  int eval_tokens = 1024;
  std::uint64_t eval_seed = 1000;
};

struct protocol_evaluation {
  rope_extension extension = rope_extension::none;
  std::vector<batch_score> by_length;  // one per eval_lengths entry
};

struct protocol_run {
  train_encoding encoding = train_encoding::none;
  std::uint64_t seed = 0;
  std::vector<double> train_loss;      // mean loss of each step's batch (before its update)
  std::vector<double> train_accuracy;  // its accuracy
  std::vector<protocol_evaluation> evaluations;  // extension none first
  bool completed = false;              // false when progress asked to stop
};

// One model of the protocol, trained one step at a time (run_protocol_one runs it to the
// end): the caller steps, scores and looks at attention when it likes, and stops a run by
// not stepping. Memory: as stated above for one model.
class protocol_trainer {
public:
  // Validates as run_protocol_one does; draws the weights from posenc::random(seed).
  protocol_trainer(const protocol_config& config, train_encoding encoding, std::uint64_t seed);

  const protocol_config& config() const noexcept { return config_; }
  const task_source& task() const noexcept { return task_; }
  const transformer<float>& model() const noexcept { return model_; }
  int steps_done() const noexcept { return done_; }

  // Step steps_done() of config().steps: one Adam update on the next training batch at the
  // schedule's rate; returns that batch's score before the update. length_error naming
  // `protocol.steps` once every step is done.
  batch_score step();

  // The score at length T (in the task's range, ≤ the model's max_positions) on the
  // protocol's evaluation batch of T; extension applies to rope-* models past the training
  // length.
  batch_score evaluate(int length, rope_extension extension = rope_extension::none);

  // transformer::attention of one sequence, extended as evaluate() is.
  std::vector<float> attention(std::span<const std::int32_t> tokens,
                               rope_extension extension = rope_extension::none);

private:
  protocol_config config_;
  task_source task_;
  transformer<float> model_;
  adam<float> optimizer_;
  random data_;
  int done_ = 0;
};

// Called after each step with (step index, that step's loss); return false to stop.
using protocol_progress = std::function<bool(int step, double loss)>;

// Validates the config (invalid_argument / length_error naming `protocol.<field>`, or the
// model's and task's own errors). Trains one model and evaluates it; when progress returns
// false, returns at once with completed = false and no evaluations.
protocol_run run_protocol_one(const protocol_config& config, train_encoding encoding,
                              std::uint64_t seed, const protocol_progress& progress = {});

// Every encoding × seed, encodings outer. Stops early (returning the runs so far, the last
// one incomplete) when progress returns false.
std::vector<protocol_run> run_protocol(const protocol_config& config,
                                       const protocol_progress& progress = {});

}  // namespace posenc
