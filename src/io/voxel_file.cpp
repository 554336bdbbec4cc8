// Voxel files (include/wavefd/voxel_file.hpp): a JSON header line, then varint runs of the air and
// two arrays over the boundary cells.
#include "wavefd/voxel_file.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "wavefd/output_file.hpp"

namespace wavefd {

namespace {

constexpr double kScaleSteps = 4096;  // the staircase correction's grid (room_mesh.hpp)

void put_varint(std::string& out, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(char(0x80 | (v & 0x7f)));
  out.push_back(char(v));
}

}  // namespace

void write_voxel_file(const std::string& path, const std::string& key, const RoomModel& m, const std::string& mesh) {
  if (m.materials.size() > 256)
    throw Error(key + " = '" + path + "': the mesh has " + std::to_string(m.materials.size()) +
                " materials; accepted: at most 256 in a voxel file");
  std::string runs;
  std::uint64_t count = 0, run = 0;
  std::uint8_t state = 0;  // outside first
  for (std::uint8_t a : m.air) {
    if ((a != 0) != (state != 0)) put_varint(runs, run), ++count, run = 0, state = a != 0;
    ++run;
  }
  put_varint(runs, run), ++count;
  std::string materials, scales;
  for (const RoomModel::BoundaryCell& b : m.boundary_material) {
    const double code = b.area_scale * kScaleSteps;
    if (code != std::round(code) || code < 0 || code > 65535)
      throw Error(key + ": a boundary cell's staircase correction " + format_number(b.area_scale) +
                  " is not on the 1/4096 grid; accepted: nearest_surfaces' corrections");
    materials.push_back(char(b.material));
    scales.push_back(char(int(code) & 0xff)), scales.push_back(char(int(code) >> 8));
  }
  const nlohmann::json header = {{"format", "wavefd-voxels"}, {"version", 1}, {"cells", m.n}, {"spacing", m.h},
                                 {"origin", m.origin}, {"mesh", mesh}, {"triangles", m.mesh_triangles},
                                 {"closed", m.mesh_closed}, {"area_m2", m.mesh_area}, {"materials", m.mesh_materials},
                                 {"air_runs", count}, {"boundary_cells", m.boundary_material.size()}};
  OutputFile file(path, key);
  file.write(header.dump() + "\n");
  file.write(runs);
  file.write(materials);
  file.write(scales);
  file.commit();
}

void read_voxel_file(const std::string& path, const std::string& key, RoomModel& m) {
  const auto refuse = [&](const std::string& why) {
    throw Error(key + " = '" + path + "' " + why + "; accepted: a file `wavefd room DECK --output.voxels FILE` wrote");
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("cannot be read");
  std::string line;
  std::getline(in, line);
  nlohmann::json h;
  try {
    h = nlohmann::json::parse(line);
    if (h.at("format") != "wavefd-voxels") refuse("is no voxel file");
    if (h.at("version") != 1) refuse("is version " + h.at("version").dump() + " (this wavefd reads version 1)");
    const double spacing = h.at("spacing");
    if (std::abs(spacing - m.h) > 1e-12 * m.h)
      throw Error(key + " = '" + path + "' holds cells of " + format_number(spacing) + " m; grid.spacing = " +
                  format_number(m.h) + " m; accepted: the spacing it was voxelized at, " + format_number(spacing));
    m.n = h.at("cells").get<Index3>();
    m.origin = h.at("origin").get<std::array<double, 3>>();
    m.mesh_file = h.at("mesh").get<std::string>();
    m.mesh_triangles = h.at("triangles");
    m.mesh_closed = h.at("closed");
    m.mesh_area = h.at("area_m2");
    m.mesh_materials = h.at("materials").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception&) {
    refuse("is no voxel file (its header is not the JSON of one)");
  }
  for (index_t c : m.n)
    if (c < 1 || c > index_t(0x1p31)) refuse("has " + std::to_string(c) + " cells along an axis");
  const std::uint64_t cells = std::uint64_t(m.n[0]) * std::uint64_t(m.n[1]) * std::uint64_t(m.n[2]);
  const std::uint64_t runs = h.at("air_runs"), boundary = h.at("boundary_cells");
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t at = 0;
  m.air.assign(cells, 0);
  std::uint64_t filled = 0;
  std::uint8_t state = 0;
  for (std::uint64_t r = 0; r < runs; ++r, state ^= 1) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (at == data.size() || shift > 63) refuse("is cut short in its runs of air");
      const auto byte = std::uint8_t(data[at++]);
      v |= std::uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
    }
    if (v > cells - filled) refuse("has more cells in its runs than its header's " + std::to_string(cells));
    if (state) std::fill_n(m.air.begin() + std::ptrdiff_t(filled), v, std::uint8_t(1));
    filled += v;
  }
  if (filled != cells) refuse("has " + std::to_string(filled) + " cells in its runs, its header " + std::to_string(cells));
  const std::vector<index_t> cells_on_walls = boundary_cells(m);
  if (cells_on_walls.size() != boundary || data.size() - at != 3 * boundary)
    refuse("does not hold one material and one correction per boundary cell (" + std::to_string(cells_on_walls.size()) + ")");
  m.boundary_material.clear();
  for (std::size_t b = 0; b < boundary; ++b) {
    const int material = std::uint8_t(data[at + b]);
    const auto lo = std::uint8_t(data[at + boundary + 2 * b]), hi = std::uint8_t(data[at + boundary + 2 * b + 1]);
    if (material >= int(m.mesh_materials.size())) refuse("names material " + std::to_string(material) + " of " +
                                                         std::to_string(m.mesh_materials.size()));
    m.boundary_material.push_back({cells_on_walls[b], material, double(lo | (hi << 8)) / kScaleSteps});
  }
}

}  // namespace wavefd
