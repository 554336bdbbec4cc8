// Rooms from triangle meshes (include/wavefd/room_mesh.hpp): assimp reads, CGAL's AABB tree finds the
// crossings of each row of cells and the nearest triangle.
#include "wavefd/room_mesh.hpp"

#include <CGAL/AABB_traits_3.h>
#include <CGAL/AABB_tree.h>
#include <CGAL/AABB_triangle_primitive_3.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Importer.hpp>
#include <cmath>
#include <map>
#include <variant>

namespace wavefd {

namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Triangle = Kernel::Triangle_3;
using Primitive = CGAL::AABB_triangle_primitive_3<Kernel, std::vector<Triangle>::const_iterator>;
using Tree = CGAL::AABB_tree<CGAL::AABB_traits_3<Kernel, Primitive>>;

std::vector<Triangle> triangles_of(const RoomMesh& mesh) {
  std::vector<Triangle> out;
  out.reserve(mesh.triangles.size());
  const auto point = [&](int v) {
    const auto& p = mesh.vertices[std::size_t(v)];
    return Kernel::Point_3(p[0], p[1], p[2]);
  };
  for (const auto& t : mesh.triangles) out.emplace_back(point(t[0]), point(t[1]), point(t[2]));
  return out;
}

}  // namespace

bool RoomMesh::closed() const {
  std::map<std::pair<int, int>, int> uses;
  for (const auto& t : triangles)
    for (int e = 0; e < 3; ++e) ++uses[std::minmax(t[std::size_t(e)], t[std::size_t((e + 1) % 3)])];
  return !uses.empty() && std::all_of(uses.begin(), uses.end(), [](const auto& u) { return u.second == 2; });
}

std::array<double, 3> RoomMesh::lower() const {
  std::array<double, 3> lo{INFINITY, INFINITY, INFINITY};
  for (const auto& v : vertices)
    for (int d = 0; d < 3; ++d) lo[std::size_t(d)] = std::min(lo[std::size_t(d)], v[std::size_t(d)]);
  return lo;
}

std::array<double, 3> RoomMesh::upper() const {
  std::array<double, 3> hi{-INFINITY, -INFINITY, -INFINITY};
  for (const auto& v : vertices)
    for (int d = 0; d < 3; ++d) hi[std::size_t(d)] = std::max(hi[std::size_t(d)], v[std::size_t(d)]);
  return hi;
}

RoomMesh read_room_mesh(const std::string& path, const std::string& key) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!scene)
    throw Error(key + " = '" + path + "' cannot be read as a mesh: " + importer.GetErrorString() +
                "; accepted: a triangle mesh assimp reads (OBJ, STL, PLY, glTF, ...)");
  RoomMesh mesh;
  for (unsigned m = 0; m < scene->mNumMaterials; ++m) mesh.materials.emplace_back(scene->mMaterials[m]->GetName().C_Str());
  for (unsigned i = 0; i < scene->mNumMeshes; ++i) {
    const aiMesh* part = scene->mMeshes[i];
    const int base = int(mesh.vertices.size());
    for (unsigned v = 0; v < part->mNumVertices; ++v)
      mesh.vertices.push_back({part->mVertices[v].x, part->mVertices[v].y, part->mVertices[v].z});
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines: no surface
      mesh.triangles.push_back({base + int(face.mIndices[0]), base + int(face.mIndices[1]), base + int(face.mIndices[2])});
      mesh.triangle_material.push_back(int(part->mMaterialIndex));
    }
  }
  if (mesh.triangles.empty())
    throw Error(key + " = '" + path + "' holds no triangles; accepted: a triangle mesh of the room's surfaces");
  // Only the materials some triangle has (assimp adds a default one to every scene).
  std::vector<int> renumber(mesh.materials.size(), -1);
  std::vector<std::string> used;
  for (int& m : mesh.triangle_material) {
    if (renumber[std::size_t(m)] < 0) renumber[std::size_t(m)] = int(used.size()), used.push_back(mesh.materials[std::size_t(m)]);
    m = renumber[std::size_t(m)];
  }
  mesh.materials = used;
  // Parts of a scene are welded separately: weld their shared vertices for closed().
  std::map<std::array<double, 3>, int> first;
  std::vector<int> same(mesh.vertices.size());
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v) same[v] = first.emplace(mesh.vertices[v], int(v)).first->second;
  for (auto& t : mesh.triangles)
    for (int& v : t) v = same[std::size_t(v)];
  return mesh;
}

