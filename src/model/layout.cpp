#include <string>

#include "wavefd/grid.hpp"

namespace wavefd {

namespace {
index_t round_up(index_t v, index_t m) { return (v + m - 1) / m * m; }
}  // namespace

Layout make_layout(const Index3& n, int halo, bool pad_rows, std::size_t elem_bytes) {
  for (int d = 0; d < 3; ++d) {
    if (n[d] <= 0)
      throw Error(std::string("grid.n[") + axis_name(d) + "] = " + std::to_string(n[d]) +
                  " must be positive; accepted: 1.." + std::to_string(kMaxExtent));
    if (n[d] > kMaxExtent)
      throw Error(std::string("grid.n[") + axis_name(d) + "] = " + std::to_string(n[d]) +
                  " is too large; accepted: 1.." + std::to_string(kMaxExtent));
    if (n[d] < halo)
      throw Error(std::string("grid.n[") + axis_name(d) + "] = " + std::to_string(n[d]) +
                  " is smaller than the halo width " + std::to_string(halo) +
                  " (the stencil radius); accepted: n >= " + std::to_string(halo));
  }
  Layout l;
  l.n = n;
  l.halo = halo;
  // With padding, a lead of `front` elements puts interior x = 0 of every row on a 128-byte line.
  const index_t align = pad_rows ? std::max<index_t>(1, kRowAlignBytes / index_t(elem_bytes)) : 1;
  const index_t front = (align - halo % align) % align;
  l.sy = round_up(front + n[0] + 2 * halo, align);
  l.sz = l.sy * (n[1] + 2 * halo);
  l.origin = front + halo + halo * l.sy + halo * l.sz;
  l.alloc = l.sz * (n[2] + 2 * halo);
  return l;
}

}  // namespace wavefd
