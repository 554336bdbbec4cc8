// One test per (stencil x precision x variant) cell: the variant reproduces the exact discrete
// eigenmode on two non-cubic periodic grids (padding on and off) and a rigid-boundary sine mode.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "wavefd/verify.hpp"

namespace wavefd {
namespace {

constexpr Precision kPrecisions[] = {Precision::f32, Precision::f64, Precision::f16, Precision::bf16};

struct Cell {
  Stencil stencil;
  Precision precision;
  std::string variant;
};

// Readable test parameters in GoogleTest's output.
void PrintTo(const Cell& c, std::ostream* os) {
  *os << c.stencil.name << " " << to_string(c.precision) << " " << c.variant;
}

std::vector<Cell> all_cells() {
  std::vector<Cell> cells;
  for (const Stencil& s : verification_stencils(false))
    for (Precision p : kPrecisions)
      for (const auto& v : variants())
        if (v->supports(s, p)) cells.push_back({s, p, v->name()});
  return cells;
}

std::string cell_name(const ::testing::TestParamInfo<Cell>& info) {
  std::string n = info.param.stencil.name + "_" + std::string(to_string(info.param.precision)) + "_" +
                  info.param.variant;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class Eigenmode : public ::testing::TestWithParam<Cell> {};

TEST_P(Eigenmode, MatchesExactSolution) {
  const Cell& c = GetParam();
  const Variant& v = select_variant(c.variant, c.stencil, c.precision);
  for (const EigenmodeSpec& spec : verification_specs()) {
    const EigenmodeResult r = verify_eigenmode(c.stencil, v, c.precision, spec);
    EXPECT_TRUE(r.passed()) << c.stencil.name << " " << to_string(c.precision) << " " << c.variant
                            << " grid " << spec.n[0] << "x" << spec.n[1] << "x" << spec.n[2] << " "
                            << to_string(spec.boundary) << (spec.pad_rows ? " padded" : " unpadded")
                            << ": max error " << r.max_error << " > tolerance " << r.tolerance;
    // The mode must actually move: theta well away from 0 so that cos((n+1) theta) tests timing.
    EXPECT_GT(r.theta, 0.05);
  }
}

INSTANTIATE_TEST_SUITE_P(Cells, Eigenmode, ::testing::ValuesIn(all_cells()), cell_name);

// Tunable tiles: every variant with tile candidates (mdrange-general and mdrange-star among them)
// reproduces the exact eigenmode at each candidate of this device and at two tiles that leave
// partial tiles on the verification grids (7x3x2 on 20x17x13: 20 = 2*7+6, 17 = 5*3+2, 13 = 6*2+1;
// 16x4x4 likewise). Host candidates (x = 1024) exceed every grid: one partial tile per row.
TEST(EigenmodeTiles, TiledVariantsMatchExactSolutionAtEveryTile) {
  const std::vector<Tile> partial{{7, 3, 2}, {16, 4, 4}};
  std::set<std::string> tiled;
  for (const auto& v : variants())
    for (const Stencil& s : {make_star(1), make_star(4), make_star(8), make_compact(3), make_box({2, 2, 2})})
      for (Precision p : kPrecisions) {
        if (!v->supports(s, p) || v->tile_candidates(s, p).empty()) continue;
        tiled.insert(v->name());
        std::vector<Tile> tiles = v->tile_candidates(s, p);
        tiles.insert(tiles.end(), partial.begin(), partial.end());
        for (const Tile& tile : tiles) {
          if (!v->accepts_tile(tile)) continue;  // the partial tiles where a kernel's shape is fixed
          for (EigenmodeSpec spec : verification_specs()) {
            spec.tile = tile;
            const EigenmodeResult r = verify_eigenmode(s, *v, p, spec);
            EXPECT_TRUE(r.passed()) << v->name() << " tile " << to_string(tile) << " " << s.name << " "
                                    << to_string(p) << " grid " << spec.n[0] << "x" << spec.n[1] << "x"
                                    << spec.n[2] << " " << to_string(spec.boundary) << ": max error "
                                    << r.max_error << " > tolerance " << r.tolerance;
          }
        }
      }
  EXPECT_TRUE(tiled.count("mdrange-general") && tiled.count("mdrange-star") && tiled.count("mdrange-stream"));
}

// The check has teeth: a scheme whose weights are off by 0.1 % (here: the exact solution built for
// a Courant number 0.1 % larger) fails for every variant in float and double by 10 x the
// tolerance; the 16-bit formats' tolerances, 250 and 2000 x wider, let a 1 % and a 10 % error be seen.
TEST(EigenmodeCheck, DetectsWrongWeights) {
  const std::pair<Precision, double> cases[] = {
      {Precision::f32, 1.001}, {Precision::f64, 1.001}, {Precision::f16, 1.01}, {Precision::bf16, 1.1}};
  for (const auto& [p, scale] : cases)
    for (const Stencil& s : {make_star(4), make_compact(5)})
      for (const auto& v : variants()) {
        if (!v->supports(s, p)) continue;
        EigenmodeSpec spec;
        spec.reference_scale = scale;
        const EigenmodeResult r = verify_eigenmode(s, *v, p, spec);
        EXPECT_FALSE(r.passed()) << s.name << " " << to_string(p) << " " << v->name() << " error " << r.max_error
                                 << " tolerance " << r.tolerance;
        if (!is_16_bit(p)) EXPECT_GT(r.max_error, 10 * r.tolerance);
      }
}

}  // namespace
}  // namespace wavefd
