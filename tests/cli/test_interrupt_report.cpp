// What simtlab says when a stop signal comes while its outputs are being
// put in place (issue 35 item 3): the files already complete under their
// final name and the ones that are not, exactly. Each case runs in a forked
// child, since the handler ends the process.
#define BOOST_TEST_MODULE interrupt_report
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "common/simtlab_process.h"
#include "util/output_file.h"

namespace fs = std::filesystem;
using simt::test::slurp;
using simt::util::OutputFile;

namespace {

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("simtlab_interrupt_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

struct Ending {
  int code = -1;  // exit code, -1 if the child did not exit normally
  std::string err;
};

// Runs `body` in a child with the interrupt handler installed, its stderr
// going to `dir`/err.
Ending in_child(const fs::path& dir, const std::function<void()>& body) {
  const std::string err = (dir / "err").string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(e, 2);
    simt::util::install_interrupt_cleanup();
    try {
      body();
    } catch (...) {
      ::_exit(90);
    }
    ::_exit(91);  // the body was to end in a signal
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err)};
}

bool has(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

bool no_temporaries(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (has(e.path().filename().string(), ".simtlab-")) return false;
  return true;
}

}  // namespace

// Some outputs renamed into place, others not yet: the message lists both,
// and what it lists matches the disk.
BOOST_AUTO_TEST_CASE(names_the_files_replaced_and_the_ones_not) {
  const fs::path d = scratch("partial");
  std::ofstream(d / "a.json") << "old a";
  std::ofstream(d / "b.vcd") << "old b";
  const std::string a = (d / "a.json").string(), b = (d / "b.vcd").string(), c = (d / "c.csv").string(),
                    m = (d / "m.bin").string();
  const Ending e = in_child(d, [&] {
    OutputFile fa("--stats", a), fb("--vcd", b, OutputFile::Mode::ReplaceByName, ".vcd");
    OutputFile fc("--csv", c, OutputFile::Mode::Append), fm("outputs[0]", m);
    fa.write("new a");
    fc.append("h\nrow\n");
    ::raise(SIGINT);
  });
  BOOST_TEST(e.code == 130, e.err);
  BOOST_TEST(has(e.err, "interrupted by SIGINT"), e.err);
  BOOST_TEST(has(e.err, "complete and in place (written before the interrupt): " + a + ", " + c), e.err);
  BOOST_TEST(has(e.err, "not written (a previous file keeps its contents): " + b + ", " + m), e.err);
  BOOST_TEST(!has(e.err, "no output written"), e.err);
  BOOST_TEST(slurp(d / "a.json") == "new a");
  BOOST_TEST(slurp(d / "b.vcd") == "old b");
  BOOST_TEST(slurp(d / "c.csv") == "h\nrow\n");
  BOOST_TEST(!fs::exists(d / "m.bin"));
  BOOST_TEST(no_temporaries(d));
  fs::remove_all(d);
}

// Nothing renamed yet: says so, lists every output as not written.
BOOST_AUTO_TEST_CASE(says_when_nothing_was_written) {
  const fs::path d = scratch("none");
  const std::string a = (d / "a.json").string(), b = (d / "b.txt").string();
  const Ending e = in_child(d, [&] {
    OutputFile fa("--stats", a), fb("--trace-warps", b);
    ::raise(SIGHUP);
  });
  BOOST_TEST(e.code == 128 + SIGHUP, e.err);
  BOOST_TEST(has(e.err, "interrupted by SIGHUP"), e.err);
  BOOST_TEST(has(e.err, "no output written under its final name"), e.err);
  BOOST_TEST(has(e.err, "not written (a previous file keeps its contents): " + a + ", " + b), e.err);
  BOOST_TEST(!fs::exists(d / "a.json"));
  BOOST_TEST(no_temporaries(d));
  fs::remove_all(d);
}

// A file completed and already destroyed (a manifest's outputs, before
// --stats is written) is still reported as in place; a discarded one is not
// listed at all.
BOOST_AUTO_TEST_CASE(remembers_files_completed_earlier) {
  const fs::path d = scratch("earlier");
  const std::string a = (d / "a.bin").string(), b = (d / "b.bin").string(), s = (d / "s.json").string();
  const Ending e = in_child(d, [&] {
    {
      OutputFile fa("outputs[0]", a), fb("outputs[1]", b);
      fa.write("a");
      fb.discard();
    }
    OutputFile fs_("--stats", s);
    ::raise(SIGTERM);
  });
  BOOST_TEST(e.code == 128 + SIGTERM, e.err);
  BOOST_TEST(has(e.err, "complete and in place (written before the interrupt): " + a + "\n"), e.err);
  BOOST_TEST(has(e.err, "not written (a previous file keeps its contents): " + s + "\n"), e.err);
  BOOST_TEST(!has(e.err, b), e.err);
  BOOST_TEST(no_temporaries(d));
  fs::remove_all(d);
}

// A signal that comes while a file is renamed waits for the rename: held
// back, then handled with the file listed as in place.
BOOST_AUTO_TEST_CASE(a_signal_during_a_rename_waits_for_it) {
  const fs::path d = scratch("held");
  const std::string a = (d / "a.json").string(), b = (d / "b.json").string();
  const Ending e = in_child(d, [&] {
    OutputFile fa("--stats", a), fb("outputs[0]", b);
    {
      simt::util::output_detail::BlockInterrupts hold;  // as commit() holds it
      ::raise(SIGUSR1);
      fa.write("a");
    }
  });
  BOOST_TEST(e.code == 128 + SIGUSR1, e.err);
  BOOST_TEST(has(e.err, "complete and in place (written before the interrupt): " + a + "\n"), e.err);
  BOOST_TEST(has(e.err, "not written (a previous file keeps its contents): " + b + "\n"), e.err);
  BOOST_TEST(slurp(d / "a.json") == "a");
  BOOST_TEST(no_temporaries(d));
  fs::remove_all(d);
}
