// `wavefd room DECK.toml [--section.key value ...]`: a room's impulse responses (docs/room.md), on
// any rank grid, with progress in simulated time, the responses as raw float32 + JSON, and a JSON
// summary (timing, the walls' share of the cells, provenance).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "io/progress.hpp"
#include "io/summary.hpp"
#include "room/wall_pass.hpp"
#include "wavefd/air_absorption.hpp"
#include "wavefd/audio_file.hpp"
#include "wavefd/measure.hpp"
#include "wavefd/memory_budget.hpp"
#include "wavefd/output_file.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/room_deck.hpp"
#include "wavefd/room_metrics.hpp"
#include "wavefd/room_step.hpp"
#include "wavefd/trace_file.hpp"
#include "wavefd/voxel_file.hpp"

namespace wavefd::app {

RoomCommand::RoomCommand(CLI::App& app) {
  sub = app.add_subcommand("room",
                           "Impulse responses of a room (shoebox, walls of materials, sources, receivers) on a deck; "
                           "--section.key value overrides a deck key (docs/room.md)");
  sub->add_option("deck", deck, "Room deck (TOML)")->required()->check(CLI::ExistingFile);
}

namespace {

struct RoomOutcome {
  double seconds = 0;
  long steps = 0;
  bool finite = true;
  double max_abs = 0;
  double scale = 1;  // what the stored fields hold per unit (RoomStep::scale)
  std::vector<std::vector<double>> responses;  // rank 0: summed over ranks
  double wall_cells = 0, wall_terms = 0, wall_bytes = 0, wall_branch_states = 0;  // over all ranks
};

template <class T>
RoomOutcome run_room(const RoomModel& m, const ParallelSpec& par, const Variant& v, const Tile& tile,
                     long check_interval, Progress& progress) {
  RoomStep<T> room(m, par, v, tile);
  const Layout l = room.engine().layout();
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<index_t>>;
  // max |u| on this rank; NaN/Inf give infinity.
  auto largest = [&] {
    const auto u = room.engine().u().data;
    double most = 0;
    Kokkos::parallel_reduce("wavefd::room_largest", Policy({0, 0, 0}, {l.n[0], l.n[1], l.n[2]}),
        KOKKOS_LAMBDA(index_t i, index_t j, index_t k, double& a) {
          const double x = double(widen(u(l.at(i, j, k))));
          a = Kokkos::max(a, x == x && Kokkos::abs(x) <= 1e300 ? Kokkos::abs(x) : 1e308);
        }, Kokkos::Max<double>(most));
    return most;
  };
  RoomOutcome r;
  Kokkos::fence("wavefd::room_setup");
  wait_for_every_rank();  // the ranks start stepping, and their timers, together
  Kokkos::Timer timer;
  double paused = 0;
  while (r.steps < m.steps) {
    room.step();
    ++r.steps;
    if (progress.due(timer.seconds())) {
      Kokkos::fence("wavefd::progress");
      progress.report(r.steps, timer.seconds());
    }
    if (r.steps % check_interval == 0 && r.steps < m.steps) {
      Kokkos::fence("wavefd::check");
      Kokkos::Timer check;
      const bool finite = max_over_ranks(largest()) < 1e300;
      paused += check.seconds();
      if (!finite) break;
    }
  }
  Kokkos::fence("wavefd::room");
  r.seconds = timer.seconds() - paused;
  progress.finish(r.steps, r.seconds);
  r.max_abs = max_over_ranks(largest()) / room.scale();
  r.scale = room.scale();
  r.finite = r.max_abs < 1e300;
  r.responses = room.partial_responses();
  std::vector<double> flat;
  for (const auto& trace : r.responses) flat.insert(flat.end(), trace.begin(), trace.end());
  flat = sum_onto_root(flat);
  for (std::size_t q = 0; auto& trace : r.responses)
    for (double& s : trace) s = flat[q++];
  r.wall_cells = sum_over_ranks(double(room.walls().cells()));
  r.wall_terms = sum_over_ranks(double(room.walls().terms()));
  r.wall_bytes = sum_over_ranks(room.walls().bytes());
  r.wall_branch_states = sum_over_ranks(double(room.walls().branch_states()));
  return r;
}

// receivers.wav: one WAV per receiver, resampled to receivers.wav_rate (or at the grid's rate, rounded).
void write_wavs(const RoomDeck& d, const RoomModel& m, const std::vector<std::vector<double>>& responses,
                RunOutputs& written) {
  if constexpr (audio_support) {
    const int rate = d.wav_rate > 0 ? int(d.wav_rate) : int(std::lround(1 / m.dt));
    for (std::size_t i = 0; i < responses.size(); ++i) {
      std::vector<float> samples(responses[i].begin(), responses[i].end());
      if (d.wav_rate > 0) samples = resample(samples, 1 / m.dt, double(rate));
      write_wav(written.staged(wav_path(d.wav, i), "receivers.wav"), samples, rate, "receivers.wav");
    }
    std::printf("wavefd room: responses written to %s as WAV, float32 at %d Hz%s\n",
                printable(wav_path(d.wav, 0) + (responses.size() > 1 ? " .. " + wav_path(d.wav, responses.size() - 1) : "")).c_str(),
                rate, d.wav_rate > 0 ? " (resampled by libsoxr)" : " (the grid's rate, rounded)");
  }
}

// The random-incidence absorption the scheme gives each surface at f Hz (0: broadband, where only a
// frequency-independent material has one; NaN otherwise).
std::vector<double> surface_absorption(const RoomModel& m, const RoomSurfaces& s, double f) {
  std::vector<double> alpha;
  for (const Material* w : s.material)
    alpha.push_back(f > 0                 ? random_incidence_absorption(scheme_admittance(*w, 2 * M_PI * f, m.dt))
                    : w->branches.empty() ? random_incidence_absorption(w->admittance)
                                          : NAN);
  return alpha;
}

// The summary's walls: each distinct material, with its fitted branches and the absorption the
// scheme gives it per octave band beside the deck's target.
nlohmann::json materials_json(const RoomModel& m) {
  nlohmann::json out = nlohmann::json::array();
  std::vector<const Material*> all;
  if (m.air.empty())
    for (const Material& w : m.walls) all.push_back(&w);
  else
    for (const Material& w : m.materials) all.push_back(&w);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Material& w = *all[i];
    bool seen = false;
    for (std::size_t g = 0; g < i; ++g) seen = seen || all[g]->name == w.name;
    if (seen) continue;
    nlohmann::json branches = nlohmann::json::array(), achieved = nlohmann::json::array();
    for (const WallBranch& b : w.branches) branches.push_back({b.mass, b.resistance, b.stiffness});
    for (double f : kOctaveBands)
      achieved.push_back(random_incidence_absorption(scheme_admittance(w, 2 * M_PI * f, m.dt)));
    nlohmann::json j = {{"name", w.name}, {"admittance", w.admittance}, {"octave_absorption", achieved}};
    if (!w.branches.empty()) {
      j["branches"] = branches;
      j["branches_note"] = "[mass (s), resistance, stiffness (1/s)]: beta(s) = sum 1 / (mass s + resistance + stiffness / s)";
      j["octave_absorption_target"] = w.octave_absorption;
      j["fitted_below_hz"] = octave_fit_limit_hz(m.dt);
    }
    out.push_back(j);
  }
  return out;
}

// Each face's material name (kShoeboxFaces order), or each mesh material's.
nlohmann::json walls_json(const RoomModel& m) {
  nlohmann::json j;
  if (m.air.empty())
    for (std::size_t f = 0; f < 6; ++f) j[kShoeboxFaces[f]] = m.walls[f].name;
  else
    for (std::size_t i = 0; i < m.materials.size(); ++i) j[m.mesh_materials[i]] = m.materials[i].name;
  return j;
}

// "name (admittance 0.1)" or "name (9 branches)".
std::string material_line(const Material& w) {
  return w.name + (w.branches.empty() ? " (admittance " + format_number(w.admittance) + ")"
                                      : " (" + std::to_string(w.branches.size()) + " branches)");
}

// The summary's acoustics: Sabine's and Eyring's reverberation times of the room (broadband where
// every wall is frequency independent, and per band), and per receiver the ISO 3382 parameters
// broadband and in the octave bands whose upper edge lies below a quarter of the grid's rate (above
// it the scheme's dispersion dominates).
nlohmann::json acoustics(const RoomModel& m, const std::vector<std::vector<double>>& responses) {
  const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  const RoomSurfaces surfaces = room_surfaces(m);
  const Reverberation r = reverberation(surfaces.volume, surfaces.area, surface_absorption(m, surfaces, 0), m.speed);
  nlohmann::json j = {{"sabine_s", number(r.sabine)}, {"eyring_s", number(r.eyring)},
                      {"mean_random_absorption", number(r.mean_absorption)}};
  const double rate = 1 / m.dt;
  std::vector<double> bands{0};
  for (double c : kOctaveBands)
    if (c * std::sqrt(2.0) < rate / 4) bands.push_back(c);
  j["bands_hz"] = bands;
  j["bands_note"] = "0 = broadband; octave bands up to an upper edge of a quarter of the grid's rate";
  nlohmann::json sabine = nlohmann::json::array(), eyring = nlohmann::json::array();
  for (double c : bands) {
    const Reverberation band = reverberation(surfaces.volume, surfaces.area, surface_absorption(m, surfaces, c), m.speed);
    sabine.push_back(number(band.sabine));
    eyring.push_back(number(band.eyring));
  }
  j["sabine_band_s"] = sabine;
  j["eyring_band_s"] = eyring;
  nlohmann::json receivers = nlohmann::json::array();
  for (const auto& h : responses) {
    nlohmann::json per{{"T20_s", nlohmann::json::array()}, {"T30_s", nlohmann::json::array()},
                       {"EDT_s", nlohmann::json::array()}, {"C50_dB", nlohmann::json::array()},
                       {"C80_dB", nlohmann::json::array()}, {"D50", nlohmann::json::array()}};
    const auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    for (double c : bands) {
      const DecayParameters p = decay_parameters(h, rate, c);
      per["T20_s"].push_back(optional(p.t20));
      per["T30_s"].push_back(optional(p.t30));
      per["EDT_s"].push_back(optional(p.edt));
      per["C50_dB"].push_back(number(p.c50));
      per["C80_dB"].push_back(number(p.c80));
      per["D50"].push_back(number(p.d50));
    }
    receivers.push_back(per);
  }
  j["receivers"] = receivers;
  return j;
}

}  // namespace

