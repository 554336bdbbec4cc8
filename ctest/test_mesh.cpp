// Rooms from triangle meshes: a box written as OBJ and as STL voxelizes to exactly its cells, with
// the materials of its faces; with a hole in one face it voxelizes the same (the majority of the
// three axes' parities) and is reported not closed; bad files are refused naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "wavefd/room.hpp"
#include "wavefd/room_mesh.hpp"

namespace wavefd {
namespace {

// The 12 triangles of the box [lo, hi], outward, the floor (z low) in material "carpet" and the
// rest in "plaster"; `skip` leaves out one triangle of the ceiling (-1: none).
void write_box_obj(const std::string& path, const std::array<double, 3>& lo, const std::array<double, 3>& hi, int skip = -1) {
  std::ofstream f(path);
  f << "# a box room\n";
  for (int v = 0; v < 8; ++v)
    f << "v " << (v & 1 ? hi[0] : lo[0]) << " " << (v & 2 ? hi[1] : lo[1]) << " " << (v & 4 ? hi[2] : lo[2]) << "\n";
  // Faces as quads of vertex numbers (1-based), outward: two triangles each.
  const int quads[6][4] = {{1, 3, 4, 2}, {5, 6, 8, 7}, {1, 2, 6, 5}, {3, 7, 8, 4}, {1, 5, 7, 3}, {2, 4, 8, 6}};
  const char* material[6] = {"carpet", "plaster", "plaster", "plaster", "plaster", "plaster"};  // z low first
  int triangle = 0;
  for (int q = 0; q < 6; ++q) {
    f << "usemtl " << material[q] << "\n";
    const int* v = quads[q];
    if (triangle++ != skip) f << "f " << v[0] << " " << v[1] << " " << v[2] << "\n";
    if (triangle++ != skip) f << "f " << v[0] << " " << v[2] << " " << v[3] << "\n";
  }
}

void expect_box_cells(const std::vector<std::uint8_t>& air, const Index3& n, const Index3& lo, const Index3& hi) {
  std::size_t wrong = 0;
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i < n[0]; ++i) {
        const bool inside = i >= lo[0] && i < hi[0] && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2];
        wrong += air[std::size_t(i + n[0] * (j + n[1] * k))] != inside;
      }
  EXPECT_EQ(wrong, 0u);
}

TEST(Mesh, BoxVoxelizesToItsCells) {
  const std::string path = (std::filesystem::temp_directory_path() / "wavefd-test-box.obj").string();
  write_box_obj(path, {0.2, 0.2, 0.2}, {1.2, 0.9, 0.7});
  const RoomMesh mesh = read_room_mesh(path, "room.mesh");
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_TRUE(mesh.closed());
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(mesh.lower()[std::size_t(d)], 0.2, 1e-6);  // assimp holds float vertices
  const Index3 n{14, 11, 9};
  expect_box_cells(voxelize(mesh, {0, 0, 0}, 0.1, n), n, {2, 2, 2}, {12, 9, 7});
  // The walls' materials: the floor's cells get carpet, the others plaster.
  const std::vector<NearestSurface> m = nearest_surfaces(mesh, {{0.55, 0.45, 0.25}, {0.25, 0.45, 0.45}, {0.55, 0.45, 0.65}});
  EXPECT_EQ(mesh.materials[std::size_t(m[0].material)], "carpet");
  EXPECT_EQ(mesh.materials[std::size_t(m[1].material)], "plaster");
  EXPECT_EQ(mesh.materials[std::size_t(m[2].material)], "plaster");
  for (const NearestSurface& s : m) EXPECT_EQ(s.area_scale, 1.0);  // faces on the axes: no staircase
  EXPECT_NEAR(mesh.area(), 2 * (1.0 * 0.7 + 1.0 * 0.5 + 0.7 * 0.5), 1e-5);
  std::filesystem::remove(path);
}

TEST(Mesh, BoxWithAHoleVoxelizesTheSame) {
  const std::string path = (std::filesystem::temp_directory_path() / "wavefd-test-leaky-box.obj").string();
  write_box_obj(path, {0.2, 0.2, 0.2}, {1.2, 0.9, 0.7}, 3);  // a triangle of the ceiling missing
  const RoomMesh mesh = read_room_mesh(path, "room.mesh");
  EXPECT_EQ(mesh.triangles.size(), 11u);
  EXPECT_FALSE(mesh.closed());
  const Index3 n{14, 11, 9};
  expect_box_cells(voxelize(mesh, {0, 0, 0}, 0.1, n), n, {2, 2, 2}, {12, 9, 7});
  std::filesystem::remove(path);
}

