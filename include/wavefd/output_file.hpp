#pragma once
// Every file wavefd writes (summaries, bench/tune/probe JSON, the tuning cache, traces, slices) goes
// through here, so that a file is whole or absent:
//  - it is written under a unique temporary name in the target's directory, every write and the
//    close checked (a full disk is an error naming the path), synced where the data matters, then
//    renamed over the target, which must be a regular file or absent (a special file, a directory
//    or a symlink to one is refused before any work);
//  - the files of a run that fails or is interrupted (SIGINT, SIGTERM) are removed, temporaries
//    included (RunOutputs);
//  - no output of a run may be one of its inputs or another of its outputs (PathPlan).
#include <string>
#include <string_view>
#include <vector>

namespace wavefd {

// Throws Error naming `key` unless `path` can be written: its directory exists and a file can be
// created there (tried), the name fits, and the target is absent or a regular file (or a symlink
// to one). Run it before the work, on the rank that will write.
void check_output_path(const std::string& path, const std::string& key);

enum class Sync { data, none };  // fsync before the rename, or not (slices: removed if the run fails)

// One output file in the making. Not committed, it leaves nothing: the destructor removes the
// temporary. Every error throws Error "<key> = '<path>' could not be written: <reason>".
class OutputFile {
 public:
  OutputFile(const std::string& path, const std::string& key, Sync sync = Sync::data);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  void write(const void* data, std::size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // For libraries that open files by name (segyio): the temporary, closed here first.
  const std::string& temporary();
  // Syncs, closes and renames the temporary over the target: from here on the file is whole.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& why);
  std::string path_, key_, target_, temporary_;
  Sync sync_;
  int fd_ = -1;
  bool committed_ = false;
};

// The whole file at once.
void write_output_file(const std::string& path, const std::string& key, std::string_view contents,
                       Sync sync = Sync::data);

// Files a run writes as it goes (slices) or before its summary (traces): each is written under
// "<path>.unfinished" (staged()) and renamed to <path> by keep() once the run has finished. A run
// that ends without keep() (an error, a non-finite field) removes them, and so does the handler
// of SIGINT, SIGTERM and SIGHUP; a process killed outright (SIGKILL: Open MPI's mpirun does that
// to its ranks on Ctrl-C) leaves them under the name that says the run did not finish.
inline constexpr const char* kUnfinished = ".unfinished";

class RunOutputs {
 public:
  RunOutputs() = default;
  RunOutputs(const RunOutputs&) = delete;
  RunOutputs& operator=(const RunOutputs&) = delete;
  ~RunOutputs();
  // The name to write `path` under until keep(); `key` names it in errors.
  std::string staged(const std::string& path, const std::string& key);
  void keep();    // the run finished: every file takes its name (throws Error if one cannot)
  void remove();  // the run did not finish: its files go now

 private:
  struct File {
    std::string path, key;
  };
  std::vector<File> files_;
};

// The files one run reads and writes. Each output is checked by check_output_path; none may be an
// input or another output (compared by file identity where they exist, by canonical path where
// not). A series (slices: <prefix>-NNNNNN<suffix>) collides with any file its names could take.
class PathPlan {
 public:
  void input(const std::string& key, const std::string& path);
  void output(const std::string& key, const std::string& path, bool staged = false);  // staged: see RunOutputs
  void output_series(const std::string& key, const std::string& prefix, const std::string& suffix,
                     const std::string& example);
  void check() const;  // throws Error naming both keys of the first clash

 private:
  struct Entry {
    std::string key, path;
    bool output = false;
    std::string series_suffix;  // non-empty: path is the prefix of a series
  };
  std::vector<Entry> entries_;
};

}  // namespace wavefd
