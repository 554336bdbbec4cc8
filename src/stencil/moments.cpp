// Isotropy-optimised Laplacian weights for shell stencils S(Omega) (Hamilton 2015, eq. 7).
//
// Unknowns x = (a_0, a_1, ..., a_P): the centre weight and one weight per shell P(q_p). Shells are
// invariant under the cube group, so odd moments and mixed second moments vanish by construction
// and the Taylor expansion of the symbol is
//   L(k) = sum_n (-1)^n / (2n)! sum_l a(l) (k . l)^(2n)
//        = sum_n (-1)^n sum_{|beta| = n} k^(2 beta) m_(2 beta) / (2 beta)!,
// with m_(2 beta) = sum_l a(l) l^(2 beta). The order-2n term is a multiple of |k|^(2n) (isotropic)
// iff m_(2 beta) / w_beta is the same for every partition beta of n, w_beta = n!(2beta)!/(beta!(2n)!).
//
// Levels, solved hierarchically in long double:
//   level 0 (exact):  sum a = 0,  m_(2,0,0) = 2                      (consistency)
//   level n = 2..8:   m_(2beta) w_beta0 - m_(2beta0) w_beta = 0      (isotropy of order 2n)
// Each level is solved in the least-squares sense inside the free directions N left by the
// previous levels, taking the minimum-norm correction (pseudo-inverse, singular values below
// 1e-12 of the largest dropped), and N shrinks to the null space of that level. Earlier levels are
// never disturbed by later ones and the result is unique: the minimum-norm x among the solutions.
//
// Worked example (checked in ctest/test_stencil.cpp): the 19-point S_2^(c) gives a_0 = -4,
// a_(1,0,0) = 1/3, a_(1,1,0) = 1/6: sum -4 + 6/3 + 12/6 = 0, m_200 = 2/3 + 8/6 = 2,
// m_220 = 4/6 = m_400/3 = 2/3 (w_(1,1,0) = 1/3), i.e. the classic isotropic 19-point Laplacian.
//
// Stability fallback. Isotropy says nothing about L(k) away from k = 0. When the levels fix every
// weight (compact R <= 26, box q <= (3,3,2)) the result is stable, but when free directions remain
// after order 16 (compact R >= 27, box q >= (3,3,3)) their minimum-norm completion has L > 0 near
// the checkerboard corners. Then the free directions are spent instead on making every off-centre
// weight non-negative -- the minimum-norm x subject to a_p >= 0, a least-distance program
// (Lawson & Hanson, ch. 23) -- because then L(k) = sum_l a_l (cos(k.l) - 1) <= 0 for all k: stable
// by construction. If that is infeasible with all isotropy levels, the highest level is dropped
// and the program solved again; with consistency alone it is always feasible (e.g. the 7-point
// weights), so every shell stencil gets a stable, consistent Laplacian.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "moments.hpp"

