// wasm/src/bind_train.cpp — the "train short, test long" trainer (core:
// posenc/train_protocol.hpp): one model of the protocol, stepped from JS.
//
// A trainer is a heap-allocated posenc::protocol_trainer whose address JS keeps as an opaque
// handle in private state (wasm/js/train.js frees it with trainDestroy on dispose() or
// finalization, and checks it live before every call). The numeric options arrive as a block
// of doubles staged by wasm/js/train.js (layout: kOptions below), the text as UTF-8 bytes
// and the evaluation lengths as int32, all in the heap.
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/train_protocol.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <vector>

namespace posenc::wasm {
namespace {

// The doubles wasm/js/train.js stages, in this order (its TRAIN_NUMBERS).
enum option : int {
  kSymbols, kDistance, kDim, kHeads, kLayers, kMlp, kRopeBase, kLength, kSteps, kBatch,
  kLearningRate, kWarmupSteps, kEvalTokens, kEvalSeed, kSeedLo, kSeedHi, kOptions
};

protocol_trainer& trainer_at(std::uintptr_t handle) {
  return *from_address<protocol_trainer>(handle);
}

int int_at(const double* v, option o) { return static_cast<int>(v[o]); }

protocol_config config_of(const std::string& task, std::uintptr_t text, std::size_t text_bytes,
                          const double* v, std::uintptr_t lengths, std::size_t n_lengths) {
  protocol_config c;
  c.task.kind = parse_train_task(task);
  c.task.symbols = int_at(v, kSymbols);
  c.task.distance = int_at(v, kDistance);
  if (text_bytes != 0) c.task.text.assign(from_address<const char>(text), text_bytes);
  c.model.dim = int_at(v, kDim);
  c.model.heads = int_at(v, kHeads);
  c.model.layers = int_at(v, kLayers);
  c.model.mlp = int_at(v, kMlp);
  c.model.rope_base = v[kRopeBase];
  c.train_length = int_at(v, kLength);
  const std::int32_t* l = from_address<const std::int32_t>(lengths);
  c.eval_lengths.assign(l, l + n_lengths);
  c.steps = int_at(v, kSteps);
  c.batch = int_at(v, kBatch);
  c.adam.learning_rate = v[kLearningRate];
  c.adam.warmup_steps = int_at(v, kWarmupSteps);
  c.eval_tokens = int_at(v, kEvalTokens);
  c.eval_seed = static_cast<std::uint64_t>(v[kEvalSeed]);
  return c;
}

// → the handle (a number), or null on error.
val train_create(std::string task, std::string encoding, std::uintptr_t text,
                 std::size_t text_bytes, std::uintptr_t numbers, std::uintptr_t lengths,
                 std::size_t n_lengths) {
  return guarded([&] {
    const double* v = from_address<const double>(numbers);
    const protocol_config c = config_of(task, text, text_bytes, v, lengths, n_lengths);
    const std::uint64_t seed =
        seed_of(static_cast<std::uint32_t>(v[kSeedLo]), static_cast<std::uint32_t>(v[kSeedHi]));
    auto t = std::make_unique<protocol_trainer>(c, parse_train_encoding(encoding), seed);
    return val(static_cast<double>(reinterpret_cast<std::uintptr_t>(t.release())));
  });
}

// → Float64Array view [vocab, parameters, max_positions, workspace scalars at max_positions].
val train_info(std::uintptr_t handle) {
  const protocol_trainer& t = trainer_at(handle);
  const transformer<float>& m = t.model();
  return hand_over(std::vector<double>{
      static_cast<double>(t.task().vocab()), static_cast<double>(m.parameters().size()),
      static_cast<double>(m.config().max_positions),
      static_cast<double>(m.workspace(m.config().max_positions))});
}

// → Int32Array view of the text task's alphabet (byte values in token order; empty otherwise).
val train_alphabet(std::uintptr_t handle) {
  const std::string& a = trainer_at(handle).task().alphabet();
  std::vector<std::int32_t> bytes;
  for (unsigned char c : a) bytes.push_back(c);
  return hand_over(std::move(bytes));
}

// `count` steps → Float64Array view [loss, accuracy] per step, or null (nothing stepped
// when count runs past the last step: JS checked it against steps done).
val train_step(std::uintptr_t handle, int count) {
  return guarded([&] {
    protocol_trainer& t = trainer_at(handle);
    std::vector<double> out;
    out.reserve(2 * static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      const batch_score s = t.step();
      out.push_back(s.loss());
      out.push_back(s.accuracy());
    }
    return hand_over(std::move(out));
  });
}

// → Float64Array view [loss, correct, scored] per length of the int32 list at `lengths`.
val train_evaluate(std::uintptr_t handle, std::uintptr_t lengths, std::size_t n,
                   std::string extension) {
  return guarded([&] {
    protocol_trainer& t = trainer_at(handle);
    const rope_extension e = parse_rope_extension(extension);
    const std::int32_t* l = from_address<const std::int32_t>(lengths);
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i) {
      const batch_score s = t.evaluate(l[i], e);
      out.insert(out.end(), {s.loss(), static_cast<double>(s.correct), static_cast<double>(s.scored)});
    }
    return hand_over(std::move(out));
  });
}

// → Float32Array view [layers][heads][T][T] of the T int32 tokens at `tokens`.
val train_attention(std::uintptr_t handle, std::uintptr_t tokens, std::size_t n,
                    std::string extension) {
  return guarded([&] {
    const rope_extension e = parse_rope_extension(extension);
    return hand_over(trainer_at(handle).attention({from_address<const std::int32_t>(tokens), n}, e));
  });
}

void train_destroy(std::uintptr_t handle) {
  delete from_address<protocol_trainer>(handle);
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_train) {
  using namespace posenc::wasm;
  emscripten::function("trainCreate", &train_create);
  emscripten::function("trainInfo", &train_info);
  emscripten::function("trainAlphabet", &train_alphabet);
  emscripten::function("trainStep", &train_step);
  emscripten::function("trainEvaluate", &train_evaluate);
  emscripten::function("trainAttention", &train_attention);
  emscripten::function("trainDestroy", &train_destroy);
}
