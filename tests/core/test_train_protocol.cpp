// test_train_protocol.cpp — run_protocol_one and the transformer's contract
// (posenc/train_protocol.hpp, posenc/train.hpp): a fixed seed's loss falls on every task under
// every encoding; a seed gives the same run twice; bad arguments are refused by name.
#include "posenc/train_protocol.hpp"

#include "posenc/errors.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <numeric>
#include <nlohmann/json.hpp>
#include <string>

using namespace posenc;
using posenc::test::require_throws;

namespace {

// A small run: length 16, 100 steps of 4 sequences, scored at 16 and 32.
protocol_config small(train_task kind) {
  protocol_config c;
  c.task.kind = kind;
  c.task.symbols = 6;
  c.task.distance = 3;
  c.task.text =
      "the quick brown fox jumps over the lazy dog; the lazy dog sleeps while the quick "
      "brown fox runs over the hill and back to the den by the river.";
  c.model.dim = 16;
  c.model.heads = 2;
  c.model.layers = 2;
  c.model.mlp = 32;
  c.train_length = 16;
  c.eval_lengths = {16, 32};
  c.steps = 100;
  c.batch = 4;
  c.adam.learning_rate = 0.01;
  c.adam.warmup_steps = 5;
  c.eval_tokens = 64;
  return c;
}

double mean(const std::vector<double>& v, std::size_t from, std::size_t to) {
  return std::accumulate(v.begin() + std::ptrdiff_t(from), v.begin() + std::ptrdiff_t(to), 0.0) /
         double(to - from);
}

}  // namespace

TEST_CASE("train protocol: a fixed seed's loss decreases on every task and encoding", "[train]") {
  for (auto kind : {train_task::copy, train_task::recall, train_task::induction, train_task::text})
    for (auto e : {train_encoding::none, train_encoding::sinusoidal, train_encoding::learned,
                   train_encoding::t5, train_encoding::alibi, train_encoding::rope_half,
                   train_encoding::rope_interleaved}) {
      const protocol_run run = run_protocol_one(small(kind), e, 7);
      REQUIRE(run.completed);
      REQUIRE(run.train_loss.size() == 100);
      const double first = mean(run.train_loss, 0, 10), last = mean(run.train_loss, 90, 100);
      INFO(to_string(kind) << " / " << to_string(e) << ": loss " << first << " → " << last);
      CHECK(last < first - 0.05);  // chance is ln(vocab): 1.8 nats for 6 symbols
      // PI and YaRN rows for rope-half only; each evaluation scores every length.
      CHECK(run.evaluations.size() == (e == train_encoding::rope_half ? 3u : 1u));
      for (const auto& ev : run.evaluations) CHECK(ev.by_length.size() == 2);
    }
}

TEST_CASE("train protocol: a seed gives the same run, bit for bit", "[train]") {
  const protocol_config c = small(train_task::recall);
  const protocol_run a = run_protocol_one(c, train_encoding::rope_half, 3);
  const protocol_run b = run_protocol_one(c, train_encoding::rope_half, 3);
  const protocol_run other = run_protocol_one(c, train_encoding::rope_half, 4);
  CHECK(a.train_loss == b.train_loss);
  CHECK(a.train_loss != other.train_loss);
  for (std::size_t x = 0; x < a.evaluations.size(); ++x)
    for (std::size_t i = 0; i < a.evaluations[x].by_length.size(); ++i) {
      CHECK(a.evaluations[x].by_length[i].loss_sum == b.evaluations[x].by_length[i].loss_sum);
      CHECK(a.evaluations[x].by_length[i].correct == b.evaluations[x].by_length[i].correct);
    }
}

TEST_CASE("train protocol: progress can stop a run", "[train]") {
  int calls = 0;
  const protocol_run run = run_protocol_one(small(train_task::copy), train_encoding::alibi, 1,
                                            [&](int, double) { return ++calls < 5; });
  CHECK_FALSE(run.completed);
  CHECK(run.train_loss.size() == 5);
  CHECK(run.evaluations.empty());
}

TEST_CASE("protocol_trainer: stepping by hand is run_protocol_one, and stops at the schedule's end",
          "[train]") {
  const protocol_config c = small(train_task::induction);
  const protocol_run run = run_protocol_one(c, train_encoding::t5, 5);
  protocol_trainer t(c, train_encoding::t5, 5);
  for (int i = 0; i < c.steps; ++i) CHECK(t.step().loss() == run.train_loss[std::size_t(i)]);
  CHECK(t.steps_done() == c.steps);
  require_throws<length_error>([&] { t.step(); }, "protocol.steps: all 100 steps are done");
  for (std::size_t i = 0; i < c.eval_lengths.size(); ++i)
    CHECK(t.evaluate(c.eval_lengths[i]).loss_sum == run.evaluations[0].by_length[i].loss_sum);
  require_throws<invalid_argument>([&] { t.evaluate(33); }, "length must be in [2, 32], got 33");
}