namespace wavefd::detail {

namespace {

using ld = long double;

// Small dense row-major matrix.
struct Mat {
  int rows = 0, cols = 0;
  std::vector<ld> v;
  Mat() = default;
  Mat(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * c, 0.0L) {}
  ld& operator()(int i, int j) { return v[static_cast<std::size_t>(i) * cols + j]; }
  ld operator()(int i, int j) const { return v[static_cast<std::size_t>(i) * cols + j]; }
};

Mat multiply(const Mat& A, const Mat& B) {
  Mat C(A.rows, B.cols);
  for (int i = 0; i < A.rows; ++i)
    for (int k = 0; k < A.cols; ++k) {
      const ld a = A(i, k);
      if (a == 0) continue;
      for (int j = 0; j < B.cols; ++j) C(i, j) += a * B(k, j);
    }
  return C;
}

Mat transpose(const Mat& A) {
  Mat T(A.cols, A.rows);
  for (int i = 0; i < A.rows; ++i)
    for (int j = 0; j < A.cols; ++j) T(j, i) = A(i, j);
  return T;
}

// One-sided (Hestenes) Jacobi SVD. On return W = A V has mutually orthogonal columns,
// sigma_j = |W_j| and V is orthogonal. Cost grows with the square of the column count, so callers
// pass the orientation with few columns.
void jacobi_svd(Mat& W, Mat& V, std::vector<ld>& sigma) {
  const int m = W.rows, n = W.cols;
  V = Mat(n, n);
  for (int j = 0; j < n; ++j) V(j, j) = 1.0L;
  const ld tol = 1e-17L;
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (int p = 0; p < n - 1; ++p)
      for (int q = p + 1; q < n; ++q) {
        ld alpha = 0, beta = 0, gamma = 0;
        for (int i = 0; i < m; ++i) {
          alpha += W(i, p) * W(i, p);
          beta += W(i, q) * W(i, q);
          gamma += W(i, p) * W(i, q);
        }
        if (gamma == 0 || std::fabs(gamma) <= tol * std::sqrt(alpha * beta)) continue;
        rotated = true;
        const ld zeta = (beta - alpha) / (2 * gamma);
        const ld t = (zeta >= 0 ? 1.0L : -1.0L) / (std::fabs(zeta) + std::sqrt(1 + zeta * zeta));
        const ld c = 1 / std::sqrt(1 + t * t), s = c * t;
        for (int i = 0; i < m; ++i) {
          const ld wp = W(i, p), wq = W(i, q);
          W(i, p) = c * wp - s * wq;
          W(i, q) = s * wp + c * wq;
        }
        for (int i = 0; i < n; ++i) {
          const ld vp = V(i, p), vq = V(i, q);
          V(i, p) = c * vp - s * vq;
          V(i, q) = s * vp + c * vq;
        }
      }
    if (!rotated) break;
  }
  sigma.assign(n, 0.0L);
  for (int j = 0; j < n; ++j) {
    ld s2 = 0;
    for (int i = 0; i < m; ++i) s2 += W(i, j) * W(i, j);
    sigma[j] = std::sqrt(s2);
  }
}

// Householder vector v (v[0..] acting on rows j..) that maps column x to -sign(x0)|x| e_0.
// Returns false for a zero column. Applying: y -= (2 v.y / v.v) v.
bool householder(std::vector<ld>& v) {
  ld norm2 = 0;
  for (ld e : v) norm2 += e * e;
  if (norm2 == 0) return false;
  const ld alpha = v[0] >= 0 ? -std::sqrt(norm2) : std::sqrt(norm2);
  v[0] -= alpha;
  return true;
}

void reflect(const std::vector<ld>& v, ld* y, std::ptrdiff_t stride) {
  ld vv = 0, vy = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    vv += v[i] * v[i];
    vy += v[i] * y[static_cast<std::ptrdiff_t>(i) * stride];
  }
  if (vv == 0) return;
  const ld f = 2 * vy / vv;
  for (std::size_t i = 0; i < v.size(); ++i) y[static_cast<std::ptrdiff_t>(i) * stride] -= f * v[i];
}

// Orthonormal basis of the orthogonal complement of the orthonormal columns U (n x r), via the
// Householder QR of U: the last n - r columns of Q.
Mat complement_basis(Mat U) {
  const int n = U.rows, r = U.cols;
  std::vector<std::vector<ld>> refl;
  for (int j = 0; j < r; ++j) {
    std::vector<ld> v(n - j);
    for (int i = j; i < n; ++i) v[i - j] = U(i, j);
    if (!householder(v)) v.assign(n - j, 0.0L);
    for (int c = j; c < r; ++c) reflect(v, &U(j, c), U.cols);
    refl.push_back(std::move(v));
  }
  Mat C(n, n - r);
  for (int c = 0; c < n - r; ++c) {
    std::vector<ld> e(n, 0.0L);
    e[r + c] = 1;
    for (int j = r - 1; j >= 0; --j) reflect(refl[j], &e[j], 1);  // Q e = H_0 ... H_(r-1) e
    for (int i = 0; i < n; ++i) C(i, c) = e[i];
  }
  return C;
}

