#include "io/summary.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "wavefd/types.hpp"

namespace wavefd {

void check_writable(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir) || access(dir.c_str(), W_OK) != 0)
    throw Error(what + " = '" + path + "': directory '" + dir.string() +
                "' does not exist or is not writable");
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