// tests/fixtures/train-curves.json: the curves the WebAssembly tests compare with.
TEST_CASE("protocol_trainer: the recorded native curves reproduce", "[train]") {
  std::ifstream in(std::string(POSENC_FIXTURES_DIR) + "/train-curves.json");
  REQUIRE(in);
  const nlohmann::json j = nlohmann::json::parse(in);
  const nlohmann::json& o = j["options"];
  protocol_config c;
  c.task.kind = parse_train_task(o["task"].get<std::string>());
  c.task.symbols = o["symbols"];
  c.task.distance = o["distance"];
  c.train_length = o["length"];
  c.eval_lengths = o["evalLengths"].get<std::vector<int>>();
  c.steps = o["steps"];
  c.batch = o["batch"];
  c.adam.learning_rate = o["learningRate"];
  c.adam.warmup_steps = o["warmupSteps"];
  c.eval_tokens = o["evalTokens"];
  for (const auto& [name, curve] : j["curves"].items()) {
    INFO(name);
    protocol_trainer t(c, parse_train_encoding(name), o["seed"].get<std::uint64_t>());
    std::vector<double> loss;
    for (int i = 0; i < c.steps; ++i) loss.push_back(t.step().loss());
    for (const auto& p : curve["loss"]) CHECK(std::abs(loss[p[0].get<std::size_t>()] - p[1].get<double>()) <= 1e-4);
    for (const auto& e : curve["eval"]) {
      const batch_score s = t.evaluate(e["length"]);
      CHECK(std::abs(s.loss() - e["loss"].get<double>()) <= 1e-4);
      CHECK(std::abs(s.correct - e["correct"].get<std::int64_t>()) <= 1);
      CHECK(s.scored == e["scored"].get<std::int64_t>());
    }
  }
}

TEST_CASE("train protocol: PI and YaRN change only lengths past the training length",
          "[train]") {
  const protocol_run run = run_protocol_one(small(train_task::recall), train_encoding::rope_half, 2);
  REQUIRE(run.evaluations.size() == 3);
  for (int x = 1; x < 3; ++x) {
    CHECK(run.evaluations[x].by_length[0].loss_sum == run.evaluations[0].by_length[0].loss_sum);
    CHECK(run.evaluations[x].by_length[1].loss_sum != run.evaluations[0].by_length[1].loss_sum);
  }
}

TEST_CASE("train: bad configs, batches and options are refused by name", "[train]") {
  model_config c;
  c.vocab = 8;
  auto make = [](model_config m) { transformer<float> t(m, 1); };
  auto with = [&](auto edit) { model_config m = c; edit(m); return m; };
  require_throws<invalid_argument>([&] { make(with([](model_config& m) { m.vocab = 1; })); }, "config.vocab");
  require_throws<invalid_argument>([&] { make(with([](model_config& m) { m.dim = 30; })); }, "config.dim");
  require_throws<invalid_argument>([&] { make(with([](model_config& m) { m.dim = 12; m.heads = 4; m.encoding = train_encoding::rope_half; })); }, "head dim");
  require_throws<invalid_argument>([&] { make(with([](model_config& m) { m.layers = 0; })); }, "config.layers");
  require_throws<invalid_argument>([&] { make(with([](model_config& m) { m.max_positions = 0; })); }, "config.max_positions");
  require_throws<invalid_argument>([&] { make(with([](model_config& m) { m.encoding = train_encoding::rope_half; m.rope_base = 1; })); }, "config.rope_base");
  require_throws<invalid_argument>([&] { make(with([](model_config& m) { m.encoding = train_encoding::t5; m.t5_max_distance = 4; })); }, "config.t5_max_distance");
  require_throws<length_error>([&] { make(with([](model_config& m) { m.max_positions = 8192; m.heads = 64; m.dim = 64; m.layers = 8; })); }, "max_positions");
  require_throws<invalid_argument>([] { parse_train_encoding("xpos"); }, "encoding");
  require_throws<invalid_argument>([] { parse_rope_extension("ntk"); }, "extension");

  transformer<float> m(c, 1);
  const std::vector<float> before(m.parameters().begin(), m.parameters().end());
  train_batch b{1, 4, {1, 2, 3, 8}, {2, 3, -1, -1}};
  require_throws<invalid_argument>([&] { m.gradient(b); }, "batch.tokens[3]");
  b.tokens[3] = 4;
  b.targets[0] = -2;
  require_throws<invalid_argument>([&] { m.gradient(b); }, "batch.targets[0]");
  b.targets.pop_back();
  require_throws<length_error>([&] { m.gradient(b); }, "batch.tokens");
  b = {1, 600, std::vector<std::int32_t>(600, 0), std::vector<std::int32_t>(600, -1)};
  require_throws<invalid_argument>([&] { m.evaluate(b); }, "batch.length");
  b = {1, 4, {1, 2, 3, 4}, {2, 3, 4, -1}};
  require_throws<invalid_argument>([&] { m.evaluate(b, {rope_extension::yarn, 0}); }, "options.trained_length");
  CHECK(std::vector<float>(m.parameters().begin(), m.parameters().end()) == before);

  adam_config a;
  a.beta2 = 1;
  require_throws<invalid_argument>([&] { adam<float>(4, a); }, "adam.beta2");
  adam<float> opt(4, {});
  std::vector<float> p(4), g(3);
  require_throws<length_error>([&] { opt.step(p, g, 0.1); }, "grads");

  protocol_config pc = small(train_task::recall);
  pc.eval_lengths = {2};
  require_throws<invalid_argument>([&] { run_protocol(pc); }, "protocol.eval_lengths");
  pc = small(train_task::recall);
  pc.seeds.clear();
  require_throws<invalid_argument>([&] { run_protocol(pc); }, "protocol.seeds");
}
