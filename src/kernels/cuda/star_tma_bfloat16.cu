// cuda-star-tma for bfloat16 fields (the kernels: star_tma.cuh).
#include "star_tma.cuh"

WAVEFD_STAR_TMA_INSTANCES(wavefd::BFloat16)
