// wasm/src/bind_frequencies.cpp — the frequency ladder (core: posenc/frequencies.hpp).
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/frequencies.hpp"

#include <emscripten/bind.h>

#include <string>

namespace posenc::wasm {
namespace {

// → Float64Array view [attentionFactor, invFreq(dim/2)…]
val inverse_frequencies(int dim, double base, std::string scaling_type, std::uintptr_t scaling) {
  return guarded([&] {
    posenc::frequencies f =
        posenc::inverse_frequencies(dim, base, scaling_at(scaling_type, scaling));
    f.inv_freq.insert(f.inv_freq.begin(), f.attention_factor);
    return hand_over(std::move(f.inv_freq));
  });
}

// → Float64Array view (dim/2) of λ_i = 2π/θ_i
val wavelengths(int dim, double base, std::string scaling_type, std::uintptr_t scaling) {
  return guarded([&] {
    return hand_over(posenc::wavelengths(dim, base, scaling_at(scaling_type, scaling)));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_frequencies) {
  emscripten::function("inverseFrequencies", &posenc::wasm::inverse_frequencies);
  emscripten::function("wavelengths", &posenc::wasm::wavelengths);
}