// Least-squares solution of E z ~= f by Householder QR with column pivoting; columns beyond the
// numerical rank (1e-12 of the largest pivot) get z = 0 (a basic solution).
std::vector<ld> lstsq_qr(Mat E, std::vector<ld> f) {
  const int m = E.rows, n = E.cols;
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  int rank = 0;
  ld first = 0;
  for (int j = 0; j < std::min(m, n); ++j) {
    int best = j;
    ld bestn = -1;
    for (int c = j; c < n; ++c) {
      ld s = 0;
      for (int i = j; i < m; ++i) s += E(i, c) * E(i, c);
      if (s > bestn) {
        bestn = s;
        best = c;
      }
    }
    const ld norm = std::sqrt(bestn);
    if (j == 0) first = norm;
    if (norm == 0 || norm <= 1e-12L * first) break;
    if (best != j) {
      for (int i = 0; i < m; ++i) std::swap(E(i, j), E(i, best));
      std::swap(perm[j], perm[best]);
    }
    std::vector<ld> v(m - j);
    for (int i = j; i < m; ++i) v[i - j] = E(i, j);
    householder(v);
    for (int c = j; c < n; ++c) reflect(v, &E(j, c), E.cols);
    reflect(v, &f[j], 1);
    ++rank;
  }
  std::vector<ld> zr(rank, 0.0L);
  for (int i = rank - 1; i >= 0; --i) {
    ld s = f[i];
    for (int c = i + 1; c < rank; ++c) s -= E(i, c) * zr[c];
    zr[i] = s / E(i, i);
  }
  std::vector<ld> z(n, 0.0L);
  for (int i = 0; i < rank; ++i) z[perm[i]] = zr[i];
  return z;
}

