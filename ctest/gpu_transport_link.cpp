// The CUDA, NCCL and MPI calls of the GPU transports, outside Kokkos. Not a CTest test:
// scripts/check_gpu_transports.sh compiles this with nvcc, links it with libnccl, libcudart and
// MPI and runs it, so that CI (no GPU, no CUDA build of Kokkos) proves they compile and that every
// symbol they use resolves.
//   gpu_transport_link              prints the NCCL and MPI libraries it loaded (no GPU needed)
//   gpu_transport_link --exchange [--mpi-gpu]
//       on a GPU, one rank: exchanges device buffers with itself through NCCL (`nccl`) and through
//       MPI (`mpi-gpu`; where MPI says it takes CUDA buffers, or with --mpi-gpu) and checks that
//       every value arrived where it belongs
#include <cuda_runtime.h>
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "comm/mpi_messages.hpp"
#include "comm/nccl_messages.hpp"

namespace wavefd::comm {
namespace {

void cuda_check(cudaError_t rc, const char* call) {
  if (rc == cudaSuccess) return;
  std::fprintf(stderr, "gpu_transport_link: %s failed: %s\n", call, cudaGetErrorString(rc));
  MPI_Abort(MPI_COMM_WORLD, 3);
}

// What a rank alone on a periodic x axis sends itself: n values across -x and n across +x.
std::vector<GhostMessage> self_messages(index_t n) {
  std::vector<GhostMessage> m(2);
  for (int s = 0; s < 2; ++s) {
    const index_t dx = s == 0 ? -1 : 1;
    m[s].peer = 0;
    m[s].send_tag = direction_id({dx, 0, 0});
    m[s].recv_tag = direction_id({-dx, 0, 0});
    m[s].send = m[s].recv = Box{{0, 0, 0}, {n, 1, 1}};
    m[s].send_at = m[s].recv_at = s * n;
    m[s].length = n;
  }
  return m;
}

// Runs `exchange(messages, wires)` on device buffers; the values sent with a tag must land
// in the receive box of the message that expects that tag.
template <class T, class Exchange>
bool exchanged(const char* what, Exchange exchange) {
  const index_t n = 1000;
  const std::vector<GhostMessage> m = self_messages(n);
  std::vector<T> sent(2 * n), got(2 * n, T(0));
  for (std::size_t i = 0; i < sent.size(); ++i) sent[i] = T(i + 1);
  T *send = nullptr, *recv = nullptr;
  cuda_check(cudaMalloc(&send, sent.size() * sizeof(T)), "cudaMalloc");
  cuda_check(cudaMalloc(&recv, got.size() * sizeof(T)), "cudaMalloc");
  cuda_check(cudaMemcpy(send, sent.data(), sent.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  cuda_check(cudaMemset(recv, 0, got.size() * sizeof(T)), "cudaMemset");
  std::vector<Wire<T>> wires;
  wire_up(m, send, recv, static_cast<T*>(nullptr), wires);
  exchange(m, wires);
  cuda_check(cudaMemcpy(got.data(), recv, got.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cuda_check(cudaFree(send), "cudaFree");
  cuda_check(cudaFree(recv), "cudaFree");
  bool ok = true;
  for (const GhostMessage& from : m)
    for (const GhostMessage& to : m)
      if (to.recv_tag == from.send_tag)
        for (index_t i = 0; i < n; ++i) ok = ok && got[to.recv_at + i] == sent[from.send_at + i];
  std::printf("gpu_transport_link: %s exchange with itself: %s\n", what, ok ? "ok" : "WRONG VALUES");
  return ok;
}

template <class T>
bool exchanges(bool mpi_gpu) {
  bool ok = exchanged<T>(sizeof(T) == 4 ? "nccl, float" : "nccl, double",
                         [](const std::vector<GhostMessage>& m, const std::vector<Wire<T>>& wires) {
                           cudaStream_t stream;
                           cuda_check(cudaStreamCreate(&stream), "cudaStreamCreate");
                           {
                             NcclMessages nccl(m);
                             NcclMessages sharing(m);  // alive at once: shares nccl's communicator
                             sharing.post(wires, stream);
                             nccl.post(wires, stream);
                             cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
                           }
                           cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
                         });
  if (mpi_gpu)
    ok = exchanged<T>(sizeof(T) == 4 ? "mpi-gpu, float" : "mpi-gpu, double",
                      [](const std::vector<GhostMessage>& m, const std::vector<Wire<T>>& wires) {
                        MpiMessages<T> mpi(m);
                        mpi.post(wires);
                        mpi.wait();
                      }) &&
         ok;
  return ok;
}

}  // namespace
}  // namespace wavefd::comm

int main(int argc, char** argv) {
  using namespace wavefd::comm;
  MPI_Init(&argc, &argv);
  char mpi[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(mpi, &len);
  const std::string cuda_aware = mpi_takes(DeviceBuffers::cuda);
  std::printf("gpu_transport_link: NCCL %s (nccl.h %d.%d.%d); MPI takes CUDA buffers: %s; %.*s\n",
              nccl_library_version().c_str(), NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH, cuda_aware.c_str(),
              int(std::strcspn(mpi, "\n")), mpi);
  bool ok = true;
  if (argc > 1 && std::strcmp(argv[1], "--exchange") == 0) {
    const bool mpi_gpu = cuda_aware == "yes" || (argc > 2 && std::strcmp(argv[2], "--mpi-gpu") == 0);
    if (!mpi_gpu) std::printf("gpu_transport_link: mpi-gpu not tried (MPI does not say it takes CUDA buffers)\n");
    ok = exchanges<float>(mpi_gpu);
    ok = exchanges<double>(mpi_gpu) && ok;
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
