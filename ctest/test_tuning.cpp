// Tiles (text form, which variants take them, the tile lists of bench and tune) and the tuning
// file that records the tuned variant and tile.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "bench/variant_timing.hpp"
#include "io/tuning.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd {

void PrintTo(const Tile& t, std::ostream* os) { *os << to_string(t); }  // readable EXPECT_EQ

namespace {

TEST(Tile, ParsesAndPrints) {
  EXPECT_TRUE(parse_tile("default", "t").is_default());
  EXPECT_EQ(parse_tile("32x4x4", "t"), (Tile{32, 4, 4}));
  EXPECT_EQ(parse_tile("1024x1x1", "t"), (Tile{1024, 1, 1}));
  for (const char* text : {"default", "32x4x4", "7x3x2", "1x1x1"})
    EXPECT_EQ(to_string(parse_tile(text, "t")), text);
}

TEST(Tile, RejectsMalformedWithOneLineNamingTheParameter) {
  for (const char* text : {"32x4", "0x4x4", "abc", "", "32x4x4x1", "1025x1x1", "-1x4x4", " 32x4x4", "32x4x4 ",
                           "32X4X4", "32x4x", "x4x4", "+32x4x4", "99999999999x1x1"}) {
    try {
      (void)parse_tile(text, "scheme.tile");
      ADD_FAILURE() << "'" << text << "' was accepted";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("scheme.tile = '" + std::string(text) + "' is not a tile; accepted: default", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos);
    }
  }
}

TEST(Tile, OnlyVariantsWithTunableTilesTakeOne) {
  const Stencil s = make_star(2);
  SchemeSpec spec;
  spec.domain = Domain::single({12, 10, 8});
  spec.courant = 0.9 * s.max_courant;
  int tiled = 0, untiled = 0;
  for (const auto& v : variants()) {
    if (!v->supports(s, Precision::f32)) continue;
    EXPECT_NO_THROW((TwoStep<float>(s, spec, *v, Tile{})));
    if (v->tile_candidates(s, Precision::f32).empty()) {
      ++untiled;
      EXPECT_THROW((TwoStep<float>(s, spec, *v, Tile{8, 4, 4})), Error) << v->name();
    } else {
      ++tiled;
      EXPECT_NO_THROW((TwoStep<float>(s, spec, *v, v->tile_candidates(s, Precision::f32).front()))) << v->name();
      for (const Tile& t : v->tile_candidates(s, Precision::f32)) EXPECT_TRUE(v->accepts_tile(t)) << to_string(t);
      EXPECT_FALSE(v->accepts_tile(Tile{0, 4, 4})) << v->name();
    }
  }
  EXPECT_GE(tiled, 3);  // mdrange-general, mdrange-star, mdrange-stream (and the native kernels)
  EXPECT_GE(untiled, 1);
}

TEST(TileSelection, DefaultAllAndLists) {
  const Stencil s = make_star(2);
  const Precision p = Precision::f64;
  const Variant& tiled = select_variant("mdrange-star", s, p);
  const auto all = TileSelection("all", "--tiles").for_variant(tiled, s, p);
  ASSERT_EQ(all.size(), tiled.tile_candidates(s, p).size() + 1);
  EXPECT_TRUE(all.front().is_default());
  const auto list = TileSelection("8x4x2,default", "--tiles").for_variant(tiled, s, p);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0], (Tile{8, 4, 2}));
  EXPECT_TRUE(list[1].is_default());
  EXPECT_EQ(TileSelection("default", "--tiles").for_variant(tiled, s, p).size(), 1u);
  for (const auto& v : variants())  // variants without tiles run at their default whatever the list
    if (v->supports(s, p) && v->tile_candidates(s, p).empty())
      for (const char* text : {"all", "8x4x2,16x2x2"}) {
        const auto tiles = TileSelection(text, "--tiles").for_variant(*v, s, p);
        ASSERT_EQ(tiles.size(), 1u);
        EXPECT_TRUE(tiles[0].is_default());
      }
  for (const char* bad : {"", "32x4x4,", "32x4x4,,8x4x4", "32x4", "al"})
    EXPECT_THROW(TileSelection(bad, "--tiles"), Error) << bad;
}

class TuningFile : public ::testing::Test {
 protected:
  std::string file = ::testing::TempDir() + "wavefd-test-tuning.json";
  TuningKey key{"OpenMP test-device", "star M=4", "float", 21};
  void SetUp() override { std::remove(file.c_str()); }
  void TearDown() override { std::remove(file.c_str()); }
  void write(const std::string& text) { std::ofstream(file) << text; }
};

TEST_F(TuningFile, RoundTripsVariantAndTile) {
  EXPECT_FALSE(lookup_tuning(file, key, "scheme.tuning"));  // no file yet
  store_tuning(file, key, {"mdrange-star", Tile{32, 4, 4}}, {{"ctpn_ns", 0.5}});
  TuningKey other = key;
  other.precision = "double";
  store_tuning(file, other, {"mdrange-stream", Tile{}}, {{"ctpn_ns", 0.9}});
  const auto tuned = lookup_tuning(file, key, "scheme.tuning");
  ASSERT_TRUE(tuned);
  EXPECT_EQ(tuned->variant, "mdrange-star");
  EXPECT_EQ(tuned->tile, (Tile{32, 4, 4}));
  const auto untiled = lookup_tuning(file, other, "scheme.tuning");
  ASSERT_TRUE(untiled);
  EXPECT_EQ(untiled->variant, "mdrange-stream");
  EXPECT_TRUE(untiled->tile.is_default());
  other.size_class = 12;
  EXPECT_FALSE(lookup_tuning(file, other, "scheme.tuning"));
}

TEST_F(TuningFile, EntriesWithoutTileMeanTheDefaultTile) {
  write(R"({"format": "wavefd-tuning-1", "entries": {")" + key.str() +
        R"(": {"variant": "mdrange-star", "ctpn_ns": 1.0, "measured_ctpn_ns": {"mdrange-star": 1.0}}}})");
  const auto tuned = lookup_tuning(file, key, "scheme.tuning");
  ASSERT_TRUE(tuned);
  EXPECT_EQ(tuned->variant, "mdrange-star");
  EXPECT_TRUE(tuned->tile.is_default());
}

TEST_F(TuningFile, RefusesMalformedEntries) {
  for (const std::string entry : {R"({"variant": "mdrange-star", "tile": "32x4"})", R"({"variant": "mdrange-star", "tile": 32})",
                                  R"({"tile": "32x4x4"})", R"("mdrange-star")"}) {
    write(R"({"format": "wavefd-tuning-1", "entries": {")" + key.str() + R"(": )" + entry + "}}");
    EXPECT_THROW(lookup_tuning(file, key, "scheme.tuning"), Error) << entry;
  }
}

}  // namespace
}  // namespace wavefd
