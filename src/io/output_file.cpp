// The one writer of output files (include/wavefd/output_file.hpp).
#include "wavefd/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <random>

#include "input_file.hpp"
#include "wavefd/types.hpp"

namespace wavefd {
namespace {

namespace fs = std::filesystem;

constexpr const char* kAcceptedPath = "accepted: a new file or a regular file to replace, in an existing writable directory";

std::string quoted(const std::string& key, const std::string& path) { return key + " = '" + path + "'"; }


// --- files to remove on SIGINT/SIGTERM -----------------------------------------------------------
// A list the signal handler may walk at any moment, from any thread: nodes are never freed, a
// path is published or withdrawn by one atomic store, and the strings are never freed either
// (a run registers a few per file it writes).
struct PendingNode {
  std::atomic<const char*> path{nullptr};
  PendingNode* next = nullptr;
};
std::atomic<PendingNode*> pending_head{nullptr};
std::mutex pending_mutex;  // writers only; the handler never takes it

struct sigaction previous_action[65];  // what SIGINT, SIGTERM and SIGHUP did before: they still do it
// Set before the handler walks the list. The handler may run in another thread while this one goes
// on until the signal is raised again: a file it creates or renames into place after the walk is
// removed by itself (create_temporary, OutputFile::commit).
std::atomic<bool> signalled{false};

extern "C" void remove_pending_and_reraise(int sig) {
  signalled.store(true);
  for (PendingNode* n = pending_head.load(); n != nullptr; n = n->next)
    if (const char* p = n->path.load()) ::unlink(p);
  sigaction(sig, &previous_action[sig], nullptr);  // then as without this handler: die of it, or
  std::raise(sig);                                 // the handler MPI or a tool had set
}

void install_handlers_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction& old = previous_action[sig];
      if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // nohup keeps it ignored
      struct sigaction sa {};
      sa.sa_handler = remove_pending_and_reraise;
      sigemptyset(&sa.sa_mask);
      sigaction(sig, &sa, nullptr);
    }
  });
}

PendingNode* add_pending(const std::string& path) {
  install_handlers_once();
  const char* copy = strdup(path.c_str());
  std::lock_guard lock(pending_mutex);
  for (PendingNode* n = pending_head.load(); n != nullptr; n = n->next)
    if (n->path.load() == nullptr) return n->path.store(copy), n;
  auto* n = new PendingNode;
  n->path.store(copy);
  n->next = pending_head.load();
  pending_head.store(n);
  return n;
}

void drop_pending(PendingNode* n) {
  if (n == nullptr) return;
  std::lock_guard lock(pending_mutex);
  n->path.store(nullptr);
}

// Which PendingNode holds which path (for OutputFile's temporary and RunOutputs' files).
PendingNode* node_of(const std::string& path) {
  std::lock_guard lock(pending_mutex);
  for (PendingNode* n = pending_head.load(); n != nullptr; n = n->next)
    if (const char* p = n->path.load(); p != nullptr && path == p) return n;
  return nullptr;
}

// --- paths ----------------------------------------------------------------------------------------

std::string directory_of(const std::string& target) {
  const fs::path dir = fs::path(target).parent_path();
  return dir.empty() ? "." : dir.string();
}

void check_name_length(const std::string& target, const std::string& path, const std::string& key) {
  const std::string dir = directory_of(target);
  long limit = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (limit <= 0) limit = NAME_MAX;  // the directory is missing (named later)
  const std::size_t name = fs::path(target).filename().string().size();
  if (limit > 0 && name > std::size_t(limit))
    throw Error(quoted(key, path) + ": the file name is " + std::to_string(name) + " bytes long; accepted: at most " +
                std::to_string(limit) + " bytes");
  if (target.size() >= PATH_MAX)
    throw Error(quoted(key, path) + ": the path is " + std::to_string(target.size()) + " bytes long; accepted: fewer than " +
                std::to_string(PATH_MAX));
}

