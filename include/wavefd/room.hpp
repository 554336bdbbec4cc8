#pragma once
// The room model (`wavefd room`): air in a box of cells, walls of materials, point sources and
// receivers; docs/room.md gives the formulation and its references. Plain C++ (no Kokkos).
//
// Cells are centred: cell i spans [i h, (i + 1) h), so a shoebox of L metres along an axis is
// n = L / h cells and its walls lie half a cell beyond the first and the last cell centres. The bulk
// update runs over every cell with zero ghosts (the variant of the portfolio, unchanged); the walls
// are a sparse pass over the cells whose stencil reaches beyond them (WallCell), which
//  - adds the terms the zero ghosts left out, read at their mirror images (the even reflection: the
//    normal derivative of the pressure vanishes at the wall, a sound-hard wall), and
//  - adds the wall's loss, g (u+ - u-) with g = lambda beta sigma / 2 (beta the wall's normalised
//    admittance, sigma the faces of the cell on walls), the finite-volume term of Bilbao et al.
// The even reflection keeps the operator symmetric with the eigenvalues of the bulk symbol at the
// cosine modes, so the bulk's Courant limit holds for every stencil family; the loss only removes
// energy (docs/room.md: the energy balance, checked in CTest to rounding).
#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "wavefd/point_spread.hpp"
#include "wavefd/stencil.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

// One series branch of a wall's admittance, normalised (rho c times the admittance): the branch's
// velocity i obeys mass di/dt + resistance i + stiffness integral(i) = p, so its admittance is
// 1 / (mass s + resistance + stiffness / s): a passive RLC branch for non-negative values (mass in
// s, resistance dimensionless, stiffness in 1/s).
struct WallBranch {
  double mass = 0, resistance = 0, stiffness = 0;
};

// A wall material, locally reactive: its normalised specific admittance beta = rho c / Z, the sum
// of a frequency-independent part (0: rigid, 1: matched at normal incidence) and of its branches
// (frequency dependent, e.g. fitted to octave-band absorption: fit_octave_absorption).
struct Material {
  std::string name;
  double admittance = 0;
  std::vector<WallBranch> branches;
  std::vector<double> octave_absorption;  // the targets the branches were fitted to (kOctaveBands), if any
  bool rigid() const { return admittance == 0 && branches.empty(); }
};

// beta(omega) of a material in continuous time, and as the scheme has it: the walls discretise each
// branch by the bilinear (trapezoidal) rule at the step dt, so the scheme's admittance at omega is the
// continuous one at (2 / dt) tan(omega dt / 2).
std::complex<double> material_admittance(const Material& m, double omega);
std::complex<double> scheme_admittance(const Material& m, double omega, double dt);

// beta from a normal-incidence absorption coefficient alpha (R = (1 - beta) / (1 + beta), alpha = 1 - R^2).
double admittance_from_normal_absorption(double alpha);
// Paris' random-incidence absorption of a real admittance beta: the integral of
// 1 - R(theta)^2 = 4 beta cos / (cos + beta)^2 against sin(2 theta) over [0, pi/2], in closed form.
double random_incidence_absorption(double beta);
// The same integral for a complex admittance (composite Simpson, 1e-10).
double random_incidence_absorption(std::complex<double> beta);
// beta from a random-incidence (Paris) absorption coefficient of a locally reactive real admittance,
// alpha = 8 beta (1 + beta / (1 + beta) - 2 beta ln(1 + 1 / beta)), solved by bisection on the branch
// beta <= 0.638 (where alpha peaks at 0.951); alpha in [0, 0.95].
double admittance_from_random_absorption(double alpha);
// The plane-wave reflection coefficient of admittance beta at incidence theta (radians from the normal):
// R = (cos(theta) - beta) / (cos(theta) + beta), i.e. (xi cos - 1) / (xi cos + 1) with xi = 1 / beta.
double reflection_coefficient(double admittance, double theta);
std::complex<double> reflection_coefficient(std::complex<double> admittance, double theta);

