// Unit tests of the stencil library: families, weights, symbol, stability bound, custom files.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "expect_error.hpp"
#include "wavefd/stencil.hpp"

namespace {

using namespace wavefd;
using Q = std::array<int, 3>;
constexpr double pi = std::numbers::pi;

// --- helpers ------------------------------------------------------------------------------------

// Weighted moment sum_k a_k x^i y^j z^l, in long double.
long double moment(const Stencil& s, int i, int j, int l) {
  long double m = 0;
  for (std::size_t k = 0; k < s.size(); ++k)
    m += s.weights[k] * std::pow(static_cast<long double>(s.offsets[k].x), i) *
         std::pow(static_cast<long double>(s.offsets[k].y), j) *
         std::pow(static_cast<long double>(s.offsets[k].z), l);
  return m;
}

double abs_sum(const Stencil& s) {
  double a = 0;
  for (double w : s.weights) a += std::fabs(w);
  return a;
}

// Every stencil of a sweep is built once and shared by the tests (the weight solver and the
// stability search are the slow parts).
const std::vector<Stencil>& stars() {
  static const std::vector<Stencil> v = [] {
    std::vector<Stencil> r;
    for (int M = 1; M <= 20; ++M) r.push_back(make_star(M));
    return r;
  }();
  return v;
}
const std::vector<Stencil>& compacts() {  // R = 1..30
  static const std::vector<Stencil> v = [] {
    std::vector<Stencil> r;
    for (int R = 1; R <= 30; ++R) r.push_back(make_compact(R));
    return r;
  }();
  return v;
}
std::vector<Q> box_qs(int qmax) {
  std::vector<Q> v;
  for (int a = 1; a <= qmax; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c) v.push_back({a, b, c});
  return v;  // lexicographic order of the set Q
}
const std::vector<Stencil>& boxes() {  // every q with q1 <= 4
  static const std::vector<Stencil> v = [] {
    std::vector<Stencil> r;
    for (const Q& q : box_qs(4)) r.push_back(make_box(q));
    return r;
  }();
  return v;
}

// Structural invariants every factory stencil satisfies.
void expect_well_formed(const Stencil& s) {
  SCOPED_TRACE(s.name);
  ASSERT_GE(s.size(), 7u);
  ASSERT_EQ(s.weights.size(), s.size());
  ASSERT_EQ(s.shell.size(), s.size());
  EXPECT_EQ(s.offsets[0], (Offset{0, 0, 0}));
  EXPECT_EQ(s.shell[0], 0);
  EXPECT_EQ(s.shell_q[0], (Q{0, 0, 0}));
  int radius = 0;
  std::set<std::array<int, 3>> seen;
  std::map<int, int> count;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const Offset& o = s.offsets[k];
    EXPECT_TRUE(seen.insert({o.x, o.y, o.z}).second) << "duplicate offset";
    Q q{std::abs(o.x), std::abs(o.y), std::abs(o.z)};
    std::sort(q.begin(), q.end(), std::greater<>());
    ASSERT_LT(static_cast<std::size_t>(s.shell[k]), s.shell_q.size());
    EXPECT_EQ(s.shell_q[s.shell[k]], q) << "point " << k;
    // Points of one shell share the weight, and come contiguously, sorted (x, y, z).
    const std::size_t first = static_cast<std::size_t>(
        std::find(s.shell.begin(), s.shell.end(), s.shell[k]) - s.shell.begin());
    EXPECT_EQ(s.weights[k], s.weights[first]);
    if (k > 0 && s.shell[k] == s.shell[k - 1]) {
      const Offset& p = s.offsets[k - 1];
      EXPECT_TRUE(std::tie(p.x, p.y, p.z) < std::tie(o.x, o.y, o.z));
    }
    if (k > 0) {
      EXPECT_GE(s.shell[k], s.shell[k - 1]);
    }
    ++count[s.shell[k]];
    radius = std::max({radius, std::abs(o.x), std::abs(o.y), std::abs(o.z)});
  }
  EXPECT_EQ(s.radius, radius);
  // Shells: lexicographic q, and |P(q)| in {6, 8, 12, 24, 48} (Hamilton Sec. 2.2).
  for (std::size_t p = 1; p < s.shell_q.size(); ++p) {
    if (p > 1) {
      EXPECT_LT(s.shell_q[p - 1], s.shell_q[p]);
    }
    const int n = count[static_cast<int>(p)];
    EXPECT_TRUE(n == 6 || n == 8 || n == 12 || n == 24 || n == 48) << "shell size " << n;
  }
  EXPECT_GT(s.max_courant, 0);
}

