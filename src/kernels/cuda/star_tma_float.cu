// cuda-star-tma for float fields (the kernels: star_tma.cuh).
#include "star_tma.cuh"

WAVEFD_STAR_TMA_INSTANCES(float)
