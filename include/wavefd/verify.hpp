#pragma once
// Verification against exact discrete eigenmodes of the two-step scheme (shared by CTest,
// `wavefd verify` and `wavefd bench`, which refuses to time a variant that fails it).
//
// Periodic: with wave vector k (k_d = 2 pi m_d / N_d), u0 = cos(k.x) and u1 = cos(theta) u0 where
// 2 cos(theta) = mu(k) = sum_l gamma_l cos(k.l); after n steps u = cos((n+1) theta) cos(k.x).
// Rigid: u0 = prod_d sin(k_d (x_d + 1)) with k_d = pi m_d / (N_d + 1) and the same mu; exact under
// the odd-reflection ghost fill for stencils symmetric in each axis. mu uses the weights as
// stored (rounded to the working precision), so only rounding (of the arithmetic, and of each
// stored value where the fields are stored in 16 bits) separates the computed field from the exact
// one; docs/verification.md derives the tolerance.
#include <string>
#include <vector>

#include "wavefd/halo.hpp"
#include "wavefd/two_step.hpp"
#include "wavefd/variant.hpp"

namespace wavefd {

struct EigenmodeSpec {
  Index3 n{20, 17, 13};       // global grid (non-cubic on purpose: catches swapped strides)
  bool pad_rows = true;
  Boundary boundary = Boundary::periodic;
  int steps = 12;
  double courant_fraction = 0.9;  // lambda as a fraction of the stencil's stable limit
  Index3 mode{0, 0, 0};           // wave numbers m_d; 0 picks distinct ones near N_d/3, N_d/4, N_d/5
  // The exact solution is built for lambda * reference_scale. 1 for verification; the test suite
  // sets it slightly off 1 to prove that a scheme with wrong weights fails the check.
  double reference_scale = 1.0;
  Tile tile{};  // the variant's block extents (default: its own)
  // Split over the ranks of this run (rank grid, rank, transport, overlap); the error is the
  // maximum over all ranks (collective then: every rank must call verify_eigenmode).
  ParallelSpec parallel{};
};

struct EigenmodeResult {
  double max_error = 0;
  double tolerance = 0;
  double mu = 0, theta = 0;
  Index3 mode{0, 0, 0};
  bool passed() const { return max_error <= tolerance; }  // false for NaN
};

EigenmodeResult verify_eigenmode(const Stencil& s, const Variant& v, Precision p,
                                 const EigenmodeSpec& spec);

// Tolerance for n steps with two-step weights gamma, computed in a precision of epsilon eps and
// stored in one of epsilon eps_stored (the same, or coarser: the 16-bit formats computed in float;
// see docs/verification.md).
double eigenmode_tolerance(double eps, const std::vector<double>& gamma, int steps);
double eigenmode_tolerance(double eps, double eps_stored, const std::vector<double>& gamma, int steps);

// The stencils every variant is verified on: star M = 1..8, compact R in {1,2,3,5,8,13},
// box q in {(1,1,1),(2,2,2)}. `quick` keeps one or two of each family.
std::vector<Stencil> verification_stencils(bool quick);

// The grid configurations each (stencil, precision, variant) cell is verified on: two small
// non-cubic periodic grids (padding on and off), a rigid-boundary sine mode, and a larger periodic
// grid (136 x 35 x 70) that spans several GPU tiles, partial ones and several z chunks.
std::vector<EigenmodeSpec> verification_specs();

}  // namespace wavefd
