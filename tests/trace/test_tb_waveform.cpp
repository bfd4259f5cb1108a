#define BOOST_TEST_MODULE tb_waveform
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

// A block with a counter and a lane mask, traced into a VCD that GTKWave's
// vcd2fst must accept; only wanted signals exist, and the clock stops when
// the model is idle so sc_start() returns.
namespace {

using namespace simt;

struct Counter : sc_core::sc_module {
  sc_core::sc_signal<uint32_t>* count;
  sc_core::sc_signal<sc_dt::sc_bv<32>>* lanes;
  sc_core::sc_signal<uint32_t>* unwanted;
  trace::MaybeSignal* pc;  // defined in the first half of every ten cycles
  uint32_t n = 0;
  trace::Waveform& wf;
  SC_HAS_PROCESS(Counter);
  Counter(sc_core::sc_module_name name, trace::Waveform& w) : sc_module(name), wf(w) {
    count = wf.signal<uint32_t>("sm0.issue.count");
    lanes = wf.signal<sc_dt::sc_bv<32>>("sm0.sp.lanes");
    unwanted = wf.signal<uint32_t>("sm0.l1d.mshrs");
    pc = wf.maybe_signal("sm0.issue.pc");
    SC_METHOD(tick);
  }
  void tick() {
    ++n;
    uint64_t now = util::now_cycle();
    if (wf.in_window(now)) {
      if (count) count->write(n);
      if (lanes) lanes->write(sc_dt::sc_bv<32>((1u << (n % 32)) - 1));
      if (pc) {
        if (n % 10 < 5)
          pc->set(n);
        else
          pc->set_undefined();
      }
    }
    if (n < 100) next_trigger(util::cycle_time());
  }
};

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(vcd_with_filter_and_window_loads_in_gtkwave) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("simtlab_wf_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string vcd = (dir / "run.vcd").string();
  trace::WaveformOptions o;
  o.path = vcd;
  o.globs = trace::WaveformOptions::parse_globs("sm0.issue.*,sm0.sp.*");
  trace::WaveformOptions::parse_window("10:50", &o.start, &o.end);
  {
    trace::Waveform wf("waveform", o);
    Counter c("counter", wf);
    BOOST_TEST(c.count != nullptr);
    BOOST_TEST(c.lanes != nullptr);
    BOOST_TEST(c.unwanted == nullptr);  // filtered out
    BOOST_TEST(c.pc != nullptr);
    wf.kick();
    sc_core::sc_start();  // must return: the clock stops once the counter is done
    BOOST_TEST(c.n == 100u);
    BOOST_TEST(util::now_cycle() < 200u);
  }
  std::string text = slurp(vcd);
  // SystemC turns the dotted names into nested scopes: sm0 > issue > count.
  BOOST_TEST(text.find("$scope module issue $end") != std::string::npos);
  BOOST_TEST(text.find(" count ") != std::string::npos);
  BOOST_TEST(text.find("mshrs") == std::string::npos);  // filtered out
  BOOST_TEST(text.find(" clk ") != std::string::npos);
  // The maybe-defined value: undefined ('X', as SystemC writes it) before
  // the window and in its undefined cycles, the number otherwise (12 = 0b1100
  // and 13, cycles in the window), never both at once.
  std::smatch m;
  BOOST_TEST_REQUIRE(std::regex_search(text, m, std::regex(R"(\$var wire +31 +(\S+) +pc )")));
  const std::string id = m[1];
  const std::string undefined = "b" + std::string(31, 'X') + " " + id + "\n";
  BOOST_TEST(text.find(undefined) != std::string::npos);
  BOOST_TEST(text.find("b1100 " + id + "\n") != std::string::npos);
  BOOST_TEST(text.find("b1101 " + id + "\n") != std::string::npos);
  BOOST_TEST(text.find("b1111 " + id + "\n") == std::string::npos);  // cycle 15: undefined
  BOOST_TEST(text.rfind(undefined) > text.find("b1100 " + id + "\n"));  // undefined again after
  // Nothing changes before the window opens at cycle 10 (time unit 100 ps).
  size_t first_change = text.find("\n#");
  BOOST_TEST(text.substr(first_change + 2, 3) == "100");
  if (std::system("command -v vcd2fst >/dev/null 2>&1") == 0) {
    std::string cmd = "vcd2fst " + vcd + " " + (dir / "run.fst").string() + " >/dev/null 2>&1";
    BOOST_TEST(std::system(cmd.c_str()) == 0);
    BOOST_TEST(fs::file_size(dir / "run.fst") > 0u);
  } else {
    BOOST_TEST_MESSAGE("vcd2fst not installed (Debian package gtkwave): GTKWave check skipped");
  }
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(window_and_glob_parsing) {
  uint64_t a, b;
  trace::WaveformOptions::parse_window("5:", &a, &b);
  BOOST_TEST(a == 5u);
  BOOST_TEST(b == UINT64_MAX);
  BOOST_CHECK_THROW(trace::WaveformOptions::parse_window("9:3", &a, &b), simt::Error);
  BOOST_CHECK_THROW(trace::WaveformOptions::parse_window("x", &a, &b), simt::Error);
  BOOST_TEST(trace::glob_match("sm*.issue.w?_pc", "sm12.issue.w3_pc"));
  BOOST_TEST(!trace::glob_match("sm0.*", "sm1.issue"));
}
