#include "trace/waveform.h"

#include "util/cycle.h"
#include "util/error.h"

namespace simt::trace {

bool glob_match(const std::string& p, const std::string& s) {
  // Iterative wildcard match with backtracking to the last '*'.
  size_t pi = 0, si = 0, star = std::string::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == s[si])) {
      ++pi;
      ++si;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (star != std::string::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

void WaveformOptions::parse_window(const std::string& text, uint64_t* start, uint64_t* end) {
  auto bad = [&] {
    throw input_error("--vcd-window " + text + ": expected START:END in cycles (e.g. 1000:2000, or 1000: to the end)");
  };
  size_t colon = text.find(':');
  if (colon == std::string::npos) bad();
  auto num = [&](const std::string& t, uint64_t dflt) -> uint64_t {
    if (t.empty()) return dflt;
    uint64_t v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') bad();
      const uint64_t digit = static_cast<uint64_t>(c - '0');
      if (v > (UINT64_MAX - digit) / 10)
        throw input_error("--vcd-window '" + text + "': " + t + " is too large (at most " +
                          std::to_string(UINT64_MAX) + ")");
      v = v * 10 + digit;
    }
    return v;
  };
  *start = num(text.substr(0, colon), 0);
  *end = num(text.substr(colon + 1), UINT64_MAX);
  if (*end < *start) bad();
}

std::vector<std::string> WaveformOptions::parse_globs(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string g = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (!g.empty()) out.push_back(g);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (out.empty()) throw input_error("--vcd-signals: no signal pattern given");
  return out;
}

Waveform::Waveform(sc_core::sc_module_name name, const WaveformOptions& opts)
    : sc_core::sc_module(name), opts_(opts) {
  if (opts_.path.empty()) return;
  // SystemC appends ".vcd" to the name it is given. simtlab passes a
  // temporary name ending in ".vcd" (util::OutputFile) and renames it to the
  // user's exact name at the end.
  std::string base = opts_.path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  if (!file_) throw input_error("--vcd " + opts_.path + ": cannot create the file");
  file_->set_time_unit(100, sc_core::SC_PS);  // the clock has edges every half cycle (0.5 ns)
  // The clock is always in the file, whatever the signal patterns say.
  auto clk = std::make_shared<sc_core::sc_signal<bool>>("clk", false);
  owned_.push_back(clk);
  clk_ = clk.get();
  sc_core::sc_trace(file_, *clk_, "clk");
  ++signals_;
  SC_METHOD(clock_edge);
  sensitive << kick_;
}

Waveform::~Waveform() {
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

bool Waveform::wants(const std::string& n) const {
  for (const auto& g : opts_.globs)
    if (glob_match(g, n)) return true;
  return false;
}

void Waveform::clock_edge() {
  // Tick while anything else is scheduled later; otherwise stop, so
  // that sc_start() returns when the model is idle (kick() restarts it) and
  // the clock never runs past the model's last event. After a kick the model
  // may still be settling in delta cycles with nothing scheduled later yet:
  // look again in the next delta instead of stopping.
  const bool later = sc_core::sc_pending_activity_at_future_time();
  if (!ticking_) {
    if (!later) {
      if (sc_core::sc_pending_activity_at_current_time()) next_trigger(sc_core::SC_ZERO_TIME);
      return;
    }
    ticking_ = true;
  }
  // The clock is recorded inside the window only, like every other signal.
  if (in_window(util::now_cycle())) clk_->write(!clk_->read());
  if (later)
    next_trigger(util::cycle_time() / 2);
  else
    ticking_ = false;  // asleep on kick_ again
}

}  // namespace simt::trace
