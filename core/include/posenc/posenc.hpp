// posenc/posenc.hpp — the whole public API in one include.
//
// Each concept also has its own header (frequencies, sinusoidal, rotary, scores,
// attention, plus the seeded generator and the error hierarchy); include only what you use
// if compile times matter.
#pragma once

#include "posenc/errors.hpp"
#include "posenc/frequencies.hpp"
#include "posenc/tensor.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/rotary.hpp"
#include "posenc/scores.hpp"
#include "posenc/random.hpp"
#include "posenc/attention.hpp"
#include "posenc/embedding.hpp"
#include "posenc/angle_table.hpp"
#include "posenc/relative.hpp"
#include "posenc/config.hpp"
#include "posenc/multimodal.hpp"
#include "posenc/mrope_positions.hpp"
#include "posenc/axes.hpp"
#include "posenc/axes_positions.hpp"
#include "posenc/sinusoidal_2d.hpp"
#include "posenc/half.hpp"
