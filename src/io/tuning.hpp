#pragma once
// The tuning cache: the fastest verified variant and tile per (device, stencil, precision, size
// class of the subdomain one rank updates), written by `wavefd tune` and read by `wavefd run`.
// A kernel's speed depends on the box it updates, not on how many ranks share the global grid, so
// a 1024^3 grid over 8 ranks finds what `tune` recorded for 512^3 on one.
//
// File format (JSON): {"format": "wavefd-tuning-1", "entries": {TuningKey::str(): entry}}, where
// an entry holds "variant" (a name), "tile" ("default" or "XxYxZ"; absent in files written before
// tiles existed, which means the default tile) and what tune measured (informational).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "wavefd/stencil.hpp"
#include "wavefd/variant.hpp"

namespace wavefd {

struct TuningKey {
  std::string device;     // execution space and device name
  std::string stencil;    // Stencil::name
  std::string precision;  // float | double
  int size_class = 0;     // floor(log2(interior points of the subdomain))
  std::string str() const;
};

// `local`: the subdomain one rank updates (the whole grid on one rank). Under a split, pass the
// largest one (rank 0's), so that every rank of a run finds the same entry.
TuningKey tuning_key(const Stencil& s, Precision p, const Index3& local);

// $WAVEFD_TUNING_FILE, else $HOME/.cache/wavefd/tuning.json, else ./wavefd-tuning.json.
std::string default_tuning_file();

// What an entry chose.
struct TunedKernel {
  std::string variant;
  Tile tile;
};

// The tuned kernel for `key`; nothing when the file does not exist or has no entry. Throws Error
// (naming `what`) when the file exists but is not a wavefd tuning file or the entry is malformed.
std::optional<TunedKernel> lookup_tuning(const std::string& file, const TuningKey& key, const std::string& what);

// Adds or replaces the entry for `key`: `best` plus the fields of `details` (creating the file if
// needed). Throws Error when it cannot be written, leaving the file as it was.
void store_tuning(const std::string& file, const TuningKey& key, const TunedKernel& best, nlohmann::json details);

// Creates the directory of the default tuning file (~/.cache/wavefd) if it is missing.
void make_cache_directory(const std::string& file);

}  // namespace wavefd
