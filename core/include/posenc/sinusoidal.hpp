// posenc/sinusoidal.hpp — the sinusoidal position encoding of Vaswani et al. and its algebra.
//
// For an even dim d and base b, with θ_i = b^(−2i/d) (posenc/frequencies.hpp):
//   interleaved layout (the paper):          PE(p)[2i] = sin(p·θ_i), PE(p)[2i+1] = cos(p·θ_i)
//   concat layout (tensor2tensor and ports): PE(p)[i]  = sin(p·θ_i), PE(p)[d/2+i] = cos(p·θ_i)
// Every angle p·θ_i is formed in double, reduced mod 2π in double and rounded to float32
// once (core/src/detail/angles.hpp), so tables stay exact where float32 angles fail.
//
// Argument ranges shared by every function below (violations throw posenc::invalid_argument
// naming the argument; buffers and size products that do not fit throw posenc::length_error):
//   dim       even, in [2, max_dim]            base   finite, > 1
//   positions |p| ≤ max_table_position
// Error convention: "float64 truth" is sin/cos of the exact product p·θ_i of the position and
// the double ladder value θ_i. Forming that product in double rounds it by ≤ |p·θ_i|·2⁻⁵³
// (≤ 1.9e−9 for |p| ≤ 2²⁴; 1.2e−4 at 2⁴⁰), so every table value is within
//   0.5 ulp(float) + |p|·2⁻⁵³        (measured ≤ 3.1e−8 for |p| ≤ 2²⁴; the promise is 3e−7).
#pragma once

#include "posenc/frequencies.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace posenc {

// Largest |position| the sinusoidal functions accept: 2⁴⁰. Past it the double product p·θ_0
// (θ_0 = 1) would round by more than 1e−4 rad, and the table would stop meaning anything.
inline constexpr std::int64_t max_table_position = std::int64_t{1} << 40;

// Largest dim shift_matrix accepts: its dim×dim doubles are 32 MiB at 2048.
inline constexpr int max_shift_matrix_dim = 2048;

// Largest `count` pe_min_distance accepts (its cost is (count−1)·dim/2 sines).
inline constexpr std::int64_t max_min_distance_count = std::int64_t{1} << 20;

enum class pe_layout { interleaved, concat };

// "interleaved" | "concat"; anything else throws posenc::invalid_argument naming `layout`.
pe_layout parse_pe_layout(std::string_view name);
std::string_view to_string(pe_layout layout) noexcept;

// Fills out[r·dim + j] = PE(first + r)[j] for r in [0, count), row-major float32.
// Ranges: count in [0, max_table_position], first and first+count−1 within ±max_table_position,
// out_size ≥ count·dim (elements at out). Only the first count·dim elements are written.
// Max error vs float64 truth: 0.5 ulp(float) + |p|·2⁻⁵² + 3e−14 per value (the SIMD path
// steps each row from the one before by the rotation of θ_i, in double, from an exact anchor
// row every 32 rows — in WebAssembly it adds each offset j·θ_i to the anchor instead; the
// scalar reference evaluates every value directly). Either way ≤ 6e−8 for |p| ≤ 2²⁴ and
// ≤ 3e−8 for |p| < 2¹⁶. A row's bits depend only on its position, so a table built in
// pieces of at least 32 rows equals one built at once.
void sinusoidal_table(float* out, std::size_t out_size, int dim, double base,
                      std::int64_t first, std::int64_t count,
                      pe_layout layout = pe_layout::interleaved);

// The same for arbitrary positions: row r is PE(positions[r]); out_size ≥ positions.size()·dim.
// Max error vs float64 truth: 0.5 ulp(float) + |p|·2⁻⁵³ per value.
void sinusoidal_table(float* out, std::size_t out_size, int dim, double base,
                      std::span<const std::int32_t> positions,
                      pe_layout layout = pe_layout::interleaved);

// One row PE(position), dim floats (scalar reference path). Max error vs float64 truth:
// 0.5 ulp(float) + |position|·2⁻⁵³ per value.
std::vector<float> sinusoidal_row(int dim, double base, std::int64_t position,
                                  pe_layout layout = pe_layout::interleaved);

// The shift matrix M(k), dim×dim row-major doubles: PE(p+k) = M(k)·PE(p) for
// every p. Block diagonal, one 2×2 block per pair i (at (2i, 2i+1) interleaved, (i, d/2+i)
// concat):  [[cos kθ_i, sin kθ_i], [−sin kθ_i, cos kθ_i]] acting on (sin, cos).
// Ranges: dim ≤ max_shift_matrix_dim, |k| ≤ max_table_position. Max error vs float64 truth:
// 1 ulp(double) + |k|·2⁻⁵³.
std::vector<double> shift_matrix(int dim, double base, std::int64_t k,
                                 pe_layout layout = pe_layout::interleaved);

// M(k)·row in double without forming M (O(dim)); row has dim floats in `layout`.
// d=8, k=3, row = PE(5) gives PE(8) ≈ [0.98936, −0.14550, 0.71736, 0.69671, …].
// Max error vs float64 of the exact product: 3 ulp(double) + |k|·2⁻⁵³ per value; against
// PE(p+k) itself the float32 rounding of `row` dominates (measured ≤ 7e−8 for |p| ≤ 2²⁴).
std::vector<double> apply_shift(int dim, double base, std::int64_t k,
                                std::span<const float> row,
                                pe_layout layout = pe_layout::interleaved);

// out[j] = PE(p)·PE(p + k_first + j) for j in [0, k_count), the dot of the float32 rows
// accumulated in double. Ranges: k_count in [0, 2²⁴], all positions within ±max_table_position.
// Max error vs float64 truth Σ_i cos(kθ_i): dim·6e−8 (the rows' float32 rounding; measured
// ≤ 6e−7 at dim 128).
std::vector<double> pe_dot_by_distance(int dim, double base, std::int64_t p,
                                       std::int64_t k_first, std::int64_t k_count);

// The closed form of the same: out[j] = Σ_i cos((k_first + j)·θ_i), in double.
// Ranges as above. Max error vs float64 truth: dim/2·(2 ulp(double) + |k|·2⁻⁵³).
std::vector<double> pe_dot_closed_form(int dim, double base, std::int64_t k_first,
                                       std::int64_t k_count);

// out[r] = ‖PE(first + r)‖ of the float32 rows, in double; every value is √(d/2) up to
// the rows' rounding (max error vs √(d/2): √(d/2)·6e−8). count in [0, 2²⁴].
std::vector<double> pe_norms(int dim, double base, std::int64_t first, std::int64_t count);

struct min_distance {
  double distance = 0;     // min ‖PE(p) − PE(q)‖ over distinct p, q in the range
  std::int64_t p = 0, q = 0;  // the first pair (smallest q − p, then smallest p) attaining it
};

// Minimum Euclidean distance between the encodings of two distinct positions in
// [first, first+count). ‖PE(p)−PE(q)‖² = Σ_i 4·sin²((q−p)·θ_i/2) depends only on δ = q−p
// (PE(m)·PE(n) = Σ cos((n−m)θ_i)), so this scans δ = 1 … count−1 in double,
// O(count·dim/2), without the cancellation of d − 2·PE(p)·PE(q). Returned p is `first`.
// Ranges: count in [2, max_min_distance_count]. Max error vs float64 truth:
// dim/2·3 ulp(double) relative + |count|·2⁻⁵³ in each angle.
min_distance pe_min_distance(int dim, double base, std::int64_t first, std::int64_t count);

} // namespace posenc
