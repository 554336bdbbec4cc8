#pragma once
// A voxelized room as a file: written where assimp and CGAL voxelize a mesh (`wavefd room DECK
// --output.voxels FILE`), read where they are absent (`room.voxels`), e.g. on a GPU node. A room read
// from its voxel file equals the room from its mesh bit for bit (CTest).
//
// The format: one line of JSON (the header: format "wavefd-voxels", version 1, cells, spacing,
// origin, mesh, triangles, closed, area_m2, materials, air_runs, boundary_cells), then
//  - the cells (x fastest) as run lengths, alternately outside and air, outside first, each an
//    unsigned LEB128 varint (a hall of 1.4 G cells: a few MB);
//  - per boundary cell (boundary_cells(), ascending) its material, one byte;
//  - per boundary cell its staircase correction times 4096, two bytes little-endian (the
//    correction is kept on that grid: room_mesh.hpp).
#include <string>

#include "wavefd/room.hpp"

namespace wavefd {

// Writes m's cells (m.air set: a room from a mesh) atomically; `mesh` names the mesh they came from.
void write_voxel_file(const std::string& path, const std::string& key, const RoomModel& m, const std::string& mesh);

// Sets m.n, origin, air, mesh_materials, boundary_material and the mesh's facts from the file; m.h
// must be the spacing it was written at. Throws Error naming `key` for a file that is not one, is
// cut short or does not match.
void read_voxel_file(const std::string& path, const std::string& key, RoomModel& m);

}  // namespace wavefd
