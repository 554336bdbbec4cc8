#include "io/summary.hpp"

#include "wavefd/parallel.hpp"

namespace wavefd {

nlohmann::json over_ranks(double v) {
  return {{"min", min_over_ranks(v)}, {"mean", sum_over_ranks(v) / world_size()}, {"max", max_over_ranks(v)}};
}

void write_json_file(const std::string& path, const nlohmann::json& j, const std::string& what) {
  write_output_file(path, what, j.dump(2) + '\n');
}

}  // namespace wavefd
