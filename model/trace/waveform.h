// VCD waveforms through SystemC's own sc_trace, off unless asked for. A run
// names the file, a set of signal globs (matched against hierarchical names
// such as "sm0.issue.w3_pc") and a window of cycles; blocks ask for the
// signals they offer and update them only inside the window, so files stay
// small. Signals must be created during elaboration (block constructors).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

namespace simt::trace {

// A PC (or similar index) that is sometimes undefined, such as the PC of an
// idle warp slot: traced as a logic vector so that viewers show 'x' rather
// than a sentinel number. It starts undefined. set() remembers the last
// value, so writing an unchanged value every cycle costs no logic-vector
// arithmetic. 31 bits, not 32: SystemC 2.3.4's sc_lv of a whole number of
// 32-bit words shifts a 32-bit word by 32 in clean_tail() (undefined
// behaviour that UBSan reports), and instruction indices never need bit 31.
inline constexpr int kMaybeSignalBits = 31;
using MaybeValue = sc_dt::sc_lv<kMaybeSignalBits>;

class MaybeSignal : public sc_core::sc_signal<MaybeValue> {
 public:
  explicit MaybeSignal(const char* name) : sc_core::sc_signal<MaybeValue>(name) {}
  // A value past 31 bits cannot be shown: it is traced as undefined.
  void set(uint32_t v) {
    if (v >> kMaybeSignalBits) return set_undefined();
    if (defined_ && v == last_) return;
    defined_ = true;
    last_ = v;
    write(MaybeValue(v));
  }
  void set_undefined() {
    if (!defined_) return;
    defined_ = false;
    write(MaybeValue());  // all 'x'
  }
  // `v`, or undefined when v == `none` (e.g. ptx::kNoPc).
  void set_or_undefined(uint32_t v, uint32_t none) { v == none ? set_undefined() : set(v); }

 private:
  bool defined_ = false;
  uint32_t last_ = 0;
};

struct WaveformOptions {
  std::string path;                       // empty = no waveform
  std::vector<std::string> globs{"*"};    // which signals ('*' matches any run of characters)
  uint64_t start = 0;                     // first cycle recorded
  uint64_t end = UINT64_MAX;              // last cycle recorded

  // Parses "--vcd-window START:END" ("START:" = to the end); throws
  // simt::input_error naming the option on bad text.
  static void parse_window(const std::string& text, uint64_t* start, uint64_t* end);
  static std::vector<std::string> parse_globs(const std::string& text);  // comma-separated
};

class Waveform : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Waveform);
  Waveform(sc_core::sc_module_name name, const WaveformOptions& opts);
  ~Waveform() override;

  bool enabled() const { return file_ != nullptr; }
  bool wants(const std::string& signal_name) const;
  bool in_window(uint64_t cycle) const { return cycle >= opts_.start && cycle <= opts_.end; }
  // First recorded cycle: a block asleep when the window opens wakes then
  // to write the values it holds.
  uint64_t window_start() const { return opts_.start; }

  // A traced signal named `name` if tracing is on and `name` is wanted, else
  // nullptr (the block then skips updating it). The signal is owned here.
  template <class T>
  sc_core::sc_signal<T>* signal(const std::string& name, const T& init = T{}) {
    if (!enabled() || !wants(name)) return nullptr;
    auto s = std::make_shared<sc_core::sc_signal<T>>(sc_core::sc_gen_unique_name("sig"), init);
    owned_.push_back(s);  // shared_ptr<void> keeps the right deleter
    sc_core::sc_trace(file_, *s, name);
    ++signals_;
    return s.get();
  }
  // The same for a value that may be undefined ('x' until first set).
  MaybeSignal* maybe_signal(const std::string& name) {
    if (!enabled() || !wants(name)) return nullptr;
    auto s = std::make_shared<MaybeSignal>(sc_core::sc_gen_unique_name("sig"));
    owned_.push_back(s);
    sc_core::sc_trace(file_, *s, name);
    ++signals_;
    return s.get();
  }
  uint32_t signal_count() const { return signals_; }
  // The traced clock (null when tracing is off). It ticks only while the
  // model has other work, so a block that writes lazily kept state on its
  // edges never keeps the simulation going.
  const sc_core::sc_signal<bool>* clock() const { return clk_; }

  // The traced clock runs only while the rest of the model has work, so a
  // finished kernel still lets sc_start() return; call after starting work.
  void kick() { kick_.notify(sc_core::SC_ZERO_TIME); }

 private:
  void clock_edge();

  WaveformOptions opts_;
  sc_core::sc_trace_file* file_ = nullptr;
  std::vector<std::shared_ptr<void>> owned_;
  sc_core::sc_signal<bool>* clk_ = nullptr;
  sc_core::sc_event kick_;
  bool ticking_ = false;  // the clock toggles every half cycle
  uint32_t signals_ = 0;
};

bool glob_match(const std::string& pattern, const std::string& text);

}  // namespace simt::trace
