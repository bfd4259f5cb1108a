#define BOOST_TEST_MODULE exec
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/simtlab_process.h"
#include "tb/elf_deps.h"
#include "tb/launch_set.h"
#include "tb/library_options.h"
#include "util/error.h"

// `simtlab exec`, the option tokens it hands to simtlab's CUDA library
// (tb/library_options.h), --launches and the ELF check (tb/elf_deps.h).
// The programs are stand-ins built by CMake (tests/cli/data/exec_*.cpp):
// no nvcc and no real CUDA library needed.
namespace fs = std::filesystem;

namespace {

using Run = simt::test::ProcessRun;

const std::string kFakes = SIMT_BINARY_DIR "/tests/cli/exec";
const std::string kFakeCudart13 = kFakes + "/cudart13";

fs::path scratch(const std::string& name) { return simt::test::fresh_scratch("exec", name); }

Run simtlab(const std::string& args) { return simt::test::run_simtlab_once(args, "exec"); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void write_executable(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  fs::permissions(p, fs::perms::owner_all);
}

// Sets (or with nullptr unsets) environment variables for one test, and
// puts back what was there.
class Env {
 public:
  Env& set(const std::string& name, const char* value) {
    if (!saved_.count(name)) {
      const char* old = std::getenv(name.c_str());
      saved_[name] = old ? std::make_pair(true, std::string(old)) : std::make_pair(false, std::string());
    }
    if (value)
      ::setenv(name.c_str(), value, 1);
    else
      ::unsetenv(name.c_str());
    return *this;
  }
  // No SIMTLAB_* option variable set, so a test sees only its own.
  Env& clear_options() {
    set("SIMTLAB_ARGV", nullptr);
    for (const auto& v : simt::tb::library_option_variables()) set(v.variable, nullptr);
    return *this;
  }
  ~Env() {
    for (const auto& [name, old] : saved_)
      if (old.first)
        ::setenv(name.c_str(), old.second.c_str(), 1);
      else
        ::unsetenv(name.c_str());
  }

 private:
  std::map<std::string, std::pair<bool, std::string>> saved_;
};

bool bad_input(const simt::Error& e) { return e.code() == simt::ExitCode::BadInput; }

// The message of the BadInput that `f` throws ("" if it throws none).
template <class F>
std::string bad_input_message(F f) {
  try {
    f();
  } catch (const simt::Error& e) {
    BOOST_TEST((e.code() == simt::ExitCode::BadInput), e.what());
    return e.what();
  }
  return "";
}

}  // namespace

// ---- the command line --------------------------------------------------------

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  Run r = simtlab("exec");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "put -- before the program"), r.err);
  r = simtlab("exec --mode functional /bin/true");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "put -- before the program"), r.err);
  r = simtlab("exec --mode functional --");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "no program after --"), r.err);
  r = simtlab("exec --bogus -- /bin/true");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "--bogus"), r.err);
  r = simtlab("exec -- simtlab-no-such-program-here");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "simtlab-no-such-program-here: not found in PATH"), r.err);
  r = simtlab("exec -- ./simtlab-no-such-program-here");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "./simtlab-no-such-program-here: No such file"), r.err);
  r = simtlab("exec -- /tmp");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "/tmp: is a folder"), r.err);
}

BOOST_AUTO_TEST_CASE(help_lists_the_run_options_and_launches) {
  Run r = simtlab("exec --help");
  BOOST_TEST(r.code == 0, r.err);
  for (const char* part : {"-- PROGRAM", "--launches", "--mode", "--config", "--stats", "--set", "--l1d.size"})
    BOOST_TEST(has(r.out, part), part);
  r = simtlab("--help");
  BOOST_TEST(has(r.out, "exec"), r.out);
}

