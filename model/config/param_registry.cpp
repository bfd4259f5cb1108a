// ParamRegistry: binds dotted parameter names to fields of the blocks'
// parameter structs and applies TOML files, `--set key=value` and
// per-parameter flags to them, checking type and range on every write.
#include "config/param_registry.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include <CLI/CLI.hpp>
#include <toml++/toml.h>

#include "config/toml_limits.h"
#include "util/error.h"

namespace simt::config {

struct ParamRegistry::Entry {
  enum class Kind { Bool, U32, U64, Double, String, Choice };
  Kind kind = Kind::Bool;
  std::string name;
  std::string doc;
  void* field = nullptr;  // points at a bool/uint32_t/uint64_t/double/std::string per kind
  uint64_t umin = 0, umax = 0;
  double dmin = 0, dmax = 0;
  std::vector<std::string> choices;
  nlohmann::json default_value;  // captured at add() time, for --help
  bool assigned = false;         // given a value by a file, --set or a flag
  std::string origin;            // what gave it that value (file, --set KEY=VALUE, --KEY), for errors
};

namespace {

using Entry = ParamRegistry::Entry;
using Kind = Entry::Kind;
using Entries = std::vector<std::unique_ptr<Entry>>;

Entry* find_entry(const Entries& entries, const std::string& name) {
  for (const auto& e : entries)
    if (e->name == name) return e.get();
  return nullptr;
}

bool is_prefix_of_some(const Entries& entries, const std::string& prefix) {
  const std::string p = prefix + ".";
  for (const auto& e : entries)
    if (e->name.compare(0, p.size(), p) == 0) return true;
  return false;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The up to five names among `candidates` closest to `key` by edit distance,
// where a key given without its block prefix ("size") counts as close to
// every "<block>.size"; "" when none is close.
std::string closest_names(const std::vector<std::string>& candidates, const std::string& key) {
  std::vector<std::pair<size_t, std::string>> scored;
  const size_t limit = std::max<size_t>(1, key.size() / 3);
  for (const std::string& n : candidates) {
    // The distance is at least the difference in length: skip the quadratic
    // work for names that cannot be close (a megabyte-long key took minutes).
    const size_t gap = n.size() > key.size() ? n.size() - key.size() : key.size() - n.size();
    size_t d = gap > limit ? gap : edit_distance(key, n);
    if (n.size() > key.size() && n.compare(n.size() - key.size(), key.size(), key) == 0 &&
        n[n.size() - key.size() - 1] == '.')
      d = std::min<size_t>(d, 1);
    if (d <= limit) scored.emplace_back(d, n);
  }
  std::sort(scored.begin(), scored.end());
  std::string list;
  for (size_t i = 0; i < scored.size() && i < 5; ++i) list += (i ? ", " : "") + scored[i].second;
  return list;
}

std::string unknown_message(const Entries& entries, const std::string& key) {
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e->name);
  std::string close = closest_names(names, key);
  std::string msg = "unknown parameter '" + shorten(key) + "'";
  return close.empty() ? msg + " (no similar names; `--help` lists them all)"
                       : msg + " (did you mean " + close + "?)";
}

// A [table] no parameter lives under: suggest the known tables.
std::string unknown_table_message(const Entries& entries, const std::string& path) {
  std::vector<std::string> tables;
  for (const auto& e : entries)
    for (size_t dot = e->name.find('.'); dot != std::string::npos; dot = e->name.find('.', dot + 1))
      tables.push_back(e->name.substr(0, dot));
  std::sort(tables.begin(), tables.end());
  tables.erase(std::unique(tables.begin(), tables.end()), tables.end());
  std::string close = closest_names(tables, path);
  std::string msg = "unknown table '" + shorten(path) + "': no parameter starts with '" + shorten(path) + ".'";
  return close.empty() ? msg : msg + " (did you mean " + close + "?)";
}

std::string kind_name(Kind k) {
  switch (k) {
    case Kind::Bool: return "a boolean (true or false)";
    case Kind::U32:
    case Kind::U64: return "an integer";
    case Kind::Double: return "a number";
    case Kind::String: return "a string";
    case Kind::Choice: return "a string";
  }
  return "?";
}

std::string type_tag(Kind k) {
  switch (k) {
    case Kind::Bool: return "BOOL";
    case Kind::U32:
    case Kind::U64: return "UINT";
    case Kind::Double: return "FLOAT";
    case Kind::String: return "TEXT";
    case Kind::Choice: return "CHOICE";
  }
  return "?";
}

std::string join_choices(const std::vector<std::string>& c) {
  std::string s;
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + c[i];
  return s;
}

std::string format_double(double v) { return nlohmann::json(v).dump(); }

// --- typed writes: every path (TOML, --set, flags) ends in one of these -----

void store_bool(Entry& e, bool v) {
  *static_cast<bool*>(e.field) = v;
  e.assigned = true;
}

void store_uint(Entry& e, uint64_t v, bool negative, const std::string& shown) {
  if (negative || v < e.umin || v > e.umax)
    throw std::invalid_argument("value " + shown + " out of range [" + std::to_string(e.umin) +
                                ", " + std::to_string(e.umax) + "]");
  if (e.kind == Kind::U32)
    *static_cast<uint32_t*>(e.field) = static_cast<uint32_t>(v);
  else
    *static_cast<uint64_t*>(e.field) = v;
  e.assigned = true;
}

void store_double(Entry& e, double v) {
  if (!std::isfinite(v)) throw std::invalid_argument("expected a finite number");
  if (v < e.dmin || v > e.dmax)
    throw std::invalid_argument("value " + format_double(v) + " out of range [" +
                                format_double(e.dmin) + ", " + format_double(e.dmax) + "]");
  *static_cast<double*>(e.field) = v;
  e.assigned = true;
}

void store_string(Entry& e, const std::string& v) {
  if (e.kind == Kind::Choice &&
      std::find(e.choices.begin(), e.choices.end(), v) == e.choices.end())
    throw std::invalid_argument("'" + shorten(v) + "' is not one of: " + join_choices(e.choices));
  *static_cast<std::string*>(e.field) = v;
  e.assigned = true;
}

// Parses a command-line value by the parameter's type. Integers are plain
// decimal or 0x hex (no signs, suffixes or exponents).
void store_text(Entry& e, const std::string& raw) {
  switch (e.kind) {
    case Kind::Bool:
      if (raw == "true") return store_bool(e, true);
      if (raw == "false") return store_bool(e, false);
      throw std::invalid_argument("expected true or false, got '" + shorten(raw) + "'");
    case Kind::U32:
    case Kind::U64: {
      std::string digits = raw;
      int base = 10;
      if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        digits = digits.substr(2);
        base = 16;
      }
      const bool negative = !digits.empty() && digits[0] == '-' && digits.size() > 1 &&
                            std::all_of(digits.begin() + 1, digits.end(),
                                        [](char c) { return c >= '0' && c <= '9'; });
      bool ok = !digits.empty() && std::all_of(digits.begin(), digits.end(), [base](char c) {
        return base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                          : std::isdigit(static_cast<unsigned char>(c)) != 0;
      });
      if (negative) return store_uint(e, 0, true, shorten(raw));
      if (!ok) throw std::invalid_argument("expected an integer, got '" + shorten(raw) + "'");
      errno = 0;
      uint64_t v = std::strtoull(digits.c_str(), nullptr, base);
      if (errno == ERANGE) return store_uint(e, 0, true, shorten(raw));
      return store_uint(e, v, false, raw);
    }
    case Kind::Double: {
      char* end = nullptr;
      errno = 0;
      double v = raw.empty() ? 0.0 : std::strtod(raw.c_str(), &end);
      if (raw.empty() || end != raw.c_str() + raw.size() || std::isspace(static_cast<unsigned char>(raw[0])))
        throw std::invalid_argument("expected a number, got '" + shorten(raw) + "'");
      if (!std::isfinite(v)) throw std::invalid_argument("expected a finite number, got '" + shorten(raw) + "'");
      return store_double(e, v);
    }
    case Kind::String:
    case Kind::Choice:
      return store_string(e, raw);
  }
}

std::string toml_type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date/time";
  }
}

