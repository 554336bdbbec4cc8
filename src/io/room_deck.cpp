// Room decks: the schema, the whole-deck checks and the RoomModel a deck describes
// (include/wavefd/room_deck.hpp; docs/room.md lists the keys).
#include "wavefd/room_deck.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "deck_schema.hpp"
#include "wavefd/audio_file.hpp"
#include "wavefd/room_mesh.hpp"
#include "wavefd/room_metrics.hpp"
#include "wavefd/voxel_file.hpp"

namespace wavefd {
namespace {

using deck::above;
using deck::any_finite;
using deck::as_array;
using deck::as_number;
using deck::as_string;
using deck::at_least;
using deck::between;
using deck::Bounds;
using deck::check_range;
using deck::Exclusive;
using deck::integers;

// Receivers a deck may place: their responses must fit in memory long before this.
constexpr std::size_t kMaxReceivers = 100'000;

struct Reading {
  RoomDeck deck;
  const std::string& path() const { return deck.path; }
  template <class T>
  T& at() {
    if constexpr (std::is_same_v<T, RoomDeck>) return deck;
    else if constexpr (std::is_same_v<T, RoomDeck::Material>) return deck.materials.back();
    else return deck.sources.back();
  }
};

using Key = deck::Key<Reading>;
using D = RoomDeck;
using deck::boolean;
using deck::choice;
using deck::integer;
using deck::number;
using deck::text;

void read_size(const toml::node& v, const std::string& key, Reading& r) {
  const toml::array* a = as_array(v, key, 3, "3 numbers [x, y, z]", false, "extents > 0 in metres");
  for (std::size_t d = 0; d < 3; ++d) {
    r.deck.size[d] = as_number(*a->get(d), key);
    check_range(r.deck.size[d], format_number(r.deck.size[d]), key + "[" + std::to_string(d) + "]", above(0),
                "the room's extent in metres");
  }
}

void read_q(const toml::node& v, const std::string& key, Reading& r) {
  r.deck.q = integers<3>(v, key, between(0, 30), "the box family's shell triplet");
}

// material.octave_absorption: 8 random-incidence coefficients, 63 Hz .. 8 kHz.
void read_octave_absorption(const toml::node& v, const std::string& key, Reading& r) {
  const toml::array* a = as_array(v, key, kOctaveBands.size(), "8 numbers", false,
                                  "random-incidence absorption coefficients 0 .. 0.95 of the octave bands 63 .. 8000 Hz");
  std::vector<double>& out = r.deck.materials.back().octave_absorption;
  out.clear();
  for (std::size_t k = 0; k < kOctaveBands.size(); ++k) {
    out.push_back(as_number(*a->get(k), key));
    check_range(out.back(), format_number(out.back()), key + "[" + std::to_string(k) + "]", between(0, 0.95),
                "a random-incidence absorption coefficient");
  }
}

// source.differentiate: true or false, left unset for the signal's default.
void read_differentiate(const toml::node& v, const std::string& key, Reading& r) {
  const auto* b = v.as_boolean();
  if (!b) throw Error(key + " = " + deck::shown(v) + " is " + deck::value_kind(v) + "; accepted: true or false");
  r.deck.sources.back().differentiate = b->get();
}

// The samples of a wav source at the grid's step dt (`key`: the source's deck key).
std::vector<double> wav_signal(const RoomDeck::Source& s, double dt, long steps, const std::string& key) {
  if constexpr (!audio_support) {
    throw Error(key + ".signal = 'wav' needs libsndfile and libsoxr, which this build lacks; accepted: impulse or "
                "hann, or a build with both (Debian: libsndfile1-dev, libsoxr-dev)");
  } else {
    int rate = 0;
    std::vector<float> samples = read_wav(s.file, rate, key + ".file");
    if (std::abs(rate * dt - 1) > 1e-12) samples = resample(samples, double(rate), 1 / dt);
    std::vector<double> out(samples.begin(), samples.begin() + std::ptrdiff_t(std::min<std::size_t>(samples.size(), std::size_t(steps))));
    if (s.differentiate.value_or(false))
      for (std::size_t n = out.size(); n-- > 1;) out[n] -= out[n - 1];
    return out;
  }
}

// [walls]: one material name per face.
Key wall_key(std::size_t face) {
  return {.name = kShoeboxFaces[face], .read = [face](const toml::node& v, const std::string& key, Reading& r) {
            r.deck.walls[face] = as_string(v, key, "a material's name or 'rigid'");
          }};
}

const Key& schema() {
  static const Key root{.name = "", .keys = {
    {.name = "room", .keys = {
      {.name = "size", .read = read_size},
      {.name = "mesh", .read = text<Reading>(&D::mesh)},
      {.name = "staircase_correction", .read = boolean<Reading>(&D::staircase_correction)},
      {.name = "voxels", .read = text<Reading>(&D::voxels)},
      {.name = "speed", .read = number<Reading>(&D::speed, above(0), "the speed of sound in m/s")},
    }},
    {.name = "grid", .keys = {
      {.name = "spacing", .read = number<Reading>(&D::spacing, above(0), "the cell size in metres")},
    }},
    {.name = "stencil", .keys = {
      {.name = "family", .read = choice<Reading>(&D::family, {"star", "compact", "box"})},
      {.name = "M", .read = integer<Reading>(&D::M, between(1, 20), "the star stencil's radius, 1..20")},
      {.name = "R", .read = integer<Reading>(&D::R, between(1, 30), "the compact stencil's |q|^2 limit, 1..30")},
      {.name = "q", .read = read_q},
    }},
    {.name = "scheme", .keys = {
      {.name = "precision", .read = choice<Reading>(&D::precision, {"float", "double", "half", "bfloat16"})},
      {.name = "cfl", .read = number<Reading>(&D::cfl, {0, 1, true, false}, "the fraction of the stencil's stable Courant number")},
      {.name = "steps", .read = integer<Reading>(&D::steps, at_least(1), "a number of time steps")},
      {.name = "time", .read = number<Reading>(&D::time, above(0), "the simulated time in seconds")},
      {.name = "variant", .read = text<Reading>(&D::variant)},
      {.name = "tile", .read = text<Reading>(&D::tile)},
      {.name = "spreading", .read = choice<Reading>(&D::spreading, {"trilinear", "sinc"})},
    }},
    {.name = "material", .keys = {
       {.name = "name", .read = text<Reading>(&D::Material::name)},
       {.name = "admittance", .read = number<Reading>(&D::Material::admittance, at_least(0), "a normalised admittance rho c / Z")},
       {.name = "absorption", .read = number<Reading>(&D::Material::absorption, between(0, 1), "a normal-incidence absorption coefficient")},
       {.name = "random_absorption", .read = number<Reading>(&D::Material::random_absorption, between(0, 0.95),
                                                     "a random-incidence absorption coefficient")},
       {.name = "octave_absorption", .read = read_octave_absorption},
     },
     .array_of_tables = true, .required = {"name"},
     .begin = [](Reading& r) { r.deck.materials.emplace_back(); }},
    {.name = "walls", .keys = {
      {.name = "default", .read = text<Reading>(&D::wall_default)},
      wall_key(0), wall_key(1), wall_key(2), wall_key(3), wall_key(4), wall_key(5),
    }},
    {.name = "source", .keys = {
       {.name = "position", .read = deck::point<Reading>(&D::Source::position)},
       {.name = "signal", .read = choice<Reading>(&D::Source::signal, {"impulse", "hann", "wav"})},
       {.name = "file", .read = text<Reading>(&D::Source::file)},
       {.name = "duration", .read = number<Reading>(&D::Source::duration, above(0), "the Hann pulse's length in seconds")},
       {.name = "differentiate", .read = read_differentiate},
       {.name = "amplitude", .read = number<Reading>(&D::Source::amplitude, any_finite(), "a finite factor")},
       {.name = "hard", .read = boolean<Reading>(&D::Source::hard)},
     },
     .array_of_tables = true, .required = {"position"},
     .begin = [](Reading& r) { r.deck.sources.emplace_back(); }},
    {.name = "receivers", .keys = {
      {.name = "positions", .read = deck::points<Reading>(&D::receivers), .nested = true},
      {.name = "file", .read = text<Reading>(&D::responses)},
      {.name = "wav", .read = text<Reading>(&D::wav)},
      {.name = "wav_rate", .read = integer<Reading>(&D::wav_rate, between(0, 768000), "Hz, 0 = the grid's rate")},
      {.name = "air_absorption", .read = boolean<Reading>(&D::air_absorption)},
      {.name = "air_temperature", .read = number<Reading>(&D::air_temperature, between(-20, 50), "degrees C")},
      {.name = "air_humidity", .read = number<Reading>(&D::air_humidity, between(10, 100), "percent relative humidity")},
    }},
    deck::output_section<Reading, D>({{.name = "voxels", .read = text<Reading>(&D::voxels_out)}}),
    deck::parallel_section<Reading, D>(),
  }};
  return root;
}

const Exclusive kExclusive = {{"scheme.steps", "time"}, {"scheme.time", "steps"}};

void check_whole_deck(const RoomDeck& d) {
  if (d.size[0] == 0 && d.mesh.empty() && d.voxels.empty())
    throw Error("room.size, room.mesh or room.voxels is required; accepted: the shoebox's extents in metres, e.g. "
                "size = [6, 4, 3] in [room], a triangle mesh's file, mesh = 'hall.obj', or its voxels, voxels = 'hall.voxels'");
  if (d.size[0] != 0 && (!d.mesh.empty() || !d.voxels.empty()))
    throw Error(std::string("room.size and ") + (d.mesh.empty() ? "room.voxels" : "room.mesh") +
                " are exclusive; accepted: one of them (a shoebox, or a room from a mesh or its voxels)");
  if (!d.voxels_out.empty() && d.mesh.empty())
    throw Error("output.voxels = '" + d.voxels_out + "' needs room.mesh; accepted: a deck with room.mesh = 'FILE'");
  if (!d.voxels_out.empty() && !d.voxels.empty())
    throw Error("output.voxels and room.voxels are exclusive; accepted: one of them (write a mesh's cells, or read them)");
  if (d.spacing == 0)
    throw Error("grid.spacing is required; accepted: the cell size in metres, e.g. spacing = 0.05 in [grid]");
  if (d.steps && d.time)
    throw Error("scheme.steps and scheme.time are exclusive; accepted: one of them (steps, or the simulated time in s)");
  if (!d.steps && !d.time)
    throw Error("scheme.steps or scheme.time is required; accepted: the number of steps, or the simulated time in s");
  if (d.receivers.size() > kMaxReceivers)
    throw Error("receivers.positions gives " + std::to_string(d.receivers.size()) + " receivers; accepted: at most " +
                std::to_string(kMaxReceivers));
  for (std::size_t i = 0; i < d.materials.size(); ++i) {
    const RoomDeck::Material& m = d.materials[i];
    const std::string key = "material[" + std::to_string(i) + "]";
    if (int(m.admittance.has_value()) + int(m.absorption.has_value()) + int(m.random_absorption.has_value()) +
            int(!m.octave_absorption.empty()) != 1)
      throw Error(key + " ('" + m.name + "') needs exactly one of admittance, absorption, random_absorption, "
                  "octave_absorption; accepted: one of them");
    if (m.name == "rigid")
      throw Error(key + ".name = 'rigid' is built in; accepted: another name");
    for (std::size_t j = 0; j < i; ++j)
      if (d.materials[j].name == m.name)
        throw Error(key + ".name = '" + m.name + "' is given twice; accepted: one [[material]] per name");
  }
}

// The material of a wall's material name (`key` names the deck key that gave it), its branches
// fitted for the step dt.
Material material_of(const RoomDeck& d, const std::string& name, const std::string& key, double dt) {
  Material out;
  out.name = name;
  if (name == "rigid") return out;
  std::string names = "rigid";
  for (std::size_t i = 0; i < d.materials.size(); ++i) {
    const RoomDeck::Material& m = d.materials[i];
    if (m.name == name) {
      if (!m.octave_absorption.empty())
        return fit_octave_absorption(name, m.octave_absorption, dt, "material[" + std::to_string(i) + "].octave_absorption");
      out.admittance = m.admittance          ? *m.admittance
                       : m.absorption        ? admittance_from_normal_absorption(*m.absorption)
                                             : admittance_from_random_absorption(*m.random_absorption);
      return out;
    }
    names += ", " + m.name;
  }
  throw Error(key + " = '" + name + "' is no material of this deck; accepted: " + names);
}

std::array<double, 3> relative(const std::array<double, 3>& p, const std::array<double, 3>& origin) {
  return {p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]};
}

// A room from room.mesh: the grid over its bounding box from its lower corner, the cells whose
// centres it encloses, and per boundary cell the material of the nearest triangle.
void mesh_room(const RoomDeck& d, RoomModel& m) {
  if constexpr (!mesh_support) {
    throw Error("room.mesh needs assimp and CGAL, which this build lacks; accepted: room.size (a shoebox), or a build "
                "with them (Debian: libassimp-dev, libcgal-dev)");
  } else {
    const RoomMesh mesh = read_room_mesh(d.mesh, "room.mesh");
    const std::array<double, 3> lo = mesh.lower(), hi = mesh.upper();
    for (std::size_t a = 0; a < 3; ++a) {
      const double cells = std::ceil((hi[a] - lo[a]) / m.h - 1e-6);
      if (!(cells >= 1 && cells <= 0x1p31))
        throw Error("room.mesh spans " + format_number(hi[a] - lo[a]) + " m along " + axis_name(int(a)) + ", " +
                    format_number(cells) + " cells of grid.spacing = " + format_number(m.h) +
                    " m; accepted: 1 .. 2^31 cells per axis");
      m.n[a] = index_t(cells);
    }
    m.origin = lo;
    m.air = voxelize(mesh, lo, m.h, m.n);
    if (std::find(m.air.begin(), m.air.end(), 1) == m.air.end())
      throw Error("room.mesh = '" + d.mesh + "' encloses no cell centre at grid.spacing = " + format_number(m.h) +
                  " m; accepted: a closed mesh (or one with small holes) larger than a cell");
    m.mesh_triangles = mesh.triangles.size();
    m.mesh_closed = mesh.closed();
    // Boundary cells: air with a face neighbour outside (or beyond the grid), ascending.
    const std::vector<index_t> boundary = boundary_cells(m);
    std::vector<std::array<double, 3>> centres;
    for (index_t b : boundary) {
      const index_t i = b % m.n[0], j = (b / m.n[0]) % m.n[1], k = b / (m.n[0] * m.n[1]);
      centres.push_back({lo[0] + (double(i) + 0.5) * m.h, lo[1] + (double(j) + 0.5) * m.h, lo[2] + (double(k) + 0.5) * m.h});
    }
    const std::vector<NearestSurface> nearest = nearest_surfaces(mesh, centres);
    m.mesh_area = mesh.area();
    m.mesh_file = d.mesh;
    m.mesh_materials = mesh.materials;
    for (std::size_t b = 0; b < boundary.size(); ++b)
      m.boundary_material.push_back({boundary[b], nearest[b].material, nearest[b].area_scale});
  }
}

// The walls of a room from a mesh or its voxels: each mesh material as the deck names it, a
// [[material]] (or 'rigid') of its name, else walls.default (each fitted once); the staircase's
// correction as room.staircase_correction says.
void name_mesh_materials(const RoomDeck& d, RoomModel& m) {
  const std::string key = d.voxels.empty() ? "room.mesh" : "room.voxels";
  for (const std::string& name : m.mesh_materials) {
    bool named = name == "rigid";
    for (const RoomDeck::Material& dm : d.materials) named = named || dm.name == name;
    const std::string& chosen = named ? name : d.wall_default;
    const auto fitted = std::find_if(m.materials.begin(), m.materials.end(), [&](const Material& w) { return w.name == chosen; });
    m.materials.push_back(fitted != m.materials.end() ? *fitted : material_of(d, chosen, named ? key : "walls.default", m.dt));
  }
  if (!d.staircase_correction)
    for (RoomModel::BoundaryCell& b : m.boundary_material) b.area_scale = 1;
}

}  // namespace

