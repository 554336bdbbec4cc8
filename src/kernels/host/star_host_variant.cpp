// host-star: the native host kernel (star_host.cpp) as a registry variant, registered on host
// builds. Its tile is 1 x rows per block x 1.
#include <string>
#include <vector>

#include "kernels/native_variant.hpp"
#include "star_host.hpp"

namespace wavefd::kernels {
namespace {

class HostStar final : public VariantFor<HostStar> {
 public:
  std::string name() const override { return "host-star"; }
  std::string description() const override {
    return "native host (C++ and OpenMP), star M=1..8: threads over blocks of rows, each block streamed "
           "through every plane (2R+1 planes in L2), simd x loop";
  }
  bool supports(const Stencil& s, Precision) const override { return native_star_supports(s); }
  bool takes_coefficient() const override { return true; }
  std::vector<Tile> tile_candidates(const Stencil&, Precision) const override {
    std::vector<Tile> tiles;
    for (int rows : {8, 16, 32, 64}) tiles.push_back(Tile{1, rows, 1});
    return tiles;
  }
  bool accepts_tile(const Tile& t) const override {
    return t.is_default() || (t.x == 1 && t.z == 1 && t.y >= 1 && t.y <= kMaxTileExtent);
  }
  std::string accepted_tiles() const override {
    return "default, or 1xYx1 (Y = 1.." + std::to_string(kMaxTileExtent) + " rows per block)";
  }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (!box.empty()) host::star_host(native_star_args(a, box, nullptr));
  }
};

}  // namespace

std::unique_ptr<Variant> make_host_star() { return std::make_unique<HostStar>(); }

}  // namespace wavefd::kernels