void store_toml(Entry& e, const toml::node& n) {
  auto wrong = [&]() {
    return std::invalid_argument("expected " + kind_name(e.kind) + ", got " + toml_type_name(n));
  };
  switch (e.kind) {
    case Kind::Bool:
      if (auto b = n.as_boolean()) return store_bool(e, b->get());
      throw wrong();
    case Kind::U32:
    case Kind::U64:
      if (auto i = n.as_integer()) {
        int64_t v = i->get();
        return store_uint(e, static_cast<uint64_t>(v), v < 0, std::to_string(v));
      }
      throw wrong();
    case Kind::Double:
      if (auto f = n.as_floating_point()) return store_double(e, f->get());
      if (auto i = n.as_integer()) return store_double(e, static_cast<double>(i->get()));
      throw wrong();
    case Kind::String:
    case Kind::Choice:
      if (auto s = n.as_string()) return store_string(e, s->get());
      throw wrong();
  }
}

nlohmann::json current_value(const Entry& e) {
  switch (e.kind) {
    case Kind::Bool: return *static_cast<const bool*>(e.field);
    case Kind::U32: return *static_cast<const uint32_t*>(e.field);
    case Kind::U64: return *static_cast<const uint64_t*>(e.field);
    case Kind::Double: return *static_cast<const double*>(e.field);
    case Kind::String:
    case Kind::Choice: return *static_cast<const std::string*>(e.field);
  }
  return nullptr;
}

