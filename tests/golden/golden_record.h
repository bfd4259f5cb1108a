// What the golden-statistics suite records of one run, and how two records
// are told apart. A record keeps, exactly:
//  - the exit code (and the first line of stderr when it is not 0),
//  - every top-level statistic of the --stats document (cycles, instruction
//    counts, memory checksum, IPC, ...), the per-kernel list, branch, traffic,
//    derived rates and the issue breakdown;
//  - every counter and histogram summed over unit instances ("sm3.l1d.misses"
//    adds into "sm#.l1d.misses"), so that a moved value reads as a name;
//  - a 64-bit digest of the full per-instance counters, histograms, series and
//    effective config, so that a change only in how work spreads over the
//    instances still shows.
// Left out: what is not a result of the model (wall time, speed, the
// simulator's version, the counters' descriptions).
#pragma once

#include <cctype>
#include <cstdint>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace simt::golden {

// "sm12" -> "sm#", "3" -> "#": an instance index is a whole-number component
// or the digits after a word of two or more letters (so "l1d" and "l2" stay).
inline std::string instance_pattern(const std::string& name) {
  std::string out;
  std::istringstream s(name);
  std::string part;
  for (bool first = true; std::getline(s, part, '.'); first = false) {
    size_t letters = 0;
    while (letters < part.size() && std::isalpha(static_cast<unsigned char>(part[letters]))) ++letters;
    bool digits_after = letters < part.size();
    for (size_t i = letters; i < part.size(); ++i)
      digits_after = digits_after && std::isdigit(static_cast<unsigned char>(part[i]));
    if (digits_after && (letters == 0 || letters >= 2)) part = part.substr(0, letters) + "#";
    out += (first ? "" : ".") + part;
  }
  return out;
}

// FNV-1a over the canonical text (object keys sorted, doubles round-tripped).
inline std::string digest(const nlohmann::json& j) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : j.dump()) h = (h ^ c) * 1099511628211ull;
  std::ostringstream s;
  s << std::hex << h;
  return s.str();
}

inline nlohmann::json summed_counters(const nlohmann::json& counters) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, v] : counters.items()) {
    nlohmann::json& slot = out[instance_pattern(name)];
    slot = slot.is_null() ? v : nlohmann::json(slot.get<uint64_t>() + v.get<uint64_t>());
  }
  return out;
}

// Histograms summed bin by bin; instances of one pattern share their bins.
inline nlohmann::json summed_histograms(const nlohmann::json& histograms) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, h] : histograms.items()) {
    nlohmann::json& slot = out[instance_pattern(name)];
    if (slot.is_null() || slot.size() != h["bins"].size()) {
      slot = slot.is_null() ? h["bins"] : nlohmann::json("bins differ between instances");
      continue;
    }
    for (size_t i = 0; i < slot.size(); ++i) slot[i] = slot[i].get<uint64_t>() + h["bins"][i].get<uint64_t>();
  }
  return out;
}

inline nlohmann::json record(int exit_code, const std::string& error_line, const nlohmann::json& stats) {
  nlohmann::json r;
  r["exit_code"] = exit_code;
  if (exit_code != 0) {
    r["error"] = error_line;
    return r;
  }
  nlohmann::json rest = stats;
  // Not results of the model: host time, version, prose, and how the command line said what the
  // config (digested below) holds (sets, warp_size).
  for (const char* k : {"wall_seconds", "speed", "simulator", "descriptions", "sets", "warp_size"}) rest.erase(k);
  if (rest.contains("kernels"))
    for (nlohmann::json& k : rest["kernels"]) k.erase("wall_seconds");  // each launch's host time
  r["counters"] = summed_counters(rest["counters"]);
  r["histograms"] = summed_histograms(rest["histograms"]);
  nlohmann::json& d = r["digest"];
  for (const char* k : {"counters", "histograms", "series", "config"}) {
    d[k] = digest(rest[k]);
    rest.erase(k);
  }
  r["run"] = rest;
  return r;
}

// One line per difference: its JSON pointer, the recorded and the new value.
inline std::string describe_changes(const nlohmann::json& expected, const nlohmann::json& actual,
                                    size_t max_lines = 40) {
  std::ostringstream s;
  const nlohmann::json patch = nlohmann::json::diff(expected, actual);
  size_t n = 0;
  for (const auto& op : patch) {
    if (n++ == max_lines) {
      s << "  ... " << patch.size() - max_lines << " more\n";
      break;
    }
    const std::string path = op["path"].get<std::string>();
    const nlohmann::json::json_pointer p(path);
    const std::string was = expected.contains(p) ? expected[p].dump() : "(absent)";
    const std::string now = actual.contains(p) ? actual[p].dump() : "(absent)";
    s << "  " << path << ": " << was << " -> " << now << "\n";
  }
  return s.str();
}

}  // namespace simt::golden
