// bench/stable/paths_avx512.cpp — posenc_paths' AVX-512 members (compiled -mavx512f/cd/dq/bw).
#include "paths.hpp"

namespace posenc::bench {
namespace {

using arch = xsimd::avx512bw;

template <bool Interleaved>
void head_by_head(const float_job& job) noexcept {
  using batch = xsimd::batch<float, arch>;
  const std::size_t lanes = Interleaved ? 2 * job.half : job.half;
  for (std::int64_t h = 0; h < job.heads; ++h) {
    const detail::head_rows<float, float> r{job.lane_cos, job.lane_sin, job.in + h * job.in_head_stride,
                                            job.out + h * job.out_head_stride, 0, 0, 1, job.half};
    detail::rotate_lanes<batch, Interleaved, false, detail::float_storage>(r, 0, lanes - lanes % batch::size, 1.0f);
  }
}

// Whole 512-bit batches of every head (all heads per block), the scalar reference after them.
template <bool Interleaved>
void no_tail(const float_job& job) noexcept {
  using batch = xsimd::batch<float, arch>;
  const std::size_t lanes = Interleaved ? 2 * job.half : job.half, end = lanes - lanes % batch::size;
  const detail::head_rows<float, float> r{job.lane_cos, job.lane_sin, job.in, job.out, job.in_head_stride,
                                          job.out_head_stride, job.heads, job.half};
  detail::rotate_lanes<batch, Interleaved, false, detail::float_storage>(r, 0, end, 1.0f);
  for (std::int64_t h = 0; h < job.heads; ++h)
    detail::rotate_row_scalar<float, Interleaved>(job, Interleaved ? end / 2 : end, job.in + h * job.in_head_stride,
                                                  job.out + h * job.out_head_stride);
}

}  // namespace

const float_kernel avx512_no_tail[2] = {&no_tail<false>, &no_tail<true>};
const float_kernel avx512_token[2] = {&detail::rotate_token<arch, float, false, false>,
                                      &detail::rotate_token<arch, float, true, false>};
const float_kernel avx512_head_by_head[2] = {&head_by_head<false>, &head_by_head<true>};

}  // namespace posenc::bench