ld factorial(int n) {
  ld f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

// Partitions of n into at most 3 parts, each sorted descending; the first is (n, 0, 0).
std::vector<Triplet> partitions3(int n) {
  std::vector<Triplet> out;
  for (int b1 = n; b1 >= 0; --b1)
    for (int b2 = std::min(b1, n - b1); b2 >= 0; --b2) {
      const int b3 = n - b1 - b2;
      if (b3 >= 0 && b3 <= b2) out.push_back({b1, b2, b3});
    }
  return out;
}

// w_beta = n! (2beta)! / (beta! (2n)!): the share of k^(2beta) in |k|^(2n) after the Taylor factor.
ld isotropy_weight(const Triplet& b) {
  const int n = b[0] + b[1] + b[2];
  ld num = factorial(n), den = factorial(2 * n);
  for (int i = 0; i < 3; ++i) {
    num *= factorial(2 * b[i]);
    den *= factorial(b[i]);
  }
  return num / den;
}

ld ipow(ld x, int e) {
  ld r = 1;
  for (int i = 0; i < e; ++i) r *= x;
  return r;
}

// m_(2beta) of one shell with unit weights.
ld shell_moment(const std::vector<Offset>& pts, const Triplet& b) {
  ld m = 0;
  for (const Offset& o : pts)
    m += ipow(o.x, 2 * b[0]) * ipow(o.y, 2 * b[1]) * ipow(o.z, 2 * b[2]);
  return m;
}

// The particular solution x and an orthonormal basis N (columns) of the free directions.
struct Hierarchy {
  std::vector<ld> x;
  Mat N;
};

// One hierarchical level: solve A x ~= rhs inside the free space of h (minimum-norm correction)
// and shrink the free space to the null space of A restricted to it.
void solve_level(const Mat& A, const std::vector<ld>& rhs, Hierarchy& h) {
  if (h.N.cols == 0) return;
  std::vector<ld> r(A.rows);
  for (int i = 0; i < A.rows; ++i) {
    ld ax = 0;
    for (int j = 0; j < A.cols; ++j) ax += A(i, j) * h.x[j];
    r[i] = rhs[i] - ax;
  }
  // W = A N has few rows: take the SVD of W^T = U S V^T (Jacobi on its few columns), so
  // W = V S U^T, pinv(W) r = sum_j U_j (V_j . r) / s_j, and null(W) = complement of the U_j.
  Mat Wt = transpose(multiply(A, h.N));
  Mat V;
  std::vector<ld> sigma;
  jacobi_svd(Wt, V, sigma);
  const ld smax = *std::max_element(sigma.begin(), sigma.end());
  const int n = h.N.cols;
  std::vector<ld> y(n, 0.0L);
  std::vector<int> kept;
  for (int j = 0; j < A.rows; ++j) {
    if (smax == 0 || sigma[j] <= 1e-12L * smax) continue;
    kept.push_back(j);
    ld vr = 0;
    for (int i = 0; i < A.rows; ++i) vr += V(i, j) * r[i];
    const ld f = vr / (sigma[j] * sigma[j]);  // Wt_j = s_j U_j
    for (int i = 0; i < n; ++i) y[i] += f * Wt(i, j);
  }
  for (int i = 0; i < h.N.rows; ++i)
    for (int j = 0; j < n; ++j) h.x[i] += h.N(i, j) * y[j];
  Mat U(n, static_cast<int>(kept.size()));
  for (std::size_t c = 0; c < kept.size(); ++c)
    for (int i = 0; i < n; ++i) U(i, static_cast<int>(c)) = Wt(i, kept[c]) / sigma[kept[c]];
  h.N = multiply(h.N, complement_basis(U));  // still orthonormal
}

// Runs the hierarchy; result[n] is the state after the levels up to n (result[1]: consistency).
std::vector<Hierarchy> isotropy_hierarchy(const std::vector<std::vector<Offset>>& pts,
                                          int max_level) {
  const int P = static_cast<int>(pts.size());
  const int nx = P + 1;
  Hierarchy h{std::vector<ld>(nx, 0.0L), Mat(nx, nx)};
  for (int j = 0; j < nx; ++j) h.N(j, j) = 1.0L;
  std::vector<Hierarchy> out(2);

  // Level 0: consistency, solved exactly (two independent rows as soon as P >= 1).
  Mat A0(2, nx);
  A0(0, 0) = 1;
  for (int p = 0; p < P; ++p) {
    A0(0, p + 1) = static_cast<ld>(pts[p].size());
    A0(1, p + 1) = shell_moment(pts[p], {1, 0, 0});
  }
  solve_level(A0, {0.0L, 2.0L}, h);
  out[1] = h;
  out[0] = h;

  // Levels n = 2..max_level: isotropy of the order-2n Taylor term.
  for (int n = 2; n <= max_level; ++n) {
    const std::vector<Triplet> betas = partitions3(n);
    const Triplet b0 = betas[0];
    const ld w0 = isotropy_weight(b0);
    Mat A(static_cast<int>(betas.size()) - 1, nx);
    for (std::size_t r = 1; r < betas.size(); ++r) {
      const int row = static_cast<int>(r) - 1;
      const ld wb = isotropy_weight(betas[r]);
      ld amax = 0;
      for (int p = 0; p < P; ++p) {
        const ld c = shell_moment(pts[p], betas[r]) * w0 - shell_moment(pts[p], b0) * wb;
        A(row, p + 1) = c;  // the centre has no moments of order >= 2
        amax = std::max(amax, std::fabs(c));
      }
      // Equilibrate rows: moments of high order grow like radius^(2n).
      if (amax > 0)
        for (int j = 0; j < nx; ++j) A(row, j) /= amax;
    }
    solve_level(A, std::vector<ld>(A.rows, 0.0L), h);
    out.push_back(h);
  }
  return out;
}

// Non-negative least squares, min |E u - f| subject to u >= 0 (Lawson & Hanson 1974, ch. 23).
std::vector<ld> nnls(const Mat& E, const std::vector<ld>& f) {
  const int m = E.rows, n = E.cols;
  ld emax = 0;
  for (ld e : E.v) emax = std::max(emax, std::fabs(e));
  const ld tol = 1e-15L * (emax + 1) * (n + 1);
  std::vector<ld> u(n, 0.0L);
  std::vector<char> passive(n, 0);
  auto ls_on_passive = [&]() {
    std::vector<int> cols;
    for (int j = 0; j < n; ++j)
      if (passive[j]) cols.push_back(j);
    Mat Ep(m, static_cast<int>(cols.size()));
    for (int i = 0; i < m; ++i)
      for (std::size_t c = 0; c < cols.size(); ++c) Ep(i, static_cast<int>(c)) = E(i, cols[c]);
    const std::vector<ld> zp = lstsq_qr(Ep, f);
    std::vector<ld> z(n, 0.0L);
    for (std::size_t c = 0; c < cols.size(); ++c) z[cols[c]] = zp[c];
    return z;
  };
  for (int outer = 0; outer < 3 * n + 10; ++outer) {
    // The most promising inactive variable (largest gradient of -|E u - f|^2 / 2) enters.
    std::vector<ld> res(f);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) res[i] -= E(i, j) * u[j];
    int t = -1;
    ld wmax = tol;
    for (int j = 0; j < n; ++j) {
      if (passive[j]) continue;
      ld w = 0;
      for (int i = 0; i < m; ++i) w += E(i, j) * res[i];
      if (w > wmax) {
        wmax = w;
        t = j;
      }
    }
    if (t < 0) break;  // Kuhn-Tucker conditions hold
    passive[t] = 1;
    for (int inner = 0; inner <= n; ++inner) {
      const std::vector<ld> z = ls_on_passive();
      ld alpha = 2;
      for (int j = 0; j < n; ++j)
        if (passive[j] && z[j] <= 0) alpha = std::min(alpha, u[j] / (u[j] - z[j]));
      if (alpha > 1) {  // the unconstrained step stays feasible
        u = z;
        break;
      }
      // Step to the boundary and release the variables that reached zero.
      for (int j = 0; j < n; ++j) {
        if (!passive[j]) continue;
        u[j] += alpha * (z[j] - u[j]);
        if (u[j] <= tol) {
          u[j] = 0;
          passive[j] = 0;
        }
      }
    }
  }
  return u;
}

