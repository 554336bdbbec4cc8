// Receiver traces as raw float32 with a one-line JSON header (format in trace_file.hpp).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "wavefd/raw_file.hpp"
#include "wavefd/trace_file.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

void write_raw_traces(const std::string& path, const Traces& t, const std::string& key) {
  if (t.positions.empty() || t.samples.size() % t.positions.size() != 0)
    throw Error(key + ": " + std::to_string(t.samples.size()) + " samples do not make whole traces of " +
                std::to_string(t.positions.size()) + " receivers");
  const nlohmann::json header = {{"wavefd", "traces"},
                                 {"receivers", t.positions.size()},
                                 {"samples", t.samples_per_trace()},
                                 {"interval", t.interval},
                                 {"dtype", "float32"},
                                 {"positions", t.positions}};
  write_raw_file(path, header.dump(), t.samples, key);
}

Traces read_raw_traces(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("'" + path + "' cannot be read");
  std::string line;
  std::getline(in, line);
  Traces t;
  std::size_t samples = 0;
  try {
    const nlohmann::json h = nlohmann::json::parse(line);
    if (h.at("wavefd") != "traces" || h.at("dtype") != "float32") throw Error("");
    t.interval = h.at("interval").get<double>();
    t.positions = h.at("positions").get<std::vector<std::array<double, 3>>>();
    samples = h.at("samples").get<std::size_t>();
    if (h.at("receivers").get<std::size_t>() != t.positions.size()) throw Error("");
  } catch (const std::exception&) {
    throw Error("'" + path + "' is not a wavefd trace file (its first line is not the JSON header)");
  }
  t.samples.resize(t.positions.size() * samples);
  const auto bytes = std::streamsize(t.samples.size() * sizeof(float));
  if (!in.read(reinterpret_cast<char*>(t.samples.data()), bytes) || in.peek() != std::char_traits<char>::eof())
    throw Error("'" + path + "' does not hold the " + std::to_string(t.samples.size()) + " samples its header names");
  return t;
}

}  // namespace wavefd
