// Every tunable parameter of the machine, by dotted name ("l1d.size"), bound
// to a field of the parameter struct of the block that owns it. One registry
// serves TOML files (configs compose: baseline, then overlays, later ones
// win), `--set key=value`, per-parameter command-line flags (`--l1d.size`),
// `--help`, and the effective configuration written into every stats file.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace CLI { class App; }

namespace simt::config {

class ParamRegistry {
 public:
  // Out of line: Entry is complete only in param_registry.cpp.
  ParamRegistry();
  ~ParamRegistry();
  ParamRegistry(ParamRegistry&&) noexcept;
  ParamRegistry& operator=(ParamRegistry&&) noexcept;

  // Binds `field` (its current value is the default) under `name`.
  void add(const std::string& name, bool& field, const std::string& doc);
  void add(const std::string& name, uint32_t& field, const std::string& doc, uint64_t min = 0,
           uint64_t max = UINT32_MAX);
  void add(const std::string& name, uint64_t& field, const std::string& doc, uint64_t min = 0,
           uint64_t max = UINT64_MAX);
  void add(const std::string& name, double& field, const std::string& doc, double min = -1e300,
           double max = 1e300);
  void add(const std::string& name, std::string& field, const std::string& doc);
  // A string restricted to `choices`.
  void add_choice(const std::string& name, std::string& field, std::vector<std::string> choices,
                  const std::string& doc);

  // Applies a TOML file: nested tables map to dotted names ([l1d] size = 1 is
  // l1d.size). Unknown keys, wrong types and out-of-range values throw
  // simt::Error(BadInput) naming the file, line and key.
  void load_toml_file(const std::string& path);
  void load_toml_text(const std::string& text, const std::string& origin);
  // Applies one `key=value` (from --set or a flag); `origin` names it in errors.
  void set(const std::string& key, const std::string& value, const std::string& origin);

  // Adds `--<name> VALUE` for every parameter to `app`, applied in the order
  // given on the command line after the config files (call apply_cli() after parsing).
  void bind_cli(CLI::App& app);
  void apply_cli();
  // What apply_cli() applied, as (name, value) in command-line order: each
  // --set KEY=VALUE and --KEY VALUE flag (the stats file and CSV row record them).
  const std::vector<std::pair<std::string, std::string>>& cli_assignments() const { return cli_values_; }

  bool has(const std::string& name) const;
  // True once a file, --set or a flag gave `name` a value (derived values
  // follow other parameters unless the user chose them).
  bool assigned(const std::string& name) const;
  // What gave `name` its value: a file's path, "--set KEY=VALUE" or
  // "--KEY"; empty while it keeps its default.
  std::string origin(const std::string& name) const;
  // A validation error about a combination of options, with what set them:
  // when the parameters `message` names were given by two or more different
  // files or flags, "A and B cannot be combined: " + message; by one,
  // "A: " + message; by none (defaults only), `message` as it is.
  std::string name_sources(const std::string& message) const;
  nlohmann::json to_json() const;        // {"l1d.size": 65536, ...}, sorted by name
  std::string help_text() const;         // one line per parameter: name, default, doc
  std::string markdown_table() const;    // the same as a Markdown table (docs/parameters.md)

  struct Entry;  // internal

 private:
  std::vector<const Entry*> sorted_entries() const;  // by name
  Entry& insert(const std::string& name, const std::string& doc);
  std::vector<std::unique_ptr<Entry>> entries_;
  std::vector<std::pair<std::string, std::string>> cli_values_;  // (name, value) from flags
  CLI::App* cli_app_ = nullptr;  // the app bind_cli() added the flags to
};

}  // namespace simt::config