// Consistency: sum 0, second moments 2 I (checked independently of check_consistent).
void expect_consistent(const Stencil& s) {
  SCOPED_TRACE(s.name);
  const double tol = 1e-10 * abs_sum(s) * s.radius * s.radius;
  EXPECT_NEAR(static_cast<double>(moment(s, 0, 0, 0)), 0.0, tol);
  EXPECT_NEAR(static_cast<double>(moment(s, 2, 0, 0)), 2.0, tol);
  EXPECT_NEAR(static_cast<double>(moment(s, 0, 2, 0)), 2.0, tol);
  EXPECT_NEAR(static_cast<double>(moment(s, 0, 0, 2)), 2.0, tol);
  EXPECT_NEAR(static_cast<double>(moment(s, 1, 1, 0)), 0.0, tol);
}

// Brute-force check of the stability bound on a dense grid over [0, pi]^3 (enough for stencils
// with the full cube symmetry): L <= 0 and lambda_max^2 * max(-L) <= 4, attained to `rel`.
void expect_bound_on_grid(const Stencil& s, int n, double rel) {
  SCOPED_TRACE(s.name);
  double lmax = -1e300, negmax = 0;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j)
      for (int l = 0; l <= n; ++l) {
        const double v = laplacian_symbol(s, {pi * i / n, pi * j / n, pi * l / n});
        lmax = std::max(lmax, v);
        negmax = std::max(negmax, -v);
      }
  EXPECT_LE(lmax, 1e-12 * abs_sum(s));
  const double c2 = s.max_courant * s.max_courant;
  EXPECT_LE(c2 * negmax, 4.0 * (1 + 1e-9));       // never overestimates lambda
  EXPECT_GE(c2 * negmax, 4.0 * (1 - rel));          // and is close to the grid's bound
}