// Least-distance programming, min |y| subject to G y >= h (Lawson & Hanson, ch. 23), reduced to
// NNLS. Returns false when the constraints are infeasible.
bool least_distance(const Mat& G, const std::vector<ld>& h, std::vector<ld>& y) {
  const int m = G.rows, n = G.cols;
  y.assign(n, 0.0L);
  if (n == 0) {
    for (ld hi : h)
      if (hi > 1e-15L) return false;
    return true;
  }
  Mat E(n + 1, m);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) E(j, i) = G(i, j);
    E(n, i) = h[i];
  }
  std::vector<ld> f(n + 1, 0.0L);
  f[n] = 1;
  const std::vector<ld> u = nnls(E, f);
  std::vector<ld> r(n + 1);
  for (int j = 0; j <= n; ++j) {
    ld s = -f[j];
    for (int i = 0; i < m; ++i) s += E(j, i) * u[i];
    r[j] = s;
  }
  if (std::fabs(r[n]) < 1e-12L) return false;  // |E u - f| = 0: no feasible y
  for (int j = 0; j < n; ++j) y[j] = -r[j] / r[n];
  return true;
}

double courant_of(const std::vector<Triplet>& shells, const std::vector<double>& a) {
  const Stencil s = assemble_from_shells(Family::box, "", shells, a);
  return max_stable_courant(s.offsets, s.weights);
}

}  // namespace