// Branches whose random-incidence absorption matches `alpha` (one per octave band of kOctaveBands,
// each in [0, 0.95]) at the band centres, for a grid of step dt: one resonant branch per octave
// band from 16 Hz to 16 kHz below the grid's Nyquist frequency (non-negative least squares on the
// real admittance, then corrected for the reactance the fit brings), the bilinear rule's frequency
// warping compensated. Passive by construction. Throws Error naming `key` for a bad target.
Material fit_octave_absorption(const std::string& name, const std::vector<double>& alpha, double dt,
                               const std::string& key);
// The frequency below which the fit places branches and matches bands: 0.8 of the grid's Nyquist
// frequency (Hz). Bands centred above it keep what the fitted branches give there.
double octave_fit_limit_hz(double dt);

// The six faces of a shoebox, in this order: x low, x high, y low, y high, z low, z high.
inline constexpr std::array<const char*, 6> kShoeboxFaces = {"x_low", "x_high", "y_low", "y_high", "z_low", "z_high"};

// A cell of the sparse wall pass: what its update adds to the bulk's (global cell indices).
struct WallCell {
  Index3 at{0, 0, 0};
  // The wall faces it touches: (material index, area in cell faces h^2).
  std::vector<std::pair<int, double>> faces;
  // Laplacian weights a_k (unit grid) times u at a cell: the terms the bulk's zero ghosts left out,
  // each at the mirror image of the ghost it stands for; equal images summed into one term.
  std::vector<std::pair<Index3, double>> terms;
  // The stencil's points (indices into its offsets) whose reads the bulk took as 0: what the terms
  // stand in for, in total.
  std::vector<int> left_out;
};

// The wall cells of a shoebox of n cells, for a stencil symmetric in each axis (every family; a
// custom stencil must be): the cells whose stencil reaches beyond a wall or that touch one, each
// face's material index being the face's (kShoeboxFaces order). Only cells inside `box` (global
// [lo, hi)) are listed, x fastest. Throws Error for a stencil that is not symmetric in each axis.
std::vector<WallCell> shoebox_wall_cells(const Stencil& s, const Index3& n, const Box& box);

struct RoomModel;

// The wall cells of a voxelized room (`m.air` set), for every stencil symmetric in each axis: the
// air cells inside `box` whose stencil reaches a cell that is not air, or that touch one. Each term
// is read at its even image inside the air, walking its offset along each axis in turn and turning
// back at the faces between air and outside (the composed Neumann closure: for the star stencils the
// even extension of every row of air cells), averaged over the orders of the axes, less the bulk's
// own read where that is air; the faces to the outside count as the wall's area, of the cell's
// material (m.boundary_material). A box inside the grid gets the shoebox's cells and terms. Throws
// Error for a stencil that is not symmetric in each axis.
std::vector<WallCell> voxel_wall_cells(const RoomModel& m, const Box& box);
// The largest fraction of the stencil's Courant limit (scheme.cfl) for a stencil with terms off the
// axes (compact, box) at voxel walls: their averaged walks keep the operator symmetric, but rough walls
// widen its spectrum beyond the bulk's, by up to 3.7 % in the rooms of CTest and a survey of random
// ones; 0.95 leaves thrice that. Stencils on the axes (star) keep the bulk's limit: a theorem.
inline constexpr double kVoxelWallsMaxCfl = 0.95;
bool on_the_axes(const Stencil& s);  // every offset on an axis: the star family (and compact R = 1, the 7-point)

// The outside cells inside `box` that an air cell's stencil reads: the bulk update writes them, the
// wall pass zeroes them again, so that the air's neighbours outside hold 0 as the shoebox's ghosts do.
std::vector<Index3> outside_shell(const RoomModel& m, const Box& box);
// Per column (x, y) of `box` (x fastest), the z range [lo, hi) of its air cells, relative to
// box.lo (lo = hi = 0 without air): all the bulk update needs (TwoStepArgs::z_spans), since every
// other cell holds 0 after each step (outside_shell) and reads only such cells.
std::vector<int> air_z_spans(const RoomModel& m, const Box& box);
// The air cells with a face neighbour outside the air (or beyond the grid), flat indices ascending:
// the cells that take a wall material.
std::vector<index_t> boundary_cells(const RoomModel& m);

