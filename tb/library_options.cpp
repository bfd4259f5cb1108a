#include "library_options.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

#include "run_outputs.h"
#include "util/error.h"

namespace simt::tb {

namespace {

// --save-ptx: a folder, made now if missing, so that the program finds it
// when it registers its fatbins (before its main()).
void check_save_ptx_folder(const std::string& dir) {
  if (dir.empty()) throw input_error("--save-ptx: empty path; give a folder");
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw input_error("--save-ptx: " + dir + " exists and is not a folder");
  std::filesystem::create_directories(dir, ec);
  if (ec) throw input_error("--save-ptx: cannot make the folder " + dir + ": " + ec.message());
}

}  // namespace

LaunchSet check_library_options(const CLI::App& cmd, const RunOptions& o, Machine& m) {
  refuse_unused_options(cmd, o);
  m.load(o);
  LaunchSet launches;
  if (cmd.count("--launches")) {
    launches = LaunchSet::parse(o.launches);
    if (o.mode != "timing")
      throw input_error("--launches: picks the launches that run in timing mode (the rest run functionally); "
                        "it needs --mode timing");
  }
  if (cmd.count("--save-ptx")) check_save_ptx_folder(o.save_ptx);
  // The device's own checks (--vcd and --trace-warps need timing mode, the
  // --vcd-window and --trace-filter texts), with no file made yet.
  const RunOutputs no_files(OutputPaths{}, "");
  device_options(o, m, no_files);
  return launches;
}

LibraryOptions parse_library_options(const std::vector<std::string>& tokens) {
  LibraryOptions lo;
  lo.machine = std::make_shared<Machine>();
  CLI::App cmd{"simtlab's CUDA runtime library", "simtlab exec"};
  add_run_options(cmd, lo.run, lo.machine->registry);
  add_exec_options(cmd, lo.run);
  std::vector<std::string> reversed(tokens.rbegin(), tokens.rend());  // CLI11 takes them last first
  try {
    cmd.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) throw input_error("--help: `simtlab exec --help` lists the options");
    throw input_error(e.what());
  }
  // The registry keeps a pointer to `cmd` for apply_cli(), which load()
  // calls here, while `cmd` is alive; it is not called again.
  lo.launches = check_library_options(cmd, lo.run, *lo.machine);
  return lo;
}

const std::vector<OptionVariable>& library_option_variables() {
  static const std::vector<OptionVariable> vars = {
      {"SIMTLAB_MODE", "--mode", OptionVariable::Value},
      {"SIMTLAB_CONFIG", "--config", OptionVariable::List},
      {"SIMTLAB_WARP_SIZE", "--warp-size", OptionVariable::Value},
      {"SIMTLAB_GROUPING", "--grouping", OptionVariable::Value},
      {"SIMTLAB_SEED", "--seed", OptionVariable::Value},
      {"SIMTLAB_MAX_WARP_INSTRUCTIONS", "--max-warp-instructions", OptionVariable::Value},
      {"SIMTLAB_MAX_CYCLES", "--max-cycles", OptionVariable::Value},
      {"SIMTLAB_MAX_SPIN_CYCLES", "--max-spin-cycles", OptionVariable::Value},
      {"SIMTLAB_MAX_DEVICE_MEMORY", "--max-device-memory", OptionVariable::Value},
      {"SIMTLAB_CALL_STACK", "--call-stack", OptionVariable::Value},
      {"SIMTLAB_STATS", "--stats", OptionVariable::Value},
      {"SIMTLAB_CSV", "--csv", OptionVariable::Value},
      {"SIMTLAB_VCD", "--vcd", OptionVariable::Value},
      {"SIMTLAB_VCD_SIGNALS", "--vcd-signals", OptionVariable::Value},
      {"SIMTLAB_VCD_WINDOW", "--vcd-window", OptionVariable::Value},
      {"SIMTLAB_TRACE_WARPS", "--trace-warps", OptionVariable::Value},
      {"SIMTLAB_TRACE_FILTER", "--trace-filter", OptionVariable::Value},
      {"SIMTLAB_QUIET", "--quiet", OptionVariable::Flag},
      {"SIMTLAB_LAUNCHES", "--launches", OptionVariable::Value},
      {"SIMTLAB_SAVE_PTX", "--save-ptx", OptionVariable::Value},
      {"SIMTLAB_SET", "--set", OptionVariable::List},
  };
  return vars;
}

namespace {

std::vector<std::string> tokens_from_argv_json(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw input_error(std::string("SIMTLAB_ARGV: not JSON (") + e.what() + "); expected an array of strings");
  }
  if (!j.is_array()) throw input_error("SIMTLAB_ARGV: expected a JSON array of strings, got " + std::string(j.type_name()));
  std::vector<std::string> tokens;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string())
      throw input_error("SIMTLAB_ARGV[" + std::to_string(i) + "]: expected a string, got " + j[i].type_name());
    tokens.push_back(j[i].get<std::string>());
  }
  return tokens;
}

}  // namespace

// `--option=value` is one token, so a value that starts with '-' is never
// taken for an option.
std::vector<std::string> tokens_from_environment() {
  const char* argv = std::getenv("SIMTLAB_ARGV");
  if (argv && *argv) return tokens_from_argv_json(argv);
  std::vector<std::string> tokens;
  for (const OptionVariable& v : library_option_variables()) {
    const char* value = std::getenv(v.variable);
    if (!value || !*value) continue;  // empty = not set
    const std::string text = value;
    switch (v.kind) {
      case OptionVariable::Value:
        tokens.push_back(std::string(v.option) + "=" + text);
        break;
      case OptionVariable::List: {
        size_t start = 0;
        while (start <= text.size()) {
          size_t comma = text.find(',', start);
          if (comma == std::string::npos) comma = text.size();
          if (comma == start)
            throw input_error(std::string(v.variable) + "=" + text + ": an empty item in the comma-separated list");
          tokens.push_back(std::string(v.option) + "=" + text.substr(start, comma - start));
          start = comma + 1;
        }
        break;
      }
      case OptionVariable::Flag:
        if (text == "1" || text == "true" || text == "yes" || text == "on")
          tokens.push_back(v.option);
        else if (text != "0" && text != "false" && text != "no" && text != "off")
          throw input_error(std::string(v.variable) + "=" + text + ": expected 1 (on) or 0 (off)");
        break;
    }
  }
  return tokens;
}

}  // namespace simt::tb
