// bench/stable/paths.hpp — posenc_paths: each special kernel path beside the simple code it
// replaces, both in one process (bench/stable/paths.cpp). The variants are compiled in the
// arch translation units below (paths_avx512.cpp, paths_avx2.cpp) from the library's own
// kernel templates, so the only difference between two members is the path measured.
#pragma once

#include "detail/rotary_kernels.hpp"

namespace posenc::bench {

using float_job = detail::token_rows<float, float>;
using float_kernel = void (*)(const float_job&) noexcept;

// [interleaved]: the library's AVX-512 / AVX2 + FMA token kernels (g = 1).
extern const float_kernel avx512_token[2];
extern const float_kernel avx2_token[2];
// AVX-512, every head row in turn (one head per row block) whatever the row's length: the
// kernel without rotate_token's "one group when one row block spans the row".
extern const float_kernel avx512_head_by_head[2];
// AVX-512 without the half-width tail batch: whole batches, then the scalar loop.
extern const float_kernel avx512_no_tail[2];
// AVX2 + FMA without the 16-byte alignment peel: whole 256-bit batches from the row's start.
extern const float_kernel avx2_no_peel[2];

}  // namespace posenc::bench
