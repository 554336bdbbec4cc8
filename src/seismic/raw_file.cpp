// Files filled by name, and raw float32 files with a one-line JSON header (raw_file.hpp).
#include "wavefd/raw_file.hpp"

#include <cerrno>
#include <cstring>

#include "wavefd/types.hpp"

namespace wavefd {

void write_atomically(const std::string& path, const std::string& key,
                      const std::function<bool(const std::string& temporary)>& write, Sync sync) {
  OutputFile f(path, key, sync);
  errno = 0;
  if (!write(f.temporary()))  // the temporary is removed by f's destructor
    throw Error(key + " = '" + path + "' could not be written" + (errno ? std::string(": ") + std::strerror(errno) : ""));
  f.commit();
}

void write_raw_file(const std::string& path, const std::string& header, const std::vector<float>& values,
                    const std::string& key, Sync sync) {
  OutputFile f(path, key, sync);
  f.write(header + '\n');
  f.write(values.data(), values.size() * sizeof(float));
  f.commit();
}

}  // namespace wavefd
