#pragma once
// The tuning cache: the fastest verified variant per (device, stencil, precision, grid size
// class), written by `wavefd tune` and read by `wavefd run` when scheme.variant = "auto".
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "wavefd/stencil.hpp"

namespace wavefd {

struct TuningKey {
  std::string device;     // execution space and device name
  std::string stencil;    // Stencil::name
  std::string precision;  // float | double
  int size_class = 0;     // floor(log2(interior points))
  std::string str() const;
};

TuningKey tuning_key(const Stencil& s, Precision p, const Index3& n);

// $WAVEFD_TUNING_FILE, else $HOME/.cache/wavefd/tuning.json, else ./wavefd-tuning.json.
std::string default_tuning_file();

// The tuned variant for `key`; nothing when the file does not exist or has no entry. Throws Error
// (naming `what`) when the file exists but is not a wavefd tuning file.
std::optional<std::string> lookup_tuned_variant(const std::string& file, const TuningKey& key, const std::string& what);

// Adds or replaces the entry for `key` (creating the file and its directory if needed).
void store_tuning(const std::string& file, const TuningKey& key, const nlohmann::json& entry);

}  // namespace wavefd
