// Linking the PTX modules of an -rdc program into one (see merge.h). Three
// steps: group every module-scope symbol by name and pick, per name, the one
// that survives (linkage rules) and the internal ones that must be renamed;
// then move the surviving functions and variables into the result; then
// point every reference at its symbol's index and name in the result.
#include "ptx/merge.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_set>
#include <utility>

#include "util/error.h"

namespace simt::ptx {
namespace {

enum class Link : uint8_t { Internal, Extern, Visible, Weak, Common };

Link linkage(const Function& f) {
  if (f.is_extern) return Link::Extern;  // also a prototype whose body never came
  if (f.visible) return Link::Visible;
  if (f.weak) return Link::Weak;
  return Link::Internal;
}

Link linkage(const Variable& v) {
  if (v.is_extern) return Link::Extern;
  if (v.visible) return Link::Visible;
  if (v.common) return Link::Common;
  if (v.weak) return Link::Weak;
  return Link::Internal;
}

// One module-scope symbol of one unit.
struct Entry {
  uint32_t unit = 0;
  bool is_func = false;
  uint32_t index = 0;  // into that unit's functions or globals
  Link link = Link::Internal;
};

// "major.minor" -> comparable pair; anything unreadable counts as 0.0.
std::pair<long, long> version_of(const std::string& v) {
  char* end = nullptr;
  const long major = std::strtol(v.c_str(), &end, 10);
  const long minor = end && *end == '.' ? std::strtol(end + 1, nullptr, 10) : 0;
  return {major, minor};
}

// sm_NN[a|f] -> NN; other targets 0.
long sm_of(const std::string& t) { return t.rfind("sm_", 0) == 0 ? std::strtol(t.c_str() + 3, nullptr, 10) : 0; }

class Merger {
 public:
  Merger(std::vector<Module>& units, const std::string& name) : units_(units), name_(name) {
    renames_.resize(units_.size());
  }

  Module run() {
    collect();
    for (const std::string& name : order_) resolve(name, groups_.at(name));
    build();
    header();
    return std::move(out_);
  }

  std::vector<Renames>& renames() { return renames_; }

 private:
  const std::string& where(uint32_t u) const { return units_[u].path.empty() ? name_ : units_[u].path; }
  uint32_t line_of(const Entry& e) const {
    const Module& m = units_[e.unit];
    return e.is_func ? m.functions[e.index].line : m.globals[e.index].line;
  }
  std::string at(const Entry& e) const { return where(e.unit) + ":" + std::to_string(line_of(e)); }
  const Variable& var(const Entry& e) const { return units_[e.unit].globals[e.index]; }
  uint8_t& kept(const Entry& e) { return e.is_func ? keep_fn_[e.unit][e.index] : keep_var_[e.unit][e.index]; }

  // Every symbol by name, in unit order, and every name in use.
  void collect() {
    keep_fn_.resize(units_.size());
    keep_var_.resize(units_.size());
    for (uint32_t u = 0; u < units_.size(); ++u) {
      const Module& m = units_[u];
      keep_fn_[u].assign(m.functions.size(), 0);
      keep_var_[u].assign(m.globals.size(), 0);
      for (uint32_t i = 0; i < m.functions.size(); ++i) add(m.functions[i].name, {u, true, i, linkage(m.functions[i])});
      for (uint32_t i = 0; i < m.globals.size(); ++i) add(m.globals[i].name, {u, false, i, linkage(m.globals[i])});
    }
  }

  void add(const std::string& name, const Entry& e) {
    auto it = groups_.find(name);
    if (it == groups_.end()) {
      order_.push_back(name);
      it = groups_.emplace(name, std::vector<Entry>()).first;
    }
    it->second.push_back(e);
    taken_.insert(name);
  }

  [[noreturn]] void fail(const Entry& e, const std::string& msg) const {
    throw input_error(at(e) + ": " + msg);
  }

  // Picks the symbol that survives under `name` and the internal ones to rename.
  void resolve(const std::string& name, const std::vector<Entry>& group) {
    std::vector<Entry> ext;
    for (const Entry& e : group)
      if (e.link != Link::Internal) ext.push_back(e);
    bool owned = !ext.empty();  // an external symbol owns the name: every internal one is renamed
    if (owned) resolve_external(name, ext);
    for (const Entry& e : group) {
      if (e.link != Link::Internal) continue;
      kept(e) = 1;
      if (!owned) {  // the first internal one keeps its name
        owned = true;
        continue;
      }
      std::string base = name + "$u" + std::to_string(e.unit), fresh = base;
      for (int k = 2; taken_.count(fresh); ++k) fresh = base + "_" + std::to_string(k);
      taken_.insert(fresh);
      renames_[e.unit].emplace(name, fresh);
    }
  }

