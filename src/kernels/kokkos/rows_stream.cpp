// rows-stream: the portable host variant for star stencils (M = 1..8). A Kokkos RangePolicy over
// blocks of rows (static schedule: RowItems), each block streamed through its planes; within a row a plain
// loop over restrict pointers that the compiler vectorises (star_rows.hpp, the rows of the native
// host kernel host-star, which takes the same blocks with OpenMP itself). Host builds only: on a
// GPU a thread per block of rows would leave the device idle.
//
// Why: the MDRange and team variants leave the x loop to Kokkos' tiling, which the compiler does
// not vectorise on the host (256^3 star M = 4 on 2 cores: 0.29 Gpts/s for mdrange-stream against
// 1.1 for host-star), so the portable path ran 3-5 x slower than a plain OpenMP loop (issue 12).
#include <string>

#include "kernels/host/star_rows.hpp"
#include "kernels/native_variant.hpp"

namespace wavefd::kernels {
namespace {

class RowsStream final : public RowsStarVariant<RowsStream> {
 public:
  std::string name() const override { return "rows-stream"; }
  std::string description() const override {
    return "Kokkos RangePolicy over blocks of rows (host builds), star M=1..8: each block streamed through "
           "its planes (2R+1 planes in L2), the x loop vectorised by the compiler";
  }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    using Host = Kokkos::DefaultHostExecutionSpace;
    host::with_star_rows(native_star_args(a, box, nullptr), Host().concurrency(), "rows-stream", [&](const auto& rows) {
      Kokkos::parallel_for("wavefd::rows_stream", RowItems(0, rows.blocks.items), [rows](int item) { rows.update(item); });
    });
  }
};

}  // namespace

std::unique_ptr<Variant> make_rows_stream() { return std::make_unique<RowsStream>(); }

}  // namespace wavefd::kernels
