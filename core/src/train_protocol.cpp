// "Train short, test long" (posenc/train_protocol.hpp).
#include "posenc/train_protocol.hpp"

#include "posenc/errors.hpp"

#include <algorithm>
#include <string>

namespace posenc {
namespace {

[[noreturn]] void bad(const std::string& what) { throw invalid_argument("posenc: " + what); }

void check_count(const char* name, long long v, long long lo, long long hi) {
  if (v < lo || v > hi)
    bad(std::string(name) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
        "], got " + std::to_string(v));
}

model_config model_for(const protocol_config& c, const task_source& task, train_encoding e) {
  model_config m = c.model;
  m.vocab = task.vocab();
  m.encoding = e;
  m.max_positions = c.train_length;
  for (int t : c.eval_lengths) m.max_positions = std::max(m.max_positions, t);
  return m;
}

void check_protocol(const protocol_config& c, const task_source& task) {
  check_count("protocol.steps", c.steps, 1, 1000000);
  check_count("protocol.batch", c.batch, 1, 4096);
  check_count("protocol.eval_tokens", c.eval_tokens, 1, 1 << 20);
  if (c.seeds.empty()) bad("protocol.seeds must hold at least one seed");
  if (c.eval_lengths.empty()) bad("protocol.eval_lengths must hold at least one length");
  const int hi = std::min(task.max_length(), max_train_positions);
  check_count("protocol.train_length", c.train_length, task.min_length(), hi);
  for (int t : c.eval_lengths) check_count("protocol.eval_lengths[]", t, task.min_length(), hi);
}

}  // namespace

protocol_trainer::protocol_trainer(const protocol_config& config, train_encoding encoding,
                                   std::uint64_t seed)
    : config_(config),
      task_(config.task),
      model_((check_protocol(config_, task_), model_for(config_, task_, encoding)), seed),
      optimizer_(model_.parameters().size(), config_.adam),
      data_(seed ^ train_data_stream) {}

batch_score protocol_trainer::step() {
  if (done_ >= config_.steps)
    throw length_error("posenc: protocol.steps: all " + std::to_string(config_.steps) +
                       " steps are done");
  const train_batch batch = task_.sample(data_, config_.batch, config_.train_length);
  const batch_score s = model_.gradient(batch);
  optimizer_.step(model_.parameters(), model_.gradients(), adam_rate(config_.adam, done_, config_.steps));
  ++done_;
  return s;
}

batch_score protocol_trainer::evaluate(int length, rope_extension extension) {
  const int hi = std::min(task_.max_length(), model_.config().max_positions);
  check_count("length", length, task_.min_length(), hi);
  random r(config_.eval_seed + std::uint64_t(length));
  const int sequences = (config_.eval_tokens + length - 1) / length;
  return model_.evaluate(task_.sample(r, sequences, length), {extension, config_.train_length});
}

std::vector<float> protocol_trainer::attention(std::span<const std::int32_t> tokens,
                                               rope_extension extension) {
  return model_.attention(tokens, {extension, config_.train_length});
}

protocol_run run_protocol_one(const protocol_config& config, train_encoding encoding,
                              std::uint64_t seed, const protocol_progress& progress) {
  protocol_trainer trainer(config, encoding, seed);
  protocol_run run;
  run.encoding = encoding;
  run.seed = seed;
  for (int step = 0; step < config.steps; ++step) {
    const batch_score s = trainer.step();
    run.train_loss.push_back(s.loss());
    run.train_accuracy.push_back(s.accuracy());
    if (progress && !progress(step, s.loss())) return run;
  }
  std::vector<rope_extension> extensions = {rope_extension::none};
  if (encoding == train_encoding::rope_half)
    for (auto e : config.extensions) if (e != rope_extension::none) extensions.push_back(e);
  for (auto e : extensions) {
    protocol_evaluation ev;
    ev.extension = e;
    for (int t : config.eval_lengths) ev.by_length.push_back(trainer.evaluate(t, e));
    run.evaluations.push_back(std::move(ev));
  }
  run.completed = true;
  return run;
}

std::vector<protocol_run> run_protocol(const protocol_config& config,
                                       const protocol_progress& progress) {
  check_protocol(config, task_source(config.task));
  std::vector<protocol_run> runs;
  for (auto e : config.encodings)
    for (auto s : config.seeds) {
      runs.push_back(run_protocol_one(config, e, s, progress));
      if (!runs.back().completed) return runs;
    }
  return runs;
}

}  // namespace posenc
