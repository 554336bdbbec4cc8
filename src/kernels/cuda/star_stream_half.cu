// cuda-star-stream for half fields (the kernels: star_stream.cuh).
#include "star_stream.cuh"

WAVEFD_STAR_STREAM_INSTANCES(wavefd::Half)
