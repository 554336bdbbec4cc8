#include "wavefd/decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wavefd {

namespace {

// Points of part c when n points are split over p parts, the first n % p parts one larger.
index_t part_size(index_t n, index_t p, index_t c) { return n / p + (c < n % p ? 1 : 0); }
index_t part_start(index_t n, index_t p, index_t c) { return c * (n / p) + (c < n % p ? c : n % p); }

// What a rank's halo costs per step on a split, in face points: per split axis the area of the
// rank's face across it, an x face counted kXFaceCost times. x is the contiguous axis: an x face is rows of R
// values. Where x is late, the shell slab behind it updates short rows (four H100s, star M=4 float,
// 512^3 per GPU through peer with x late: 1.30 ms a step on 2 x 1 x 2 and 2 x 2 x 1 against 0.686
// on 1 x 2 x 2, the shell alone 443 us against 97); peer sends x first instead (0.78 and 0.81 ms:
// the update waits 156-226 us for them), but nccl and mpi, which carry every face between nodes,
// leave x late. Four, not a measured ratio: x is split once the slabs of a y-z split would grow
// more than about 8 times longer than wide.
constexpr double kXFaceCost = 4.0;

double halo_cost(const Index3& n, const Index3& p) {
  double s = 0;
  for (int a = 0; a < 3; ++a) {
    if (p[a] == 1) continue;
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    s += (a == 0 ? kXFaceCost : 1.0) * (double(n[b]) / double(p[b])) * (double(n[c]) / double(p[c]));
  }
  return s;
}

// How far a rank's subdomain is from a cube: its longest extent over its shortest.
double elongation(const Index3& n, const Index3& p) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (int a = 0; a < 3; ++a) lo = std::min(lo, double(n[a]) / double(p[a])), hi = std::max(hi, double(n[a]) / double(p[a]));
  return hi / lo;
}

}  // namespace

std::string to_string(const Index3& v) {
  return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]";
}

Index3 choose_rank_grid(int ranks, const Index3& global, const Index3& requested, int halo) {
  if (ranks < 1) throw Error("the number of ranks must be >= 1");
  for (int a = 0; a < 3; ++a)
    if (requested[a] < 0)
      throw Error("parallel.ranks = " + to_string(requested) +
                  " has a negative entry; accepted: [px, py, pz] with each >= 1, or 0 to let wavefd choose");
  Index3 best{0, 0, 0};
  double best_cost = std::numeric_limits<double>::infinity(), best_shape = best_cost;
  bool best_fits = false;
  // z outermost and descending, so that among equal grids the split along z is found first.
  for (index_t pz = ranks; pz >= 1; --pz) {
    if (ranks % pz || (requested[2] && requested[2] != pz)) continue;
    for (index_t py = ranks / pz; py >= 1; --py) {
      if ((ranks / pz) % py || (requested[1] && requested[1] != py)) continue;
      const index_t px = ranks / pz / py;
      if (requested[0] && requested[0] != px) continue;
      const Index3 p{px, py, pz};
      bool fits = true;  // every rank at least one halo wide (checked again, with a message, later)
      for (int a = 0; a < 3; ++a) fits = fits && global[a] / p[a] >= halo;
      const double cost = halo_cost(global, p), shape = elongation(global, p);
      const bool same_cost = std::abs(cost - best_cost) <= 1e-9 * cost;
      if ((fits && !best_fits) ||
          (fits == best_fits && ((!same_cost && cost < best_cost) || (same_cost && shape < best_shape)))) {
        best = p, best_cost = cost, best_shape = shape, best_fits = fits;
      }
    }
  }
  if (best[0] == 0)
    throw Error("parallel.ranks = " + to_string(requested) + " cannot be completed to " +
                std::to_string(ranks) + " ranks; accepted: [px, py, pz] with px * py * pz = " +
                std::to_string(ranks) + " (0 entries are chosen by wavefd)");
  return best;
}

Index3 choose_weak_rank_grid(int ranks, const Index3& local, const Index3& requested, int halo) {
  return choose_rank_grid(ranks, {local[0] * ranks, local[1] * ranks, local[2] * ranks}, requested, halo);
}

Decomposition::Decomposition(const Index3& global, const Index3& rank_grid, int ranks, bool periodic,
                             int halo)
    : global_(global), dims_(rank_grid), periodic_(periodic) {
  if (dims_[0] * dims_[1] * dims_[2] != ranks || dims_[0] < 1 || dims_[1] < 1 || dims_[2] < 1)
    throw Error("parallel.ranks = " + to_string(dims_) + " does not match the " + std::to_string(ranks) +
                " ranks of this run; accepted: [px, py, pz] with px * py * pz = " + std::to_string(ranks));
  for (int a = 0; a < 3; ++a) {
    // The smallest part is the last one (the remainder goes to the first ranks).
    const index_t smallest = global_[a] / dims_[a];
    if (smallest < halo)
      throw Error("grid.n = " + to_string(global_) + " over parallel.ranks = " + to_string(dims_) +
                  " leaves " + std::to_string(smallest) + " points along " + axis_name(a) +
                  " on some ranks, fewer than the halo width " + std::to_string(halo) +
                  "; accepted: at most " + std::to_string(global_[a] / halo) + " ranks along " + axis_name(a));
  }
}

Index3 Decomposition::coords_of(int rank) const {
  return Index3{rank % dims_[0], (rank / dims_[0]) % dims_[1], rank / (dims_[0] * dims_[1])};
}

int Decomposition::rank_at(const Index3& c) const { return int(c[0] + dims_[0] * (c[1] + dims_[1] * c[2])); }

int Decomposition::neighbour(const Subdomain& s, const Index3& dir) const {
  Index3 c = s.coords;
  for (int a = 0; a < 3; ++a) {
    c[a] += dir[a];
    if (c[a] >= 0 && c[a] < dims_[a]) continue;
    if (!periodic_) return kNoNeighbour;
    c[a] = (c[a] + dims_[a]) % dims_[a];
  }
  return rank_at(c);
}

Subdomain Decomposition::subdomain(int rank) const {
  Subdomain s;
  s.rank = rank;
  s.coords = coords_of(rank);
  for (int a = 0; a < 3; ++a) {
    s.local[a] = part_size(global_[a], dims_[a], s.coords[a]);
    s.offset[a] = part_start(global_[a], dims_[a], s.coords[a]);
  }
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      Index3 dir{0, 0, 0};
      dir[a] = side ? 1 : -1;
      s.neighbour[a][side] = neighbour(s, dir);
    }
  return s;
}

}  // namespace wavefd