// Temporary text files for load_custom.
class TempFiles {
 public:
  TempFiles() {
    dir_ = std::filesystem::temp_directory_path() /
           ("wavefd_test_stencil_" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::filesystem::create_directories(dir_);
  }
  ~TempFiles() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

// --- families and parsing -----------------------------------------------------------------------

TEST(Family, NamesRoundTrip) {
  for (Family f : {Family::star, Family::compact, Family::box, Family::custom})
    EXPECT_EQ(parse_family(to_string(f)), f);
  EXPECT_EQ(to_string(Family::compact), "compact");
}

TEST(Family, UnknownNameIsAnError) {
  try {
    parse_family("xyz");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "stencil.family = 'xyz' is unknown; accepted: star, compact, box, custom");
  }
  expect_error([] { parse_family("Star"); }, "stencil.family = 'Star'");
}

TEST(Family, TwoStepWeights) {
  const Stencil s = make_star(1);
  const std::vector<double> g = s.two_step_weights(0.5);
  ASSERT_EQ(g.size(), 7u);
  EXPECT_DOUBLE_EQ(g[0], 2.0 - 6 * 0.25);  // Hamilton eq. 3
  for (std::size_t k = 1; k < 7; ++k) EXPECT_DOUBLE_EQ(g[k], 0.25);
}

// --- Fornberg -----------------------------------------------------------------------------------

TEST(Fornberg, ClassicWeights) {
  const auto d2 = fornberg_weights(2, {-1, 0, 1});
  EXPECT_NEAR(d2[0], 1, 1e-15);
  EXPECT_NEAR(d2[1], -2, 1e-15);
  EXPECT_NEAR(d2[2], 1, 1e-15);
  const auto d2b = fornberg_weights(2, {-2, -1, 0, 1, 2});
  const double e[] = {-1.0 / 12, 4.0 / 3, -5.0 / 2, 4.0 / 3, -1.0 / 12};
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(d2b[i], e[i], 1e-15);
  const auto d1 = fornberg_weights(1, {-1, 0, 1});
  EXPECT_NEAR(d1[0], -0.5, 1e-15);
  EXPECT_NEAR(d1[1], 0.0, 1e-15);
  EXPECT_NEAR(d1[2], 0.5, 1e-15);
  const auto d1s = fornberg_weights(1, {0, 1, 2});  // one-sided
  EXPECT_NEAR(d1s[0], -1.5, 1e-15);
  EXPECT_NEAR(d1s[1], 2.0, 1e-15);
  EXPECT_NEAR(d1s[2], -0.5, 1e-15);
  const auto d0 = fornberg_weights(0, {-1, 2});  // interpolation to 0
  EXPECT_NEAR(d0[0], 2.0 / 3, 1e-15);
  EXPECT_NEAR(d0[1], 1.0 / 3, 1e-15);
}

TEST(Fornberg, ExactOnPolynomials) {
  // The 2M+1-point second derivative differentiates x^j exactly for j <= 2M.
  for (int M = 1; M <= 6; ++M) {
    std::vector<int> nodes;
    for (int m = -M; m <= M; ++m) nodes.push_back(m);
    const auto w = fornberg_weights(2, nodes);
    for (int j = 0; j <= 2 * M; ++j) {
      long double s = 0;
      for (int i = 0; i < 2 * M + 1; ++i) s += w[i] * std::pow(static_cast<long double>(nodes[i]), j);
      EXPECT_NEAR(static_cast<double>(s), j == 2 ? 2.0 : 0.0, 1e-12 * std::pow(M, j)) << M << " " << j;
    }
  }
}

TEST(Fornberg, Errors) {
  expect_error([] { fornberg_weights(2, {0, 1}); }, "need at least 3");
  expect_error([] { fornberg_weights(1, {0, 1, 1}); }, "duplicated node");
  expect_error([] { fornberg_weights(-1, {0, 1}); }, "negative");
}

// --- star ---------------------------------------------------------------------------------------

TEST(Star, Structure) {
  for (int M = 1; M <= 20; ++M) {
    const Stencil& s = stars()[M - 1];
    expect_well_formed(s);
    expect_consistent(s);
    EXPECT_EQ(s.size(), static_cast<std::size_t>(6 * M + 1));
    EXPECT_EQ(s.family, Family::star);
    EXPECT_EQ(s.accuracy_order, 2 * M);
    EXPECT_EQ(s.radius, M);
    ASSERT_EQ(s.shell_q.size(), static_cast<std::size_t>(M + 1));
    for (int m = 1; m <= M; ++m) EXPECT_EQ(s.shell_q[m], (Q{m, 0, 0}));
  }
  EXPECT_EQ(make_star(4).name, "star M=4");
}

TEST(Star, Weights) {
  const Stencil s1 = make_star(1);
  EXPECT_DOUBLE_EQ(s1.weights[0], -6);
  for (int k = 1; k < 7; ++k) EXPECT_DOUBLE_EQ(s1.weights[k], 1);
  const Stencil s2 = make_star(2);  // centre 3 (-5/2), then 4/3 and -1/12 on each axis
  EXPECT_NEAR(s2.weights[0], -7.5, 1e-14);
  EXPECT_NEAR(s2.weights[1], 4.0 / 3, 1e-14);
  EXPECT_NEAR(s2.weights[7], -1.0 / 12, 1e-14);
  // Order 2M: the 4th-order (and higher, up to 2M+1) moments vanish.
  const Stencil s4 = make_star(4);
  for (int j = 3; j <= 9; ++j) EXPECT_NEAR(static_cast<double>(moment(s4, j, 0, 0)), 0.0, 1e-9 * std::pow(4.0, j));
  EXPECT_GT(std::fabs(static_cast<double>(moment(s4, 10, 0, 0))), 1.0);
}

TEST(Star, RangeErrors) {
  try {
    make_star(25);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "stencil.M = 25 is out of range; accepted: 1..20");
  }
  expect_error([] { make_star(0); }, "stencil.M = 0 is out of range; accepted: 1..20");
  expect_error([] { make_star(21); }, "stencil.M = 21");
}

