#pragma once
// Posting and completing the messages of an exchange plan with MPI point-to-point calls, on
// whatever buffers the transport hands over (pinned host for `mpi`, device for `mpi-gpu`).
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "comm/exchange_plan.hpp"

namespace wavefd::comm {

template <class T>
MPI_Datatype mpi_type() {
  return sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
}

// MPI errors abort every rank (MPI_ERRORS_ARE_FATAL); this names the call and the rank first.
inline void mpi_check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0, rank = 0;
  MPI_Error_string(rc, text, &len);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "wavefd: error: rank %d: %s failed: %.*s\n", rank, call, len, text);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

template <class T>
class MpiMessages {
 public:
  explicit MpiMessages(const ExchangePlan& plan) : plan_(&plan), requests_(2 * plan.messages.size()) {}

  // Receives first, so that eager sends find them posted.
  void post(const T* send, T* recv) {
    const std::size_t m = plan_->messages.size();
    for (std::size_t i = 0; i < m; ++i) {
      const GhostMessage& g = plan_->messages[i];
      mpi_check(MPI_Irecv(recv + g.recv_at, int(g.recv.size()), mpi_type<T>(), g.peer, g.recv_tag, MPI_COMM_WORLD,
                          &requests_[i]),
                "MPI_Irecv");
    }
    for (std::size_t i = 0; i < m; ++i) {
      const GhostMessage& g = plan_->messages[i];
      mpi_check(MPI_Isend(send + g.send_at, int(g.send.size()), mpi_type<T>(), g.peer, g.send_tag, MPI_COMM_WORLD,
                          &requests_[m + i]),
                "MPI_Isend");
    }
  }
  void wait() { mpi_check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall"); }

 private:
  const ExchangePlan* plan_;
  std::vector<MPI_Request> requests_;
};

}  // namespace wavefd::comm
