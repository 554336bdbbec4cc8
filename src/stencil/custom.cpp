// User-supplied stencils: a text file with one point per line, "dx dy dz weight" (three integers,
// then the Laplacian weight for h = 1); '#' starts a comment and blank lines are ignored.
//
// Shells of a custom stencil: points with the same sorted |component| triplet q AND the same
// weight (to 1e-12 relative) form one shell, so an isotropic user stencil gets Hamilton's P(q)
// shells back, while an anisotropic one splits P(q) into several shells sharing the same q.
// Shells are ordered by q (lexicographic), then by weight; points within a shell (x, y, z) ascending.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "../io/input_file.hpp"
#include "moments.hpp"
#include "wavefd/stencil.hpp"

namespace wavefd {

Stencil load_custom(const std::string& path) {
  const std::string what = "custom stencil file '" + path + "'";
  std::istringstream in(read_input(path, what + ":"));

  std::vector<Offset> offsets;
  std::vector<double> weights;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string where = what + ", line " + std::to_string(lineno);
    std::string body = line.substr(0, line.find('#'));
    if (body.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    // Parse strictly: three integers and a finite number, nothing else on the line.
    std::istringstream ss(body);
    long long c[3];
    double w = 0;
    std::string extra;
    if (!(ss >> c[0] >> c[1] >> c[2] >> w) || (ss >> extra) || !std::isfinite(w)) {
      const auto b = body.find_first_not_of(" \t");
      const auto e = body.find_last_not_of(" \t\r\n");
      throw Error(where + ": '" + body.substr(b, e - b + 1) +
                  "' is not a stencil point; accepted: 'dx dy dz weight' (three integers and a finite number) or '#' comments");
    }
    for (long long v : c)
      if (v < -32 || v > 32)
        throw Error(where + ": offset component " + std::to_string(v) +
                    " is out of range; accepted: -32..32");
    offsets.push_back({static_cast<int>(c[0]), static_cast<int>(c[1]), static_cast<int>(c[2])});
    weights.push_back(w);
  }
  if (offsets.empty())
    throw Error(what + " holds no points (it is empty or only comments); accepted: lines 'dx dy dz weight'");

  check_consistent(offsets, weights, what);

  // Group into shells (see the file comment). Sorting by (q, weight, point) gives the order.
  double amax = 0;
  for (double a : weights) amax = std::max(amax, std::fabs(a));
  struct Pt {
    detail::Triplet q;
    double w;
    Offset o;
  };
  std::vector<Pt> pts;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    detail::Triplet q{std::abs(offsets[i].x), std::abs(offsets[i].y), std::abs(offsets[i].z)};
    std::sort(q.begin(), q.end(), std::greater<>());
    pts.push_back({q, weights[i], offsets[i]});
  }
  std::sort(pts.begin(), pts.end(), [](const Pt& a, const Pt& b) {
    return std::tie(a.q, a.w, a.o.x, a.o.y, a.o.z) < std::tie(b.q, b.w, b.o.x, b.o.y, b.o.z);
  });

  // Split the sorted points into shells, then sort each shell's points by (x, y, z): weights that
  // agree only to rounding must not decide the order within a shell.
  std::vector<std::size_t> start{0};
  for (std::size_t i = 1; i < pts.size(); ++i)
    if (pts[i].q != pts[i - 1].q || std::fabs(pts[i].w - pts[i - 1].w) > 1e-12 * amax)
      start.push_back(i);
  start.push_back(pts.size());

  Stencil s;
  s.family = Family::custom;
  s.name = "custom " + std::filesystem::path(path).filename().string();
  for (std::size_t g = 0; g + 1 < start.size(); ++g) {
    // The centre sorts first (q = (0,0,0) is the smallest triplet), so it is shell 0.
    const auto b = pts.begin() + static_cast<std::ptrdiff_t>(start[g]);
    const auto e = pts.begin() + static_cast<std::ptrdiff_t>(start[g + 1]);
    std::sort(b, e, [](const Pt& x, const Pt& y) {
      return std::tie(x.o.x, x.o.y, x.o.z) < std::tie(y.o.x, y.o.y, y.o.z);
    });
    s.shell_q.push_back(b->q);
    for (auto it = b; it != e; ++it) {
      s.offsets.push_back(it->o);
      s.weights.push_back(it->w);
      s.shell.push_back(static_cast<int>(g));
      s.radius = std::max(s.radius, it->q[0]);
    }
  }
  s.accuracy_order = detail::detect_accuracy_order(s.offsets, s.weights);
  s.max_courant = max_stable_courant(s.offsets, s.weights);
  return s;
}

}  // namespace wavefd
