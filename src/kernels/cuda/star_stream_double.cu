// cuda-star-stream for double fields (the kernels: star_stream.cuh).
#include "star_stream.cuh"

WAVEFD_STAR_STREAM_INSTANCES(double)
