// The symbol of a discrete Laplacian and the stability bound of the two-step scheme.
//
// With u ~ z^n e^{i k.x}, u+ = (2 + lambda^2 L(k)) u - u- has |z| = 1 for every k iff
// -4 <= lambda^2 L(k) <= 0, i.e. L(k) <= 0 everywhere and lambda^2 <= 4 / max_k(-L(k)).
// The extrema of L are found by a grid search over half the Brillouin zone (L is even in k), with
// the symbol evaluated separably (axis by axis), and the best few grid extrema are then refined by
// a safeguarded Newton search (L is a trigonometric polynomial: exact gradient and Hessian).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "moments.hpp"
#include "wavefd/stencil.hpp"

namespace wavefd {

namespace {

using K3 = std::array<double, 3>;

double symbol_at(const std::vector<Offset>& offsets, const std::vector<double>& weights,
                 const K3& k) {
  double s = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i)
    s += weights[i] * std::cos(k[0] * offsets[i].x + k[1] * offsets[i].y + k[2] * offsets[i].z);
  return s;
}

// sign * L(k) with its gradient and Hessian.
double symbol_derivs(const std::vector<Offset>& offsets, const std::vector<double>& weights,
                     double sign, const K3& k, K3& g, double (&H)[3][3]) {
  double f = 0;
  g = {0, 0, 0};
  for (auto& row : H) row[0] = row[1] = row[2] = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const double l[3] = {double(offsets[i].x), double(offsets[i].y), double(offsets[i].z)};
    const double ph = k[0] * l[0] + k[1] * l[1] + k[2] * l[2];
    const double a = sign * weights[i], c = a * std::cos(ph), s = a * std::sin(ph);
    f += c;
    for (int d = 0; d < 3; ++d) {
      g[d] -= s * l[d];
      for (int e = 0; e < 3; ++e) H[d][e] -= c * l[d] * l[e];
    }
  }
  return f;
}

// Solves -H d = g by Cholesky when -H is positive definite (a Newton ascent step).
bool newton_step(const double (&H)[3][3], const K3& g, K3& d) {
  double A[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A[i][j] = -H[i][j];
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < j; ++k) A[j][j] -= A[j][k] * A[j][k];
    if (!(A[j][j] > 0)) return false;
    A[j][j] = std::sqrt(A[j][j]);
    for (int i = j + 1; i < 3; ++i) {
      for (int k = 0; k < j; ++k) A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
  }
  K3 y;
  for (int i = 0; i < 3; ++i) {
    y[i] = g[i];
    for (int k = 0; k < i; ++k) y[i] -= A[i][k] * y[k];
    y[i] /= A[i][i];
  }
  for (int i = 2; i >= 0; --i) {
    d[i] = y[i];
    for (int k = i + 1; k < 3; ++k) d[i] -= A[k][i] * d[k];
    d[i] /= A[i][i];
  }
  return true;
}

// Maximises sign * L from k: Newton steps where the Hessian is definite, gradient steps
// elsewhere, both limited to the grid spacing and backtracked until they improve. Converges in a
// handful of O(K) evaluations from a grid point near the optimum.
void refine(const std::vector<Offset>& offsets, const std::vector<double>& weights, double sign,
            double step, K3& k, double& value) {
  K3 g;
  double H[3][3];
  double f = symbol_derivs(offsets, weights, sign, k, g, H);
  for (int iter = 0; iter < 60; ++iter) {
    K3 d;
    if (!newton_step(H, g, d)) d = g;
    double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len == 0) break;
    double scale = std::min(1.0, step / len);  // trust region: one grid cell
    bool moved = false;
    for (int bt = 0; bt < 40 && scale * len > 1e-12; ++bt, scale *= 0.5) {
      const K3 t{k[0] + scale * d[0], k[1] + scale * d[1], k[2] + scale * d[2]};
      K3 gt;
      double Ht[3][3];
      const double ft = symbol_derivs(offsets, weights, sign, t, gt, Ht);
      if (ft > f) {
        k = t;
        f = ft;
        g = gt;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) H[i][j] = Ht[i][j];
        moved = true;
        break;
      }
    }
    if (!moved || scale * len < 1e-10) break;
  }
  for (double& c : k) c = std::remainder(c, 2 * std::numbers::pi);  // report within [-pi, pi]
  value = sign * f;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string offset_string(const Offset& o) {
  return "(" + std::to_string(o.x) + "," + std::to_string(o.y) + "," + std::to_string(o.z) + ")";
}

}  // namespace

