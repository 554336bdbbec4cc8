// The variant registry: one line per variant (its factory lives in the variant's own file).
#include <algorithm>

#include "wavefd/grid.hpp"
#include "wavefd/variant.hpp"

namespace wavefd {
namespace kernels {
std::unique_ptr<Variant> make_mdrange_general();
std::unique_ptr<Variant> make_mdrange_star();
std::unique_ptr<Variant> make_team_stream();
std::unique_ptr<Variant> make_team_semi();
std::unique_ptr<Variant> make_team_scratch();
std::unique_ptr<Variant> make_mdrange_stream();
std::unique_ptr<Variant> make_plane_stream();
std::unique_ptr<Variant> make_cuda_star_stream();
std::unique_ptr<Variant> make_cuda_star_tma();
std::unique_ptr<Variant> make_cuda_star_pair();
std::unique_ptr<Variant> make_kk_spmv();
std::unique_ptr<Variant> make_hip_star_fused();
std::unique_ptr<Variant> make_host_star();
std::unique_ptr<Variant> make_rows_stream();
std::unique_ptr<Variant> make_rows_general();
}  // namespace kernels

const std::vector<std::unique_ptr<Variant>>& variants() {
  static const auto list = [] {
    std::vector<std::unique_ptr<Variant>> v;
#ifdef WAVEFD_HAVE_CUDA_NATIVE
    v.push_back(kernels::make_cuda_star_stream());
    v.push_back(kernels::make_cuda_star_tma());
    v.push_back(kernels::make_cuda_star_pair());
#endif
#ifdef WAVEFD_HAVE_HIP_NATIVE
    v.push_back(kernels::make_hip_star_fused());
#endif
    if constexpr (kHostBuild) v.push_back(kernels::make_host_star());
    if constexpr (kHostBuild) v.push_back(kernels::make_rows_stream());
    if constexpr (kHostBuild) v.push_back(kernels::make_rows_general());
    v.push_back(kernels::make_mdrange_stream());
    v.push_back(kernels::make_mdrange_star());
    v.push_back(kernels::make_team_stream());
    v.push_back(kernels::make_team_semi());
    v.push_back(kernels::make_team_scratch());
    v.push_back(kernels::make_plane_stream());
    v.push_back(kernels::make_mdrange_general());
#ifdef WAVEFD_HAVE_KOKKOSKERNELS
    v.push_back(kernels::make_kk_spmv());
#endif
    return v;
  }();
  return list;
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& v : variants()) names.push_back(v->name());
  return names;
}

void check_variant_list(const std::string& list, const std::string& key, const std::vector<std::string>& also) {
  const std::vector<std::string> names = variant_names();
  std::string item;
  for (std::size_t at = 0; at <= list.size(); ++at) {
    if (at < list.size() && list[at] != ',') {
      item += list[at];
      continue;
    }
    const bool known = std::find(names.begin(), names.end(), item) != names.end() ||
                       std::find(also.begin(), also.end(), item) != also.end();
    if (!known) {
      std::string accepted;
      for (const auto& n : also) accepted += n + ", ";
      for (const auto& n : names) accepted += n + (&n == &names.back() ? "" : ", ");
      throw Error(key + " = '" + list + "' names " + (item.empty() ? "an empty entry" : "'" + item + "'") +
                  ", which is no variant of this build; accepted: a comma-separated list of " + accepted);
    }
    item.clear();
  }
}

namespace {
// What "auto" takes until a tuning cache says otherwise: the fastest measured variant that supports
// the stencil, per kind of device (docs/performance.md).
const std::vector<std::string>& auto_order() {
  static const std::vector<std::string> host{"host-star", "rows-stream", "rows-general", "mdrange-star", "plane-stream", "team-stream",
                                             "mdrange-stream", "mdrange-general"};
  static const std::vector<std::string> gpu{"cuda-star-tma", "cuda-star-stream", "mdrange-stream", "mdrange-star", "team-stream",
                                            "plane-stream", "mdrange-general"};
  return kHostBuild ? host : gpu;
}
}  // namespace

const Variant* preferred_variant(const Stencil& s, Precision p, bool coefficient) {
  for (const auto& preferred : auto_order())
    for (const auto& v : variants())
      if (v->name() == preferred && v->supports(s, p) && (!coefficient || v->takes_coefficient())) return v.get();
  return nullptr;
}

void check_supports(const Variant& v, const Stencil& s, Precision p) {
  if (v.supports(s, p)) return;
  const std::string precision(to_string(p));
  if (!v.supports_stencil(s, p))
    throw Error("scheme.variant = '" + v.name() + "' does not support " + s.name + " in " + precision);
  std::string storing;
  for (const auto& w : variants())
    if (w->supports(s, p)) storing += (storing.empty() ? "" : ", ") + w->name();
  throw Error("scheme.variant = '" + v.name() + "' does not store " + precision + "; accepted: a variant that does (" +
              (storing.empty() ? "none in this build for " + s.name : storing) + ")");
}

const Variant& select_variant(const std::string& name, const Stencil& s, Precision p) {
  if (name == "auto") {
    if (const Variant* v = preferred_variant(s, p, false)) return *v;
    throw Error("no registered variant supports " + s.name + " in " + std::string(to_string(p)));
  }
  for (const auto& v : variants()) {
    if (v->name() == name) {
      check_supports(*v, s, p);
      return *v;
    }
  }
  std::string accepted = "auto";
  for (const auto& n : variant_names()) accepted += ", " + n;
  throw Error("scheme.variant = '" + name + "' is unknown; accepted: " + accepted);
}

}  // namespace wavefd
