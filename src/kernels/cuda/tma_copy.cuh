#pragma once
// Planes of a field copied into shared memory by the Hopper tensor memory accelerator, paced by
// mbarriers (PTX ISA 8.0, sm_90; callers compile them only for such targets): the device
// primitives, and the host's description of a flat field as a 3-D tensor, for the kernels that
// stage planes this way (star_tma.cuh). Plain CUDA C++ and PTX.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "launch_shape.cuh"

namespace wavefd::cuda::tma {

__device__ __forceinline__ std::uint32_t smem(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count) : "memory");
}
// Makes the barriers' initialisation visible to the copy engine.
__device__ __forceinline__ void mbar_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, unsigned parity) {
  asm volatile(
      "{\n .reg .pred done;\n"
      "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      " @!done bra WAIT;\n}" ::"r"(smem(bar)),
      "r"(parity)
      : "memory");
}
// One box of the tensor at (x, y, z) into dst (128-byte aligned); completes on bar's byte count.
__device__ __forceinline__ void tma_load_plane(void* dst, const CUtensorMap* map, int x, int y, int z,
                                               std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::
          "r"(smem(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(z), "r"(smem(bar))
      : "memory");
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The driver's tensor-map encoder, through the runtime so that no libcuda link is needed.
inline EncodeTiled encoder(const char* kernel) {
  static const EncodeTiled fn = [kernel] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q{};
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q), kernel,
          "cuTensorMapEncodeTiled entry point");
    if (q != cudaDriverEntryPointSuccess || !f) throw std::runtime_error(std::string(kernel) + ": no cuTensorMapEncodeTiled");
    return reinterpret_cast<EncodeTiled>(f);
  }();
  return fn;
}

// The flat array of `alloc` elements seen as a 3-D tensor (the first `width` points of each row,
// row pitch sy, rows per plane, planes), copied in boxes of box_x x box_y x 1; reads past the
// tensor are zero-filled (and never used) without touching memory. A miss in L2 fetches `promotion`.
template <class T>
CUtensorMap plane_map(const T* data, std::int64_t width, std::int64_t sy, std::int64_t sz, std::int64_t alloc, int box_x,
                      int box_y, CUtensorMapL2promotion promotion, const char* kernel) {
  CUtensorMap map;
  const cuuint64_t dims[3] = {cuuint64_t(std::min(width, sy)), cuuint64_t(sz / sy), cuuint64_t((alloc + sz - 1) / sz)};
  const cuuint64_t strides[2] = {cuuint64_t(sy * sizeof(T)), cuuint64_t(sz * sizeof(T))};
  const cuuint32_t box[3] = {cuuint32_t(box_x), cuuint32_t(box_y), 1};
  const cuuint32_t unit[3] = {1, 1, 1};
  const CUresult r = encoder(kernel)(&map, sizeof(T) == 4   ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                     : sizeof(T) == 8 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT64
                                     : sizeof(T) == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16  // 16-bit storage: bits
                                                      : CU_TENSOR_MAP_DATA_TYPE_UINT8,  // byte indices
                                     3, const_cast<T*>(data), dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                     CU_TENSOR_MAP_SWIZZLE_NONE, promotion,
                                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error(std::string(kernel) + ": tensor map encoding failed (" + std::to_string(r) + ")");
  return map;
}

}  // namespace wavefd::cuda::tma
