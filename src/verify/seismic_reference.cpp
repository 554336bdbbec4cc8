// The independent CPU reference of the seismic model (include/wavefd/seismic_model.hpp): plain
// loops in double on one process, no Kokkos, written apart from the engine. It states the model's
// semantics as directly as it can: the engine and `wavefd verify` are checked against it, and it
// is itself checked against minimod's printed result (ctest/test_seismic_reference.cpp).
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "wavefd/seismic_model.hpp"

namespace wavefd {
namespace {

// A grid field with `radius` ghost cells on every side, x fastest. The star stencil reads ghosts
// along one axis at a time, so only the six face slabs of the ghost frame are ever filled.
class PaddedField {
 public:
  PaddedField(const Index3& n, int radius)
      : r_(radius), dims_{n[0] + 2 * radius, n[1] + 2 * radius, n[2] + 2 * radius},
        values_(std::size_t(dims_[0] * dims_[1] * dims_[2]), 0.0) {}

  // Flat offset of grid index (i, j, k); ghosts are -radius .. n - 1 + radius.
  index_t offset(index_t i, index_t j, index_t k) const { return ((k + r_) * dims_[1] + (j + r_)) * dims_[0] + i + r_; }
  index_t offset(const Index3& p) const { return offset(p[0], p[1], p[2]); }
  // Distance between neighbours along `axis`.
  index_t stride(int axis) const { return axis == 0 ? 1 : axis == 1 ? dims_[0] : dims_[0] * dims_[1]; }

  double* data() { return values_.data(); }
  const double* data() const { return values_.data(); }
  double operator[](index_t at) const { return values_[std::size_t(at)]; }
  double& operator[](index_t at) { return values_[std::size_t(at)]; }

