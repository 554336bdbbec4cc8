#pragma once
// Room decks (`wavefd room DECK.toml [--section.key value ...]`): TOML read with toml++ through the
// schema reader seismic decks use (src/io/deck_schema.hpp); docs/room.md lists the keys. Every bad
// input is one Error naming the key and the accepted range.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wavefd/room.hpp"

namespace wavefd {

struct RoomDeck {
  std::string path;
  // [room]
  std::array<double, 3> size{};       // room.size: a shoebox's extents (m), or
  std::string mesh;                   // room.mesh: a triangle mesh (OBJ, STL, ...) in metres
  bool staircase_correction = true;   // room.staircase_correction: boundary faces scaled to the mesh's area
  std::string voxels;                 // room.voxels: a mesh's cells as output.voxels wrote them (room.mesh not read)
  double speed = 343;                 // room.speed: the speed of sound (m/s)
  // [grid]
  double spacing = 0;                 // grid.spacing (m)
  // [stencil]
  std::string family = "star";        // stencil.family: star | compact | box
  int M = 1;                          // star: radius (7-point scheme by default)
  int R = 3;                          // compact
  std::array<std::int64_t, 3> q{1, 1, 1};  // box
  // [scheme]
  std::string precision = "float";
  double cfl = 0.99;                  // scheme.cfl: the fraction of the stencil's stable Courant number
  std::optional<long> steps;          // scheme.steps, or
  std::optional<double> time;         // scheme.time (s); exactly one of the two
  std::string variant = "auto";
  std::string tile = "default";
  std::string spreading = "trilinear";  // of soft sources and receivers: trilinear | sinc
  // [[material]]
  struct Material {
    std::string name;
    // Exactly one: frequency independent (admittance, or an absorption coefficient), or fitted
    // branches (random-incidence absorption per octave band of kOctaveBands, 63 Hz .. 8 kHz).
    std::optional<double> admittance, absorption, random_absorption;
    std::vector<double> octave_absorption;
  };
  std::vector<Material> materials;
  // [walls]: a material name per face, else `default`; "rigid" is built in.
  std::string wall_default = "rigid";
  std::array<std::string, 6> walls{};  // kShoeboxFaces; '' = default
  // [[source]]
  struct Source {
    std::array<double, 3> position{};  // m
    std::string signal = "impulse";    // impulse | hann | wav
    double duration = 0.001;           // hann: the pulse's length (s)
    std::string file;                  // wav: a mono audio file (any format libsndfile reads)
    std::optional<bool> differentiate; // hann, wav: inject the first difference (default: hann yes, wav no)
    double amplitude = 1;
    bool hard = false;
  };
  std::vector<Source> sources;
  // [receivers]
  std::vector<std::array<double, 3>> receivers;  // receivers.positions (m)
  std::string responses = "";        // receivers.file: raw float32 + JSON ('' = none)
  std::string wav = "";              // receivers.wav: file name prefix of one WAV per receiver ('' = none)
  long wav_rate = 48000;             // receivers.wav_rate (Hz; 0 = the grid's rate, rounded to whole Hz)
  bool air_absorption = false;       // receivers.air_absorption: ISO 9613-1, applied to every output
  double air_temperature = 20;       // receivers.air_temperature (degrees C)
  double air_humidity = 50;          // receivers.air_humidity (% relative)
  // [output]
  std::string summary = "wavefd-room.json";
  std::string voxels_out;            // output.voxels: write room.mesh's cells here and stop (no run)
  std::string progress = "auto";
  double status_interval = 10;
  long check_interval = 1000;
  // [parallel]
  std::vector<long long> ranks{0, 0, 0};
  std::string transport = "auto";
  std::string overlap = "auto";
  std::string gpu_aware = "auto";
};

// receivers.wav's file for receiver r: "<prefix>-<r>.wav".
std::string wav_path(const std::string& prefix, std::size_t r);

// Reads `path` and applies `overrides` as read_seismic_deck does. Throws Error.
RoomDeck read_room_deck(const std::string& path, const std::vector<std::string>& overrides);
// The deck's values after `overrides` as (key, value) text: what the ranks of one run compare.
std::vector<std::pair<std::string, std::string>> room_deck_settings(const std::string& path,
                                                                   const std::vector<std::string>& overrides);

// The model the deck describes with stencil `s` (the deck's [stencil], built by the caller): a
// shoebox's cells from size / spacing (a whole number of cells each), or a mesh's bounding box in
// cells of grid.spacing from its lower corner with the cells whose centres it encloses (its
// materials by name: a [[material]] of the same name, else walls.default); dt from cfl, materials,
// sources and receivers in grid units. Throws Error naming the key.
RoomModel make_room_model(const RoomDeck& d, const Stencil& s);

}  // namespace wavefd