TEST(Star, CourantMatchesOneDimensionalBound) {
  // L(k) = sum_i L1(k_i), so max(-L) = 3 max(-L1): a dense 1-D scan gives the exact bound.
  EXPECT_NEAR(stars()[0].max_courant, 1 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(stars()[1].max_courant, 0.5, 1e-12);  // 4 / (3 * 16/3)
  for (int M = 1; M <= 20; ++M) {
    const Stencil& s = stars()[M - 1];
    double worst = 0;
    for (int i = 0; i <= 20000; ++i) {
      const double th = pi * i / 20000;
      double l1 = s.weights[0] / 3;
      for (std::size_t k = 1; k < s.size(); ++k)
        if (s.offsets[k].y == 0 && s.offsets[k].z == 0) l1 += s.weights[k] * std::cos(th * s.offsets[k].x);
      worst = std::max(worst, -l1);
    }
    EXPECT_NEAR(s.max_courant, std::sqrt(4 / (3 * worst)), 1e-7 * s.max_courant) << "M=" << M;
  }
}

// --- compact ------------------------------------------------------------------------------------

TEST(Compact, KnownSizes) {
  EXPECT_EQ(make_compact(1).size(), 7u);
  EXPECT_EQ(make_compact(2).size(), 19u);
  EXPECT_EQ(make_compact(3).size(), 27u);
  EXPECT_EQ(make_compact(4).size(), 33u);
  EXPECT_EQ(make_compact(5).size(), 57u);
  EXPECT_EQ(make_compact(6).size(), 81u);
  EXPECT_EQ(make_compact(22).size(), 461u);  // the largest stencil of Hamilton's study
  EXPECT_EQ(make_compact(5).name, "compact R=5");
}

TEST(Compact, FirstTwentyEndAtR22) {
  // Hamilton Sec. 3.2: the first twenty compact-in-space stencils, the largest S_22 (K = 461).
  std::vector<int> valid;
  std::size_t last = 0;
  for (int R = 1; R <= 22; ++R) {
    const std::size_t K = compacts()[R - 1].size();
    if (K != last) valid.push_back(R);
    last = K;
  }
  EXPECT_EQ(valid.size(), 20u);
  EXPECT_EQ(valid.back(), 22);
}

TEST(Compact, RWithoutNewShellRepeatsThePreviousStencil) {
  const Stencil s6 = make_compact(6), s7 = make_compact(7);  // no integer triple has |q|^2 = 7
  EXPECT_EQ(s7.offsets, s6.offsets);
  EXPECT_EQ(s7.weights, s6.weights);
  EXPECT_EQ(s7.name, "compact R=7");
}

TEST(Compact, RangeErrors) {
  expect_error([] { make_compact(0); }, "stencil.R = 0 is out of range; accepted: 1..30");
  expect_error([] { make_compact(31); }, "stencil.R = 31 is out of range; accepted: 1..30");
}

TEST(Compact, ClassicWeights) {
  const Stencil s1 = make_compact(1);  // the 7-point Laplacian
  EXPECT_NEAR(s1.weights[0], -6, 1e-13);
  EXPECT_NEAR(s1.weights[1], 1, 1e-13);

  // 19 points: a0 + 6 a1 + 12 a2 = 0, 2 a1 + 8 a2 = 2, isotropy of order 4: m_220 = m_400 / 3,
  // i.e. 4 a2 = (2 a1 + 8 a2) / 3  =>  a2 = 1/6, a1 = 1/3, a0 = -4.
  const Stencil s2 = make_compact(2);
  ASSERT_EQ(s2.shell_q.size(), 3u);
  auto shell_weight = [](const Stencil& s, int p) {
    return s.weights[std::find(s.shell.begin(), s.shell.end(), p) - s.shell.begin()];
  };
  EXPECT_NEAR(shell_weight(s2, 0), -4, 1e-13);
  EXPECT_NEAR(shell_weight(s2, 1), 1.0 / 3, 1e-13);
  EXPECT_NEAR(shell_weight(s2, 2), 1.0 / 6, 1e-13);

  // 27 points: with a3 free after order 4 (a1 = 1/3 + 4 a3, a2 = 1/6 - 2 a3, a0 = -4 - 8 a3), the
  // order-6 rows are m_420 - m_600/5 (independent of a3) and m_222 - m_600/15 = 8 a3 - 2/15,
  // whose least-squares solution is a3 = 1/60: a = (-62/15, 2/5, 2/15, 1/60).
  const Stencil s3 = make_compact(3);
  EXPECT_NEAR(shell_weight(s3, 0), -62.0 / 15, 1e-13);
  EXPECT_NEAR(shell_weight(s3, 1), 2.0 / 5, 1e-13);
  EXPECT_NEAR(shell_weight(s3, 2), 2.0 / 15, 1e-13);
  EXPECT_NEAR(shell_weight(s3, 3), 1.0 / 60, 1e-13);
}

TEST(Compact, AllStableConsistentAndIsotropic) {
  for (const Stencil& s : compacts()) {
    expect_well_formed(s);
    expect_consistent(s);
    EXPECT_EQ(s.family, Family::compact);
    EXPECT_EQ(s.accuracy_order, 2);
    // Isotropy of the order-4 term (from R = 2 on): m_220 = m_400 / 3.
    if (s.shell_q.size() > 2) {
      EXPECT_NEAR(static_cast<double>(3 * moment(s, 2, 2, 0) - moment(s, 4, 0, 0)), 0.0,
                  1e-9 * abs_sum(s) * std::pow(s.radius, 4))
          << s.name;
    }
    expect_bound_on_grid(s, 8, 0.2);
  }
}

TEST(Compact, Deterministic) {
  const Stencil a = make_compact(22), b = make_compact(22);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.weights, b.weights);
}

