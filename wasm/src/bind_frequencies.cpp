// wasm/src/bind_frequencies.cpp — the frequency ladder (core: posenc/frequencies.hpp).
#include "guard.hpp"
#include "marshal.hpp"

#include "posenc/frequencies.hpp"

#include <emscripten/bind.h>

namespace posenc::wasm {
namespace {

// → { invFreq: Float64Array(dim/2), attentionFactor: number }
val inverse_frequencies(int dim, double base, val scaling) {
  return guarded([&] {
    const posenc::frequencies f = posenc::inverse_frequencies(dim, base, scaling_from_js(scaling));
    val out = val::object();
    out.set("invFreq", copy_to_js(f.inv_freq));
    out.set("attentionFactor", f.attention_factor);
    return out;
  });
}

// → Float64Array(dim/2) of λ_i = 2π/θ_i
val wavelengths(int dim, double base, val scaling) {
  return guarded([&] {
    return copy_to_js(posenc::wavelengths(dim, base, scaling_from_js(scaling)));
  });
}

} // namespace
} // namespace posenc::wasm

EMSCRIPTEN_BINDINGS(posenc_frequencies) {
  emscripten::function("inverseFrequencies", &posenc::wasm::inverse_frequencies);
  emscripten::function("wavelengths", &posenc::wasm::wavelengths);
}