// Where the file will really be written: `path`, or the regular file a symlink names. Throws
// Error for anything else that is already there.
std::string resolve_target(const std::string& path, const std::string& key) {
  if (path.empty()) throw Error(key + " = '' names no file; " + kAcceptedPath);
  check_name_length(path, path, key);
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      if (path.back() == '/') throw Error(quoted(key, path) + " names a directory; " + kAcceptedPath);
      return path;
    }
    throw Error(quoted(key, path) + " cannot be used: " + std::strerror(errno) + "; " + kAcceptedPath);
  }
  if (S_ISREG(st.st_mode)) return path;
  if (!S_ISLNK(st.st_mode)) throw Error(quoted(key, path) + " is " + file_kind(st.st_mode) + "; " + kAcceptedPath);
  if (::stat(path.c_str(), &st) != 0)
    throw Error(quoted(key, path) + " is a symlink to nothing (" + std::strerror(errno) + "); " + kAcceptedPath);
  if (!S_ISREG(st.st_mode))
    throw Error(quoted(key, path) + " is a symlink to " + file_kind(st.st_mode) + "; " + kAcceptedPath);
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  if (ec) throw Error(quoted(key, path) + " cannot be resolved: " + ec.message() + "; " + kAcceptedPath);
  return real.string();
}

// A new, empty file with a unique name beside `target` (open, fd returned); errno on failure. The
// name is registered for removal on SIGINT/SIGTERM/SIGHUP before the file exists, so that no
// signal can come between its creation and its registration and leave it behind (mkstemp names
// the file only as it creates it). A name taken by another file is given up and another drawn.
// (Nothing helps against SIGKILL, which Open MPI's mpirun sends its ranks after a SIGINT or
// SIGTERM: a temporary being written then stays, hidden, beside its `.unfinished` file.)
int create_temporary(const std::string& target, std::string& name) {
  const fs::path t(target);
  // Short enough to fit any name limit the target itself fits (the target's name is cut, not ours).
  const std::string base = t.filename().string().substr(0, 64);
  static std::atomic<std::uint64_t> drawn{0};
  std::mt19937_64 draw(std::uint64_t(::getpid()) << 32 ^ std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                       drawn.fetch_add(1) * 0x9E3779B97F4A7C15ull);
  static constexpr char kLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string suffix(6, ' ');
    for (char& c : suffix) c = kLetters[draw() % (sizeof kLetters - 1)];
    name = (t.parent_path() / ("." + base + ".wavefd-" + suffix)).string();
    PendingNode* node = add_pending(name);
    const int fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 && signalled.load()) {  // the handler may have walked the list before the name was in it
      ::close(fd), ::unlink(name.c_str()), drop_pending(node);
      return errno = EINTR, -1;
    }
    if (fd >= 0) return fd;
    const int error = errno;
    drop_pending(node);
    if (error != EEXIST) return errno = error, -1;
  }
  return errno = EEXIST, -1;
}

// A file's identity: device and inode where it exists, else its canonical path.
struct Identity {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string canonical;
  bool operator==(const Identity& o) const {
    return exists == o.exists && (exists ? dev == o.dev && ino == o.ino : canonical == o.canonical);
  }
};

Identity identity_of(const std::string& path) {
  Identity id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) return id.exists = true, id.dev = st.st_dev, id.ino = st.st_ino, id;
  std::error_code ec;
  id.canonical = fs::weakly_canonical(fs::absolute(path, ec), ec).string();
  return id;
}

}  // namespace

void check_output_path(const std::string& path, const std::string& key) {
  const std::string target = resolve_target(path, key);
  const std::string dir = directory_of(target);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw Error(quoted(key, path) + ": the directory '" + dir + "' does not exist (" + std::strerror(errno) + "); " +
                kAcceptedPath);
  if (!S_ISDIR(st.st_mode)) throw Error(quoted(key, path) + ": '" + dir + "' is not a directory; " + kAcceptedPath);
  check_name_length(target, path, key);
  std::string probe;
  const int fd = create_temporary(target, probe);
  if (fd < 0)
    throw Error(quoted(key, path) + ": no file can be created in '" + dir + "' (" + std::strerror(errno) + "); " +
                kAcceptedPath);
  ::close(fd);
  ::unlink(probe.c_str());
  drop_pending(node_of(probe));
}

