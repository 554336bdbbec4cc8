// cuda-star-tma for double fields (the kernels: star_tma.cuh).
#include "star_tma.cuh"

WAVEFD_STAR_TMA_INSTANCES(double)