std::string value_text(const nlohmann::json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

bool valid_name(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  char prev = 0;
  for (char c : name) {
    if (c == '.' && prev == '.') return false;
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
      return false;
    prev = c;
  }
  return true;
}

std::string toml_where(const toml::source_region& src, const std::string& origin) {
  std::string file = src.path ? *src.path : origin;
  return file + ":" + std::to_string(src.begin.line);
}

// Walks one TOML table: `[l1d] size = 1`, `l1d.size = 1` and
// `"l1d.size" = 1` all arrive here as the path "l1d.size".
void apply_table(const Entries& entries, const toml::table& t, const std::string& prefix,
                 const std::string& origin) {
  for (const auto& [k, node] : t) {
    const std::string path = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    const std::string where = toml_where(node.source(), origin) + ": " + shorten(path) + ": ";
    if (Entry* e = find_entry(entries, path)) {
      try {
        store_toml(*e, node);
      } catch (const std::invalid_argument& ex) {
        throw input_error(where + ex.what());
      }
      e->origin = origin;
    } else if (const toml::table* sub = node.as_table()) {
      if (!is_prefix_of_some(entries, path))
        throw input_error(where + unknown_table_message(entries, path));
      apply_table(entries, *sub, path, origin);
    } else {
      throw input_error(where + unknown_message(entries, path));
    }
  }
}

}  // namespace

ParamRegistry::ParamRegistry() = default;
ParamRegistry::~ParamRegistry() = default;
ParamRegistry::ParamRegistry(ParamRegistry&&) noexcept = default;
ParamRegistry& ParamRegistry::operator=(ParamRegistry&&) noexcept = default;