double laplacian_symbol(const Stencil& s, const std::array<double, 3>& k) {
  return symbol_at(s.offsets, s.weights, k);
}

namespace detail {

SymbolExtrema symbol_extrema(const std::vector<Offset>& offsets, const std::vector<double>& weights) {
  if (offsets.size() != weights.size())
    throw Error("stencil: " + std::to_string(offsets.size()) + " offsets but " +
                std::to_string(weights.size()) + " weights");
  SymbolExtrema e;
  for (double a : weights) e.scale += std::fabs(a);
  if (offsets.empty()) return e;

  int r = 0;
  for (const Offset& o : offsets) r = std::max({r, std::abs(o.x), std::abs(o.y), std::abs(o.z)});
  // Grid: kx in [0, pi] (L is even), ky, kz in [-pi, pi]; pi/32 resolves radius <= 8 well, wider
  // (custom) stencils get a finer grid, capped to bound the cost.
  const int half = std::clamp(4 * r, 32, 64);
  const int nx = half + 1, ny = 2 * half + 1, nz = ny;
  const double pi = std::numbers::pi, h = pi / half;

  // Per-axis cos/sin tables: c[i * nl + l + r] = cos(k_i l), s[...] = sin(k_i l).
  const int nl = 2 * r + 1;
  auto table = [&](int n, double k0, std::vector<double>& c, std::vector<double>& s) {
    c.resize(static_cast<std::size_t>(n) * nl);
    s.resize(c.size());
    for (int i = 0; i < n; ++i)
      for (int l = -r; l <= r; ++l) {
        c[static_cast<std::size_t>(i) * nl + l + r] = std::cos((k0 + i * h) * l);
        s[static_cast<std::size_t>(i) * nl + l + r] = std::sin((k0 + i * h) * l);
      }
  };
  std::vector<double> cx, sx, cy, sy, cz, sz;
  table(nx, 0.0, cx, sx);
  table(ny, -pi, cy, sy);
  table(nz, -pi, cz, sz);

  // Group the points by (ly, lz) so that e^{i k.l} factorises axis by axis:
  //   L(k) = Re sum_lz e^{i kz lz} D_lz(kx, ky),  D_lz = sum_ly e^{i ky ly} C_(ly,lz)(kx),
  //   C_(ly,lz) = sum_lx a e^{i kx lx}.
  // The cost per grid point is the number of distinct lz (<= 2r + 1) instead of K.
  std::map<std::pair<int, int>, int> pair_index;
  std::vector<int> pair_y, pair_z;
  std::vector<int> pair_of(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const auto key = std::make_pair(offsets[i].y, offsets[i].z);
    auto it = pair_index.find(key);
    if (it == pair_index.end()) {
      it = pair_index.emplace(key, static_cast<int>(pair_y.size())).first;
      pair_y.push_back(key.first + r);
      pair_z.push_back(key.second + r);
    }
    pair_of[i] = it->second;
  }
  const std::size_t np = pair_y.size();
  std::vector<double> grid(static_cast<std::size_t>(nx) * ny * nz);
  std::vector<double> Cre(np), Cim(np), Dre(nl), Dim(nl);
  for (int i = 0; i < nx; ++i) {
    std::fill(Cre.begin(), Cre.end(), 0.0);
    std::fill(Cim.begin(), Cim.end(), 0.0);
    const double* cxi = &cx[static_cast<std::size_t>(i) * nl];
    const double* sxi = &sx[static_cast<std::size_t>(i) * nl];
    for (std::size_t p = 0; p < offsets.size(); ++p) {
      Cre[pair_of[p]] += weights[p] * cxi[offsets[p].x + r];
      Cim[pair_of[p]] += weights[p] * sxi[offsets[p].x + r];
    }
    for (int j = 0; j < ny; ++j) {
      std::fill(Dre.begin(), Dre.end(), 0.0);
      std::fill(Dim.begin(), Dim.end(), 0.0);
      const double* cyj = &cy[static_cast<std::size_t>(j) * nl];
      const double* syj = &sy[static_cast<std::size_t>(j) * nl];
      for (std::size_t p = 0; p < np; ++p) {
        const double ec = cyj[pair_y[p]], es = syj[pair_y[p]];
        Dre[pair_z[p]] += Cre[p] * ec - Cim[p] * es;
        Dim[pair_z[p]] += Cre[p] * es + Cim[p] * ec;
      }
      double* out = &grid[(static_cast<std::size_t>(i) * ny + j) * nz];
      for (int l = 0; l < nz; ++l) {
        const double* czl = &cz[static_cast<std::size_t>(l) * nl];
        const double* szl = &sz[static_cast<std::size_t>(l) * nl];
        double acc = 0;
        for (int lz = 0; lz < nl; ++lz) acc += Dre[lz] * czl[lz] - Dim[lz] * szl[lz];
        out[l] = acc;
      }
    }
  }

  // Candidates: grid points not beaten by any in-grid neighbour, best few first.
  auto candidates = [&](double sign) {
    std::vector<std::pair<double, std::array<int, 3>>> c;
    const std::size_t sx_ = static_cast<std::size_t>(ny) * nz, sy_ = static_cast<std::size_t>(nz);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        for (int l = 0; l < nz; ++l) {
          const std::size_t idx = i * sx_ + j * sy_ + l;
          const double v = sign * grid[idx];
          const bool peak = (i == 0 || sign * grid[idx - sx_] <= v) &&
                            (i == nx - 1 || sign * grid[idx + sx_] <= v) &&
                            (j == 0 || sign * grid[idx - sy_] <= v) &&
                            (j == ny - 1 || sign * grid[idx + sy_] <= v) &&
                            (l == 0 || sign * grid[idx - 1] <= v) &&
                            (l == nz - 1 || sign * grid[idx + 1] <= v);
          if (peak) c.push_back({v, {i, j, l}});
        }
    const std::size_t keep = std::min<std::size_t>(c.size(), 6);
    std::partial_sort(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(keep), c.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
    c.resize(keep);
    return c;
  };
  auto best_of = [&](double sign, double& value, K3& arg) {
    value = -sign * HUGE_VAL;
    for (const auto& [v, idx] : candidates(sign)) {
      K3 k{idx[0] * h, -pi + idx[1] * h, -pi + idx[2] * h};
      double f = 0;
      refine(offsets, weights, sign, h, k, f);
      if (sign * f > sign * value) {
        value = f;
        arg = k;
      }
    }
  };
  best_of(+1.0, e.max_value, e.argmax);
  best_of(-1.0, e.min_value, e.argmin);
  return e;
}

}  // namespace detail

double max_stable_courant(const std::vector<Offset>& offsets, const std::vector<double>& weights) {
  const detail::SymbolExtrema e = detail::symbol_extrema(offsets, weights);
  if (e.scale == 0 || e.max_value > detail::symbol_positive_tol * e.scale) return 0.0;
  if (e.min_value >= 0) return 0.0;  // L == 0: not a Laplacian
  return std::sqrt(4.0 / -e.min_value);
}

void check_consistent(const std::vector<Offset>& offsets, const std::vector<double>& weights,
                      const std::string& what) {
  if (offsets.size() != weights.size())
    throw Error(what + ": " + std::to_string(offsets.size()) + " offsets but " +
                std::to_string(weights.size()) + " weights");
  if (offsets.empty()) throw Error(what + " holds no points; accepted: lines 'dx dy dz weight'");

  // Duplicates and the mirror lookup both use a map from offset to its weight.
  std::map<std::array<int, 3>, double> byoff;
  int r = 0;
  double amax = 0, asum = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const Offset& o = offsets[i];
    if (!byoff.emplace(std::array<int, 3>{o.x, o.y, o.z}, weights[i]).second)
      throw Error(what + ": offset " + offset_string(o) + " appears more than once; accepted: each offset once");
    if (!std::isfinite(weights[i]))
      throw Error(what + ": weight at " + offset_string(o) + " is not finite; accepted: finite weights");
    r = std::max({r, std::abs(o.x), std::abs(o.y), std::abs(o.z)});
    amax = std::max(amax, std::fabs(weights[i]));
    asum += std::fabs(weights[i]);
  }
  if (!byoff.count({0, 0, 0})) throw Error(what + ": no centre offset (0,0,0); accepted: a stencil with its centre");

  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const Offset& o = offsets[i];
    const Offset m{-o.x, -o.y, -o.z};
    const auto it = byoff.find({m.x, m.y, m.z});
    const double wm = it == byoff.end() ? 0.0 : it->second;
    if (std::fabs(weights[i] - wm) > 1e-12 * amax)
      throw Error(what + ": not centrally symmetric: weight at " + offset_string(o) + " is " +
                  fmt(weights[i]) + " but at " + offset_string(m) + " it is " +
                  (it == byoff.end() ? std::string("absent") : fmt(wm)) + "; accepted: a(l) = a(-l)");
  }

  // Moments up to order 2, in long double, against tolerances scaled by sum|a| r^order.
  const long double tol = 1e-9L * asum;
  const long double rr = std::max(r, 1);
  long double m0 = 0, m1[3] = {0, 0, 0}, m2[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const long double a = weights[i];
    const long double l[3] = {static_cast<long double>(offsets[i].x),
                              static_cast<long double>(offsets[i].y),
                              static_cast<long double>(offsets[i].z)};
    m0 += a;
    for (int d = 0; d < 3; ++d) {
      m1[d] += a * l[d];
      for (int e = 0; e < 3; ++e) m2[d][e] += a * l[d] * l[e];
    }
  }
  if (std::fabs(m0) > tol)
    throw Error(what + ": weights sum to " + fmt(static_cast<double>(m0)) +
                "; accepted: 0 (a Laplacian annihilates constants)");
  for (int d = 0; d < 3; ++d)
    if (std::fabs(m1[d]) > tol * rr)
      throw Error(what + ": first moment m_" + axis_name(d) + " = sum a l_" + axis_name(d) + " is " +
                  fmt(static_cast<double>(m1[d])) + "; accepted: 0");
  for (int d = 0; d < 3; ++d)
    for (int e = d; e < 3; ++e) {
      const long double want = d == e ? 2.0L : 0.0L;
      if (std::fabs(m2[d][e] - want) > tol * rr * rr)
        throw Error(what + ": second moment m_" + axis_name(d) + axis_name(e) + " = sum a l_" +
                    axis_name(d) + " l_" + axis_name(e) + " is " + fmt(static_cast<double>(m2[d][e])) +
                    "; accepted: " + (d == e ? "2" : "0") + " (a consistent Laplacian)");
    }

  const detail::SymbolExtrema ex = detail::symbol_extrema(offsets, weights);
  if (ex.max_value > detail::symbol_positive_tol * ex.scale)
    throw Error(what + ": no stable Courant number: the symbol L(k) = sum a cos(k.l) is " +
                fmt(ex.max_value) + " > 0 at k = (" + fmt(ex.argmax[0]) + "," + fmt(ex.argmax[1]) +
                "," + fmt(ex.argmax[2]) + "); accepted: L(k) <= 0 for every k");
}

}  // namespace wavefd