// A room's air volume and wall surfaces, for the diffuse-field formulas (Sabine, Eyring): a
// shoebox's six faces, or a voxelized room's cell faces between air and outside per material, as
// corrected for the staircase (the walls absorb over these areas).
struct RoomSurfaces {
  double volume = 0;                      // m^3
  std::vector<const Material*> material;  // per surface
  std::vector<double> area;               // m^2
  double staircase_area = 0;              // m^2, the cell faces before the correction
};
RoomSurfaces room_surfaces(const RoomModel& m);

// Source signals, sampled at the grid's rate: value n is what step n adds (soft) or sets (hard).
//  impulse: a discrete impulse at step 0, differentiated (1, -1): no net volume, so a closed room
//           keeps no growing offset in its constant mode;
//  hann:    a Hann pulse of `duration` seconds, differentiated the same way (`differentiate`);
//  samples: given values (a WAV file's, resampled to the grid's rate by the caller).
std::vector<double> impulse_signal(long steps);
std::vector<double> hann_signal(double duration, double dt, long steps, bool differentiate);

struct RoomSource {
  std::array<double, 3> position{};  // grid units of the cell centres (metres / h - 1/2)
  std::vector<double> signal;        // per step (shorter: zero after), times the amplitude
  bool hard = false;                 // sets the nearest cell's value instead of adding (spreading)
  std::string describe;              // e.g. "impulse", "hann 2 ms"
};

// A room on its grid, in grid units (RoomSource's positions: cell centres): a shoebox of n cells,
// or the air cells of a voxelized mesh inside them.
struct RoomModel {
  Index3 n{0, 0, 0};                  // cells per axis
  double h = 0;                       // cell size (m)
  double speed = 343;                 // speed of sound (m/s)
  double courant = 0;                 // lambda = speed dt / h
  double dt = 0;                      // s
  long steps = 0;
  Stencil stencil;
  std::array<Material, 6> walls{};    // per face (kShoeboxFaces): a shoebox's
  // A room from a mesh: per cell (x fastest) 1 where it is air (empty: a shoebox), the materials of
  // its walls, and per boundary air cell (ascending) its material and its faces' area correction.
  std::vector<std::uint8_t> air;
  std::vector<Material> materials;
  struct BoundaryCell {
    index_t flat = 0;       // i + n_x (j + n_y k)
    int material = 0;       // index into `materials`
    double area_scale = 1;  // the staircase's correction (room_mesh.hpp: nearest_surfaces)
  };
  std::vector<BoundaryCell> boundary_material;
  double mesh_area = 0;  // m^2, the mesh's triangles
  std::string mesh_file;  // the mesh the cells came from (directly or through a voxel file)
  std::array<double, 3> origin{};            // metres of the grid's corner (a mesh's lower corner)
  std::vector<std::string> mesh_materials;   // the mesh's material names, parallel to `materials`
  std::size_t mesh_triangles = 0;
  bool mesh_closed = false;
  std::vector<RoomSource> sources;
  std::vector<std::array<double, 3>> receivers;  // grid units of the cell centres
  Spreading spreading = Spreading::trilinear;     // of the soft sources and the receivers
};

// The weights of a soft source or a receiver at `position` (grid units of the cell centres): Error
// naming `key` outside the cell centres, or where sinc spreading would reach beyond the walls (its
// 8 points per axis need 3 cells to the low wall and 4 to the high one), since no air is there.
std::vector<GridWeight> room_point_weights(const std::array<double, 3>& position, Spreading s, const Index3& n,
                                           const std::string& key);
// Checks a model's stencil, sources and receivers (each Error names the deck key).
void check_room_model(const RoomModel& m);

// Grid units of the cell centres from metres (x / h - 1/2), snapped to a centre within 1e-9.
std::array<double, 3> room_grid_position(const std::array<double, 3>& metres, double h);

}  // namespace wavefd
