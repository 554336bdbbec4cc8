#pragma once
// Verifying, then timing, one kernel variant and tile on a grid: shared by `wavefd bench` and
// `wavefd tune`, which time nothing that fails the check.
#include <array>
#include <string>
#include <vector>

#include "wavefd/measure.hpp"
#include "wavefd/two_step.hpp"
#include "wavefd/variant.hpp"
#include "wavefd/verify.hpp"

namespace wavefd {

// Seconds per step of each part.
struct StepParts {
  Stats step;    // the full step (halo + update, what `run` does): the headline
  Stats kernel;  // the interior update (the variant alone)
  // The parts of an overlapped step, each alone: the halo (start + finish), the core update and
  // the shell update (the slabs that wait for the late ghosts).
  Stats halo, core, shell;
};

struct VariantTiming {
  // Each repetition's time on the slowest rank (a step is as slow as its slowest rank); the same
  // on every rank. On one rank, its own.
  StepParts slowest;
  StepParts this_rank;  // this rank's own times, for the spread over ranks
  // This rank's host seconds per step in each halo phase of the full step, in the repetition whose
  // slowest rank was fastest (the headline's).
  HaloTimes phases;
  bool ghosts_by_kernel = false;  // the full step's kernel wrote the ghosts (GhostFillMode::kernel)
  bool packs_by_kernel = false;   // the full step's kernel packed the faces (ParallelSpec::pack)
  // This rank's mean offset of each StepTimeline mark from its step's start, in seconds, over
  // `steps` steps run after the timed ones (negative: a mark the step does not have).
  std::array<double, StepTimeline::marks> timeline{};
};

// The exact-eigenmode check on this device, on every verification grid (verification_specs(),
// each extent at least the stencil radius, on this rank alone) and on the timed grid `timed`,
// split as `par` splits it (collective when that is over several ranks), with this tile; returns
// the worst grid's result.
EigenmodeResult verify_before_timing(const Stencil& s, const Variant& v, const Tile& tile, Precision p,
                                     const Index3& timed, const ParallelSpec& par = {});

// `warmup` + `reps` repetitions of `steps` steps on an n[0] x n[1] x n[2] periodic grid at 0.9 of
// the stable Courant number, with smooth non-zero data (values do not change the timing). The
// grid is split as `par` says (rank grid, this rank, transport, overlap); every rank of the split
// must call it (collective).
VariantTiming time_variant(const Stencil& s, const Variant& v, const Tile& tile, Precision p, const Index3& n,
                           int steps, int warmup, int reps, const ParallelSpec& par = {});

// The tiles to time per variant, from an option (`what`, e.g. "--tiles"): "default", "all" (the
// default tile, then the variant's candidates), or a comma-separated list of tiles, "default"
// among them, for the variants with tunable tiles (the others are timed at their default).
class TileSelection {
 public:
  TileSelection(const std::string& text, const std::string& what);  // throws Error for a bad tile
  // Throws Error for a listed tile that `v` (with tunable tiles) does not accept.
  std::vector<Tile> for_variant(const Variant& v, const Stencil& s, Precision p) const;

 private:
  std::string what_;
  bool all_ = false;
  std::vector<Tile> list_;
};

}  // namespace wavefd
