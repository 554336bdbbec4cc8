// Stencil families: leggy "star" stencils (Fornberg weights), compact-in-space S_R^(c) and
// box-compact S_q^(b) stencils built from shells P(q) (Hamilton et al. 2015, Sec. 2.2).
//
// Deterministic point order for every family: the centre first, then the shells in lexicographic
// order of q, and the points of one shell sorted (x, y, z) ascending. Kernels and tests rely on it.
#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "moments.hpp"
#include "wavefd/stencil.hpp"

namespace wavefd {

std::string_view to_string(Family f) {
  switch (f) {
    case Family::star: return "star";
    case Family::compact: return "compact";
    case Family::box: return "box";
    case Family::custom: return "custom";
  }
  return "unknown";
}

Family parse_family(std::string_view name) {
  for (Family f : {Family::star, Family::compact, Family::box, Family::custom})
    if (name == to_string(f)) return f;
  throw Error("stencil.family = '" + std::string(name) +
              "' is unknown; accepted: star, compact, box, custom");
}

std::vector<double> Stencil::two_step_weights(double courant) const {
  const double l2 = courant * courant;
  std::vector<double> g(weights.size());
  for (std::size_t k = 0; k < weights.size(); ++k) {
    g[k] = l2 * weights[k];
    if (offsets[k] == Offset{0, 0, 0}) g[k] += 2.0;
  }
  return g;
}

namespace detail {

bool in_Q(const Triplet& q) { return q[0] >= q[1] && q[1] >= q[2] && q[2] >= 0 && q[0] >= 1; }

std::vector<Offset> shell_points(const Triplet& q) {
  // All sign choices of all orderings; a std::set removes the duplicates that zero or repeated
  // components produce and sorts (x, y, z) ascending at the same time.
  std::set<std::array<int, 3>> pts;
  std::array<int, 3> p = q;
  std::sort(p.begin(), p.end());
  do {
    for (int s = 0; s < 8; ++s) {
      pts.insert({(s & 1) ? -p[0] : p[0], (s & 2) ? -p[1] : p[1], (s & 4) ? -p[2] : p[2]});
    }
  } while (std::next_permutation(p.begin(), p.end()));
  std::vector<Offset> out;
  out.reserve(pts.size());
  for (const auto& a : pts) out.push_back({a[0], a[1], a[2]});
  return out;
}

Stencil assemble_from_shells(Family family, std::string name, const std::vector<Triplet>& shells,
                             const std::vector<double>& shell_weights) {
  Stencil s;
  s.family = family;
  s.name = std::move(name);
  s.offsets.push_back({0, 0, 0});
  s.weights.push_back(shell_weights.at(0));
  s.shell.push_back(0);
  s.shell_q.push_back({0, 0, 0});
  for (std::size_t p = 0; p < shells.size(); ++p) {
    s.shell_q.push_back(shells[p]);
    for (const Offset& o : shell_points(shells[p])) {
      s.offsets.push_back(o);
      s.weights.push_back(shell_weights.at(p + 1));
      s.shell.push_back(static_cast<int>(p + 1));
    }
    s.radius = std::max(s.radius, shells[p][0]);  // q1 is the largest component of a shell
  }
  return s;
}

}  // namespace detail

namespace {

using detail::Triplet;

// Solves the isotropy-optimised weights for a shell set and finishes the Stencil.
Stencil shell_stencil(Family family, const std::string& name, const std::vector<Triplet>& shells) {
  const detail::ShellWeights w = detail::isotropic_shell_weights(shells);
  if (w.max_courant <= 0)  // cannot happen (see moments.cpp), kept as a guard
    throw Error("stencil " + name + " has no stable Courant number with isotropy-optimised weights");
  Stencil s = detail::assemble_from_shells(family, name, shells, w.a);
  // The isotropy levels do not make the order-4 moments vanish (m_400 = 0 and m_220 = 0 is a
  // different condition), so this is normally 2: isotropic leading error, still order 2.
  s.accuracy_order = detail::detect_accuracy_order(s.offsets, s.weights);
  s.max_courant = w.max_courant;
  return s;
}

std::string triplet_string(const Triplet& q) {
  return "(" + std::to_string(q[0]) + "," + std::to_string(q[1]) + "," + std::to_string(q[2]) + ")";
}

}  // namespace

Stencil make_star(int M) {
  if (M < 1 || M > 20)
    throw Error("stencil.M = " + std::to_string(M) + " is out of range; accepted: 1..20");
  std::vector<int> nodes;
  for (int m = -M; m <= M; ++m) nodes.push_back(m);
  const std::vector<double> w1 = fornberg_weights(2, nodes);  // w1[M + m] multiplies u(m)
  // The 3-D star is the sum of three 1-D second differences: the centre collects 3 w_0.
  std::vector<Triplet> shells;
  std::vector<double> a{3.0 * w1[M]};
  for (int m = 1; m <= M; ++m) {
    shells.push_back({m, 0, 0});
    a.push_back(w1[M + m]);
  }
  Stencil s = detail::assemble_from_shells(Family::star, "star M=" + std::to_string(M), shells, a);
  s.accuracy_order = 2 * M;
  s.max_courant = max_stable_courant(s.offsets, s.weights);
  return s;
}

Stencil make_compact(int R) {
  if (R < 1 || R > 30)
    throw Error("stencil.R = " + std::to_string(R) + " is out of range; accepted: 1..30");
  // Omega_R^(c) = {q in Q : |q|^2 <= R} (Hamilton eq. 9), enumerated in lexicographic order.
  // R without a new shell (e.g. 7) gives the stencil of the next smaller valid R, by definition.
  std::vector<Triplet> shells;
  for (int a = 1; a * a <= R; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c)
        if (a * a + b * b + c * c <= R) shells.push_back({a, b, c});
  return shell_stencil(Family::compact, "compact R=" + std::to_string(R), shells);
}

Stencil make_box(std::array<int, 3> q) {
  if (!detail::in_Q(q) || q[0] > 6)
    throw Error("stencil.q = " + triplet_string(q) +
                " is out of range; accepted: integers q1 >= q2 >= q3 >= 0 with 1 <= q1 <= 6");
  // Omega_q^(b) = {q' in Q : q' <= q lexicographically} (Hamilton eq. 10); the loops run in that
  // order, so the shells come out sorted.
  std::vector<Triplet> shells;
  for (int a = 1; a <= q[0]; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c) {
        const Triplet t{a, b, c};
        if (t <= q) shells.push_back(t);  // std::array compares lexicographically
      }
  return shell_stencil(Family::box, "box q=" + triplet_string(q), shells);
}

bool symmetric_in_each_axis(const Stencil& s) {
  for (std::size_t a = 0; a < s.size(); ++a)
    for (std::size_t b = 0; b < s.size(); ++b) {
      const Offset &p = s.offsets[a], &q = s.offsets[b];
      const bool mirror = std::abs(p.x) == std::abs(q.x) && std::abs(p.y) == std::abs(q.y) && std::abs(p.z) == std::abs(q.z);
      if (mirror && s.weights[a] != s.weights[b]) return false;
    }
  return true;
}

}  // namespace wavefd