 private:
  index_t r_;
  Index3 dims_;
  std::vector<double> values_;
};

// Where an index beyond an axis of n points takes its value under the rigid rule: the field is odd
// about the wall nodes -1 and n (both 0), so it is odd and periodic with period 2 (n + 1). Returns
// the grid index and the sign; sign 0 for a wall node.
struct Image {
  index_t index;
  double sign;
};

Image rigid_image(index_t i, index_t n) {
  const index_t period = 2 * (n + 1);
  index_t s = (i + 1) % period;  // shifted so that the walls sit at 0 and n + 1
  if (s < 0) s += period;
  if (s == 0 || s == n + 1) return {0, 0.0};
  if (s < n + 1) return {s - 1, 1.0};
  return {period - s - 1, -1.0};
}

// Fills the ghost face slabs of u from its grid values by the rigid rule (zero ghosts need no
// fill: they are 0 from the start and no update writes them).
void fill_rigid_ghosts(PaddedField& u, const Index3& n, int radius) {
  for (int axis = 0; axis < 3; ++axis) {
    const int a = (axis + 1) % 3, b = (axis + 2) % 3;  // the two axes along the face
    for (index_t g = 1; g <= radius; ++g)
      for (const index_t ghost : {-g, n[axis] - 1 + g}) {
        const Image image = rigid_image(ghost, n[axis]);
        for (index_t q = 0; q < n[b]; ++q)
          for (index_t p = 0; p < n[a]; ++p) {
            Index3 to{}, from{};
            to[axis] = ghost, from[axis] = image.index;
            to[a] = from[a] = p;
            to[b] = from[b] = q;
            u[u.offset(to)] = image.sign == 0 ? 0.0 : image.sign * u[u.offset(from)];
          }
      }
  }
}

void check_model(const SeismicModel& m) {
  for (int d = 0; d < 3; ++d)
    if (m.n[d] < 1)
      throw Error("grid.n[" + std::string(1, axis_name(d)) + "] = " + std::to_string(m.n[d]) + " is outside n >= 1; accepted: points per axis, >= 1");
  if (!(std::isfinite(m.h) && m.h > 0))
    throw Error("grid.spacing = " + format_number(m.h) + " is outside spacing > 0; accepted: a finite length in metres, > 0");
  if (!(std::isfinite(m.dt) && m.dt > 0))
    throw Error("scheme.dt = " + format_number(m.dt) + " is outside dt > 0; accepted: a finite time in seconds, > 0");
  if (m.steps < 0) throw Error("scheme.steps = " + std::to_string(m.steps) + " is outside steps >= 0; accepted: time steps, >= 0");
  if (!m.velocity) throw Error("velocity.model is missing: the seismic model needs a velocity model");
  if (m.width < 0) throw Error("boundary.width = " + std::to_string(m.width) + " is outside width >= 0; accepted: cells of the absorbing layer, 0 for none");
  if (m.receivers.every < 1)
    throw Error("receivers.every = " + std::to_string(m.receivers.every) + " is outside every >= 1; accepted: steps between samples");
  for (std::size_t s = 0; s < m.sources.size(); ++s)
    if (!m.sources[s].wavelet) throw Error("source[" + std::to_string(s) + "].wavelet is missing");
}

// One support point of a source: where, and what multiplies amplitude * s(t_n) there.
struct SourcePoint {
  index_t at;
  double weight;  // spreading weight
  double scale;   // (V dt)^2 / h^3 for a scaled source term, else 1
};

}  // namespace

SeismicResult seismic_reference(const SeismicModel& m) {
  check_model(m);
  const std::vector<double> c = m.axis_weights();  // throws for a stencil that is not a star
  const int radius = int(c.size()) - 1;
  const Index3& n = m.n;
  const index_t points = n[0] * n[1] * n[2];
  auto grid_offset = [&](index_t i, index_t j, index_t k) { return (k * n[1] + j) * n[0] + i; };

  // Speeds and the stored coefficient vp = (V dt / h)^2.
  const std::vector<double> speed = m.velocity->fill(Box{{0, 0, 0}, n}, m.h);
  std::vector<double> vp(std::size_t(points), 0.0);
  for (index_t p = 0; p < points; ++p) {
    const double courant = speed[std::size_t(p)] * m.dt / m.h;
    vp[std::size_t(p)] = courant * courant;
  }

  // The absorbing layer: with Absorbing::none there is none, whatever `width` says.
  const bool absorbing = m.absorbing != Absorbing::none && m.width > 0;
  const Box inner = absorbing ? m.inner_box() : Box{{0, 0, 0}, n};
  const std::vector<double> eta[3] = {m.axis_profile(0), m.axis_profile(1), m.axis_profile(2)};
  std::vector<double> phi(absorbing && m.absorbing == Absorbing::pml ? std::size_t(points) : 0, 0.0);

  // Sources and receivers as flat offsets into the padded fields.
  PaddedField u(n, radius), v(n, radius);  // u^n and u^{n-1}; both start at 0
  std::vector<std::vector<SourcePoint>> source_points;
  for (std::size_t s = 0; s < m.sources.size(); ++s) {
    const SeismicSource& src = m.sources[s];
    std::vector<SourcePoint> support;
    for (const GridWeight& g :
         spread_weights(src.position, src.spreading, n, "source[" + std::to_string(s) + "].position")) {
      const double speed_dt = speed[std::size_t(grid_offset(g.at[0], g.at[1], g.at[2]))] * m.dt;
      const double scale = m.source_scaled ? speed_dt * speed_dt / (m.h * m.h * m.h) : 1.0;
      support.push_back({u.offset(g.at), g.weight, scale});
    }
    source_points.push_back(std::move(support));
  }
  std::vector<std::vector<std::pair<index_t, double>>> receiver_points;
  for (const auto& position : m.receivers.positions) {
    std::vector<std::pair<index_t, double>> support;
    for (const GridWeight& g : spread_weights(position, m.receivers.spreading, n, "receivers.position"))
      support.emplace_back(u.offset(g.at), g.weight);
    receiver_points.push_back(std::move(support));
  }

  SeismicResult result;
  result.traces.assign(m.receivers.positions.size(), {});
  auto sample = [&](const PaddedField& field) {
    for (std::size_t r = 0; r < receiver_points.size(); ++r) {
      double sum = 0;
      for (const auto& [at, weight] : receiver_points[r]) sum += weight * field[at];
      result.traces[r].push_back(sum);
    }
  };
  sample(u);  // t = 0

  // Profiles hold index -1 .. n at element index + 1.
  const double* ex = eta[0].data() + 1;
  const double* ey = eta[1].data() + 1;
  const double* ez = eta[2].data() + 1;
  const index_t sx = u.stride(0), sy = u.stride(1), sz = u.stride(2);
  std::vector<double> lap(static_cast<std::size_t>(n[0]), 0.0);  // L u^n along one row
  for (long step = 0; step < m.steps; ++step) {
    if (m.outer == OuterBoundary::rigid) fill_rigid_ghosts(u, n, radius);

    for (index_t k = 0; k < n[2]; ++k)
      for (index_t j = 0; j < n[1]; ++j) {
        const double* ur = u.data() + u.offset(0, j, k);  // row (j, k) of u^n from x = 0
        double* vr = v.data() + v.offset(0, j, k);        // u^{n-1} in, u^{n+1} out
        const index_t g0 = grid_offset(0, j, k);          // the row's start in the unpadded fields

        // L u over the row, one distance at a time: the sum order of the stated L, in loops without branches.
        for (index_t i = 0; i < n[0]; ++i) lap[std::size_t(i)] = c[0] * ur[i];
        for (index_t r = 1; r <= radius; ++r) {
          const double weight = c[std::size_t(r)];
          const index_t dx = r * sx, dy = r * sy, dz = r * sz;
          for (index_t i = 0; i < n[0]; ++i)
            lap[std::size_t(i)] +=
                weight * ((ur[i - dx] + ur[i + dx]) + (ur[i - dy] + ur[i + dy]) + (ur[i - dz] + ur[i + dz]));
        }

        const bool row_in_layer = k < inner.lo[2] || k >= inner.hi[2] || j < inner.lo[1] || j >= inner.hi[1];
        for (index_t i = 0; i < n[0]; ++i) {
          const double coef = vp[std::size_t(g0 + i)], lap_here = lap[std::size_t(i)];
          if (!row_in_layer && i >= inner.lo[0] && i < inner.hi[0]) {
            vr[i] = 2 * ur[i] + coef * lap_here - vr[i];
            continue;
          }
          const double e = ex[i] + ey[j] + ez[k];
          if (m.absorbing == Absorbing::sponge) {
            vr[i] = (2 * ur[i] + coef * lap_here - (1 - e) * vr[i]) / (1 + e);
            continue;
          }
          // PML: v reads phi at time n, then phi moves on to n + 1.
          double& phi_here = phi[std::size_t(g0 + i)];
          vr[i] = ((2 + 2 * e - e * e) * ur[i] + coef * (lap_here + phi_here) - vr[i]) / (1 + 2 * e);
          const double gradients = (ex[i + 1] - ex[i - 1]) * (ur[i + sx] - ur[i - sx]) +
                                   (ey[j + 1] - ey[j - 1]) * (ur[i + sy] - ur[i - sy]) +
                                   (ez[k + 1] - ez[k - 1]) * (ur[i + sz] - ur[i - sz]);
          phi_here = (phi_here - gradients / 4) / (1 + e);
        }
      }

    // Sources at t_n = n dt (or t_{n+1}), added to the new field.
    const double t = double(step + (m.source_one_step_late ? 1 : 0)) * m.dt;
    for (std::size_t s = 0; s < m.sources.size(); ++s) {
      const SeismicSource& src = m.sources[s];
      const double value = src.wavelet->at(t);
      for (const SourcePoint& p : source_points[s]) v[p.at] += src.amplitude * value * p.weight * p.scale;
    }

    std::swap(u, v);  // u = u^{n+1}, v = u^n
    if ((step + 1) % m.receivers.every == 0) sample(u);
  }

  result.u.resize(std::size_t(points));
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i < n[0]; ++i) result.u[std::size_t(grid_offset(i, j, k))] = u[u.offset(i, j, k)];
  return result;
}

}  // namespace wavefd