// --- box ----------------------------------------------------------------------------------------

TEST(Box, KnownSizes) {
  EXPECT_EQ(make_box({1, 0, 0}).size(), 7u);
  EXPECT_EQ(make_box({1, 1, 0}).size(), 19u);
  EXPECT_EQ(make_box({1, 1, 1}).size(), 27u);
  EXPECT_EQ(make_box({2, 0, 0}).size(), 33u);
  const Stencil b = make_box({2, 2, 2});
  EXPECT_EQ(b.size(), 125u);  // the full 5 x 5 x 5 cube
  EXPECT_EQ(b.name, "box q=(2,2,2)");
  for (const Offset& o : b.offsets) EXPECT_LE(std::max({std::abs(o.x), std::abs(o.y), std::abs(o.z)}), 2);
}

TEST(Box, SharedShapesGiveTheCompactWeights) {
  // Hamilton: S_R^(c) for R in {1,2,3,4,5,6,8,12,13,14} equal box stencils.
  const std::pair<int, Q> same[] = {{1, {1, 0, 0}}, {2, {1, 1, 0}}, {3, {1, 1, 1}},
                                    {4, {2, 0, 0}}, {5, {2, 1, 0}}, {6, {2, 1, 1}},
                                    {8, {2, 2, 0}}, {12, {3, 1, 1}}, {13, {3, 2, 0}},
                                    {14, {3, 2, 1}}};
  const std::vector<Q> qs = box_qs(4);
  for (const auto& [R, q] : same) {
    const Stencil& c = compacts()[R - 1];
    const Stencil& b = boxes()[static_cast<std::size_t>(std::find(qs.begin(), qs.end(), q) - qs.begin())];
    EXPECT_EQ(c.offsets, b.offsets) << R;
    ASSERT_EQ(c.weights.size(), b.weights.size());
    for (std::size_t k = 0; k < c.size(); ++k) EXPECT_NEAR(c.weights[k], b.weights[k], 1e-12) << R;
  }
}

TEST(Box, RangeErrors) {
  for (const Q& q : std::vector<Q>{{0, 0, 0}, {1, 2, 0}, {7, 0, 0}, {2, 1, -1}, {2, 0, 1}})
    expect_error([&] { make_box(q); }, "stencil.q = (");
  expect_error([] { make_box({7, 0, 0}); }, "1 <= q1 <= 6");
}

