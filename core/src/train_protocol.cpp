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

protocol_run run_protocol_one(const protocol_config& config, train_encoding encoding,
                              std::uint64_t seed, const protocol_progress& progress) {
  const task_source task(config.task);
  check_protocol(config, task);
  transformer<float> model(model_for(config, task, encoding), seed);
  adam<float> optimizer(model.parameters().size(), config.adam);
  protocol_run run;
  run.encoding = encoding;
  run.seed = seed;
  random data(seed ^ train_data_stream);
  for (int step = 0; step < config.steps; ++step) {
    const train_batch batch = task.sample(data, config.batch, config.train_length);
    const batch_score s = model.gradient(batch);
    run.train_loss.push_back(s.loss());
    run.train_accuracy.push_back(s.accuracy());
    optimizer.step(model.parameters(), model.gradients(), adam_rate(config.adam, step, config.steps));
    if (progress && !progress(step, s.loss())) return run;
  }
  std::vector<rope_extension> extensions = {rope_extension::none};
  if (encoding == train_encoding::rope_half)
    for (auto e : config.extensions) if (e != rope_extension::none) extensions.push_back(e);
  for (auto e : extensions) {
    protocol_evaluation ev;
    ev.extension = e;
    for (int t : config.eval_lengths) {
      random r(config.eval_seed + std::uint64_t(t));
      const int sequences = (config.eval_tokens + t - 1) / t;
      ev.by_length.push_back(model.evaluate(task.sample(r, sequences, t),
                                            {e, config.train_length}));
    }
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
