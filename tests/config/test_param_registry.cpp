#define BOOST_TEST_MODULE param_registry
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "config/param_registry.h"
#include "util/error.h"

using simt::config::ParamRegistry;

namespace {

// A miniature machine: two blocks' parameter structs bound the way real blocks do.
struct Machine {
  uint32_t l1d_size = 65536;
  uint32_t l1d_assoc = 8;
  uint32_t l1d_line = 128;
  uint64_t dram_bytes = 1ull << 30;
  double dram_bw = 32.0;
  bool gates = false;
  std::string sched = "gto";
  std::string trace = "";
  ParamRegistry reg;
  Machine() {
    reg.add("l1d.size", l1d_size, "capacity in bytes", 1, 1u << 30);
    reg.add("l1d.assoc", l1d_assoc, "ways per set", 1, 64);
    reg.add("l1d.line", l1d_line, "line size in bytes", 16, 512);
    reg.add("dram.bytes", dram_bytes, "device memory size");
    reg.add("dram.bytes_per_cycle", dram_bw, "bandwidth", 0.5, 1024);
    reg.add("sm.gates", gates, "power-gate idle lanes");
    reg.add_choice("sm.scheduler", sched, {"lrr", "gto", "two_level", "gates"}, "issue policy");
    reg.add("sm.trace_tag", trace, "free text");
  }
};

std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("simt_cfg_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string write_file(const std::string& name, const std::string& text) {
  std::string p = temp_path(name);
  std::ofstream(p) << text;
  return p;
}

// The message of the simt::Error `f` throws; fails the test if it throws
// nothing or the wrong exit code.
template <class F>
std::string error_of(F&& f, simt::ExitCode code = simt::ExitCode::BadInput) {
  try {
    f();
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == code);
    return e.what();
  }
  BOOST_FAIL("expected a simt::Error");
  return "";
}

bool contains(const std::string& s, const std::string& part) {
  if (s.find(part) != std::string::npos) return true;
  BOOST_TEST_MESSAGE("'" << s << "' lacks '" << part << "'");
  return false;
}