  void resolve_external(const std::string& name, const std::vector<Entry>& ext) {
    const Entry& first = ext.front();
    for (const Entry& e : ext) {
      if (e.is_func != first.is_func)
        fail(e, "'" + name + "' is a " + (e.is_func ? "function" : "variable") + " here but a " +
                    (first.is_func ? "function" : "variable") + " in " + at(first));
      if (!e.is_func && var(e).space != var(first).space)
        fail(e, "'" + name + "' is a ." + space_name(var(e).space) + " variable here but ." +
                    space_name(var(first).space) + " in " + at(first));
    }
    const Entry* winner = nullptr;
    for (const Entry& e : ext) {
      if (e.link != Link::Visible) continue;
      if (winner)
        fail(e, "duplicate definition of '" + name + "': it is also defined .visible in " + at(*winner) +
                    " (one definition per program; make one of them static, or both .weak)");
      winner = &e;
    }
    if (!winner) winner = pick_common(name, ext);
    for (const Entry& e : ext)
      if (!winner && e.link == Link::Weak) winner = &e;
    if (!winner) {  // declarations only: one stays, with the strictest alignment asked for
      winner = &first;
      if (!first.is_func) {
        uint32_t align = 0;
        for (const Entry& e : ext) align = std::max(align, var(e).align);
        units_[first.unit].globals[first.index].align = align;
      }
    }
    kept(*winner) = 1;
  }

  // .common: the largest wins; only it may be initialised (PTX ISA, .common).
  const Entry* pick_common(const std::string& name, const std::vector<Entry>& ext) const {
    const Entry *largest = nullptr, *init = nullptr;
    for (const Entry& e : ext) {
      if (e.link != Link::Common) continue;
      if (!largest || var(e).size_bytes() > var(*largest).size_bytes()) largest = &e;
      if (var(e).init.empty() && var(e).addr_inits.empty()) continue;
      if (init) fail(e, ".common '" + name + "' is initialised here and in " + at(*init) + " (only one may be)");
      init = &e;
    }
    if (init && var(*init).size_bytes() < var(*largest).size_bytes())
      fail(*init, ".common '" + name + "' is initialised here with " + std::to_string(var(*init).size_bytes()) +
                      " bytes, but " + at(*largest) + " declares it larger (" +
                      std::to_string(var(*largest).size_bytes()) + " bytes); the initialised one must be the largest");
    return init ? init : largest;
  }

  const std::string& final_name(uint32_t u, const std::string& name) const {
    auto it = renames_[u].find(name);
    return it == renames_[u].end() ? name : it->second;
  }

  // Moves the surviving symbols into the result and re-points every reference.
  void build() {
    out_.path = name_;
    out_.address_size = units_.front().address_size;
    std::unordered_map<std::string, uint32_t> var_at, fn_at;
    // Old names per unit, before the moves empty them.
    std::vector<std::vector<std::string>> var_names(units_.size()), fn_names(units_.size());
    for (uint32_t u = 0; u < units_.size(); ++u) {
      for (const Variable& v : units_[u].globals) var_names[u].push_back(v.name);
      for (const Function& f : units_[u].functions) fn_names[u].push_back(f.name);
    }
    for (uint32_t u = 0; u < units_.size(); ++u) {
      Module& m = units_[u];
      for (uint32_t i = 0; i < m.globals.size(); ++i) {
        if (!keep_var_[u][i]) continue;
        Variable v = std::move(m.globals[i]);
        v.name = final_name(u, var_names[u][i]);
        for (Variable::AddrInit& r : v.addr_inits) r.symbol = final_name(u, r.symbol);
        var_at.emplace(v.name, static_cast<uint32_t>(out_.globals.size()));
        out_.globals.push_back(std::move(v));
      }
      for (uint32_t i = 0; i < m.functions.size(); ++i) {
        if (!keep_fn_[u][i]) continue;
        Function f = std::move(m.functions[i]);
        f.name = final_name(u, fn_names[u][i]);
        fn_at.emplace(f.name, static_cast<uint32_t>(out_.functions.size()));
        fn_unit_.push_back(u);
        out_.functions.push_back(std::move(f));
      }
    }
    for (size_t k = 0; k < out_.functions.size(); ++k) {
      Function& f = out_.functions[k];
      const uint32_t u = fn_unit_[k];
      for (size_t s = 0; s < f.symrefs.size(); ++s) {
        SymRef& r = f.symrefs[s];
        if (r.kind == SymKind::Global) {
          f.symbols[s] = final_name(u, var_names[u][r.index]);
          r.index = var_at.at(f.symbols[s]);
        } else if (r.kind == SymKind::Func) {
          f.symbols[s] = final_name(u, fn_names[u][r.index]);
          r.index = fn_at.at(f.symbols[s]);
        }
      }
    }
  }

  void header() {
    const Module* newest = &units_.front();
    const Module* widest = &units_.front();
    for (const Module& m : units_) {
      if (version_of(m.version) > version_of(newest->version)) newest = &m;
      if (sm_of(m.target) > sm_of(widest->target)) widest = &m;
    }
    out_.version = newest->version;
    out_.target = widest->target;
  }

  std::vector<Module>& units_;
  const std::string& name_;
  Module out_;
  std::unordered_map<std::string, std::vector<Entry>> groups_;
  std::vector<std::string> order_;          // names in first-seen order (deterministic renaming)
  std::unordered_set<std::string> taken_;   // every name in use, old and new
  std::vector<Renames> renames_;
  std::vector<std::vector<uint8_t>> keep_fn_, keep_var_;
  std::vector<uint32_t> fn_unit_;           // result function -> its unit
};

}  // namespace

Module merge_modules(std::vector<Module> units, const std::string& name, std::vector<Renames>* renamed) {
  if (renamed) renamed->assign(units.size(), Renames());
  if (units.empty()) {
    Module m;
    m.path = name;
    return m;
  }
  if (units.size() == 1) return std::move(units.front());
  Merger merger(units, name);
  Module out = merger.run();
  if (renamed) *renamed = std::move(merger.renames());
  return out;
}

}  // namespace simt::ptx