ShellWeights isotropic_shell_weights(const std::vector<Triplet>& shells) {
  const int P = static_cast<int>(shells.size());
  std::vector<std::vector<Offset>> pts(P);
  for (int p = 0; p < P; ++p) pts[p] = shell_points(shells[p]);
  const std::vector<Hierarchy> levels = isotropy_hierarchy(pts, max_isotropy_level);

  // 1. The isotropy hierarchy up to order 16, free directions left at their minimum norm.
  ShellWeights out;
  const std::vector<ld>& x = levels.back().x;
  out.a.assign(x.begin(), x.end());
  out.isotropy_order = 2 * max_isotropy_level;
  out.max_courant = courant_of(shells, out.a);
  if (out.max_courant > 0) return out;

  // 2. Fallback (see the file comment): minimum-norm weights with a_p >= 0, p >= 1, keeping as
  // many isotropy levels as that allows.
  out.positive_fallback = true;
  for (int n = max_isotropy_level; n >= 1; --n) {
    const Hierarchy& h = levels[n];
    Mat G(P, h.N.cols);
    std::vector<ld> rhs(P);
    for (int p = 0; p < P; ++p) {
      for (int j = 0; j < h.N.cols; ++j) G(p, j) = h.N(p + 1, j);
      rhs[p] = -h.x[p + 1];  // a_p = x_p + N_p y >= 0
    }
    std::vector<ld> y;
    if (!least_distance(G, rhs, y)) continue;
    std::vector<ld> xf = h.x;
    for (int i = 0; i <= P; ++i)
      for (int j = 0; j < h.N.cols; ++j) xf[i] += h.N(i, j) * y[j];
    // The active constraints come out as +-1e-15 instead of 0: make them exact zeros and restore
    // the zero row sum through the centre weight.
    ld amax = 0;
    for (ld v : xf) amax = std::max(amax, std::fabs(v));
    ld sum = 0;
    for (int p = 1; p <= P; ++p) {
      if (std::fabs(xf[p]) <= 1e-12L * amax) xf[p] = 0;
      sum += xf[p] * static_cast<ld>(pts[p - 1].size());
    }
    xf[0] = -sum;
    out.a.assign(xf.begin(), xf.end());
    out.isotropy_order = n >= 2 ? 2 * n : 2;
    out.max_courant = courant_of(shells, out.a);
    if (out.max_courant > 0) return out;
  }
  return out;  // max_courant == 0: the caller reports the failure
}

int detect_accuracy_order(const std::vector<Offset>& offsets, const std::vector<double>& weights,
                          int max_order) {
  // A consistent Laplacian (sum 0, first moments 0, second moments 2 I) has order p when every
  // moment of total degree 3..p+1 vanishes: the truncation error then starts at degree p + 2.
  long double scale = 0;
  int r = 1;
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    scale += std::fabs(static_cast<long double>(weights[k]));
    r = std::max({r, std::abs(offsets[k].x), std::abs(offsets[k].y), std::abs(offsets[k].z)});
  }
  int order = 2;
  for (int deg = 3; order < max_order; ++deg) {
    const long double tol = 1e-9L * scale * ipow(static_cast<ld>(r), deg);
    for (int i = 0; i <= deg; ++i)
      for (int j = 0; i + j <= deg; ++j) {
        const int l = deg - i - j;
        long double m = 0;
        for (std::size_t k = 0; k < offsets.size(); ++k)
          m += weights[k] * ipow(offsets[k].x, i) * ipow(offsets[k].y, j) * ipow(offsets[k].z, l);
        if (std::fabs(m) > tol) return order;
      }
    if (deg % 2 == 0) order = deg;  // degrees deg-1 and deg vanish: one more even order
  }
  return order;
}

}  // namespace wavefd::detail
