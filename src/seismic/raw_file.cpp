// Atomic writes (a temporary file beside the target, then a rename), and raw float32 files with a
// one-line JSON header (raw_file.hpp).
#include "wavefd/raw_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "wavefd/types.hpp"

namespace wavefd {
namespace {

std::filesystem::path temporary_beside(const std::string& path) {
  const std::filesystem::path p(path);
  return p.parent_path() / ("." + p.filename().string() + ".tmp-" + std::to_string(::getpid()));
}

}  // namespace

std::string unwritable_directory(const std::string& path) {
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const std::filesystem::path d = dir.empty() ? std::filesystem::path(".") : dir;
  return std::filesystem::is_directory(d) && ::access(d.c_str(), W_OK) == 0 ? "" : d.string();
}

void check_output_path(const std::string& path, const std::string& key) {
  if (const std::string dir = unwritable_directory(path); path.empty() || !dir.empty())
    throw Error(key + " = '" + path + "' cannot be written (no writable directory " + (dir.empty() ? "." : dir) + ")");
}

void write_atomically(const std::string& path, const std::string& key,
                      const std::function<bool(const std::string& temporary)>& write) {
  check_output_path(path, key);
  const std::filesystem::path tmp = temporary_beside(path);
  bool ok = false;
  try {
    ok = write(tmp.string());
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  if (ok) std::filesystem::rename(tmp, path, ec);
  if (!ok || ec) {
    std::filesystem::remove(tmp, ec);
    throw Error(key + " = '" + path + "' could not be written completely");
  }
}

void write_raw_file(const std::string& path, const std::string& header, const std::vector<float>& values,
                    const std::string& key) {
  write_atomically(path, key, [&](const std::string& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << header << '\n';
    out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(float)));
    out.flush();
    return bool(out);
  });
}

}  // namespace wavefd