TEST(Box, AllUpToQ1Equal4StableConsistentAndIsotropic) {
  ASSERT_EQ(boxes().size(), 34u);
  for (const Stencil& s : boxes()) {
    expect_well_formed(s);
    expect_consistent(s);
    EXPECT_EQ(s.family, Family::box);
    if (s.shell_q.size() > 2) {
      EXPECT_NEAR(static_cast<double>(3 * moment(s, 2, 2, 0) - moment(s, 4, 0, 0)), 0.0,
                  1e-9 * abs_sum(s) * std::pow(s.radius, 4))
          << s.name;
    }
    expect_bound_on_grid(s, 8, 0.2);
  }
  // The shells of a box stencil are exactly the q' <= q of Q, in order.
  const Stencil b = make_box({3, 1, 0});
  std::vector<Q> want;
  for (const Q& q : box_qs(3))
    if (q <= Q{3, 1, 0}) want.push_back(q);
  EXPECT_EQ(std::vector<Q>(b.shell_q.begin() + 1, b.shell_q.end()), want);
}

TEST(Box, LargestBoxesAreStable) {
  // q1 = 5, 6 use the non-negative-weight fallback (moments.cpp); they must still be valid.
  for (const Q& q : std::vector<Q>{{5, 0, 0}, {6, 6, 6}}) {
    const Stencil s = make_box(q);
    expect_well_formed(s);
    expect_consistent(s);
  }
  EXPECT_EQ(make_box({6, 6, 6}).size(), 13u * 13u * 13u);
}

// --- symbol and stability -----------------------------------------------------------------------

TEST(Symbol, SevenPoint) {
  const Stencil s = make_star(1);
  EXPECT_NEAR(laplacian_symbol(s, {0, 0, 0}), 0, 1e-15);
  EXPECT_NEAR(laplacian_symbol(s, {pi, pi, pi}), -12, 1e-12);
  EXPECT_NEAR(laplacian_symbol(s, {pi, 0, 0}), -4, 1e-12);
  const double k = 1e-3;  // L ~ -|k|^2 near 0
  EXPECT_NEAR(laplacian_symbol(s, {k, k, 0}) / (-2 * k * k), 1, 1e-6);
}

// Closed forms of the 19- and 27-point symbols on a dense grid (Hamilton's "interpolated" schemes).
TEST(Stability, NineteenAndTwentySevenPointAgainstDenseGrid) {
  for (int R : {2, 3}) {
    const Stencil s = make_compact(R);
    std::array<double, 4> a{};
    for (std::size_t k = 0; k < s.size(); ++k) a[s.shell[k]] = s.weights[k];
    double worst = 0, lmax = -1;
    const int n = 96;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j)
        for (int l = 0; l <= n; ++l) {
          const double cx = std::cos(pi * i / n), cy = std::cos(pi * j / n), cz = std::cos(pi * l / n);
          const double L = a[0] + 2 * a[1] * (cx + cy + cz) + 4 * a[2] * (cx * cy + cy * cz + cz * cx) +
                           8 * a[3] * cx * cy * cz;
          worst = std::max(worst, -L);
          lmax = std::max(lmax, L);
        }
    EXPECT_LE(lmax, 1e-12);
    EXPECT_NEAR(s.max_courant, std::sqrt(4 / worst), 1e-9) << "R=" << R;
    EXPECT_NEAR(s.max_courant, std::sqrt(3.0) / 2, 1e-9) << "R=" << R;  // max -L = 16/3
  }
}

TEST(Stability, UnstableWeightsGiveZero) {
  const Stencil s = make_star(1);
  std::vector<double> w = s.weights;
  for (double& x : w) x = -x;  // L >= 0: anti-diffusive
  EXPECT_EQ(max_stable_courant(s.offsets, w), 0.0);
  EXPECT_EQ(max_stable_courant(s.offsets, std::vector<double>(7, 0.0)), 0.0);
  EXPECT_EQ(max_stable_courant({}, {}), 0.0);
}

TEST(Stability, SymbolOfCourantBoundIsReached) {
  // lambda_max^2 L(k*) = -4 at the maximiser for the 7-point stencil: the corner (pi,pi,pi).
  const Stencil s = make_star(1);
  const double c = max_stable_courant(s.offsets, s.weights);
  EXPECT_NEAR(c * c * laplacian_symbol(s, {pi, pi, pi}), -4, 1e-12);
}

