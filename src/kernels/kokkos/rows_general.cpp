// rows-general: the portable host variant for any stencil (compact, box, custom; star too). A
// Kokkos RangePolicy over the blocks of rows of row_blocks.hpp; each row is updated in passes of
// plain loops over x that the compiler vectorises, through in-row class sums: the stencil's rows
// (dy, dz) with the same weights along x are first summed into one row (box (2,2,2): 25 rows into 6
// sums), then each sum is weighted along x, with the pairs +-dx of an x-symmetric profile added
// before the multiply. Host builds only.
//
// Why: on hosts the MDRange variants leave the x loop to Kokkos' tiling, which is not vectorised,
// and plane-stream's class sums go point by point: box (2,2,2) float at 192^3 on 2 cores took
// 142 ms per step with plane-stream and 306 ms with mdrange-general (issue 12).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernels/fused.hpp"
#include "kernels/host/row_blocks.hpp"
#include "kernels/native_variant.hpp"

#ifdef _OPENMP
#define WAVEFD_SIMD _Pragma("omp simd")
#else
#define WAVEFD_SIMD
#endif

namespace wavefd::kernels {
namespace {

constexpr int kMaxReach = 32;  // largest stencil radius taken (the sum rows' margins)
constexpr int kPiece = 1024;   // points of a row per pass: the sums and the accumulator stay in L1

// One class of the stencil's rows: rows [first_row, first_row + rows) of `row_offset` all carry the
// taps [first_tap, first_tap + taps) along x.
struct RowClass {
  int first_row = 0, rows = 0, first_tap = 0, taps = 0, reach = 0;
};

template <class T>
struct RowPlan {
  std::vector<std::int64_t> row_offset;  // dy sy + dz sz of each row, by class
  std::vector<int> tap_dx;               // dx of each tap (>= 0 where paired)
  std::vector<T> tap_weight;
  std::vector<char> tap_paired;          // the weight applies to dx and -dx alike
  std::vector<RowClass> classes;

  // The stencil's weights (rounded to T, as every variant uses them), rows with bitwise equal
  // profiles in one class.
  RowPlan(const DeviceStencil<T>& w, const Layout& l) {
    std::map<std::pair<int, int>, std::map<int, T>> profile;  // (dy, dz) -> dx -> weight
    for (std::size_t k = 0; k < w.offsets.size(); ++k)
      profile[{w.offsets[k].y, w.offsets[k].z}][w.offsets[k].x] = T(w.host_gamma[k]);
    std::vector<std::pair<std::map<int, T>, std::vector<std::int64_t>>> by_profile;
    for (const auto& [yz, taps] : profile) {
      const std::int64_t offset = yz.first * l.sy + yz.second * l.sz;
      auto same = std::find_if(by_profile.begin(), by_profile.end(), [&](const auto& c) { return c.first == taps; });
      if (same == by_profile.end()) by_profile.push_back({taps, {offset}});
      else same->second.push_back(offset);
    }
    for (const auto& [taps, rows] : by_profile) {
      RowClass c;
      c.first_row = int(row_offset.size()), c.rows = int(rows.size()), c.first_tap = int(tap_dx.size());
      row_offset.insert(row_offset.end(), rows.begin(), rows.end());
      const bool symmetric = std::all_of(taps.begin(), taps.end(), [&](const auto& t) {
        const auto mirror = taps.find(-t.first);
        return mirror != taps.end() && mirror->second == t.second;
      });
      for (const auto& [dx, weight] : taps) {
        if (symmetric && dx < 0) continue;
        tap_dx.push_back(dx), tap_weight.push_back(weight), tap_paired.push_back(symmetric && dx > 0);
        c.reach = std::max(c.reach, dx < 0 ? -dx : dx);
      }
      c.taps = int(tap_dx.size()) - c.first_tap;
      classes.push_back(c);
    }
  }
};

template <class T>
struct RowsGeneralUpdate {
  const T* u;
  T* u_prev;
  std::int64_t origin, sy, sz;
  host::RowBlocks blocks;
  // The plan's arrays (owned by the caller's RowPlan for the duration of the launch).
  const std::int64_t* row_offset;
  const int* tap_dx;
  const T* tap_weight;
  const char* tap_paired;
  const RowClass* classes;
  int class_count;