std::vector<std::uint8_t> voxelize(const RoomMesh& mesh, const std::array<double, 3>& origin, double h,
                                   const Index3& n) {
  const std::vector<Triangle> triangles = triangles_of(mesh);
  const Tree tree(triangles.begin(), triangles.end());
  const auto centre = [&](int d, index_t i) { return origin[std::size_t(d)] + (double(i) + 0.5) * h; };
  const auto flat = [&](const Index3& c) { return std::size_t(c[0] + n[0] * (c[1] + n[1] * c[2])); };
  std::vector<std::uint8_t> votes(std::size_t(n[0] * n[1] * n[2]), 0);
  using Crossing = Tree::Intersection_and_primitive_id<Kernel::Line_3>::Type;
  std::vector<Crossing> found;
  std::vector<double> along;
  for (int a = 0; a < 3; ++a) {  // rows along axis a, one per cell of the two other axes
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    for (index_t k = 0; k < n[c]; ++k)
      for (index_t j = 0; j < n[b]; ++j) {
        std::array<double, 3> p{}, dir{};
        p[std::size_t(b)] = centre(b, j), p[std::size_t(c)] = centre(c, k), dir[std::size_t(a)] = 1;
        found.clear();
        tree.all_intersections(Kernel::Line_3(Kernel::Point_3(p[0], p[1], p[2]), Kernel::Vector_3(dir[0], dir[1], dir[2])),
                               std::back_inserter(found));
        along.clear();
        for (const Crossing& x : found)
          if (const auto* q = std::get_if<Kernel::Point_3>(&x.first)) along.push_back(CGAL::to_double((*q)[a]));
        std::sort(along.begin(), along.end());
        std::size_t before = 0;  // crossings below the current cell's centre
        for (index_t i = 0; i < n[a]; ++i) {
          const double at = centre(a, i);
          while (before < along.size() && along[before] < at) ++before;
          if (before % 2 == 1) {
            Index3 cell{};
            cell[std::size_t(a)] = i, cell[std::size_t(b)] = j, cell[std::size_t(c)] = k;
            ++votes[flat(cell)];
          }
        }
      }
  }
  for (auto& v : votes) v = v >= 2;
  return votes;
}

double RoomMesh::area() const {
  double sum = 0;
  for (const Triangle& t : triangles_of(*this)) sum += std::sqrt(CGAL::to_double(t.squared_area()));
  return sum;
}

std::vector<NearestSurface> nearest_surfaces(const RoomMesh& mesh, const std::vector<std::array<double, 3>>& points) {
  const std::vector<Triangle> triangles = triangles_of(mesh);
  Tree tree(triangles.begin(), triangles.end());
  tree.accelerate_distance_queries();
  std::vector<NearestSurface> out;
  out.reserve(points.size());
  for (const auto& p : points) {
    const auto nearest = tree.closest_point_and_primitive(Kernel::Point_3(p[0], p[1], p[2]));
    const std::size_t t = std::size_t(nearest.second - triangles.begin());
    const Kernel::Vector_3 normal = CGAL::normal(triangles[t][0], triangles[t][1], triangles[t][2]);
    const double x = std::abs(CGAL::to_double(normal.x())), y = std::abs(CGAL::to_double(normal.y())),
                 z = std::abs(CGAL::to_double(normal.z()));
    const double length = std::sqrt(x * x + y * y + z * z);
    // A degenerate triangle has no normal: its cells keep their faces.
    out.push_back({mesh.triangle_material[t], length > 0 ? std::round(length / (x + y + z) * 4096) / 4096 : 1.0});
  }
  return out;
}

}  // namespace wavefd