TEST(Stability, FastEnoughForHamiltonsLargestStencil) {
  const Stencil s = make_compact(22);
  const auto t0 = std::chrono::steady_clock::now();
  const double c = max_stable_courant(s.offsets, s.weights);
  const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GT(c, 0);
#ifdef NDEBUG
  EXPECT_LT(dt, 0.3);
#else
  (void)dt;
#endif
}

// --- check_consistent ---------------------------------------------------------------------------

struct Pts {
  std::vector<Offset> o;
  std::vector<double> w;
};
Pts seven() {
  const Stencil s = make_star(1);
  return {s.offsets, s.weights};
}

TEST(CheckConsistent, AcceptsFactoryStencils) {
  std::vector<Stencil> some{stars()[0], stars()[3], stars()[19]};
  for (int R : {2, 3, 22, 27, 30}) some.push_back(compacts()[R - 1]);
  for (std::size_t i : {8u, 9u, 18u, 33u}) some.push_back(boxes()[i]);  // (2,2,2) (3,0,0) (3,3,3) (4,4,4)
  for (const Stencil& s : some) EXPECT_NO_THROW(check_consistent(s.offsets, s.weights, s.name));
}

TEST(CheckConsistent, Errors) {
  const std::string what = "custom stencil file 'x.txt'";
  {
    Pts p = seven();
    p.w.pop_back();
    expect_error([&] { check_consistent(p.o, p.w, what); }, what + ": 7 offsets but 6 weights");
  }
  {
    Pts p = seven();
    p.o.push_back({1, 0, 0});
    p.w.push_back(0);
    expect_error([&] { check_consistent(p.o, p.w, what); }, "offset (1,0,0) appears more than once");
  }
  {
    Pts p = seven();
    p.o[0] = {2, 0, 0};
    expect_error([&] { check_consistent(p.o, p.w, what); }, "no centre offset (0,0,0)");
  }
  {
    Pts p = seven();
    p.w[1] = 1.5;  // (-1,0,0) vs (1,0,0)
    expect_error([&] { check_consistent(p.o, p.w, what); }, "not centrally symmetric: weight at (-1,0,0)");
  }
  {
    Pts p = seven();
    p.o.push_back({2, 0, 0});
    p.w.push_back(0.1);
    expect_error([&] { check_consistent(p.o, p.w, what); }, "(-2,0,0) it is absent");
  }
  {
    Pts p = seven();
    p.w[0] = -5.9;
    expect_error([&] { check_consistent(p.o, p.w, what); }, "weights sum to 0.1");
  }
  {
    Pts p = seven();
    for (double& x : p.w) x *= 2;
    expect_error([&] { check_consistent(p.o, p.w, what); }, "second moment m_xx = sum a l_x l_x is 4; accepted: 2");
  }
  {
    // Mixed moment: +a on the (1,1,0) diagonal, -a on the (1,-1,0) one.
    Pts p = seven();
    for (const Offset o : {Offset{1, 1, 0}, Offset{-1, -1, 0}}) {
      p.o.push_back(o);
      p.w.push_back(0.25);
    }
    for (const Offset o : {Offset{1, -1, 0}, Offset{-1, 1, 0}}) {
      p.o.push_back(o);
      p.w.push_back(-0.25);
    }
    expect_error([&] { check_consistent(p.o, p.w, what); }, "second moment m_xy = sum a l_x l_y is 1; accepted: 0");
  }
  {
    // Consistent but unstable: 7-point + (18 centre, -4 faces, +1 at distance 2), which has zero
    // sum and zero second moments but a symbol of +16 at (pi,0,0).
    Pts p = seven();
    p.w[0] += 18;
    for (std::size_t k = 1; k < 7; ++k) p.w[k] -= 4;
    for (const Offset o : {Offset{2, 0, 0}, Offset{-2, 0, 0}, Offset{0, 2, 0}, Offset{0, -2, 0},
                           Offset{0, 0, 2}, Offset{0, 0, -2}}) {
      p.o.push_back(o);
      p.w.push_back(1);
    }
    expect_error([&] { check_consistent(p.o, p.w, what); }, what + ": no stable Courant number");
    EXPECT_EQ(max_stable_courant(p.o, p.w), 0.0);
  }
  expect_error([&] { check_consistent({}, {}, what); }, what + " holds no points; accepted: ");
}