  void operator()(int item) const {
    alignas(64) T sum[kPiece + 2 * kMaxReach];
    alignas(64) T acc[kPiece];
    blocks.for_rows(item, [&](int y, int z) {
      const std::int64_t row = origin + std::int64_t(y) * sy + std::int64_t(z) * sz;
      for (int x0 = blocks.lo[0]; x0 < blocks.hi[0]; x0 += kPiece) {
        const int len = std::min(kPiece, blocks.hi[0] - x0);
        start(u_prev + row + x0, acc, len);
        for (int c = 0; c < class_count; ++c) {
          const RowClass& k = classes[c];
          const T* src = u + row + x0 + row_offset[k.first_row];
          if (k.rows > 1) {  // the class's rows summed, with `reach` points on either side
            add_rows(u + row + x0 - k.reach, row_offset + k.first_row, k.rows, sum, len + 2 * k.reach);
            src = sum + k.reach;
          }
          for (int t = k.first_tap; t < k.first_tap + k.taps; ++t)
            if (tap_paired[t]) add_pair(src + tap_dx[t], src - tap_dx[t], tap_weight[t], acc, len);
            else add_tap(src + tap_dx[t], tap_weight[t], acc, len);
        }
        finish(acc, u_prev + row + x0, len);
      }
    });
  }

  static void start(const T* __restrict__ old, T* __restrict__ acc, int n) {
WAVEFD_SIMD
    for (int i = 0; i < n; ++i) acc[i] = -old[i];
  }
  static void add_rows(const T* base, const std::int64_t* offsets, int rows, T* __restrict__ sum, int n) {
    const T* __restrict__ first = base + offsets[0];
WAVEFD_SIMD
    for (int i = 0; i < n; ++i) sum[i] = first[i];
    for (int r = 1; r < rows; ++r) {
      const T* __restrict__ next = base + offsets[r];
WAVEFD_SIMD
      for (int i = 0; i < n; ++i) sum[i] += next[i];
    }
  }
  static void add_pair(const T* __restrict__ right, const T* __restrict__ left, T w, T* __restrict__ acc, int n) {
WAVEFD_SIMD
    for (int i = 0; i < n; ++i) acc[i] = fused(w, right[i] + left[i], acc[i]);
  }
  static void add_tap(const T* __restrict__ src, T w, T* __restrict__ acc, int n) {
WAVEFD_SIMD
    for (int i = 0; i < n; ++i) acc[i] = fused(w, src[i], acc[i]);
  }
  static void finish(const T* __restrict__ acc, T* __restrict__ out, int n) {
WAVEFD_SIMD
    for (int i = 0; i < n; ++i) out[i] = acc[i];
  }
};

class RowsGeneral final : public RowTiled<RowsGeneral> {
 public:
  std::string name() const override { return "rows-general"; }
  std::string description() const override {
    return "Kokkos RangePolicy over blocks of rows (host builds), any stencil up to radius " + std::to_string(kMaxReach) +
           ": rows with the same x weights summed first, then weighted along x, each pass a vectorised x loop";
  }
  bool supports_stencil(const Stencil& s, Precision) const override { return s.radius <= kMaxReach; }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    using Host = Kokkos::DefaultHostExecutionSpace;
    const RowPlan<T> plan(*a.weights, a.layout);
    const RowsGeneralUpdate<T> update{a.u.data(), a.u_prev.data(), std::int64_t(a.layout.origin), std::int64_t(a.layout.sy),
                                      std::int64_t(a.layout.sz), row_blocks(a, box),
                                      plan.row_offset.data(), plan.tap_dx.data(), plan.tap_weight.data(),
                                      plan.tap_paired.data(), plan.classes.data(), int(plan.classes.size())};
    Kokkos::parallel_for("wavefd::rows_general", RowItems(0, update.blocks.items), update);
    Host().fence("wavefd::rows_general");  // the plan lives until the launch has ended
  }
};

}  // namespace

std::unique_ptr<Variant> make_rows_general() { return std::make_unique<RowsGeneral>(); }

}  // namespace wavefd::kernels
