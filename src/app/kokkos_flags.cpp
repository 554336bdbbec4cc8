#include "app/kokkos_flags.hpp"

#include <Kokkos_Core.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <map>
#include <utility>

#include "wavefd/types.hpp"

namespace wavefd::app {
namespace {

enum class Form { alone, boolean, integer, choice, text };

struct KokkosFlag {
  const char* name;
  Form form;
  const char* accepted;  // the value's range, as messages state it
  long long min = 0;
};

// Kokkos 4.6 .. 5.2 (Kokkos::Impl::parse_command_line_arguments and its Tools counterpart).
const std::vector<KokkosFlag>& kokkos_flags() {
  static const std::vector<KokkosFlag> flags = {
      {"--kokkos-num-threads", Form::integer, "an integer >= 1", 1},
      {"--kokkos-device-id", Form::integer, "an integer >= 0", 0},
      {"--kokkos-map-device-id-by", Form::choice, "mpi_rank, random"},
      {"--kokkos-disable-warnings", Form::boolean, "alone, or =true|false (also yes|no, 1|0)"},
      {"--kokkos-print-configuration", Form::boolean, "alone, or =true|false (also yes|no, 1|0)"},
      {"--kokkos-tune-internals", Form::boolean, "alone, or =true|false (also yes|no, 1|0)"},
      {"--kokkos-tools-libs", Form::text, "a tool library (a path or a name)"},
      {"--kokkos-tools-library", Form::text, "a tool library (deprecated: --kokkos-tools-libs)"},
      {"--kokkos-tools-args", Form::text, "the tool's arguments in one word"},
      {"--kokkos-tools-help", Form::alone, "the flag alone"},
      {"--kokkos-help", Form::alone, "the flag alone"},
  };
  return flags;
}

std::string usage(const KokkosFlag& f) {
  switch (f.form) {
    case Form::alone: return f.name;
    case Form::boolean: return std::string(f.name) + "[=BOOL]";
    case Form::integer: return std::string(f.name) + "=N";
    case Form::choice: return std::string(f.name) + "=mpi_rank|random";
    case Form::text: return std::string(f.name) + "=TEXT";
  }
  return f.name;
}

std::string all_usages() {
  std::string s;
  for (const KokkosFlag& f : kokkos_flags()) s += (s.empty() ? "" : ", ") + usage(f);
  return s;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// Kokkos' own check, where it would abort, and its device count on device builds.
void check_integer(const KokkosFlag& f, const std::string& value) {
  const std::string head = std::string(f.name) + " = ";
  const bool digits = !value.empty() && value.size() <= 18 &&
                      std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!digits) {
    const bool negative = value.size() > 1 && value[0] == '-' &&
                          std::all_of(value.begin() + 1, value.end(), [](unsigned char c) { return std::isdigit(c); });
    throw Error(head + (negative ? value + " is outside N >= " + std::to_string(f.min) : "'" + value + "' is not an integer") +
                "; accepted: " + f.accepted);
  }
  const long long n = std::stoll(value);
  if (n < f.min) throw Error(head + value + " is outside N >= " + std::to_string(f.min) + "; accepted: " + f.accepted);
  if (n > INT_MAX) throw Error(head + value + " is too large; accepted: " + f.accepted + ", at most " + std::to_string(INT_MAX));
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
  if (std::string(f.name) == "--kokkos-device-id") {
    const int devices = Kokkos::num_devices();
    if (devices > 0 && n >= devices)
      throw Error(head + value + " is not a device of this node; accepted: 0 .. " + std::to_string(devices - 1) + " (" +
                  std::to_string(devices) + " visible)");
  }
#endif
}

// A tool library named by its path must be there (Kokkos prints that it cannot load it and runs
// on without the tool); a bare name is left to the loader's search path.
void check_tool_libraries(const KokkosFlag& f, const std::string& value) {
  for (std::size_t from = 0; from <= value.size();) {  // Kokkos takes a ';'-separated list
    const std::size_t at = std::min(value.find(';', from), value.size());
    const std::string lib = value.substr(from, at - from);
    struct stat st{};
    if (lib.find('/') != std::string::npos && (::stat(lib.c_str(), &st) != 0 || !S_ISREG(st.st_mode)))
      throw Error(std::string(f.name) + " = '" + lib + "' is no file; accepted: a tool library's path, or its name for " +
                  "the loader to find (LD_LIBRARY_PATH)");
    from = at + 1;
  }
}

void check_value(const KokkosFlag& f, const std::string& word, bool has_value, const std::string& value,
                 const std::string& next) {
  const std::string head = std::string(f.name) + " = ";
  switch (f.form) {
    case Form::alone:
      if (has_value) throw Error(head + "'" + value + "' is not accepted; accepted: " + f.name + " alone");
      return;
    case Form::boolean: {
      const std::string v = lower(value);
      if (has_value && v != "true" && v != "yes" && v != "1" && v != "false" && v != "no" && v != "0")
        throw Error(head + "'" + value + "' is not a boolean; accepted: " + f.name + " " + f.accepted);
      return;
    }
    default:
      break;
  }
  if (!has_value) {
    const std::string example = next.empty() || next.rfind("-", 0) == 0 ? "" : " (" + word + "=" + next + ")";
    throw Error(word + " needs its value after '='" + example + "; accepted: " + usage(f) + ", " + f.accepted);
  }
  if (value.empty()) throw Error(word + " has an empty value; accepted: " + usage(f) + ", " + f.accepted);
  if (f.form == Form::integer) return check_integer(f, value);
  if (std::string(f.name).rfind("--kokkos-tools-lib", 0) == 0) check_tool_libraries(f, value);
  if (f.form == Form::choice && value != "mpi_rank" && value != "random")
    throw Error(head + "'" + value + "' is unknown; accepted: " + f.accepted);
}

// Kokkos' environment variables where Kokkos would abort on them (its own lenient reading:
// strtol, a leading number is enough).
void check_kokkos_environment() {
  for (const auto& [name, min] : {std::pair{"KOKKOS_NUM_THREADS", 1L}, std::pair{"KOKKOS_DEVICE_ID", 0L}}) {
    const char* v = std::getenv(name);
    if (!v) continue;
    errno = 0;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    const std::string head = std::string(name) + " = '" + v + "' (environment)";
    const std::string accepted = "; accepted: an integer >= " + std::to_string(min) + ", or the variable unset";
    if (end == v) throw Error(head + " is not an integer" + accepted);
    if (errno == ERANGE || n > INT_MAX) throw Error(head + " is too large" + accepted);
    if (n < min) throw Error(head + " is outside N >= " + std::to_string(min) + accepted);
  }
  if (const char* v = std::getenv("KOKKOS_MAP_DEVICE_ID_BY"); v && std::string(v) != "mpi_rank" && std::string(v) != "random")
    throw Error(std::string("KOKKOS_MAP_DEVICE_ID_BY = '") + v + "' (environment) is unknown; accepted: mpi_rank, random");
  for (const char* name : {"KOKKOS_DISABLE_WARNINGS", "KOKKOS_PRINT_CONFIGURATION", "KOKKOS_TUNE_INTERNALS"}) {
    const char* v = std::getenv(name);
    const std::string b = v ? lower(v) : "";
    if (v && b != "true" && b != "yes" && b != "1" && b != "false" && b != "no" && b != "0")
      throw Error(std::string(name) + " = '" + v + "' (environment) is not a boolean; accepted: true, false (also yes, no, 1, 0)");
  }
}

}  // namespace

void check_kokkos_flags(const std::vector<std::string>& flags, const std::vector<std::string>& next) {
  check_kokkos_environment();
  std::map<std::string, std::string> seen;  // name -> the value given first
  for (std::size_t i = 0; i < flags.size(); ++i) {
    const std::string& word = flags[i];
    const std::size_t eq = word.find('=');
    const std::string name = word.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? word.substr(eq + 1) : "";
    const auto f = std::find_if(kokkos_flags().begin(), kokkos_flags().end(),
                                [&](const KokkosFlag& k) { return name == k.name; });
    if (f == kokkos_flags().end())
      throw Error(name + " is not a Kokkos flag; accepted: " + all_usages());
    check_value(*f, word, has_value, value, i < next.size() ? next[i] : "");
    if (const auto [at, fresh] = seen.emplace(name, has_value ? value : "(alone)"); !fresh)
      throw Error(name + " is given twice (" + at->second + ", " + (has_value ? value : "(alone)") +
                  "); accepted: each flag once");
  }
}

}  // namespace wavefd::app
