#include "io/summary.hpp"

#include <cstdio>
#include <fstream>

#include "wavefd/parallel.hpp"
#include "wavefd/raw_file.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

void check_writable(const std::string& path, const std::string& what) {
  if (const std::string dir = unwritable_directory(path); !dir.empty())
    throw Error(what + " = '" + path + "': directory '" + dir + "' does not exist or is not writable");
}

nlohmann::json over_ranks(double v) {
  return {{"min", min_over_ranks(v)}, {"mean", sum_over_ranks(v) / world_size()}, {"max", max_over_ranks(v)}};
}

void write_json_file(const std::string& path, const nlohmann::json& j, const std::string& what) {
  check_writable(path, what);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << j.dump(2) << '\n';
    if (!out) {
      std::remove(tmp.c_str());
      throw Error(what + " = '" + path + "' cannot be written");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(what + " = '" + path + "' cannot be written");
  }
}

}  // namespace wavefd