// Every option error of `run` is found before the program starts: the
// script would leave a file behind.
BOOST_AUTO_TEST_CASE(bad_options_stop_before_the_program_starts) {
  const fs::path d = scratch("early");
  const fs::path script = d / "app.sh";
  write_executable(script, "#!/bin/sh\ntouch " + (d / "started").string() + "\n");
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str());
  const std::pair<std::string, std::string> cases[] = {
      {"--mode fast", "--mode"},
      {"--warp-size 3", "--warp-size"},
      {"--set nope.param=1", "nope.param"},
      {"--config " + (d / "missing.toml").string(), "--config"},
      {"--stats " + (d / "no/such/folder/s.json").string(), "does not exist"},
      {"--stats " + (d / "same").string() + " --csv " + (d / "same").string(), "--csv"},
      {"--mode functional --vcd " + (d / "w.vcd").string(), "waveforms need --mode timing"},
      {"--vcd-window 0:10", "give --vcd FILE too"},
      {"--trace-filter warps=0", "give --trace-warps FILE too"},
      {"--stats ''", "--stats: empty path"},
      {"--launches 0", "--launches"},
      {"--launches 5-3", "--launches"},
      {"--launches 2 --mode functional", "needs --mode timing"},
  };
  for (const auto& [options, message] : cases) {
    Run r = simtlab("exec " + options + " -- " + script.string());
    BOOST_TEST(r.code == 2, options);
    BOOST_TEST(has(r.err, message), options + ": " + r.err);
    BOOST_TEST(!fs::exists(d / "started"), options);
  }
  // The path check leaves no temporary behind.
  BOOST_TEST(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 1);
  fs::remove_all(d);
}

// A script runs as it is (the programs it starts inherit the preload): its
// output and exit code come through, and it sees the options and the library.
BOOST_AUTO_TEST_CASE(a_script_runs_with_the_options_and_the_library) {
  const fs::path d = scratch("script");
  const fs::path script = d / "app.sh";
  write_executable(script,
                   "#!/bin/sh\n"
                   "echo \"argv=$SIMTLAB_ARGV\"\n"
                   "echo \"preload=$LD_PRELOAD\"\n"
                   "echo \"libpath=$LD_LIBRARY_PATH\"\n"
                   "for a in \"$@\"; do echo \"arg=$a\"; done\n"
                   "exit 5\n");
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str()).set("LD_PRELOAD", nullptr);
  env.set("LD_LIBRARY_PATH", "/simtlab-test/elsewhere");
  Run r = simtlab("exec --mode functional --set sm.policy=lrr --quiet -- " + script.string() + " one 'two words' --mode");
  BOOST_TEST(r.code == 5, r.err);
  BOOST_TEST(r.out == "argv=[\"--mode\",\"functional\",\"--set\",\"sm.policy=lrr\",\"--quiet\"]\n"
                      "preload=" + kFakeCudart13 + "/libcudart.so.13\n"
                      "libpath=" + kFakeCudart13 + ":/simtlab-test/elsewhere\n"
                      "arg=one\narg=two words\narg=--mode\n");
  BOOST_TEST(r.err.empty(), r.err);
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(an_existing_preload_stays_after_the_library) {
  const fs::path d = scratch("preload");
  const fs::path script = d / "app.sh";
  write_executable(script, "#!/bin/sh\necho \"$LD_PRELOAD\"\n");
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str());
  // A preload that does not exist: ld.so says so on stderr and goes on.
  env.set("LD_PRELOAD", "/simtlab-test/none.so");
  Run r = simtlab("exec -- " + script.string());
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(r.out == kFakeCudart13 + "/libcudart.so.13:/simtlab-test/none.so\n");
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(a_program_that_needs_libcudart_13_runs) {
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str());
  Run r = simtlab("exec --mode functional -- " + kFakes + "/fake_app13 x 'y z'");
  BOOST_TEST(r.code == 7, r.err);
  BOOST_TEST(r.out == "fake app: runtime 13 [x] [y z]\n");
}

// The runtime is found through the program's own library (its RUNPATH).
BOOST_AUTO_TEST_CASE(a_program_that_needs_libcudart_13_through_its_library_runs) {
  const simt::tb::ElfDeps app = simt::tb::read_elf_deps(kFakes + "/fake_app_mid");
  BOOST_TEST((std::find(app.needed.begin(), app.needed.end(), "libcudart.so.13") == app.needed.end()));
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str());
  Run r = simtlab("exec -- " + kFakes + "/fake_app_mid");
  BOOST_TEST(r.code == 7, r.err);
  BOOST_TEST(r.out == "fake app: runtime 13\n");
}