std::string wav_path(const std::string& prefix, std::size_t r) { return prefix + "-" + std::to_string(r) + ".wav"; }

RoomDeck read_room_deck(const std::string& path, const std::vector<std::string>& overrides) {
  Reading r;
  r.deck.path = path;
  deck::read_deck(path, overrides, schema(), kExclusive, r);
  check_whole_deck(r.deck);
  return std::move(r.deck);
}

std::vector<std::pair<std::string, std::string>> room_deck_settings(const std::string& path,
                                                                   const std::vector<std::string>& overrides) {
  return deck::deck_settings(path, overrides, schema(), kExclusive);
}

RoomModel make_room_model(const RoomDeck& d, const Stencil& s) {
  RoomModel m;
  m.h = d.spacing;
  m.speed = d.speed;
  const bool shoebox = d.mesh.empty() && d.voxels.empty();
  for (int a = 0; a < 3 && shoebox; ++a) {
    const double cells = d.size[std::size_t(a)] / d.spacing;
    const double whole = std::round(cells);
    if (whole < 1 || std::abs(cells - whole) > 1e-6 * std::max(1.0, whole) || whole > 0x1p31)
      throw Error("room.size[" + std::to_string(a) + "] = " + format_number(d.size[std::size_t(a)]) + " m is " +
                  format_number(cells) + " cells of grid.spacing = " + format_number(d.spacing) +
                  " m; accepted: a whole number of cells, 1 .. 2^31");
    m.n[std::size_t(a)] = index_t(whole);
  }
  m.stencil = s;
  m.courant = d.cfl * m.stencil.max_courant;
  m.dt = m.courant * m.h / m.speed;
  constexpr double kMaxSteps = 0x1p53;
  const double steps = d.steps ? double(*d.steps) : std::ceil(*d.time / m.dt - 1e-9);
  if (!(steps <= kMaxSteps))
    throw Error("scheme.time = " + format_number(d.time.value_or(0)) + " s is " + format_number(steps) +
                " steps; accepted: at most 2^53 steps");
  m.steps = long(steps);
  if (shoebox) {
    for (std::size_t f = 0; f < 6; ++f) {
      const std::string& name = d.walls[f].empty() ? d.wall_default : d.walls[f];
      const std::string key = d.walls[f].empty() ? "walls.default" : std::string("walls.") + kShoeboxFaces[f];
      bool fitted = false;
      for (std::size_t g = 0; g < f && !fitted; ++g)
        if (m.walls[g].name == name) m.walls[f] = m.walls[g], fitted = true;  // fit each material once
      if (!fitted) m.walls[f] = material_of(d, name, key, m.dt);
    }
  } else {
    if (d.voxels.empty()) {
      mesh_room(d, m);
    } else {
      read_voxel_file(d.voxels, "room.voxels", m);
      // A deck may keep its room.mesh beside room.voxels (the machine that runs it may lack the mesh
      // libraries): the voxels must be that mesh's.
      const auto name = [](const std::string& p) { return p.substr(p.find_last_of('/') + 1); };
      if (!d.mesh.empty() && name(d.mesh) != name(m.mesh_file))
        throw Error("room.voxels = '" + d.voxels + "' holds the cells of '" + m.mesh_file + "', room.mesh = '" + d.mesh +
                    "'; accepted: the voxels of room.mesh (or no room.mesh)");
    }
    name_mesh_materials(d, m);
  }
  m.spreading = parse_spreading(d.spreading, "scheme.spreading");
  for (std::size_t i = 0; i < d.sources.size(); ++i) {
    const RoomDeck::Source& s = d.sources[i];
    RoomSource& out = m.sources.emplace_back();
    out.position = room_grid_position(relative(s.position, m.origin), m.h);
    out.hard = s.hard;
    const std::string key = "source[" + std::to_string(i) + "]";
    if ((s.signal == "wav") != !s.file.empty())
      throw Error(key + (s.file.empty() ? ".signal = 'wav' needs " + key + ".file" : ".file is given for signal = '" + s.signal + "'") +
                  "; accepted: file with signal = 'wav' only");
    out.signal = s.signal == "hann"  ? hann_signal(s.duration, m.dt, m.steps, s.differentiate.value_or(true))
                 : s.signal == "wav" ? wav_signal(s, m.dt, m.steps, key)
                                     : impulse_signal(m.steps);
    for (double& v : out.signal) v *= s.amplitude;
    out.describe = s.signal == "hann"  ? "hann " + format_number(s.duration * 1e3) + " ms" +
                                             (s.differentiate.value_or(true) ? ", differentiated" : "")
                   : s.signal == "wav" ? "wav '" + s.file + "'" + (s.differentiate.value_or(false) ? ", differentiated" : "")
                                       : "impulse, differentiated";
  }
  for (const auto& p : d.receivers) m.receivers.push_back(room_grid_position(relative(p, m.origin), m.h));
  return m;
}

}  // namespace wavefd