ParamRegistry::Entry& ParamRegistry::insert(const std::string& name, const std::string& doc) {
  // Bad names and duplicates are programming errors in a block's bind().
  if (!valid_name(name))
    throw Error(ExitCode::Internal, "parameter name '" + name + "' is not a dotted name of [A-Za-z0-9_-]");
  if (find_entry(entries_, name)) throw Error(ExitCode::Internal, "parameter '" + name + "' bound twice");
  for (const auto& e : entries_) {
    // "l1d" and "l1d.size" cannot both be parameters: TOML could not express both.
    if (e->name.compare(0, name.size() + 1, name + ".") == 0 ||
        name.compare(0, e->name.size() + 1, e->name + ".") == 0)
      throw Error(ExitCode::Internal, "parameter '" + name + "' clashes with '" + e->name + "'");
  }
  entries_.push_back(std::make_unique<Entry>());
  Entry& e = *entries_.back();
  e.name = name;
  e.doc = doc;
  return e;
}

void ParamRegistry::add(const std::string& name, bool& field, const std::string& doc) {
  Entry& e = insert(name, doc);
  e.kind = Kind::Bool;
  e.field = &field;
  e.default_value = field;
}

namespace {
// Range and default of an unsigned parameter (u32 and u64 alike).
template <class T>
void bind_unsigned(ParamRegistry::Entry& e, const std::string& name, T& field, uint64_t min, uint64_t max) {
  e.field = &field;
  e.umin = min;
  e.umax = max;
  e.default_value = field;
  if (field < min || field > max || min > max)
    throw Error(ExitCode::Internal, "parameter '" + name + "': default " + std::to_string(field) +
                                       " outside [" + std::to_string(min) + ", " + std::to_string(max) + "]");
}
}  // namespace

void ParamRegistry::add(const std::string& name, uint32_t& field, const std::string& doc,
                        uint64_t min, uint64_t max) {
  if (max > UINT32_MAX) max = UINT32_MAX;
  Entry& e = insert(name, doc);
  e.kind = Kind::U32;
  bind_unsigned(e, name, field, min, max);
}

void ParamRegistry::add(const std::string& name, uint64_t& field, const std::string& doc,
                        uint64_t min, uint64_t max) {
  Entry& e = insert(name, doc);
  e.kind = Kind::U64;
  bind_unsigned(e, name, field, min, max);
}

void ParamRegistry::add(const std::string& name, double& field, const std::string& doc, double min,
                        double max) {
  Entry& e = insert(name, doc);
  e.kind = Kind::Double;
  e.field = &field;
  e.dmin = min;
  e.dmax = max;
  e.default_value = field;
  if (!(field >= min && field <= max))
    throw Error(ExitCode::Internal, "parameter '" + name + "': default " + format_double(field) +
                                       " outside [" + format_double(min) + ", " + format_double(max) + "]");
}

void ParamRegistry::add(const std::string& name, std::string& field, const std::string& doc) {
  Entry& e = insert(name, doc);
  e.kind = Kind::String;
  e.field = &field;
  e.default_value = field;
}

void ParamRegistry::add_choice(const std::string& name, std::string& field,
                               std::vector<std::string> choices, const std::string& doc) {
  Entry& e = insert(name, doc);
  e.kind = Kind::Choice;
  e.field = &field;
  e.choices = std::move(choices);
  e.default_value = field;
  if (std::find(e.choices.begin(), e.choices.end(), field) == e.choices.end())
    throw Error(ExitCode::Internal, "parameter '" + name + "': default '" + field +
                                       "' is not one of: " + join_choices(e.choices));
}

void ParamRegistry::load_toml_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw input_error(path + ": configuration file not found (or not a regular file)");
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.is_open() || in.bad()) throw input_error(path + ": cannot read the configuration file");
  load_toml_text(text, path);
}

void ParamRegistry::load_toml_text(const std::string& text, const std::string& origin) {
  check_toml_limits(text, origin);  // before toml++, which would overflow its stack on deep nesting
  toml::table table;
  try {
    table = toml::parse(text, origin);
  } catch (const toml::parse_error& err) {
    const auto& b = err.source().begin;
    throw input_error(origin + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                      ": TOML syntax error: " + shorten(err.description(), 300));
  }
  apply_table(entries_, table, "", origin);
}

