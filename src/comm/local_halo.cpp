// `local`: one rank fills its ghosts from the field itself (periodic wrap or rigid reflection).
#include "comm/ghost_shell.hpp"
#include "wavefd/halo.hpp"

namespace wavefd {

namespace {

template <class T>
class LocalHalo final : public Halo<T> {
 public:
  LocalHalo(Boundary b, const Kokkos::DefaultExecutionSpace& exec, const Kokkos::DefaultExecutionSpace& early)
      : boundary_(b), exec_(exec), early_(early) {
    const auto how = b == Boundary::periodic ? comm::GhostFill::wrap
                     : b == Boundary::rigid  ? comm::GhostFill::reflect
                                             : comm::GhostFill::keep;  // zero: the ghosts stay 0
    for (auto& axis : fills_) axis = {how, how};
  }
  std::string name() const override { return std::string("local-") + std::string(to_string(boundary_)); }
  // The x and y faces first, the z ghost planes while an overlapped step updates the core, which
  // then spans whole xy planes: only z slabs are left for the shell, the one shape that z-streaming
  // kernels update at full speed. (x late instead hides the dearest part of the fill, the strided
  // x faces, but leaves x slabs that those kernels update 2-5x slower: measured, docs/performance.md.)
  void start(Field<T>& f) override { comm::fill_ghosts(early_, f, fills_, {comm::ShellPart::early, kLateAxes}); }
  void finish(Field<T>& f) override {
    comm::fill_ghosts(exec_, f, fills_, {comm::ShellPart::late, kLateAxes});
    ++this->times_.exchanges;
  }
  std::array<bool, 3> late() const override { return comm::late_of(kLateAxes); }

 private:
  Boundary boundary_;
  static constexpr int kLateAxes = 1;  // z
  Kokkos::DefaultExecutionSpace exec_, early_;
  comm::FaceFills fills_{};
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_local_halo(Boundary b, const Kokkos::DefaultExecutionSpace& exec,
                                         std::optional<Kokkos::DefaultExecutionSpace> early) {
  return std::make_unique<LocalHalo<T>>(b, exec, early.value_or(exec));
}

using Early = std::optional<Kokkos::DefaultExecutionSpace>;
template std::unique_ptr<Halo<float>> make_local_halo<float>(Boundary, const Kokkos::DefaultExecutionSpace&, Early);
template std::unique_ptr<Halo<double>> make_local_halo<double>(Boundary, const Kokkos::DefaultExecutionSpace&, Early);
template std::unique_ptr<Halo<Half>> make_local_halo<Half>(Boundary, const Kokkos::DefaultExecutionSpace&, Early);
template std::unique_ptr<Halo<BFloat16>> make_local_halo<BFloat16>(Boundary, const Kokkos::DefaultExecutionSpace&, Early);

}  // namespace wavefd
