// bench/stable/paths_avx2.cpp — posenc_paths' AVX2 + FMA members (compiled -mavx2 -mfma -mf16c).
#include "paths.hpp"

namespace posenc::bench {
namespace {

using arch = xsimd::fma3<xsimd::avx2>;

// rotate_token for whole-batch rows (128-dim heads), all heads per block, no peel.
template <bool Interleaved>
void no_peel(const float_job& job) noexcept {
  using batch = xsimd::batch<float, arch>;
  const std::size_t lanes = Interleaved ? 2 * job.half : job.half;
  const std::int64_t group = job.head_group;
  for (std::int64_t h0 = 0; h0 < job.heads; h0 += group) {
    const detail::head_rows<float, float> r{job.lane_cos, job.lane_sin, job.in + h0 * job.in_head_stride,
                                            job.out + h0 * job.out_head_stride, job.in_head_stride,
                                            job.out_head_stride, std::min(group, job.heads - h0), job.half};
    detail::rotate_lanes<batch, Interleaved, false, detail::float_storage>(r, 0, lanes - lanes % batch::size, 1.0f);
  }
}

}  // namespace

const float_kernel avx2_token[2] = {&detail::rotate_token<arch, float, false, false>,
                                    &detail::rotate_token<arch, float, true, false>};
const float_kernel avx2_no_peel[2] = {&no_peel<false>, &no_peel<true>};

}  // namespace posenc::bench