void ParamRegistry::set(const std::string& key, const std::string& value, const std::string& origin) {
  const std::string where = origin + " " + shorten(key) + "=" + shorten(value) + ": ";
  Entry* e = find_entry(entries_, key);
  if (!e) throw input_error(where + unknown_message(entries_, key));
  try {
    store_text(*e, value);
  } catch (const std::invalid_argument& ex) {
    throw input_error(where + ex.what());
  }
  e->origin = origin + (origin == "--set" ? " " + key + "=" + shorten(value) : "");
}

void ParamRegistry::bind_cli(CLI::App& app) {
  cli_app_ = &app;
  for (const auto& e : entries_) {
    std::string type = type_tag(e->kind);
    if (e->kind == Kind::Choice) {
      type = "{";
      for (size_t i = 0; i < e->choices.size(); ++i) type += (i ? "," : "") + e->choices[i];
      type += "}";
    }
    // One help group per block (sm, l1d, l2, dram, ...), in binding order.
    const std::string block = e->name.substr(0, e->name.find('.'));
    app.add_option("--" + e->name, CLI::callback_t{}, e->doc, false)
        ->group("Machine parameters: " + block + ".*")
        ->type_name(type)
        ->default_str(value_text(e->default_value))
        ->take_all();  // repeated flags: each one applies, in order
  }
  // `--set key=value` must interleave with the flags in command-line order,
  // so it belongs here; an app that defines its own --set keeps it and
  // apply_cli() still applies it.
  if (!app.get_option_no_throw("--set")) {
    app.add_option("--set", CLI::callback_t{}, "Set any machine parameter: --set KEY=VALUE (repeatable; "
                            "applied after --config files, in command-line order with the flags)", false)
        ->group("Machine parameters")
        ->type_name("KEY=VALUE")
        ->take_all();
  }
}

void ParamRegistry::apply_cli() {
  if (!cli_app_) throw Error(ExitCode::Internal, "ParamRegistry::apply_cli() before bind_cli()");
  std::map<const CLI::Option*, const Entry*> by_option;
  for (const auto& e : entries_) by_option[cli_app_->get_option_no_throw("--" + e->name)] = e.get();
  const CLI::Option* set_opt = cli_app_->get_option_no_throw("--set");

  // parse_order() holds one pointer per value taken, across all options, in
  // command-line order; the k-th appearance of an option is its k-th result.
  std::map<const CLI::Option*, size_t> seen;
  cli_values_.clear();
  std::vector<bool> from_set;
  for (const CLI::Option* opt : cli_app_->parse_order()) {
    size_t k = seen[opt]++;
    if (k >= opt->results().size()) continue;
    const std::string& value = opt->results()[k];
    if (opt == set_opt) {
      size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0)
        throw input_error("--set " + shorten(value) + ": expected KEY=VALUE");
      cli_values_.emplace_back(value.substr(0, eq), value.substr(eq + 1));
      from_set.push_back(true);
    } else if (auto it = by_option.find(opt); it != by_option.end()) {
      cli_values_.emplace_back(it->second->name, value);
      from_set.push_back(false);
    }
  }
  for (size_t i = 0; i < cli_values_.size(); ++i) {
    const auto& [name, value] = cli_values_[i];
    if (from_set[i]) {
      set(name, value, "--set");
    } else {
      Entry* e = find_entry(entries_, name);
      try {
        store_text(*e, value);
      } catch (const std::invalid_argument& ex) {
        throw input_error("--" + name + " " + shorten(value) + ": " + ex.what());
      }
      e->origin = "--" + name;
    }
  }
}

bool ParamRegistry::has(const std::string& name) const { return find_entry(entries_, name) != nullptr; }

bool ParamRegistry::assigned(const std::string& name) const {
  const Entry* e = find_entry(entries_, name);
  return e && e->assigned;
}

