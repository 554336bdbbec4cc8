#include "io/tuning.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

#include "io/input_file.hpp"
#include "io/summary.hpp"
#include "wavefd/measure.hpp"

namespace wavefd {

namespace {
constexpr const char* kFormat = "wavefd-tuning-1";

// The tuning file, or null where there is none yet; read on every call, since tune rewrites it.
nlohmann::json read_file(const std::string& file, const std::string& what) {
  const std::optional<std::string> text = read_input_now(file, what + " = '" + file + "'", true);
  if (!text) return nullptr;
  try {
    nlohmann::json j = nlohmann::json::parse(*text);
    if (!j.is_object() || j.value("format", "") != kFormat || !j["entries"].is_object())
      throw Error(what + " = '" + file + "' is not a wavefd tuning file; accepted: a file `wavefd tune` writes (format " +
                  kFormat + "), or none");
    return j;
  } catch (const nlohmann::json::exception& e) {
    throw Error(what + " = '" + file + "' is not valid JSON: " + e.what() + "; accepted: a file `wavefd tune` writes (" +
                kFormat + "), or none");
  }
}
}  // namespace

std::string TuningKey::str() const {
  return device + " | " + stencil + " | " + precision + " | 2^" + std::to_string(size_class) + " points";
}

TuningKey tuning_key(const Stencil& s, Precision p, const Index3& local) {
  const double points = double(local[0]) * double(local[1]) * double(local[2]);
  return TuningKey{std::string(Kokkos::DefaultExecutionSpace::name()) + " " + device_name(), s.name,
                   std::string(to_string(p)), int(std::floor(std::log2(std::max(points, 1.0))))};
}

std::string default_tuning_file() {
  if (const char* f = std::getenv("WAVEFD_TUNING_FILE"); f && *f) return f;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/wavefd/tuning.json";
  return "wavefd-tuning.json";
}

std::optional<TunedKernel> lookup_tuning(const std::string& file, const TuningKey& key, const std::string& what) {
  const nlohmann::json j = read_file(file, what);
  if (j.is_null()) return std::nullopt;
  const auto entry = j.at("entries").find(key.str());
  if (entry == j.at("entries").end()) return std::nullopt;
  const auto variant = entry->find("variant"), tile = entry->find("tile");  // end() unless an object
  const std::string where = what + " = '" + file + "'";
  if (variant == entry->end() || !variant->is_string() || (tile != entry->end() && !tile->is_string()))
    throw Error(where + ": the entry '" + key.str() + "' needs \"variant\" and an optional \"tile\", both strings");
  return TunedKernel{variant->get<std::string>(),
                     tile == entry->end() ? Tile{} : parse_tile(tile->get<std::string>(), where + ": tile")};
}

void store_tuning(const std::string& file, const TuningKey& key, const TunedKernel& best, nlohmann::json details) {
  nlohmann::json j = read_file(file, "--tuning-file");
  if (j.is_null()) j = {{"format", kFormat}, {"entries", nlohmann::json::object()}};
  details["variant"] = best.variant;
  details["tile"] = to_string(best.tile);
  j["entries"][key.str()] = std::move(details);
  try {
    write_json_file(file, j, "--tuning-file");
  } catch (const Error& e) {  // what was measured is still worth a line
    throw Error(std::string(e.what()) + " (not recorded: " + key.str() + " -> " + best.variant + ", tile " +
                to_string(best.tile) + "; the file is unchanged)");
  }
}

void make_cache_directory(const std::string& file) {
  const auto dir = std::filesystem::path(file).parent_path();
  std::error_code ignored;  // check_output_path names what is wrong
  if (!dir.empty()) std::filesystem::create_directories(dir, ignored);
}

}  // namespace wavefd