// --- OutputFile -----------------------------------------------------------------------------------

OutputFile::OutputFile(const std::string& path, const std::string& key, Sync sync)
    : path_(path), key_(key), sync_(sync) {
  check_output_path(path, key);
  target_ = resolve_target(path, key);
  fd_ = create_temporary(target_, temporary_);  // registered for removal on a signal
  if (fd_ < 0) temporary_.clear(), fail(std::strerror(errno));
}

OutputFile::~OutputFile() {
  if (committed_) return;
  if (fd_ >= 0) ::close(fd_);
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
    drop_pending(node_of(temporary_));
  }
}

void OutputFile::fail(const std::string& why) {
  if (fd_ >= 0) ::close(fd_), fd_ = -1;
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
    drop_pending(node_of(temporary_));
    temporary_.clear();
  }
  throw Error(quoted(key_, path_) + " could not be written: " + why);
}

void OutputFile::write(const void* data, std::size_t bytes) {
  if (fd_ < 0) fail("internal: written after it was closed");
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? std::strerror(errno) : "the device took no bytes");
    p += n, bytes -= std::size_t(n);
  }
}

const std::string& OutputFile::temporary() {
  if (fd_ >= 0 && ::close(fd_) != 0) fd_ = -1, fail(std::strerror(errno));
  fd_ = -1;
  return temporary_;
}

void OutputFile::commit() {
  if (fd_ < 0) {  // filled by name (temporary()): reopen to sync what the library wrote
    fd_ = ::open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(std::strerror(errno));
  }
  // The mode a new file would get (the temporary is made 0600), or the mode of the file it replaces.
  struct stat old {};
  mode_t mode;
  if (::stat(target_.c_str(), &old) == 0) mode = old.st_mode & 07777;
  else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd_, mode) != 0) fail(std::strerror(errno));
  if (sync_ == Sync::data && ::fsync(fd_) != 0) fail(std::strerror(errno));
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) fail(std::strerror(errno));
  // The target may have changed since the check (another program): a regular file or nothing.
  struct stat now {};
  if (::lstat(target_.c_str(), &now) == 0 && !S_ISREG(now.st_mode))
    fail("it became " + file_kind(now.st_mode) + " during the run");
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) fail(std::strerror(errno));
  drop_pending(node_of(temporary_));
  committed_ = true;
  // Renamed after the handler's walk: a file the run stages (registered, RunOutputs) goes too; a
  // file it replaces whole (a summary, a tuning file) stays, complete.
  if (signalled.load() && node_of(target_) != nullptr) ::unlink(target_.c_str());
  if (sync_ == Sync::data) {  // the rename itself survives a crash once the directory is synced
    const int dir = ::open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) ::fsync(dir), ::close(dir);
  }
}

void write_output_file(const std::string& path, const std::string& key, std::string_view contents, Sync sync) {
  OutputFile f(path, key, sync);
  f.write(contents);
  f.commit();
}

// --- RunOutputs -----------------------------------------------------------------------------------

RunOutputs::~RunOutputs() { remove(); }

std::string RunOutputs::staged(const std::string& path, const std::string& key) {
  const std::string unfinished = path + kUnfinished;
  for (const auto& f : files_)
    if (f.path == path) return unfinished;
  files_.push_back({path, key});
  add_pending(unfinished);
  return unfinished;
}

void RunOutputs::keep() {
  for (const auto& f : files_) {
    const std::string unfinished = f.path + kUnfinished;
    struct stat now {};
    if (::lstat(f.path.c_str(), &now) == 0 && !S_ISREG(now.st_mode))  // appeared during the run
      throw Error(quoted(f.key, f.path) + " is " + file_kind(now.st_mode) + " now; " + kAcceptedPath);
    if (::rename(unfinished.c_str(), f.path.c_str()) != 0)
      throw Error(quoted(f.key, f.path) + " could not be written: renaming '" + unfinished + "' failed: " +
                  std::strerror(errno));  // the destructor removes what is left
    drop_pending(node_of(unfinished));
  }
  files_.clear();
}

