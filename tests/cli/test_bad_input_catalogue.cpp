// Runs every case of the bad-input catalogue (tests/cli/catalogue/*.toml,
// format in its README.md) through the real simtlab binary: exit code, the
// words of the message, and which files are left behind or left untouched.
#define BOOST_TEST_MODULE bad_input_catalogue
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <toml++/toml.h>

#include "common/simtlab_process.h"

namespace fs = std::filesystem;
namespace bdata = boost::unit_test::data;

namespace {

const fs::path kCatalogue = SIMT_SOURCE_DIR "/tests/cli/catalogue";

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(kCatalogue))
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

struct Case {
  std::string about;
  std::vector<std::string> args;
  int exit = -1;
  std::vector<std::string> says, absent, present, unchanged;
  int64_t interrupt_after_ms = 0;
  int64_t timeout_s = 60;
  int64_t max_rss_mb = 0;  // > 0: the run's peak resident memory must stay below this
  std::map<std::string, std::string> files;
};

std::string expand(std::string s, const fs::path& tmp) {
  const std::pair<std::string, std::string> subst[] = {{"{src}", SIMT_SOURCE_DIR}, {"{tmp}", tmp.string()}};
  for (const auto& [key, value] : subst)
    for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size()))
      s.replace(at, key.size(), value);
  return s;
}

// A malformed case must fail loudly, never pass by checking nothing.
std::vector<std::string> strings(const toml::table& t, const char* key, const fs::path& tmp) {
  std::vector<std::string> v;
  const toml::node* n = t.get(key);
  if (!n) return v;
  const toml::array* a = n->as_array();
  if (!a) throw std::runtime_error(std::string(key) + " must be an array of strings");
  for (const auto& e : *a) {
    auto s = e.value<std::string>();
    if (!s) throw std::runtime_error(std::string(key) + " must be an array of strings");
    v.push_back(expand(*s, tmp));
  }
  return v;
}

Case load_case(const fs::path& file, const fs::path& tmp) {
  toml::table t = toml::parse_file(file.string());
  static const std::set<std::string> known = {"about",   "args",      "exit",      "says",
                                              "absent",  "present",   "unchanged", "interrupt_after_ms",
                                              "timeout_s", "max_rss_mb", "files"};
  for (const auto& [key, node] : t)
    if (!known.count(std::string(key.str()))) throw std::runtime_error("unknown key '" + std::string(key.str()) + "'");
  Case c;
  c.about = t["about"].value_or(std::string());
  if (c.about.empty()) throw std::runtime_error("'about' is missing");
  c.args = strings(t, "args", tmp);
  if (c.args.empty()) throw std::runtime_error("'args' is missing or empty");
  c.exit = static_cast<int>(t["exit"].value_or(int64_t{-1}));
  if (c.exit < 0) throw std::runtime_error("'exit' is missing");
  c.says = strings(t, "says", tmp);
  if (c.exit != 0 && c.says.empty()) throw std::runtime_error("a failing case must say which words it expects");
  c.absent = strings(t, "absent", tmp);
  c.present = strings(t, "present", tmp);
  c.unchanged = strings(t, "unchanged", tmp);
  c.interrupt_after_ms = t["interrupt_after_ms"].value_or(int64_t{0});
  c.timeout_s = t["timeout_s"].value_or(int64_t{60});
  c.max_rss_mb = t["max_rss_mb"].value_or(int64_t{0});
  if (const toml::table* f = t["files"].as_table())
    for (const auto& [name, node] : *f) {
      auto text = node.value<std::string>();
      if (!text) throw std::runtime_error("files." + std::string(name.str()) + " must be a string");
      c.files[std::string(name.str())] = expand(*text, tmp);
    }
  return c;
}

struct Outcome {
  int code = -1;       // exit code, -1 if killed by a signal
  int signal = 0;      // the signal that ended it
  bool timed_out = false;
  int64_t peak_rss_kb = 0;  // the run's peak resident memory
  std::string out, err;
};

