#pragma once
// Seismic decks (`wavefd seismic DECK.toml [--key value ...]`): TOML read with toml++, because the
// lists of layers, sources and receivers are arrays of tables, which CLI11's config reader cannot
// parse. A flag `--section.key value...` overrides that key of the deck (docs/seismic-decks.md
// lists the keys). Every bad input is one Error naming the key (and for a syntax error the file
// and line).
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wavefd/seismic_model.hpp"

namespace wavefd {

// What the deck says, checked key by key (types, ranges, unknown keys), before any model is built.
struct SeismicDeck {
  std::string path;

  // [grid]
  Index3 n{0, 0, 0};         // grid.n: points per axis, absorbing layer included
  double spacing = 0;        // grid.spacing (m)
  // [stencil]
  int M = 4;                 // stencil.M: star radius 1..8
  // [scheme]
  std::string precision = "float";   // float | double | half | bfloat16 (u and u- stored)
  std::string rounding = "nearest";  // scheme.rounding: nearest | stochastic (16-bit fields)
  std::string second_field = "previous";  // scheme.second_field: previous | velocity
  std::optional<double> cfl;         // scheme.cfl: 0 < cfl <= 1 (default 0.8 when dt is not given)
  std::optional<double> dt;          // scheme.dt (s): exclusive with cfl
  std::optional<long> steps;         // scheme.steps, or
  std::optional<double> time;        // scheme.time (s): steps = ceil(time / dt); exactly one of the two
  std::optional<double> vmax;        // scheme.vmax (m/s): the speed dt and the PML use (default: the model's)
  std::string variant = "auto";      // scheme.variant: the inner box's kernel (auto, layer, or a variant)
  std::string tile = "default";      // scheme.tile: the inner variant's tile
  std::string layer_tile = "default";  // scheme.layer_tile: the layer kernel's block XxYxZ
  std::string layer_variant = "auto";  // scheme.layer_variant: auto, layer (the layer kernel) or a variant with a PML branch
  std::string work = "seven-domain";  // scheme.work: seven-domain | three-domain | unified
  std::string pairs = "auto";         // scheme.pairs: auto | on | off (two steps at a time, seismic_step.hpp)
  std::string source_term = "scaled";  // scheme.source_term: scaled | minimod | minimod-2021
  // [velocity]
  std::string velocity_model = "constant";  // velocity.model: constant | layered | gradient | file | segy
  double speed = 0;                  // velocity.speed (constant, gradient: the speed at depth 0)
  double gradient = 0;               // velocity.gradient (1/s)
  std::vector<Layer> layers;         // [[velocity.layer]] top, speed
  std::string velocity_file;         // velocity.file (file: raw float32 + JSON header; segy: SEG-Y)
  // [boundary]
  std::string absorbing = "pml";     // boundary.absorbing: pml | sponge | none
  std::string outer = "zero";        // boundary.outer: zero | rigid
  std::optional<int> width;          // boundary.width (cells), else from wavelengths
  double wavelengths = 3;            // boundary.wavelengths
  std::optional<double> fmax;        // boundary.fmax (Hz), else the sources' highest max_frequency
  std::string profile = "symmetric";  // boundary.profile: symmetric | minimod | minimod-2021
  // [[source]]
  struct Source {
    std::array<double, 3> position{};  // metres
    std::string wavelet = "ricker";    // ricker | minimod
    double frequency = 10;             // ricker: peak frequency; minimod: its fmax (Hz)
    std::optional<double> delay;       // ricker (s); default 1.2 / frequency
    double amplitude = 1;
    std::string spreading = "sinc";    // sinc | trilinear
  };
  std::vector<Source> sources;
  // [receivers]: [[receivers.line]] from, to, count; [[receivers.plane]] origin, to_a, to_b,
  // count = [na, nb]; receivers.positions = [[x, y, z], ...]; all in metres, in that order.
  std::vector<std::array<double, 3>> receiver_positions;  // metres, expanded
  long every = 1;                    // receivers.every (steps)
  std::string receiver_spreading = "sinc";
  std::string traces = "";           // receivers.file: where the traces go ('' = none)
  std::string trace_format = "auto";  // receivers.format: auto (segy when built with segyio) | raw | segy
  // [output]
  std::string summary = "wavefd-seismic.json";
  std::string progress = "auto";
  double status_interval = 10;
  long check_interval = 100;
  std::string slices = "";           // output.slices: file name prefix of wavefield slices ('' = none)
  long slice_every = 0;              // output.slice_every (steps; 0 = only the last step)
  std::string slice_axis = "y";      // output.slice_axis: x | y | z (the plane's normal)
  std::optional<double> slice_position;  // output.slice_position (m; default the grid's middle)
  // [parallel]
  std::vector<long long> ranks{0, 0, 0};
  std::string transport = "auto";
  std::string overlap = "auto";
  std::string gpu_aware = "auto";
};

// Reads `path` and applies `overrides` ("--grid.n", "64", "64", "64", "--scheme.steps", "10", ...;
// a flag's values run to the next "--", or follow "=" in it). Throws Error: a syntax error as
// "deck <path>:<line>: <what>", an unknown key, a value of the wrong type or out of range naming
// the key and the range. The file is read once per process (a pipe works; src/io/input_file.hpp).
SeismicDeck read_seismic_deck(const std::string& path, const std::vector<std::string>& overrides);

// The deck's values after `overrides` as (key, value) text, "grid.n" = "[64, 64, 64]", every
// value in full and in a fixed order: what the ranks of one run compare. Throws as above.
std::vector<std::pair<std::string, std::string>> seismic_deck_settings(const std::string& path,
                                                                      const std::vector<std::string>& overrides);

// Any TOML deck (`wavefd run`'s, include/wavefd/config.hpp) as the words its values take on the
// command line: {"grid.n", {"64", "64", "64"}}, booleans as true/false, strings as they are. Read
// with toml++ here because this library is plain C++ (nvcc cannot parse toml++). Throws Error for
// a syntax error ("deck <path>:<line>: <what>") and for a value no flag can take (a date, a table
// inside an array, an array of arrays), naming its key and line.
struct DeckWords {
  std::string key;
  std::vector<std::string> words;
  std::vector<std::string> types;  // each word's TOML type: integer, float, boolean, string
};
std::vector<DeckWords> read_deck_words(const std::string& path);

// The velocity model the deck names (a file model opens its header only).
std::shared_ptr<const VelocityModel> make_velocity(const SeismicDeck& d);

// The model, once the model's fastest speed is known (reduced over the ranks' boxes): dt from cfl
// or dt, the steps, the layer width and peak, sources and receivers in grid units. Throws Error
// naming the key (an unstable dt, a position outside the grid, a layer wider than half an axis).
SeismicModel make_seismic_model(const SeismicDeck& d, std::shared_ptr<const VelocityModel> velocity,
                                double model_vmax);

}  // namespace wavefd