// A box turned off the axes (30 degrees about z, then 20 about x): its cell faces between air and
// outside (the staircase) exceed its area by a third; scaled by each boundary cell's 1 / |n|_1
// they give its area back within 2 %.
TEST(Mesh, StaircaseCorrectionGivesTheTiltedBoxsArea) {
  const std::string path = (std::filesystem::temp_directory_path() / "wavefd-test-tilted-box.obj").string();
  write_box_obj(path, {-0.5, -0.35, -0.25}, {0.5, 0.35, 0.25});
  RoomMesh mesh = read_room_mesh(path, "room.mesh");
  const double a = 30 * 3.14159265358979 / 180, b = 20 * 3.14159265358979 / 180;
  for (auto& v : mesh.vertices) {
    const double x = std::cos(a) * v[0] - std::sin(a) * v[1], y = std::sin(a) * v[0] + std::cos(a) * v[1];
    v = {x, std::cos(b) * y - std::sin(b) * v[2], std::sin(b) * y + std::cos(b) * v[2]};
  }
  RoomModel m;
  m.h = 0.02;
  const std::array<double, 3> lo = mesh.lower(), hi = mesh.upper();
  for (std::size_t d = 0; d < 3; ++d) m.n[d] = index_t(std::ceil((hi[d] - lo[d]) / m.h));
  m.air = voxelize(mesh, lo, m.h, m.n);
  const std::vector<index_t> boundary = boundary_cells(m);
  std::vector<std::array<double, 3>> centres;
  for (index_t c : boundary)
    centres.push_back({lo[0] + (double(c % m.n[0]) + 0.5) * m.h, lo[1] + (double((c / m.n[0]) % m.n[1]) + 0.5) * m.h,
                       lo[2] + (double(c / (m.n[0] * m.n[1])) + 0.5) * m.h});
  const std::vector<NearestSurface> nearest = nearest_surfaces(mesh, centres);
  m.materials = {Material{"rigid", 0, {}, {}}};
  for (std::size_t c = 0; c < boundary.size(); ++c) m.boundary_material.push_back({boundary[c], 0, nearest[c].area_scale});
  const RoomSurfaces s = room_surfaces(m);
  const double area = mesh.area();
  EXPECT_NEAR(area, 2 * (1.0 * 0.7 + 1.0 * 0.5 + 0.7 * 0.5), 1e-5);
  std::printf("tilted box: %.4f m^2, staircase %.4f m^2 (%.3f x), corrected %.4f m^2 (%.4f x)\n", area, s.staircase_area,
              s.staircase_area / area, s.area[0], s.area[0] / area);
  EXPECT_GT(s.staircase_area, 1.25 * area);
  EXPECT_NEAR(s.area[0], area, 0.02 * area);
  std::filesystem::remove(path);
}

TEST(Mesh, StlBoxAndBadFiles) {
  const std::string obj = (std::filesystem::temp_directory_path() / "wavefd-test-box2.obj").string();
  write_box_obj(obj, {0.0, 0.0, 0.0}, {0.5, 0.4, 0.3});
  const RoomMesh from_obj = read_room_mesh(obj, "room.mesh");
  // The same triangles as ASCII STL.
  const std::string stl = (std::filesystem::temp_directory_path() / "wavefd-test-box2.stl").string();
  {
    std::ofstream f(stl);
    f << "solid box\n";
    for (const auto& t : from_obj.triangles) {
      f << "facet normal 0 0 0\nouter loop\n";
      for (int v : t) f << "vertex " << from_obj.vertices[std::size_t(v)][0] << " " << from_obj.vertices[std::size_t(v)][1] << " "
                        << from_obj.vertices[std::size_t(v)][2] << "\n";
      f << "endloop\nendfacet\n";
    }
    f << "endsolid box\n";
  }
  const RoomMesh from_stl = read_room_mesh(stl, "room.mesh");
  EXPECT_TRUE(from_stl.closed());
  const Index3 n{5, 4, 3};
  expect_box_cells(voxelize(from_stl, {0, 0, 0}, 0.1, n), n, {0, 0, 0}, {5, 4, 3});
  EXPECT_THROW(read_room_mesh(obj + ".missing", "room.mesh"), Error);
  std::filesystem::remove(obj);
  std::filesystem::remove(stl);
}

}  // namespace
}  // namespace wavefd
