// velocity.file: a raw float32 model with a one-line JSON header (format in velocity.hpp).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../io/input_file.hpp"
#include "wavefd/raw_file.hpp"
#include "wavefd/velocity.hpp"

namespace wavefd {
namespace {

std::string key_for(const std::string& path) { return "velocity.file = '" + path + "'"; }

class RawFile final : public VelocityModel {
 public:
  RawFile(std::string path, Index3 n, std::streamoff data_at) : path_(std::move(path)), n_(n), data_at_(data_at) {}
  std::string describe() const override { return "file " + path_; }

  std::vector<double> fill(const Box& box, double) const override {
    std::ifstream in(path_, std::ios::binary);
    if (!in) throw Error(key_for(path_) + " cannot be read");
    std::vector<double> v;
    v.reserve(std::size_t(box.size()));
    std::vector<float> row(std::size_t(box.extent(0)));
    const auto row_bytes = std::streamsize(row.size() * sizeof(float));
    for (index_t z = box.lo[2]; z < box.hi[2]; ++z)
      for (index_t y = box.lo[1]; y < box.hi[1]; ++y) {
        const index_t first = box.lo[0] + n_[0] * (y + n_[1] * z);
        in.seekg(data_at_ + std::streamoff(first) * std::streamoff(sizeof(float)));
        if (!in.read(reinterpret_cast<char*>(row.data()), row_bytes))
          throw Error(key_for(path_) + " ends before the point (" + std::to_string(box.lo[0]) + ", " +
                      std::to_string(y) + ", " + std::to_string(z) + ")");
        for (std::size_t i = 0; i < row.size(); ++i) {
          const double s = row[i];  // little-endian float32: the hosts wavefd runs on
          if (!(std::isfinite(s) && s > 0))
            throw Error(key_for(path_) + " holds the speed " + format_number(s) + " at the point (" +
                        std::to_string(box.lo[0] + index_t(i)) + ", " + std::to_string(y) + ", " + std::to_string(z) +
                        "); accepted: finite speeds > 0 (m/s)");
          v.push_back(s);
        }
      }
    return v;
  }

 private:
  std::string path_;
  Index3 n_;
  std::streamoff data_at_;  // bytes before the first speed
};

}  // namespace

std::unique_ptr<VelocityModel> open_raw_velocity(const std::string& path, const Index3& n, double h) {
  const std::string key = key_for(path);
  check_regular_input(path, key);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(key + " cannot be read");
  std::string line;  // the header: at most 64 KiB, so a file without one is not read whole
  for (char c; line.size() < 65536 && in.get(c) && c != '\n';) line += c;
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception&) {
    throw Error(key + ": the first line is not a JSON header; accepted: {\"wavefd\": \"velocity\", \"n\": [nx, ny, nz], "
                "\"spacing\": h, \"dtype\": \"float32\"} then the speeds");
  }
  const auto text = [](const nlohmann::json& j) { return j.dump(); };
  if (!header.is_object() || header.value("wavefd", "") != "velocity" || header.value("dtype", "") != "float32" ||
      !header.contains("n") || !header.contains("spacing"))
    throw Error(key + ": header " + text(header) + " lacks \"wavefd\": \"velocity\", \"dtype\": \"float32\", n or spacing");
  Index3 fn{};
  double fh = 0;
  try {
    const auto v = header.at("n").get<std::vector<long long>>();
    if (v.size() != 3) throw Error("");
    fn = {v[0], v[1], v[2]};
    fh = header.at("spacing").get<double>();
  } catch (const std::exception&) {
    throw Error(key + ": header " + text(header) + " lacks n or spacing; accepted: a header with n = [nx, ny, nz] and a "
                "number spacing");
  }
  if (fn != n)
    throw Error(key + " holds a " + std::to_string(fn[0]) + " x " + std::to_string(fn[1]) + " x " + std::to_string(fn[2]) +
                " model; accepted: grid.n's " + std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " +
                std::to_string(n[2]));
  if (!(std::abs(fh - h) <= 1e-9 * h))
    throw Error(key + " has the spacing " + format_number(fh) + " m; accepted: grid.spacing's " + format_number(h) + " m");
  const std::streamoff data_at = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff want = data_at + std::streamoff(n[0] * n[1] * n[2]) * std::streamoff(sizeof(float));
  if (in.tellg() != want)
    throw Error(key + " has " + std::to_string(in.tellg() - data_at) + " bytes of speeds; a " + std::to_string(n[0]) +
                " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]) + " float32 model has " +
                std::to_string(want - data_at) + "; accepted: the header, then " + std::to_string(want - data_at) +
                " bytes");
  return std::make_unique<RawFile>(path, n, data_at);
}

void write_raw_velocity(const std::string& path, const Index3& n, double h, const std::vector<float>& speeds) {
  if (speeds.size() != std::size_t(n[0] * n[1] * n[2]))
    throw Error("'" + path + "': " + std::to_string(speeds.size()) + " speeds for a grid of " +
                std::to_string(n[0] * n[1] * n[2]) + " points");
  const nlohmann::json header = {{"wavefd", "velocity"}, {"n", n}, {"spacing", h}, {"dtype", "float32"}};
  write_raw_file(path, header.dump(), speeds, "velocity.file");
}

}  // namespace wavefd
