// Tiles as text ("default", "32x4x4") and the checks every variant shares.
#include <charconv>

#include "wavefd/variant.hpp"

namespace wavefd {

Tile parse_tile(const std::string& text, const std::string& what) {
  if (text == "default") return Tile{};
  int extent[3] = {0, 0, 0};
  const char* p = text.data();
  const char* end = text.data() + text.size();
  bool ok = true;
  for (int d = 0; d < 3 && ok; ++d) {
    if (d > 0) ok = p != end && *p++ == 'x';
    const auto [next, ec] = std::from_chars(p, end, extent[d]);
    ok = ok && ec == std::errc() && next != p && extent[d] >= 1 && extent[d] <= kMaxTileExtent;
    p = next;
  }
  if (!ok || p != end)
    throw Error(what + " = '" + text + "' is not a tile; accepted: default, or XxYxZ with each extent 1.." +
                std::to_string(kMaxTileExtent) + " (e.g. 32x4x4)");
  return Tile{extent[0], extent[1], extent[2]};
}

std::string to_string(const Tile& t) {
  if (t.is_default()) return "default";
  return std::to_string(t.x) + "x" + std::to_string(t.y) + "x" + std::to_string(t.z);
}

void Variant::check_tile(const Tile& t, const std::string& what) const {
  if (!accepts_tile(t))
    throw Error(what + " = '" + to_string(t) + "' is not a tile of variant '" + name() +
                "'; accepted: " + accepted_tiles());
}

std::vector<Tile> searched_tiles(const Variant& v, const Stencil& s, Precision p) {
  std::vector<Tile> tiles{Tile{}};
  for (const Tile& t : v.tile_candidates(s, p)) tiles.push_back(t);
  return tiles;
}

}  // namespace wavefd