void parse(CLI::App& app, std::vector<std::string> args) {
  std::vector<const char*> argv{"prog"};
  for (auto& a : args) argv.push_back(a.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

BOOST_AUTO_TEST_CASE(defaults_are_the_fields_values) {
  Machine m;
  auto j = m.reg.to_json();
  BOOST_TEST(j["l1d.size"].get<uint32_t>() == 65536u);
  BOOST_TEST(j["dram.bytes_per_cycle"].get<double>() == 32.0);
  BOOST_TEST(j["sm.scheduler"].get<std::string>() == "gto");
  BOOST_TEST(m.reg.has("l1d.assoc"));
  BOOST_TEST(!m.reg.has("l1d"));
}

BOOST_AUTO_TEST_CASE(nested_tables_dotted_and_quoted_keys_are_the_same_names) {
  Machine m;
  m.reg.load_toml_text("[l1d]\nsize = 32768\nassoc = 4\n", "a.toml");
  BOOST_TEST(m.l1d_size == 32768u);
  BOOST_TEST(m.l1d_assoc == 4u);
  m.reg.load_toml_text("l1d.size = 16384\nsm.scheduler = 'lrr'\n", "b.toml");
  BOOST_TEST(m.l1d_size == 16384u);
  BOOST_TEST(m.sched == "lrr");
  m.reg.load_toml_text("\"l1d.size\" = 8192\n[sm]\ngates = true\n", "c.toml");
  BOOST_TEST(m.l1d_size == 8192u);
  BOOST_TEST(m.gates);
  m.reg.load_toml_text("l1d = { line = 64 }\n[dram]\nbytes = 0x1000\n", "d.toml");
  BOOST_TEST(m.l1d_line == 64u);
  BOOST_TEST(m.dram_bytes == 0x1000u);
  BOOST_TEST(m.l1d_assoc == 4u);  // untouched keys keep their values
}

BOOST_AUTO_TEST_CASE(overlays_compose_files_in_order_then_set) {
  Machine m;
  auto base = write_file("base.toml", "[l1d]\nsize = 49152\nassoc = 4\nline = 128\n[sm]\nscheduler = \"two_level\"\n");
  auto overlay = write_file("overlay.toml", "l1d.assoc = 8\nsm.scheduler = \"gates\"\n");
  m.reg.load_toml_file(base);
  m.reg.load_toml_file(overlay);
  BOOST_TEST(m.l1d_size == 49152u);  // from the base only
  BOOST_TEST(m.l1d_assoc == 8u);     // overlay beats base
  BOOST_TEST(m.sched == "gates");
  m.reg.set("l1d.assoc", "16", "--set");
  BOOST_TEST(m.l1d_assoc == 16u);  // --set beats both files
  // And in the other order, the base would have won: later always wins.
  Machine n;
  n.reg.load_toml_file(overlay);
  n.reg.load_toml_file(base);
  BOOST_TEST(n.l1d_assoc == 4u);
  BOOST_TEST(n.sched == "two_level");
}

BOOST_AUTO_TEST_CASE(unknown_key_names_file_line_and_suggests) {
  Machine m;
  auto msg = error_of([&] { m.reg.load_toml_text("[l1d]\nsize = 1024\nasoc = 4\n", "m.toml"); });
  BOOST_TEST(contains(msg, "m.toml:3: l1d.asoc: unknown parameter"));
  BOOST_TEST(contains(msg, "did you mean l1d.assoc"));
  // A key given without its block prefix is close to every block that has it.
  msg = error_of([&] { m.reg.set("size", "1", "--set"); });
  BOOST_TEST(contains(msg, "--set size=1: unknown parameter 'size'"));
  BOOST_TEST(contains(msg, "l1d.size"));
  // Nothing close: no suggestion list, a pointer to --help instead.
  msg = error_of([&] { m.reg.set("completely.unrelated.thing", "1", "--set"); });
  BOOST_TEST(contains(msg, "no similar names"));
  // A table that is no block.
  msg = error_of([&] { m.reg.load_toml_text("\nx = 1\n", "t.toml"); });
  BOOST_TEST(contains(msg, "t.toml:2: x: unknown parameter"));
  msg = error_of([&] { m.reg.load_toml_text("\n[l1]\nsize = 5\n", "t.toml"); });
  BOOST_TEST(contains(msg, "t.toml:2: l1: unknown table 'l1': no parameter starts with 'l1.' (did you mean l1d?)"));
  msg = error_of([&] { m.reg.load_toml_text("[zzzzzz.q]\nsize = 5\n", "t.toml"); });
  BOOST_TEST(contains(msg, "unknown table 'zzzzzz': no parameter starts with 'zzzzzz.'"));
  BOOST_TEST(!contains(msg, "did you mean"));
}

BOOST_AUTO_TEST_CASE(suggestions_are_at_most_five_closest_first) {
  ParamRegistry reg;
  std::vector<uint32_t> fields(8, 1);
  for (int i = 0; i < 8; ++i) reg.add("sm" + std::to_string(i) + ".width", fields[i], "w");
  uint32_t exact = 1;
  reg.add("sm.widthx", exact, "w");
  auto msg = error_of([&] { reg.set("sm.width", "1", "--set"); });
  BOOST_TEST(contains(msg, "did you mean sm.widthx, sm0.width"));  // distance 1, sorted
  size_t commas = std::count(msg.begin(), msg.end(), ',');
  BOOST_TEST(commas == 4u);  // five names
}

BOOST_AUTO_TEST_CASE(wrong_types_are_refused_with_location) {
  Machine m;
  auto msg = error_of([&] { m.reg.load_toml_text("[l1d]\n\nsize = \"big\"\n", "x.toml"); });
  BOOST_TEST(contains(msg, "x.toml:3: l1d.size: expected an integer, got a string"));
  msg = error_of([&] { m.reg.load_toml_text("l1d.size = 1.5\n", "x.toml"); });
  BOOST_TEST(contains(msg, "x.toml:1: l1d.size: expected an integer, got a floating-point number"));
  msg = error_of([&] { m.reg.load_toml_text("sm.gates = 1\n", "x.toml"); });
  BOOST_TEST(contains(msg, "sm.gates: expected a boolean"));
  msg = error_of([&] { m.reg.load_toml_text("sm.scheduler = 3\n", "x.toml"); });
  BOOST_TEST(contains(msg, "sm.scheduler: expected a string, got an integer"));
  msg = error_of([&] { m.reg.load_toml_text("l1d.size = [1, 2]\n", "x.toml"); });
  BOOST_TEST(contains(msg, "expected an integer, got an array"));
  // A table where a value belongs.
  msg = error_of([&] { m.reg.load_toml_text("[l1d.size]\na = 1\n", "x.toml"); });
  BOOST_TEST(contains(msg, "l1d.size: expected an integer, got a table"));
  // Doubles take integers.
  m.reg.load_toml_text("dram.bytes_per_cycle = 64\n", "x.toml");
  BOOST_TEST(m.dram_bw == 64.0);
  msg = error_of([&] { m.reg.load_toml_text("dram.bytes_per_cycle = nan\n", "x.toml"); });
  BOOST_TEST(contains(msg, "x.toml:1: dram.bytes_per_cycle: expected a finite number"));
  m.reg.load_toml_text("dram.bytes_per_cycle = 0.75\n", "x.toml");
  BOOST_TEST(m.dram_bw == 0.75);
}

BOOST_AUTO_TEST_CASE(ranges_are_enforced_and_value_kept_on_error) {
  Machine m;
  auto msg = error_of([&] { m.reg.load_toml_text("l1d.assoc = 65\n", "r.toml"); });
  BOOST_TEST(contains(msg, "r.toml:1: l1d.assoc: value 65 out of range [1, 64]"));
  BOOST_TEST(m.l1d_assoc == 8u);
  msg = error_of([&] { m.reg.load_toml_text("l1d.assoc = -1\n", "r.toml"); });
  BOOST_TEST(contains(msg, "value -1 out of range"));
  msg = error_of([&] { m.reg.load_toml_text("l1d.assoc = 0\n", "r.toml"); });
  BOOST_TEST(contains(msg, "value 0 out of range [1, 64]"));
  msg = error_of([&] { m.reg.set("dram.bytes_per_cycle", "0.25", "--set"); });
  BOOST_TEST(contains(msg, "--set dram.bytes_per_cycle=0.25: value 0.25 out of range [0.5, 1024"));
  // uint32_t fields never exceed 32 bits even with the widest range.
  ParamRegistry reg;
  uint32_t f = 0;
  reg.add("a.b", f, "x");
  msg = error_of([&] { reg.set("a.b", "4294967296", "--set"); });
  BOOST_TEST(contains(msg, "out of range [0, 4294967295]"));
  reg.set("a.b", "4294967295", "--set");
  BOOST_TEST(f == 4294967295u);
  msg = error_of([&] { reg.set("a.b", "99999999999999999999999", "--set"); });
  BOOST_TEST(contains(msg, "out of range"));
}

BOOST_AUTO_TEST_CASE(choices_only_listed_strings) {
  Machine m;
  auto msg = error_of([&] { m.reg.load_toml_text("[sm]\nscheduler = \"fifo\"\n", "c.toml"); });
  BOOST_TEST(contains(msg, "c.toml:2: sm.scheduler: 'fifo' is not one of: lrr, gto, two_level, gates"));
  msg = error_of([&] { m.reg.set("sm.scheduler", "GTO", "--set"); });
  BOOST_TEST(contains(msg, "'GTO' is not one of"));
  m.reg.set("sm.scheduler", "two_level", "--set");
  BOOST_TEST(m.sched == "two_level");
}

BOOST_AUTO_TEST_CASE(toml_syntax_error_has_file_line_and_column) {
  Machine m;
  auto msg = error_of([&] { m.reg.load_toml_text("[l1d]\nsize = 1\nassoc = = 2\n", "s.toml"); });
  BOOST_TEST(contains(msg, "s.toml:3:"));
  BOOST_TEST(contains(msg, "TOML syntax error"));
  auto path = write_file("bad.toml", "[l1d\nsize = 1\n");
  msg = error_of([&] { m.reg.load_toml_file(path); });
  BOOST_TEST(contains(msg, path + ":1:"));
  msg = error_of([&] { m.reg.load_toml_file(temp_path("missing.toml")); });
  BOOST_TEST(contains(msg, "missing.toml: configuration file not found"));
  // A file with a bad value names the file, not "origin".
  auto bad = write_file("badval.toml", "\n\n[l1d]\nline = 8\n");
  msg = error_of([&] { m.reg.load_toml_file(bad); });
  BOOST_TEST(contains(msg, bad + ":4: l1d.line: value 8 out of range [16, 512]"));
}

BOOST_AUTO_TEST_CASE(set_parses_text_by_type) {
  Machine m;
  m.reg.set("l1d.size", "0x8000", "--set");
  BOOST_TEST(m.l1d_size == 0x8000u);
  m.reg.set("dram.bytes", "123456789012", "--set");
  BOOST_TEST(m.dram_bytes == 123456789012ull);
  m.reg.set("sm.gates", "true", "--set");
  BOOST_TEST(m.gates);
  m.reg.set("dram.bytes_per_cycle", "1e2", "--set");
  BOOST_TEST(m.dram_bw == 100.0);
  m.reg.set("sm.trace_tag", "a b=c", "--set");
  BOOST_TEST(m.trace == "a b=c");
  for (const char* bad : {"64KiB", "1e3", "12abc", "", "+5", " 5", "0x", "3.0"}) {
    auto msg = error_of([&] { m.reg.set("l1d.size", bad, "--set"); });
    BOOST_TEST(contains(msg, std::string("--set l1d.size=") + bad + ": expected an integer"));
  }
  for (const char* bad : {"1", "yes", "True", ""}) {
    auto msg = error_of([&] { m.reg.set("sm.gates", bad, "--set"); });
    BOOST_TEST(contains(msg, "expected true or false"));
  }
  for (const char* bad : {"abc", "1.5x", "nan", "inf", ""}) {
    auto msg = error_of([&] { m.reg.set("dram.bytes_per_cycle", bad, "--set"); });
    BOOST_TEST(contains(msg, "expected a"));
  }
  BOOST_TEST(m.l1d_size == 0x8000u);  // failed writes changed nothing
}

BOOST_AUTO_TEST_CASE(cli_flags_and_set_apply_in_command_line_order) {
  Machine m;
  CLI::App app{"test"};
  m.reg.bind_cli(app);
  parse(app, {"--l1d.assoc", "2", "--set", "l1d.assoc=4", "--sm.scheduler", "lrr", "--l1d.size=1024",
              "--set", "sm.scheduler=gates", "--l1d.assoc", "16", "--set", "l1d.size=2048"});
  BOOST_TEST(m.l1d_assoc == 8u);  // nothing applied before apply_cli()
  m.reg.apply_cli();
  BOOST_TEST(m.l1d_assoc == 16u);   // the flag after --set l1d.assoc=4 wins
  BOOST_TEST(m.sched == "gates");   // --set after the flag wins
  BOOST_TEST(m.l1d_size == 2048u);  // --set after --l1d.size=1024 wins

  Machine n;
  CLI::App app2{"test"};
  n.reg.bind_cli(app2);
  parse(app2, {"--set", "l1d.assoc=4", "--l1d.assoc", "32"});
  n.reg.apply_cli();
  BOOST_TEST(n.l1d_assoc == 32u);
}

BOOST_AUTO_TEST_CASE(cli_flags_after_files_and_errors_name_the_flag) {
  Machine m;
  CLI::App app{"test"};
  m.reg.bind_cli(app);
  parse(app, {"--l1d.assoc", "128"});
  m.reg.load_toml_text("l1d.assoc = 2\nl1d.size = 512\n", "base.toml");
  auto msg = error_of([&] { m.reg.apply_cli(); });
  BOOST_TEST(contains(msg, "--l1d.assoc 128: value 128 out of range [1, 64]"));

  Machine n;
  CLI::App app2{"test"};
  n.reg.bind_cli(app2);
  parse(app2, {"--set", "l1d.assoc"});
  msg = error_of([&] { n.reg.apply_cli(); });
  BOOST_TEST(contains(msg, "expected KEY=VALUE"));

  Machine k;
  CLI::App app3{"test"};
  k.reg.bind_cli(app3);
  parse(app3, {"--set", "l1d.assco=2"});
  msg = error_of([&] { k.reg.apply_cli(); });
  BOOST_TEST(contains(msg, "--set l1d.assco=2: unknown parameter 'l1d.assco' (did you mean l1d.assoc"));
}

BOOST_AUTO_TEST_CASE(cli_keeps_an_apps_own_set_option) {
  Machine m;
  CLI::App app{"test"};
  std::vector<std::string> sets;
  app.add_option("--set", sets, "the app's own --set");
  m.reg.bind_cli(app);  // must not add a second --set
  parse(app, {"--set", "l1d.line=64", "--l1d.line", "32"});
  m.reg.apply_cli();
  BOOST_TEST(m.l1d_line == 32u);
  BOOST_TEST(sets.size() == 1u);
}

BOOST_AUTO_TEST_CASE(cli_on_a_subcommand) {
  // simtlab binds the parameters to its `run` subcommand.
  Machine m;
  CLI::App app{"test"};
  auto* run = app.add_subcommand("run", "run a workload");
  std::string workload;
  run->add_option("--workload", workload, "name");
  m.reg.bind_cli(*run);
  parse(app, {"run", "--l1d.size", "4096", "--workload", "bfs", "--set", "l1d.size=8192", "--l1d.assoc", "2"});
  m.reg.apply_cli();
  BOOST_TEST(m.l1d_size == 8192u);
  BOOST_TEST(m.l1d_assoc == 2u);
  BOOST_TEST(workload == "bfs");
}

BOOST_AUTO_TEST_CASE(apply_cli_without_bind_is_refused) {
  Machine m;
  error_of([&] { m.reg.apply_cli(); }, simt::ExitCode::Internal);
}

BOOST_AUTO_TEST_CASE(help_shows_name_doc_and_default) {
  Machine m;
  CLI::App app{"test"};
  m.reg.bind_cli(app);
  std::string help = app.help();
  BOOST_TEST(contains(help, "Machine parameters"));
  BOOST_TEST(contains(help, "--l1d.size"));
  BOOST_TEST(contains(help, "=65536"));
  BOOST_TEST(contains(help, "capacity in bytes"));
  BOOST_TEST(contains(help, "{lrr,gto,two_level,gates}"));
  BOOST_TEST(contains(help, "--set"));

  std::string text = m.reg.help_text();
  BOOST_TEST(std::count(text.begin(), text.end(), '\n') == 8);
  BOOST_TEST(contains(text, "l1d.assoc"));
  BOOST_TEST(contains(text, "ways per set [1, 64]"));
  BOOST_TEST(contains(text, "issue policy {lrr, gto, two_level, gates}"));
  // Sorted by name: dram.* lines come before l1d.*.
  BOOST_TEST(text.find("dram.bytes") < text.find("l1d.assoc"));
  // Defaults are the values at add() time, not the current ones.
  m.reg.set("l1d.size", "1024", "--set");
  BOOST_TEST(contains(m.reg.help_text(), "65536"));
}

BOOST_AUTO_TEST_CASE(json_round_trip) {
  Machine m;
  m.reg.load_toml_text("l1d.size = 4096\ndram.bytes_per_cycle = 0.7\nsm.gates = true\n"
                       "sm.scheduler = \"lrr\"\nsm.trace_tag = \"x,y\"\n",
                       "j.toml");
  m.reg.set("dram.bytes", "18446744073709551615", "--set");
  nlohmann::json j = m.reg.to_json();
  BOOST_TEST(j.size() == 8u);
  BOOST_TEST(j["l1d.size"].is_number_unsigned());
  BOOST_TEST(j["dram.bytes"].get<uint64_t>() == UINT64_MAX);
  BOOST_TEST(j["dram.bytes_per_cycle"].is_number_float());
  BOOST_TEST(j["sm.gates"].is_boolean());
  BOOST_TEST(j["sm.scheduler"].is_string());
  // Sorted by name.
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  BOOST_TEST(std::is_sorted(keys.begin(), keys.end()));

  // Text → JSON → text → fresh registry gives the same configuration.
  nlohmann::json reparsed = nlohmann::json::parse(j.dump());
  Machine fresh;
  for (auto it = reparsed.begin(); it != reparsed.end(); ++it)
    fresh.reg.set(it.key(), it->is_string() ? it->get<std::string>() : it->dump(), "json");
  BOOST_TEST(fresh.reg.to_json() == j);
  BOOST_TEST(fresh.dram_bw == 0.7);
  BOOST_TEST(fresh.trace == "x,y");
}

BOOST_AUTO_TEST_CASE(binding_mistakes_are_programming_errors) {
  ParamRegistry reg;
  uint32_t a = 5, b = 0;
  reg.add("x.a", a, "a", 1, 10);
  error_of([&] { reg.add("x.a", b, "again", 0, 10); }, simt::ExitCode::Internal);
  error_of([&] { reg.add("x", b, "prefix of x.a", 0, 10); }, simt::ExitCode::Internal);
  error_of([&] { reg.add("x.a.b", b, "under x.a", 0, 10); }, simt::ExitCode::Internal);
  error_of([&] { reg.add("y..b", b, "empty component", 0, 10); }, simt::ExitCode::Internal);
  error_of([&] { reg.add("y.c", b, "default 0 outside [1,10]", 1, 10); }, simt::ExitCode::Internal);
  std::string s = "fifo";
  error_of([&] { reg.add_choice("y.s", s, {"lrr", "gto"}, "bad default"); }, simt::ExitCode::Internal);
}
