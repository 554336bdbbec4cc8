// The one writer of output files: whole or absent, never over a special file, never over an input.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "expect_error.hpp"
#include "wavefd/output_file.hpp"

namespace {

namespace fs = std::filesystem;
using namespace wavefd;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("wavefd-output-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : fs::directory_iterator(dir_)) n.push_back(e.path().filename().string());
    std::sort(n.begin(), n.end());
    return n;
  }
  static std::string read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void write(const std::string& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
  fs::path dir_;
};

TEST_F(OutputFileTest, WritesWholeFileAndLeavesNoTemporary) {
  write_output_file(path("s.json"), "output.summary", "{\"a\": 1}\n");
  EXPECT_EQ(read(path("s.json")), "{\"a\": 1}\n");
  EXPECT_EQ(names(), std::vector<std::string>{"s.json"});
}

TEST_F(OutputFileTest, UncommittedFileLeavesNothing) {
  {
    OutputFile f(path("s.json"), "output.summary");
    f.write("partial");
  }  // an exception between write and commit ends here
  EXPECT_TRUE(names().empty());
}

TEST_F(OutputFileTest, ReplacesRegularFileKeepingItsMode) {
  write(path("s.json"), "old");
  ::chmod(path("s.json").c_str(), 0640);
  write_output_file(path("s.json"), "output.summary", "new");
  EXPECT_EQ(read(path("s.json")), "new");
  struct stat st {};
  ASSERT_EQ(::stat(path("s.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST_F(OutputFileTest, FileNamedLikeAnOldTemporarySurvives) {
  write(path("s.json.tmp"), "the user's");
  write_output_file(path("s.json"), "output.summary", "new");
  EXPECT_EQ(read(path("s.json.tmp")), "the user's");
  EXPECT_EQ(names(), (std::vector<std::string>{"s.json", "s.json.tmp"}));
}

TEST_F(OutputFileTest, TwoFilesInTheMakingBesideEachOtherGetDistinctTemporaries) {
  OutputFile a(path("s.json"), "a"), b(path("s.json"), "b");
  EXPECT_NE(a.temporary(), b.temporary());
}

TEST_F(OutputFileTest, RefusesDirectoriesAndSpecialFiles) {
  fs::create_directory(path("d"));
  expect_error([&] { check_output_path(path("d"), "output.summary"); }, "is a directory; accepted:");
  expect_error([&] { check_output_path("/dev/null", "output.summary"); }, "'/dev/null' is a character device; accepted:");
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  expect_error([&] { check_output_path(path("fifo"), "--json"); }, "is a pipe (FIFO); accepted:");
  fs::create_symlink("/dev/null", path("to-null"));
  expect_error([&] { check_output_path(path("to-null"), "receivers.file"); }, "is a symlink to a character device");
  fs::create_symlink(path("nowhere"), path("dangling"));
  expect_error([&] { check_output_path(path("dangling"), "receivers.file"); }, "is a symlink to nothing");
  expect_error([&] { check_output_path(path("missing/s.json"), "output.summary"); }, "does not exist");
  expect_error([&] { check_output_path(path(std::string(300, 'x')), "output.summary"); }, "the file name is 300 bytes long");
  expect_error([&] { check_output_path("", "output.summary"); }, "names no file");
  EXPECT_EQ(::access("/dev/null", W_OK), 0);  // untouched
}

TEST_F(OutputFileTest, RefusesDirectoryWhereNoFileCanBeCreated) {
  expect_error([&] { check_output_path("/proc/wavefd-summary.json", "output.summary"); }, "no file can be created in '/proc'");
}

TEST_F(OutputFileTest, SymlinkToRegularFileIsWrittenThrough) {
  write(path("real.json"), "old");
  fs::create_symlink(path("real.json"), path("link.json"));
  write_output_file(path("link.json"), "output.summary", "new");
  EXPECT_TRUE(fs::is_symlink(path("link.json")));
  EXPECT_EQ(read(path("real.json")), "new");
}

TEST_F(OutputFileTest, RunOutputsTakeTheirNamesOnlyWhenKept) {
  {
    RunOutputs outputs;
    const std::string staged = outputs.staged(path("slice-000010.bin"), "output.slices");
    EXPECT_EQ(staged, path("slice-000010.bin.unfinished"));
    write_output_file(staged, "output.slices", "x", Sync::none);
    EXPECT_EQ(names(), std::vector<std::string>{"slice-000010.bin.unfinished"});
  }  // the run ended without keep(): an error, a non-finite field
  EXPECT_TRUE(names().empty());
  {
    RunOutputs outputs;
    write_output_file(outputs.staged(path("traces.bin"), "receivers.file"), "receivers.file", "x");
    outputs.keep();
  }
  EXPECT_EQ(names(), std::vector<std::string>{"traces.bin"});
  EXPECT_EQ(read(path("traces.bin")), "x");
}

TEST_F(OutputFileTest, PlanRefusesAnOutputThatIsAnInputOrAnotherOutput) {
  write(path("deck.toml"), "[grid]\n");
  {
    PathPlan p;
    p.input("deck", path("deck.toml"));
    p.output("output.summary", path("deck.toml"));
    expect_error([&] { p.check(); }, "output.summary = '" + path("deck.toml") + "' is the input deck = ");
  }
  {  // the same file by another name
    PathPlan p;
    p.input("deck", path("deck.toml"));
    p.output("output.summary", dir_.string() + "/./deck.toml");
    expect_error([&] { p.check(); }, "is the input deck");
  }
  {  // two outputs, neither existing yet
    PathPlan p;
    p.output("output.summary", path("out"));
    p.output("receivers.file", dir_.string() + "//out");
    expect_error([&] { p.check(); }, "is also receivers.file");
  }
  {  // a slice name
    PathPlan p;
    p.output("output.summary", path("snap-000100.bin"));
    p.output_series("output.slices", path("snap"), ".bin", path("snap-000000.bin"));
    expect_error([&] { p.check(); }, "output.summary = '" + path("snap-000100.bin") + "' is also output.slices = '" +
                                         path("snap") + "-NNNNNN.bin'");
  }
  {  // distinct files pass
    PathPlan p;
    p.input("deck", path("deck.toml"));
    p.output("output.summary", path("s.json"));
    p.output("receivers.file", path("t.bin"));
    p.output_series("output.slices", path("snap"), ".bin", path("snap-000000.bin"));
    p.check();
  }
  EXPECT_EQ(names(), std::vector<std::string>{"deck.toml"});  // the checks leave nothing
}

}  // namespace
