// Sanitizer builds only (SIMT_SANITIZE, docs/hardening.md): every call of
// sc_core::sc_start is wrapped (ld --wrap) so that, when it returns or throws,
// AddressSanitizer is told the main thread's real stack again. libsystemc
// announces its coroutine switches to ASan but gives the main coroutine an
// empty stack, so after a simulation ASan would ignore the stack unpoisoning
// at the next `throw` and report false stack-use-after-scope errors.
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>

#include <systemc>

namespace {

struct MainStackAnnouncer {
  ~MainStackAnnouncer() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* bottom = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &bottom, &size);
    pthread_attr_destroy(&attr);
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
  }
};

}  // namespace

extern "C" {
void __real__ZN7sc_core8sc_startEv();
void __real__ZN7sc_core8sc_startERKNS_7sc_timeENS_20sc_starvation_policyE(const sc_core::sc_time&,
                                                                          sc_core::sc_starvation_policy);

void __wrap__ZN7sc_core8sc_startEv() {
  MainStackAnnouncer again;
  __real__ZN7sc_core8sc_startEv();
}

void __wrap__ZN7sc_core8sc_startERKNS_7sc_timeENS_20sc_starvation_policyE(const sc_core::sc_time& t,
                                                                          sc_core::sc_starvation_policy p) {
  MainStackAnnouncer again;
  __real__ZN7sc_core8sc_startERKNS_7sc_timeENS_20sc_starvation_policyE(t, p);
}
}
