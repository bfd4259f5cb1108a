// Keeps the first exception a block's clocked step throws and stops the
// simulation (SystemC would otherwise turn it into an sc_report and lose its
// type and exit code); the top rethrows it after sc_start returns.
#pragma once

#include <exception>

#include <systemc>

namespace simt::util {

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
      sc_core::sc_stop();
    }
    return true;
  }
  // Keeps the exception being handled (from a socket handler's catch block).
  void keep_current() {
    if (!fault_) fault_ = std::current_exception();
    sc_core::sc_stop();
  }
  bool faulted() const { return static_cast<bool>(fault_); }
  void rethrow() const {
    if (fault_) std::rethrow_exception(fault_);
  }

 private:
  std::exception_ptr fault_;
};

}  // namespace simt::util
