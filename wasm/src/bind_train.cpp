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

#include <algorithm>
#include <cmath>
#include <limits>
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

// Option o if the caller gave it (JS stages NaN for one not given: the core's default stays).
template <class T>
void take(T& field, const double* v, option o) {
  if (!std::isnan(v[o])) field = static_cast<T>(v[o]);
}

protocol_config config_of(const std::string& task, std::uintptr_t text, std::size_t text_bytes,
                          const double* v, std::uintptr_t lengths, std::size_t n_lengths) {
  protocol_config c;
  c.task.kind = parse_train_task(task);
  take(c.task.symbols, v, kSymbols);
  take(c.task.distance, v, kDistance);
  if (text_bytes != 0) c.task.text.assign(from_address<const char>(text), text_bytes);
  take(c.model.dim, v, kDim);
  take(c.model.heads, v, kHeads);
  take(c.model.layers, v, kLayers);
  take(c.model.mlp, v, kMlp);
  take(c.model.rope_base, v, kRopeBase);
  take(c.train_length, v, kLength);
  const std::int32_t* l = from_address<const std::int32_t>(lengths);
  if (n_lengths != 0) {
    c.eval_lengths.assign(l, l + n_lengths);
  } else {  // L, 2L, 4L, 8L (saturated: the core refuses a train_length out of range by name)
    c.eval_lengths.clear();
    for (const std::int64_t k : {1, 2, 4, 8})
      c.eval_lengths.push_back(static_cast<int>(std::clamp<std::int64_t>(
          k * c.train_length, std::numeric_limits<int>::min(), std::numeric_limits<int>::max())));
  }
  take(c.steps, v, kSteps);
  take(c.batch, v, kBatch);
  take(c.adam.learning_rate, v, kLearningRate);
  take(c.adam.warmup_steps, v, kWarmupSteps);
  take(c.eval_tokens, v, kEvalTokens);
  take(c.eval_seed, v, kEvalSeed);
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

// → Float64Array view [vocab, parameters, max_positions, workspace scalars at max_positions,
// train_length, steps, heads, layers, eval_lengths…]: the config as the trainer holds it.
val train_info(std::uintptr_t handle) {
  const protocol_trainer& t = trainer_at(handle);
  const transformer<float>& m = t.model();
  const protocol_config& c = t.config();
  std::vector<double> info{
      static_cast<double>(t.task().vocab()), static_cast<double>(m.parameters().size()),
      static_cast<double>(m.config().max_positions),
      static_cast<double>(m.workspace(m.config().max_positions)),
      static_cast<double>(c.train_length), static_cast<double>(c.steps),
      static_cast<double>(c.model.heads), static_cast<double>(c.model.layers)};
  info.insert(info.end(), c.eval_lengths.begin(), c.eval_lengths.end());
  return hand_over(std::move(info));
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
