#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "wavefd/types.hpp"

namespace wavefd {

std::string file_kind(unsigned mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a pipe (FIFO)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

namespace {

constexpr std::size_t kMaxBytes = std::size_t(64) << 20;
constexpr const char* kText = "a readable text file or pipe";
constexpr const char* kRegular = "a readable regular file (it is read by seeking)";

[[noreturn]] void refuse(const std::string& subject, const std::string& why, const char* accepted) {
  throw Error(subject + " cannot be read: " + why + "; accepted: " + accepted);
}

std::string system_reason(int error) {
  switch (error) {
    case ENOENT: return "no such file";
    case ENOTDIR: return "a part of its path is not a directory";
    case EACCES: return "permission denied";
    case EISDIR: return "it is a directory";
    case ENAMETOOLONG: return "its name is too long";
    case ELOOP: return "too many levels of symbolic links";
    default: return std::strerror(error);
  }
}


// Refuses what `path` names unless it is a regular file (or, when `pipes`, a pipe), before it is
// opened: opening a device can block or have effects of its own.
void check_kind(const std::string& path, const std::string& subject, bool pipes, const char* accepted) {
  if (path.empty()) refuse(subject, "the name is empty", accepted);
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) refuse(subject, system_reason(errno), accepted);
  if (!S_ISREG(st.st_mode) && !(pipes && S_ISFIFO(st.st_mode))) refuse(subject, "it is " + file_kind(st.st_mode), accepted);
}

// Reads `path` after check_kind: the descriptor is checked again (the file may have changed).
std::string read_text(const std::string& path, const std::string& subject) {
  check_kind(path, subject, true, kText);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(subject, system_reason(errno), kText);
  std::string text;
  std::string why;
  struct stat st{};
  if (::fstat(fd, &st) != 0) why = system_reason(errno);
  else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) why = "it is " + file_kind(st.st_mode);
  char buffer[65536];
  while (why.empty()) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) why = system_reason(errno);
    if (got <= 0) break;
    text.append(buffer, std::size_t(got));
    if (text.size() > kMaxBytes) why = "it is larger than 64 MiB";
  }
  ::close(fd);
  if (!why.empty()) refuse(subject, why, kText);
  if (const auto at = text.find('\0'); at != std::string::npos)
    refuse(subject, "it holds binary data (a NUL byte at offset " + std::to_string(at) + ")", kText);
  return text;
}

}  // namespace

const std::string& read_input(const std::string& path, const std::string& subject) {
  // A pipe can be read only once; a regular file is read again only if it changed since (the
  // unit tests rewrite one deck path in one process).
  struct Read {
    std::string text;
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    timespec modified{};
  };
  static std::map<std::string, Read> read;
  struct stat st{};
  const bool regular = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  const auto it = read.find(path);
  if (it != read.end()) {
    const Read& r = it->second;
    const bool same = r.device == st.st_dev && r.inode == st.st_ino && r.size == st.st_size &&
                      r.modified.tv_sec == st.st_mtim.tv_sec && r.modified.tv_nsec == st.st_mtim.tv_nsec;
    if (!regular || same) return r.text;
  }
  Read r{read_text(path, subject), st.st_dev, st.st_ino, st.st_size, st.st_mtim};
  return read.insert_or_assign(path, std::move(r)).first->second.text;
}

std::optional<std::string> read_input_now(const std::string& path, const std::string& subject, bool missing_ok) {
  struct stat st{};
  if (missing_ok && !path.empty() && ::stat(path.c_str(), &st) != 0 && errno == ENOENT) return std::nullopt;
  return read_text(path, subject);
}

void check_regular_input(const std::string& path, const std::string& subject) {
  check_kind(path, subject, false, kRegular);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(subject, system_reason(errno), kRegular);
  ::close(fd);
}

}  // namespace wavefd
