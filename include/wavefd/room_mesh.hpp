#pragma once
// Rooms from triangle meshes: OBJ, STL and the other formats assimp reads, faces grouped into
// materials, voxelized onto the grid with CGAL's AABB tree (docs/room.md). Optional, like the audio
// support: the functions below exist only in a build that found CGAL and assimp (`mesh_support`);
// callers test the constant first. Plain C++.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd {

#ifdef WAVEFD_HAVE_MESH
inline constexpr bool mesh_support = true;
#else
inline constexpr bool mesh_support = false;
#endif

struct RoomMesh {
  std::vector<std::array<double, 3>> vertices;  // metres
  std::vector<std::array<int, 3>> triangles;    // vertex indices
  std::vector<int> triangle_material;           // index into `materials`, per triangle
  std::vector<std::string> materials;           // the mesh's material names (OBJ usemtl, STL solid names)
  // Every edge shared by exactly two triangles (after welding equal vertices): watertight. The
  // voxelization does not need it, but a room that leaks is worth a line in the summary.
  bool closed() const;
  std::array<double, 3> lower() const, upper() const;  // the bounding box
  double area() const;                                   // m^2, the triangles' sum
};

// Reads `path` (assimp: triangulated, equal vertices welded). Throws Error naming `key` for a file
// assimp cannot read or one without triangles.
RoomMesh read_room_mesh(const std::string& path, const std::string& key);

// The cells of a grid (n cells of h metres from `origin`, cell centres at origin + (i + 1/2) h)
// whose centres lie inside the mesh, x fastest (1: air). Inside by the parity of the mesh's
// crossings along the cell's rows in x, in y and in z (each row one AABB-tree query), the majority
// of the three deciding: a cell's rows meet only at its centre, so a hole (or a row grazing an
// edge) farther from the cell than the hole's size flips one of its votes at most, and meshes that
// are not watertight voxelize as their closed shape does there.
std::vector<std::uint8_t> voxelize(const RoomMesh& mesh, const std::array<double, 3>& origin, double h,
                                   const Index3& n);

// Per query point (a boundary cell's centre), the nearest triangle's material and the staircase's
// area correction there: 1 / |n|_1 of the triangle's unit normal n. A plane of normal n is
// staircased into |n_x| + |n_y| + |n_z| cell faces per cell face of its own area (up to sqrt(3) on a
// diagonal plane), so the boundary cells' faces scaled by it absorb as the plane does, in the mean.
// Rounded to 1/4096 (voxel files keep it in 16 bits, and the room from a mesh equals the room from
// its voxel file bit for bit).
struct NearestSurface {
  int material = 0;
  double area_scale = 1;
};
std::vector<NearestSurface> nearest_surfaces(const RoomMesh& mesh, const std::vector<std::array<double, 3>>& points);

}  // namespace wavefd
