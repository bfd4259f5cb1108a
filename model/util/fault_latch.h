// Keeps the first exception a block's clocked step throws and stops the
// simulation (stop_for_fault()) (SystemC would otherwise turn it into an sc_report and lose its
// type and exit code); the top rethrows it after sc_start returns.
#pragma once

#include <exception>
#include <functional>

#include <systemc>

namespace simt::util {

// What a block's fault does to the simulation. By default sc_stop(): the
// runner's sc_start() returns and the top rethrows. A GPU inside someone
// else's platform (gpu::GpuDevice) must not stop the platform: it installs
// its own handler (one per simulation, as SystemC has one kernel).
inline std::function<void()>& fault_handler() {
  static std::function<void()> handler;
  return handler;
}
inline void stop_for_fault() {
  if (fault_handler())
    fault_handler()();
  else
    sc_core::sc_stop();
}

class FaultLatch {
 public:
  // Runs f(); an exception it throws is kept and stops the simulation.
  // Returns false (and does not run f) once a fault is kept.
  template <class F>
  bool run(F&& f) {
    if (fault_) return false;
    try {
      f();
    } catch (...) {
      fault_ = std::current_exception();
      stop_for_fault();
    }
    return true;
  }
  // Keeps the exception being handled (from a socket handler's catch block).
  void keep_current() {
    if (!fault_) fault_ = std::current_exception();
    stop_for_fault();
  }
  bool faulted() const { return static_cast<bool>(fault_); }
  void rethrow() const {
    if (fault_) std::rethrow_exception(fault_);
  }

 private:
  std::exception_ptr fault_;
};

}  // namespace simt::util