std::string ParamRegistry::origin(const std::string& name) const {
  const Entry* e = find_entry(entries_, name);
  return e && e->assigned ? e->origin : std::string();
}

std::string ParamRegistry::name_sources(const std::string& message) const {
  // Parameter names are dotted words; take every such word the registry
  // knows, in the order the message names them.
  std::vector<std::string> origins;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; };
  for (size_t i = 0; i < message.size();) {
    if (!word_char(message[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < message.size() && word_char(message[j])) ++j;
    std::string word = message.substr(i, j - i);
    while (!word.empty() && word.back() == '.') word.pop_back();  // the end of a sentence
    const std::string o = origin(word);
    if (!o.empty() && std::find(origins.begin(), origins.end(), o) == origins.end()) origins.push_back(o);
    i = j;
  }
  if (origins.empty()) return message;
  if (origins.size() == 1)  // one file or flag is at fault: name it, as a bad value in it is named
    return message.compare(0, origins[0].size(), origins[0]) == 0 ? message : origins[0] + ": " + message;
  std::string who;
  for (size_t k = 0; k < origins.size(); ++k)
    who += (k == 0 ? "" : k + 1 == origins.size() ? " and " : ", ") + origins[k];
  return who + " cannot be combined: " + message;
}

nlohmann::json ParamRegistry::to_json() const {
  nlohmann::json j = nlohmann::json::object();  // std::map inside: sorted by name
  for (const auto& e : entries_) j[e->name] = current_value(*e);
  return j;
}

namespace {
// "{a, b}" for choices, "[min, max]" for a range narrower than the type's;
// empty otherwise.
std::string limits_text(const ParamRegistry::Entry& e);
}  // namespace

std::vector<const ParamRegistry::Entry*> ParamRegistry::sorted_entries() const {
  std::vector<const Entry*> sorted;
  for (const auto& e : entries_) sorted.push_back(e.get());
  std::sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) { return a->name < b->name; });
  return sorted;
}

std::string ParamRegistry::help_text() const {
  const std::vector<const Entry*> sorted = sorted_entries();
  size_t name_w = 0, def_w = 0;
  for (const Entry* e : sorted) {
    name_w = std::max(name_w, e->name.size());
    def_w = std::max(def_w, value_text(e->default_value).size());
  }
  std::ostringstream out;
  for (const Entry* e : sorted) {
    std::string def = value_text(e->default_value);
    out << e->name << std::string(name_w - e->name.size() + 2, ' ') << def
        << std::string(def_w - def.size() + 2, ' ') << e->doc;
    const std::string lim = limits_text(*e);
    if (!lim.empty()) out << " " << lim;
    out << "\n";
  }
  return out.str();
}

std::string ParamRegistry::markdown_table() const {
  std::ostringstream out;
  out << "| parameter | default | range or choices | meaning |\n|---|---|---|---|\n";
  for (const Entry* e : sorted_entries()) {
    std::string doc = e->doc;
    for (size_t at = doc.find('|'); at != std::string::npos; at = doc.find('|', at + 2)) doc.replace(at, 1, "\\|");
    out << "| `" << e->name << "` | `" << value_text(e->default_value) << "` | " << limits_text(*e) << " | " << doc
        << " |\n";
  }
  return out.str();
}

namespace {
std::string limits_text(const ParamRegistry::Entry& e) {
  std::ostringstream out;
  if (e.kind == Kind::Choice) out << "{" << join_choices(e.choices) << "}";
  if ((e.kind == Kind::U32 || e.kind == Kind::U64) &&
      (e.umin != 0 || e.umax != (e.kind == Kind::U32 ? UINT32_MAX : UINT64_MAX)))
    out << "[" << e.umin << ", " << e.umax << "]";
  if (e.kind == Kind::Double && (e.dmin != -1e300 || e.dmax != 1e300))
    out << "[" << format_double(e.dmin) << ", " << format_double(e.dmax) << "]";
  return out.str();
}
}  // namespace

}  // namespace simt::config