// The preloaded library answers before the one the program would find
// itself: here a copy of the CUDA 12 fake under the name libcudart.so.13.
BOOST_AUTO_TEST_CASE(the_preloaded_library_comes_first) {
  const fs::path d = scratch("first");
  fs::copy_file(kFakes + "/cudart12/libcudart.so.12", d / "libcudart.so.13");
  Env env;
  env.set("SIMTLAB_CUDART_DIR", d.c_str());
  Run r = simtlab("exec -- " + kFakes + "/fake_app13");
  BOOST_TEST(r.code == 7, r.err);
  BOOST_TEST(r.out == "fake app: runtime 12\n");
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(a_missing_library_is_named) {
  const fs::path d = scratch("nolib");
  Env env;
  env.set("SIMTLAB_CUDART_DIR", d.c_str());
  Run r = simtlab("exec -- " + kFakes + "/fake_app13");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "SIMTLAB_CUDART_DIR=" + d.string() + ": there is no libcudart.so.13 in " + d.string()), r.err);
  BOOST_TEST(r.out.empty());
  // Without the variable simtlab looks beside itself (the build tree's
  // lib/simtlab), where this branch may not have built the library yet.
  env.set("SIMTLAB_CUDART_DIR", nullptr);
  if (!fs::exists(SIMT_BINARY_DIR "/lib/simtlab/libcudart.so.13")) {
    r = simtlab("exec -- " + kFakes + "/fake_app13");
    BOOST_TEST(r.code == 2);
    BOOST_TEST(has(r.err, "libcudart.so.13 is not in " SIMT_BINARY_DIR "/lib/simtlab nor in "), r.err);
  }
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(a_program_without_the_cuda_runtime_is_refused) {
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str());
  Run r = simtlab("exec -- /bin/true");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err == "simtlab: error: /bin/true uses no CUDA runtime (neither it nor its libraries need "
                      "libcudart.so.13); simtlab exec runs programs built with `nvcc -cudart shared`\n");
  r = simtlab("exec -- true");  // found in PATH, named as given
  BOOST_TEST(r.code == 2);
  BOOST_TEST(has(r.err, "error: true uses no CUDA runtime"), r.err);
}

BOOST_AUTO_TEST_CASE(a_program_with_the_static_runtime_is_refused) {
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str());
  Run r = simtlab("exec -- " + kFakes + "/fake_static");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err == "simtlab: error: " + kFakes + "/fake_static links the CUDA runtime statically (nvcc's "
                      "default); rebuild it with `nvcc -cudart shared`\n");
}

BOOST_AUTO_TEST_CASE(a_program_for_cuda_12_is_refused) {
  Env env;
  env.set("SIMTLAB_CUDART_DIR", kFakeCudart13.c_str());
  Run r = simtlab("exec -- " + kFakes + "/fake_app12");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err == "simtlab: error: " + kFakes + "/fake_app12 was built against CUDA 12's runtime (it needs "
                      "libcudart.so.12); simtlab provides libcudart.so.13: rebuild it with CUDA 13's nvcc and "
                      "`-cudart shared`\n");
  BOOST_TEST(r.out.empty());
}

BOOST_AUTO_TEST_CASE(a_truncated_elf_is_a_clear_error) {
  const fs::path d = scratch("trunc");
  const std::string whole = simt::test::slurp(kFakes + "/fake_app13");
  for (size_t len : {size_t{10}, size_t{100}, size_t{1000}}) {
    const fs::path p = d / ("cut" + std::to_string(len));
    write_executable(p, whole.substr(0, len));
    Run r = simtlab("exec -- " + p.string());
    BOOST_TEST(r.code == 2, len);
    BOOST_TEST(has(r.err, p.string() + ": malformed ELF file: "), r.err);
    BOOST_TEST(has(r.err, "truncated?"), r.err);
  }
  fs::remove_all(d);
}

// ---- the ELF reader ------------------------------------------------------------

BOOST_AUTO_TEST_CASE(elf_deps_of_the_stand_ins) {
  simt::tb::ElfDeps e = simt::tb::read_elf_deps(kFakes + "/fake_app12");
  BOOST_TEST(e.elf);
  BOOST_TEST(e.elf64);
  BOOST_TEST((std::find(e.needed.begin(), e.needed.end(), "libcudart.so.12") != e.needed.end()));
  BOOST_TEST(e.cuda_runtime_symbol.empty());  // cudaGetDeviceCount is the library's
  e = simt::tb::read_elf_deps(kFakes + "/fake_static");
  BOOST_TEST(e.cuda_runtime_symbol == "__cudaRegisterFatBinary");
  BOOST_TEST((std::find(e.needed.begin(), e.needed.end(), "libc.so.6") != e.needed.end()));
  const fs::path d = scratch("notelf");
  std::ofstream(d / "text") << "#!/bin/sh\n";
  BOOST_TEST(!simt::tb::read_elf_deps((d / "text").string()).elf);
  fs::remove_all(d);
}