int RoomCommand::execute() {
  const int ranks = world_size(), rank = world_rank();
  const bool root = rank == 0;
  RoomDeck d;
  agree([&] { d = read_room_deck(deck, overrides); });
  const Precision precision = parse_precision(d.precision);
  if (precision == Precision::bf16)  // measured, docs/room.md "Fields in 16 bits"
    throw Error("scheme.precision = 'bfloat16' misses a room's 1 % tolerance (a small shoebox's responses 5 % off double's "
                "after 600 steps, and unstable with star M = 4); accepted: float, double, half");
  RoomModel m;
  ParallelSpec par;
  const Variant* variant = nullptr;
  Tile tile;
  agree([&] {
    StencilConfig sc;
    sc.family = d.family, sc.M = d.M, sc.R = d.R, sc.q = {int(d.q[0]), int(d.q[1]), int(d.q[2])};
    m = make_room_model(d, build_stencil(sc));
    check_room_model(m);
    check_grid_extents(m.n, m.stencil.radius, "room.size / grid.spacing");
    const Index3 requested{d.ranks[0], d.ranks[1], d.ranks[2]};
    par.rank_grid = choose_rank_grid(ranks, m.n, requested, m.stencil.radius);
    par.rank = rank;
    par.transport = choose_transport(d.transport, ranks, d.gpu_aware, true, &par.transport_choice);
    par.overlap = resolve_overlap(d.overlap, par.transport, ranks, "parallel.overlap");
    variant = d.variant == "auto" ? preferred_variant(m.stencil, precision, false)
                                  : &select_variant(d.variant, m.stencil, precision);
    if (d.air_absorption && !audio_support)
      throw Error("receivers.air_absorption needs libsndfile, libsoxr and kissfft, which this build lacks; accepted: "
                  "false, or a build with them (Debian: libsndfile1-dev, libsoxr-dev, libkissfft-dev)");
    if (!d.wav.empty() && !audio_support)
      throw Error("receivers.wav needs libsndfile and libsoxr, which this build lacks; accepted: receivers.file (raw "
                  "float32 + JSON), or a build with both (Debian: libsndfile1-dev, libsoxr-dev)");
    tile = parse_tile(d.tile, "scheme.tile");
    variant->check_tile(tile, "scheme.tile");
    if (root) {
      PathPlan paths;
      paths.input("deck", d.path);
      if (!d.voxels.empty()) paths.input("room.voxels", d.voxels);
      paths.output("output.voxels", d.voxels_out);
      paths.output("output.summary", d.summary);
      if (!m.receivers.empty()) paths.output("receivers.file", d.responses, true);
      if (!m.receivers.empty()) paths.output_series("receivers.wav", d.wav, ".wav", d.wav.empty() ? "" : wav_path(d.wav, 0));
      paths.check();
    }
  });
  if (!d.voxels_out.empty()) {  // write the mesh's cells, and stop
    agree([&] {
      if (root) write_voxel_file(d.voxels_out, "output.voxels", m, d.mesh);
    });
    if (root) {
      std::printf("wavefd room: output.voxels = %s: the %.0f cells of %s at %g m (%zu boundary cells); no run\n",
                  printable(d.voxels_out).c_str(),
                  double(m.n[0]) * double(m.n[1]) * double(m.n[2]), printable(d.mesh).c_str(), m.h,
                  m.boundary_material.size());
    }
    return 0;
  }
  agree([&] {
    const Decomposition split(m.n, par.rank_grid, ranks, false, m.stencil.radius);
    const Index3 local = split.subdomain(rank).local;
    const int bytes = bytes_of(precision);
    const Layout l = make_layout(local, m.stencil.radius, true, bytes);
    check_memory(2.0 * double(l.alloc) * bytes,
                 "room.size / grid.spacing = " + to_string(m.n) + " cells over " + std::to_string(ranks) +
                     (ranks == 1 ? " rank" : " ranks"),
                 "u and u- of " + to_string(local) + " cells");
  });
  agree([&] {
    if (par.transport == Transport::nccl) check_one_rank_per_device("parallel.transport = 'nccl'");
  });
  const double cells = double(m.n[0]) * double(m.n[1]) * double(m.n[2]);
  if (root) {
    std::string walls;
    if (m.air.empty()) {
      for (std::size_t f = 0; f < 6; ++f) walls += std::string(f ? ", " : "") + kShoeboxFaces[f] + " " + material_line(m.walls[f]);
      std::printf("wavefd room: shoebox %g x %g x %g m, %lld x %lld x %lld cells of %g m, %s, %s; dt %.6g s "
                  "(%.6g Hz), %ld steps (%.4g s)\n",
                  d.size[0], d.size[1], d.size[2], (long long)m.n[0], (long long)m.n[1], (long long)m.n[2], m.h,
                  m.stencil.name.c_str(), d.precision.c_str(), m.dt, 1 / m.dt, m.steps, m.dt * double(m.steps));
    } else {
      for (std::size_t i = 0; i < m.materials.size(); ++i)
        walls += std::string(i ? ", " : "") + "'" + m.mesh_materials[i] + "' " + material_line(m.materials[i]);
      const double air = double(std::count(m.air.begin(), m.air.end(), 1));
      const RoomSurfaces surfaces = room_surfaces(m);
      double walls_area = 0;
      for (double a : surfaces.area) walls_area += a;
      std::printf("wavefd room: mesh %s (%zu triangles, %s, %.4g m^2), %.0f air cells (%.4g m^3) of %lld x %lld x %lld "
                  "cells of %g m, walls %.4g m^2 (staircase %.4g m^2%s), %s, %s; dt %.6g s (%.6g Hz), %ld steps (%.4g s)\n",
                  printable(m.mesh_file + (d.voxels.empty() ? "" : " (voxels " + d.voxels + ")")).c_str(), m.mesh_triangles, m.mesh_closed ? "closed" : "not closed: voxelized by majority",
                  m.mesh_area, air, air * m.h * m.h * m.h, (long long)m.n[0], (long long)m.n[1], (long long)m.n[2], m.h,
                  walls_area, surfaces.staircase_area, d.staircase_correction ? ", corrected" : ", uncorrected",
                  m.stencil.name.c_str(), d.precision.c_str(), m.dt, 1 / m.dt, m.steps, m.dt * double(m.steps));
    }
    std::printf("wavefd room: walls %s; %zu source(s), %zu receiver(s)\n", walls.c_str(),
                m.sources.size(), m.receivers.size());
    std::printf("wavefd room: bulk by %s (tile %s) on %s; %d rank(s) as %s, transport %s (%s)\n",
                variant->name().c_str(), to_string(tile).c_str(), execution_line().c_str(), ranks,
                to_string(par.rank_grid).c_str(), std::string(to_string(par.transport)).c_str(),
                par.transport_choice.c_str());
    std::fflush(stdout);
  }
  Progress progress(root ? Progress::parse(d.progress) : Progress::Mode::none, m.steps, cells, d.status_interval);
  progress.set_time_step(m.dt);
  RunOutputs written;  // the responses: removed unless the run finishes
  const RoomOutcome r = with_precision(precision, [&](auto type) {
    return run_room<typename decltype(type)::type>(m, par, *variant, tile, d.check_interval, progress);
  });
  const double seconds = max_over_ranks(r.seconds);
  const double updates = cells * double(r.steps);
  agree([&] {
    if (!root) return;
    std::printf("wavefd room: %.3f s for %ld steps, %.3f G cells/s; %.0f wall cells (%.2f%% of the cells, %.2f terms "
                "each, %.0f branch states, %.1f MB); max |u| %.6g%s\n",
                seconds, r.steps, updates / seconds / 1e9, r.wall_cells, 100 * r.wall_cells / cells,
                r.wall_cells > 0 ? r.wall_terms / r.wall_cells : 0.0, r.wall_branch_states, r.wall_bytes / 1e6, r.max_abs,
                r.finite ? "" : " (NOT FINITE)");
    if (r.scale != 1)
      std::printf("wavefd room: %s fields hold the sound pressure times 2^%d (from the sources; undone at the "
                  "receivers), rounded to nearest\n", d.precision.c_str(), std::ilogb(r.scale));
    std::vector<std::vector<double>> responses = r.responses;  // air absorption, when asked, applies to every output
    if constexpr (audio_support) {
      if (d.air_absorption && r.finite) {
        for (auto& h : responses) h = apply_air_absorption(h, 1 / m.dt, m.speed, {d.air_temperature, d.air_humidity});
        std::printf("wavefd room: air absorption applied to the responses (ISO 9613-1, %g degrees C, %g %% humidity)\n",
                    d.air_temperature, d.air_humidity);
      }
    }
    if (!d.responses.empty() && !responses.empty() && r.finite) {
      Traces t;
      t.interval = m.dt;
      for (const auto& p : d.receivers) t.positions.push_back(p);
      for (const auto& s : d.sources) t.sources.push_back(s.position);
      for (const auto& trace : responses)
        for (double s : trace) t.samples.push_back(float(s));
      write_raw_traces(written.staged(d.responses, "receivers.file"), t, "receivers.file");
      std::printf("wavefd room: responses written to %s as raw float32 (%zu receivers x %ld samples at %.6g Hz)\n",
                  printable(d.responses).c_str(), responses.size(), r.steps, 1 / m.dt);
    }
    if (!d.wav.empty() && !responses.empty() && r.finite) write_wavs(d, m, responses, written);
    if (!d.summary.empty()) {
      nlohmann::json j;
      j["wavefd_version"] = WAVEFD_VERSION;
      j["deck"] = d.path;
      nlohmann::json sources = nlohmann::json::array();
      for (std::size_t i = 0; i < m.sources.size(); ++i)
        sources.push_back({{"position", d.sources[i].position}, {"signal", m.sources[i].describe},
                           {"hard", m.sources[i].hard}});
      j["model"] = {{"shoebox", m.air.empty() ? nlohmann::json(d.size) : nlohmann::json(nullptr)},
                    {"mesh", m.air.empty() ? nlohmann::json(nullptr)
                                           : nlohmann::json{{"file", m.mesh_file}, {"voxels", d.voxels},
                                                            {"triangles", m.mesh_triangles},
                                                            {"closed", m.mesh_closed}, {"origin", m.origin},
                                                            {"area_m2", m.mesh_area},
                                                            {"staircase_area_m2", room_surfaces(m).staircase_area},
                                                            {"staircase_correction", d.staircase_correction},
                                                            {"air_cells", std::count(m.air.begin(), m.air.end(), 1)}}},
                    {"cells", m.n}, {"spacing", m.h}, {"speed", m.speed}, {"dt", m.dt},
                    {"rate_hz", 1 / m.dt}, {"steps", m.steps}, {"stencil", m.stencil.name}, {"courant", m.courant},
                    {"precision", d.precision}, {"walls", walls_json(m)}, {"materials", materials_json(m)}, {"sources", sources},
                    {"receivers", d.receivers}, {"spreading", to_string(m.spreading)},
                    {"air_absorption", d.air_absorption ? nlohmann::json{{"standard", "ISO 9613-1"},
                                                                          {"temperature_c", d.air_temperature},
                                                                          {"humidity_percent", d.air_humidity},
                                                                          {"pressure_kpa", 101.325}}
                                                        : nlohmann::json(nullptr)}};
      j["work"] = {{"bulk_variant", variant->name()}, {"tile", to_string(tile)},
                   {"wall_cells", r.wall_cells}, {"wall_terms", r.wall_terms}, {"wall_bytes", r.wall_bytes},
                   {"wall_branch_states", r.wall_branch_states},
                   {"wall_share", r.wall_cells / cells}};
      j["parallel"] = {{"ranks", par.rank_grid}, {"transport", to_string(par.transport)},
                       {"transport_choice", par.transport_choice}, {"overlap", par.overlap}};
      j["provenance"] = provenance_json(Distribution{par.rank_grid, std::string(to_string(par.transport))});
      j["kokkos"] = execution_json();
      j["timing"] = {{"seconds", seconds}, {"steps", r.steps}, {"gcells_per_s", updates / seconds / 1e9}};
      j["result"] = {{"max_abs_u", r.finite ? r.max_abs : -1.0}, {"finite", r.finite}, {"steps_done", r.steps},
                     {"field_scale", r.scale}};
      if (r.finite) j["acoustics"] = acoustics(m, responses);
      write_json_file(d.summary, j, "output.summary");
      if (r.finite && !j["acoustics"]["receivers"].empty()) {
        const nlohmann::json& a = j["acoustics"];
        const nlohmann::json& first = a["receivers"][0];
        const auto shown = [](const nlohmann::json& v) { return v.is_null() ? std::string("n/a") : format_number(v.get<double>()); };
        std::printf("wavefd room: Sabine %s s, Eyring %s s; receiver 0, broadband: T20 %s s, T30 %s s, EDT %s s, "
                    "C80 %s dB, D50 %s\n",
                    shown(a["sabine_s"]).c_str(), shown(a["eyring_s"]).c_str(), shown(first["T20_s"][0]).c_str(),
                    shown(first["T30_s"][0]).c_str(), shown(first["EDT_s"][0]).c_str(), shown(first["C80_dB"][0]).c_str(),
                    shown(first["D50"][0]).c_str());
        std::string bands, sabine, eyring, t30;
        for (std::size_t b = 1; b < a["bands_hz"].size(); ++b) {
          bands += (b > 1 ? " " : "") + format_number(a["bands_hz"][b].get<double>());
          sabine += (b > 1 ? " " : "") + shown(a["sabine_band_s"][b]);
          eyring += (b > 1 ? " " : "") + shown(a["eyring_band_s"][b]);
          t30 += (b > 1 ? " " : "") + shown(first["T30_s"][b]);
        }
        if (!bands.empty())
          std::printf("wavefd room: octave bands %s Hz: Sabine %s s; Eyring %s s; receiver 0, T30 %s s\n", bands.c_str(),
                      sabine.c_str(), eyring.c_str(), t30.c_str());
      }
      std::printf("wavefd room: summary written to %s\n", printable(d.summary).c_str());
    }
  });
  if (!r.finite)
    throw AgreedError(!root ? "" : "the solution is not finite (NaN or Inf) after " + std::to_string(r.steps) + " steps");
  agree([&] { written.keep(); });
  return 0;
}

}  // namespace wavefd::app
