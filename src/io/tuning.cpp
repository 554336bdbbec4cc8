#include "io/tuning.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/summary.hpp"
#include "wavefd/measure.hpp"

namespace wavefd {

namespace {
constexpr const char* kFormat = "wavefd-tuning-1";

nlohmann::json read_file(const std::string& file, const std::string& what) {
  std::ifstream in(file);
  if (!in) return nullptr;
  try {
    nlohmann::json j = nlohmann::json::parse(in);
    if (!j.is_object() || j.value("format", "") != kFormat || !j["entries"].is_object())
      throw Error(what + " = '" + file + "' is not a wavefd tuning file (format " + kFormat + ")");
    return j;
  } catch (const nlohmann::json::exception& e) {
    throw Error(what + " = '" + file + "' is not valid JSON: " + e.what());
  }
}
}  // namespace

std::string TuningKey::str() const {
  return device + " | " + stencil + " | " + precision + " | 2^" + std::to_string(size_class) + " points";
}

TuningKey tuning_key(const Stencil& s, Precision p, const Index3& n) {
  const double points = double(n[0]) * double(n[1]) * double(n[2]);
  return TuningKey{std::string(Kokkos::DefaultExecutionSpace::name()) + " " + device_name(), s.name,
                   std::string(to_string(p)), int(std::floor(std::log2(std::max(points, 1.0))))};
}

std::string default_tuning_file() {
  if (const char* f = std::getenv("WAVEFD_TUNING_FILE"); f && *f) return f;
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/wavefd/tuning.json";
  return "wavefd-tuning.json";
}

std::optional<std::string> lookup_tuned_variant(const std::string& file, const TuningKey& key,
                                                const std::string& what) {
  const nlohmann::json j = read_file(file, what);
  if (j.is_null() || !j["entries"].contains(key.str())) return std::nullopt;
  return j["entries"][key.str()].value("variant", "");
}

void store_tuning(const std::string& file, const TuningKey& key, const nlohmann::json& entry) {
  nlohmann::json j = read_file(file, "--tuning-file");
  if (j.is_null()) j = {{"format", kFormat}, {"entries", nlohmann::json::object()}};
  j["entries"][key.str()] = entry;
  const auto dir = std::filesystem::path(file).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  write_json_file(file, j, "--tuning-file");
}

}  // namespace wavefd