// Every cut and many random corruptions of a real program: the reader
// answers or throws BadInput, never crashes or reads out of bounds (the
// sanitizer build checks the latter).
BOOST_AUTO_TEST_CASE(elf_reader_survives_cuts_and_corruption) {
  const fs::path d = scratch("fuzz");
  const std::string whole = simt::test::slurp(kFakes + "/fake_app12");
  BOOST_REQUIRE(whole.size() > 4096);
  const fs::path p = d / "prog";
  size_t refused = 0, tries = 0;
  auto attempt = [&](const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
    ++tries;
    try {
      simt::tb::read_elf_deps(p.string());
    } catch (const simt::Error& e) {
      BOOST_TEST(bad_input(e), e.what());
      ++refused;
    }
  };
  for (size_t len = 0; len < whole.size(); len += 97) attempt(whole.substr(0, len));
  std::mt19937 rng(36);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes = whole;
    for (int k = 0; k < 4; ++k) {
      // Mostly the headers and tables, where offsets and sizes live.
      const size_t at = rng() % (k < 3 ? std::min<size_t>(1024, bytes.size()) : bytes.size());
      bytes[at] = static_cast<char>(rng());
    }
    attempt(bytes);
  }
  BOOST_TEST(refused > 0);
  BOOST_TEST(refused < tries);
  fs::remove_all(d);
}

// ---- the options of the CUDA library ---------------------------------------------

BOOST_AUTO_TEST_CASE(argv_json_round_trip) {
  Env env;
  env.clear_options();
  env.set("SIMTLAB_ARGV", R"(["--mode","functional","--set","sm.policy=lrr","--max-cycles","1000","--quiet"])");
  env.set("SIMTLAB_MODE", "timing");  // ignored: SIMTLAB_ARGV wins
  const std::vector<std::string> tokens = simt::tb::tokens_from_environment();
  BOOST_TEST(tokens == (std::vector<std::string>{"--mode", "functional", "--set", "sm.policy=lrr", "--max-cycles",
                                                 "1000", "--quiet"}),
             boost::test_tools::per_element());
  const simt::tb::LibraryOptions lo = simt::tb::parse_library_options(tokens);
  BOOST_TEST(lo.run.mode == "functional");
  BOOST_TEST(lo.run.max_cycles == 1000u);
  BOOST_TEST(lo.run.quiet);
  BOOST_TEST(lo.launches.all());
  BOOST_TEST(lo.machine->registry.to_json()["sm.policy"] == "lrr");
  BOOST_TEST(lo.machine->registry.cli_assignments().size() == 1u);
}

BOOST_AUTO_TEST_CASE(option_variables_become_tokens) {
  Env env;
  env.clear_options();
  const std::string fermi = SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml";
  const std::string config2 = SIMT_SOURCE_DIR "/configs/vws-baseline.toml";
  env.set("SIMTLAB_CONFIG", (fermi + "," + config2).c_str());
  env.set("SIMTLAB_SET", "l1d.size=32768,sm.policy=lrr");
  env.set("SIMTLAB_QUIET", "1");
  env.set("SIMTLAB_LAUNCHES", "3-5,9");
  env.set("SIMTLAB_MAX_CYCLES", "1000");
  env.set("SIMTLAB_STATS", "");  // empty = not set
  const std::vector<std::string> tokens = simt::tb::tokens_from_environment();
  BOOST_TEST(tokens == (std::vector<std::string>{"--config=" + fermi, "--config=" + config2, "--max-cycles=1000",
                                                 "--quiet", "--launches=3-5,9", "--set=l1d.size=32768",
                                                 "--set=sm.policy=lrr"}),
             boost::test_tools::per_element());
  const simt::tb::LibraryOptions lo = simt::tb::parse_library_options(tokens);
  BOOST_TEST(lo.run.configs.size() == 2u);
  BOOST_TEST(lo.run.quiet);
  BOOST_TEST(lo.run.max_cycles == 1000u);
  BOOST_TEST(lo.run.stats_file.empty());
  BOOST_TEST(lo.machine->registry.to_json()["l1d.size"] == 32768);
  BOOST_TEST(lo.machine->registry.to_json()["sm.policy"] == "lrr");
  for (uint64_t n : {3, 4, 5, 9}) BOOST_TEST(lo.launches.contains(n), n);
  for (uint64_t n : {1, 2, 6, 8, 10}) BOOST_TEST(!lo.launches.contains(n), n);
  // A value that starts with '-' stays a value.
  env.clear_options();
  env.set("SIMTLAB_SEED", "-1");
  BOOST_TEST(has(bad_input_message([] { simt::tb::parse_library_options(simt::tb::tokens_from_environment()); }),
                 "--seed"));
  // No variable: no token, and the defaults.
  env.clear_options();
  BOOST_TEST(simt::tb::tokens_from_environment().empty());
  BOOST_TEST(simt::tb::parse_library_options({}).run.mode == "timing");
}

