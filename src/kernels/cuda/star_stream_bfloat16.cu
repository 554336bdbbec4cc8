// cuda-star-stream for bfloat16 fields (the kernels: star_stream.cuh).
#include "star_stream.cuh"

WAVEFD_STAR_STREAM_INSTANCES(wavefd::BFloat16)
