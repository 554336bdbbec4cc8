// `local`: one rank fills its ghosts from the field itself (periodic wrap or rigid reflection).
#include "comm/ghost_shell.hpp"
#include "wavefd/halo.hpp"

namespace wavefd {

namespace {

template <class T>
class LocalHalo final : public Halo<T> {
 public:
  LocalHalo(Boundary b, const Kokkos::DefaultExecutionSpace& exec) : boundary_(b), exec_(exec) {
    const auto how = b == Boundary::periodic ? comm::GhostFill::wrap : comm::GhostFill::reflect;
    for (auto& axis : fills_) axis = {how, how};
  }
  std::string name() const override { return std::string("local-") + std::string(to_string(boundary_)); }
  // The z and y ghosts first (contiguous rows, quick), the x faces (4-16 values per row, strided:
  // the dear part) while an overlapped step updates the core, which then spans all y and z.
  void start(Field<T>& f) override { comm::fill_ghosts(exec_, f, fills_, comm::ShellPart::not_x_faces); }
  void finish(Field<T>& f) override {
    comm::fill_ghosts(exec_, f, fills_, comm::ShellPart::x_faces);
    ++this->times_.exchanges;
  }
  std::array<bool, 3> late() const override { return {true, false, false}; }

 private:
  Boundary boundary_;
  Kokkos::DefaultExecutionSpace exec_;
  comm::FaceFills fills_{};
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_local_halo(Boundary b, const Kokkos::DefaultExecutionSpace& exec) {
  return std::make_unique<LocalHalo<T>>(b, exec);
}

template std::unique_ptr<Halo<float>> make_local_halo<float>(Boundary, const Kokkos::DefaultExecutionSpace&);
template std::unique_ptr<Halo<double>> make_local_halo<double>(Boundary, const Kokkos::DefaultExecutionSpace&);

}  // namespace wavefd