BOOST_AUTO_TEST_CASE(malformed_variables_name_themselves) {
  Env env;
  env.clear_options();
  for (const char* text : {"not json", "{\"a\": 1}", "[\"--quiet\", 1]", "\"--quiet\"", "[\"--quiet\""}) {
    env.set("SIMTLAB_ARGV", text);
    const std::string m = bad_input_message([] { simt::tb::tokens_from_environment(); });
    BOOST_TEST(has(m, "SIMTLAB_ARGV"), text << ": " << m);
  }
  env.clear_options();
  env.set("SIMTLAB_QUIET", "maybe");
  BOOST_TEST(has(bad_input_message([] { simt::tb::tokens_from_environment(); }), "SIMTLAB_QUIET=maybe"));
  env.clear_options();
  env.set("SIMTLAB_CONFIG", "a.toml,,b.toml");
  BOOST_TEST(has(bad_input_message([] { simt::tb::tokens_from_environment(); }), "SIMTLAB_CONFIG"));
  env.clear_options();
  env.set("SIMTLAB_SET", "l1d.size=1,");
  BOOST_TEST(has(bad_input_message([] { simt::tb::tokens_from_environment(); }), "SIMTLAB_SET"));
}

BOOST_AUTO_TEST_CASE(bad_library_options_are_bad_input) {
  const std::vector<std::vector<std::string>> cases = {
      {"--mode", "fast"},        {"stray"},           {"--help"},
      {"--launches", "0"},       {"--launches", ""},  {"--launches", "2", "--mode", "functional"},
      {"--vcd", "w.vcd", "--mode", "functional"},     {"--set", "nope.param=1"},
      {"--vcd-window", "0:10"},  {"--stats", ""},     {"--workload", "bfs"},
  };
  for (const auto& tokens : cases) {
    const std::string m = bad_input_message([&] { simt::tb::parse_library_options(tokens); });
    BOOST_TEST(!m.empty(), tokens[0]);
  }
}

// ---- --launches ------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(launch_sets) {
  using simt::tb::LaunchSet;
  const LaunchSet every;
  BOOST_TEST(every.all());
  BOOST_TEST(every.contains(1));
  BOOST_TEST(every.contains(UINT64_MAX));
  const LaunchSet s = LaunchSet::parse("3-5,9");
  BOOST_TEST(!s.all());
  for (uint64_t n : {3, 4, 5, 9}) BOOST_TEST(s.contains(n), n);
  for (uint64_t n : {0, 1, 2, 6, 8, 10}) BOOST_TEST(!s.contains(n), n);
  const LaunchSet open = LaunchSet::parse("7-");
  BOOST_TEST(!open.contains(6));
  BOOST_TEST(open.contains(7));
  BOOST_TEST(open.contains(UINT64_MAX));
  const LaunchSet merged = LaunchSet::parse(" 8-12 , 1-5,3-9,20,2 ");
  for (uint64_t n = 1; n <= 12; ++n) BOOST_TEST(merged.contains(n), n);
  BOOST_TEST(!merged.contains(13));
  BOOST_TEST(merged.contains(20));
  BOOST_TEST(LaunchSet::parse("18446744073709551615").contains(UINT64_MAX));
}

BOOST_AUTO_TEST_CASE(bad_launch_sets) {
  for (const char* text : {"0", "5-3", "x", "", " ", "1,,2", "3,", ",3", "1-x", "-3", "0-4", "1--2", "2-3-4",
                           "18446744073709551616", "1.5", "+1"}) {
    const std::string m = bad_input_message([&] { simt::tb::LaunchSet::parse(text); });
    BOOST_TEST(has(m, "--launches"), "'" << text << "': " << m);
  }
}