// fork/exec rather than system(): the case may need a signal at a set time
// and must be killed if it hangs.
Outcome run(const Case& c, const fs::path& logs) {
  std::vector<std::string> argv_s = {SIMT_BINARY_DIR "/simtlab"};
  argv_s.insert(argv_s.end(), c.args.begin(), c.args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  const fs::path out = logs / "stdout", err = logs / "stderr";
  const pid_t pid = fork();
  if (pid == 0) {
    int in = open("/dev/null", O_RDONLY);
    int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || o < 0 || e < 0) _exit(126);
    dup2(in, 0), dup2(o, 1), dup2(e, 2);
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  Outcome r;
  const auto start = std::chrono::steady_clock::now();
  bool interrupted = false;
  int status = 0;
  struct rusage usage {};
  for (;;) {
    if (wait4(pid, &status, WNOHANG, &usage) == pid) break;
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    if (c.interrupt_after_ms > 0 && !interrupted && ms >= c.interrupt_after_ms) {
      kill(pid, SIGINT);
      interrupted = true;
    }
    if (ms >= c.timeout_s * 1000) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.peak_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) r.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = simt::test::slurp(out);
  r.err = simt::test::slurp(err);
  return r;
}

}  // namespace

// Item 19 of issue 8 asks for a catalogue of at least 40 bad inputs.
BOOST_AUTO_TEST_CASE(catalogue_is_large_enough) { BOOST_TEST(case_names().size() >= 40u); }

BOOST_DATA_TEST_CASE(bad_input, bdata::make(case_names()), name) {
  BOOST_TEST_CONTEXT("case " << name) {
    const fs::path root = fs::temp_directory_path() / ("simtlab_catalogue_" + std::to_string(::getpid())) / name;
    const fs::path tmp = root / "tmp", logs = root / "logs";
    fs::remove_all(root);
    fs::create_directories(tmp);
    fs::create_directories(logs);
    Case c;
    try {
      c = load_case(kCatalogue / (name + ".toml"), tmp);
    } catch (const std::exception& e) {
      BOOST_FAIL("malformed case file: " << e.what());
    }
    for (const auto& [rel, text] : c.files) {
      const fs::path p = tmp / rel;
      fs::create_directories(p.parent_path());
      std::ofstream(p, std::ios::binary) << text;
    }
    std::map<std::string, std::string> before;
    for (const auto& f : c.unchanged) {
      BOOST_REQUIRE_MESSAGE(fs::exists(f), "unchanged file " << f << " must exist before the run");
      before[f] = simt::test::slurp(f);
    }

    const Outcome r = run(c, logs);
    BOOST_TEST_INFO("about: " << c.about);
    BOOST_TEST_INFO("stdout: " << r.out);
    BOOST_TEST_INFO("stderr: " << r.err);
    BOOST_TEST(!r.timed_out, "did not finish within " << c.timeout_s << " s");
    BOOST_TEST(r.signal == 0, "killed by signal " << r.signal);
    BOOST_TEST(r.code == c.exit);
    if (c.max_rss_mb > 0)
      BOOST_TEST(r.peak_rss_kb < c.max_rss_mb * 1024, "peak resident memory " << r.peak_rss_kb / 1024 << " MB");
    for (const auto& w : c.says)
      BOOST_TEST((r.err.find(w) != std::string::npos || r.out.find(w) != std::string::npos),
                 "the output does not say '" << w << "'");
    for (const auto& f : c.absent) BOOST_TEST(!fs::exists(fs::symlink_status(f)), f << " was left behind");
    for (const auto& f : c.present) BOOST_TEST(fs::exists(f), f << " was not written");
    for (const auto& [f, bytes] : before) BOOST_TEST((fs::exists(f) && simt::test::slurp(f) == bytes), f << " changed");
    // Nothing else may be left behind: every regular file the run created in
    // the case's folder is one the case expects (catches temporaries and
    // partial outputs whatever they are called).
    for (const auto& e : fs::recursive_directory_iterator(tmp)) {
      if (!e.is_regular_file() || c.files.count(fs::relative(e.path(), tmp).string())) continue;
      const bool expected = std::find(c.present.begin(), c.present.end(), e.path().string()) != c.present.end();
      BOOST_TEST(expected, e.path() << " was left behind (list it under present if the case expects it)");
    }
    fs::remove_all(root);
  }
}