// --- custom files -------------------------------------------------------------------------------

TEST(Custom, SevenPointFile) {
  TempFiles t;
  const std::string p = t.write("seven.txt",
                                "# the 7-point Laplacian\n"
                                "\n"
                                " 1 0 0  1.0   # +x\n"
                                "-1 0 0  1.0\n"
                                "0 0 0 -6\n"
                                "0 1 0 1\n0 -1 0 1\n0 0 1 1\n0 0 -1 1\n");
  const Stencil s = load_custom(p);
  EXPECT_EQ(s.family, Family::custom);
  EXPECT_EQ(s.name, "custom seven.txt");
  EXPECT_EQ(s.size(), 7u);
  EXPECT_EQ(s.radius, 1);
  EXPECT_EQ(s.offsets[0], (Offset{0, 0, 0}));
  EXPECT_EQ(s.weights[0], -6);
  EXPECT_EQ(s.shell_q.size(), 2u);  // centre + one shell of 6
  EXPECT_EQ(s.shell_q[1], (Q{1, 0, 0}));
  EXPECT_EQ(s.offsets[1], (Offset{-1, 0, 0}));  // sorted (x, y, z) within the shell
  EXPECT_NEAR(s.max_courant, 1 / std::sqrt(3.0), 1e-12);
  EXPECT_EQ(s.accuracy_order, 2);
}

TEST(Custom, ShellsGroupEqualWeights) {
  // The 4th-order star written out by hand: two shells, order 4 detected.
  TempFiles t;
  const Stencil ref = make_star(2);
  std::string text;
  for (std::size_t k = ref.size(); k-- > 0;) {  // reversed order on purpose
    char line[96];
    std::snprintf(line, sizeof line, "%d %d %d %.17g\n", ref.offsets[k].x, ref.offsets[k].y,
                  ref.offsets[k].z, ref.weights[k]);
    text += line;
  }
  const Stencil s = load_custom(t.write("star2.txt", text));
  EXPECT_EQ(s.offsets, ref.offsets);
  EXPECT_EQ(s.shell, ref.shell);
  EXPECT_EQ(s.shell_q, ref.shell_q);
  EXPECT_EQ(s.radius, 2);
  EXPECT_EQ(s.accuracy_order, 4);
  EXPECT_NEAR(s.max_courant, 0.5, 1e-12);
}

TEST(Custom, Errors) {
  TempFiles t;
  expect_error([&] { load_custom(t.path("missing.txt")); },
               "custom stencil file '" + t.path("missing.txt") + "': cannot be read");
  const std::string bad = t.write("bad.txt", "0 0 0 -6\n# c\n1 0 x 1\n");
  expect_error([&] { load_custom(bad); },
               "custom stencil file '" + bad + "', line 3: '1 0 x 1' is not a stencil point; accepted: 'dx dy dz weight'");
  expect_error([&] { load_custom(t.write("extra.txt", "0 0 0 -6 7\n")); }, "line 1: '0 0 0 -6 7' is not a stencil point; accepted: ");
  expect_error([&] { load_custom(t.write("frac.txt", "1.5 0 0 1\n")); }, "line 1: '1.5 0 0 1' is not a stencil point; accepted: ");
  expect_error([&] { load_custom(t.write("far.txt", "0 0 0 0\n33 0 0 1\n")); },
               "line 2: offset component 33 is out of range; accepted: -32..32");
  expect_error([&] { load_custom(t.write("empty.txt", "")); }, "no points");
  expect_error([&] { load_custom(t.write("comments.txt", "# nothing\n\n   \n")); }, "no points");
  const std::string inc = t.write("inc.txt", "0 0 0 -2\n1 0 0 1\n-1 0 0 1\n");
  expect_error([&] { load_custom(inc); }, "custom stencil file '" + inc + "': second moment m_yy");
}

}  // namespace