void RunOutputs::remove() {
  for (const auto& f : files_) {
    const std::string unfinished = f.path + kUnfinished;
    ::unlink(unfinished.c_str());
    drop_pending(node_of(unfinished));
  }
  files_.clear();
}

// --- PathPlan -------------------------------------------------------------------------------------

void PathPlan::input(const std::string& key, const std::string& path) {
  if (!path.empty()) entries_.push_back({key, path, false, ""});
}

void PathPlan::output(const std::string& key, const std::string& path, bool staged) {
  if (path.empty()) return;
  check_output_path(path, key);
  if (staged) check_output_path(path + kUnfinished, key);
  entries_.push_back({key, path, true, ""});
}

void PathPlan::output_series(const std::string& key, const std::string& prefix, const std::string& suffix,
                             const std::string& example) {
  if (prefix.empty()) return;
  check_output_path(example, key);
  check_output_path(example + kUnfinished, key);  // written so until the run finishes
  entries_.push_back({key, prefix, true, suffix});
}

namespace {
// Every file already in the series' directory under one of its names (or their staged names) must
// be one a run may replace.
void check_series_members(const std::string& key, const std::string& prefix, const std::string& suffix) {
  const fs::path p(prefix);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string stem = p.filename().string() + "-";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.ends_with(kUnfinished)) name.resize(name.size() - std::strlen(kUnfinished));
    if (name.size() <= stem.size() + suffix.size() || name.rfind(stem, 0) != 0 || !name.ends_with(suffix)) continue;
    const std::string digits = name.substr(stem.size(), name.size() - stem.size() - suffix.size());
    if (digits.find_first_not_of("0123456789") == std::string::npos) (void)resolve_target(it->path().string(), key);
  }
}
}  // namespace

void PathPlan::check() const {
  for (const Entry& e : entries_)
    if (!e.series_suffix.empty()) check_series_members(e.key, e.path, e.series_suffix);
  // Whether `path` is one of the names the series <prefix>-NNNNNN<suffix> can take.
  auto in_series = [](const Entry& series, const std::string& path) {
    const fs::path p(path), s(series.path);
    const std::string name = p.filename().string(), stem = s.filename().string() + "-";
    if (name.size() <= stem.size() + series.series_suffix.size() || name.rfind(stem, 0) != 0 ||
        !name.ends_with(series.series_suffix))
      return false;
    const std::string digits = name.substr(stem.size(), name.size() - stem.size() - series.series_suffix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos) return false;
    const auto dir = [](const fs::path& f) { return f.parent_path().empty() ? std::string(".") : f.parent_path().string(); };
    return identity_of(dir(p)) == identity_of(dir(s));
  };
  for (std::size_t a = 0; a < entries_.size(); ++a)
    for (std::size_t b = a + 1; b < entries_.size(); ++b) {
      const Entry* x = &entries_[a];
      const Entry* y = &entries_[b];
      if (!x->output && !y->output) continue;
      if (!x->output) std::swap(x, y);  // x: an output; y: an input or another output
      const bool x_series = !x->series_suffix.empty(), y_series = !y->series_suffix.empty();
      const bool clash = x_series && y_series ? x->series_suffix == y->series_suffix && identity_of(x->path) == identity_of(y->path)
                         : x_series           ? in_series(*x, y->path)
                         : y_series           ? in_series(*y, x->path)
                                              : identity_of(x->path) == identity_of(y->path);
      if (!clash) continue;
      const auto shown = [](const Entry& e) { return "'" + e.path + (e.series_suffix.empty() ? "" : "-NNNNNN" + e.series_suffix) + "'"; };
      throw Error(x->key + " = " + shown(*x) + (y->output ? " is also " : " is the input ") + y->key + " = " +
                  shown(*y) + "; accepted: outputs that are not an input or another output of this run");
    }
}

}  // namespace wavefd
