#include "func/thread_fault.h"

#include <sstream>

namespace simt::func {

std::string dim3_text(const Dim3& d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

std::string fault_where(const ptx::Program& p, const CtaState& cta, uint32_t pc) {
  std::ostringstream s;
  s << "kernel '" << p.kernel << "' CTA " << dim3_text(cta.ctaid());
  if (pc < p.code.size()) {
    s << " PC " << pc << " (" << p.source_path << ":" << p.code[pc].line;
    if (pc < p.text.size()) s << ": " << p.text[pc];
    s << ")";
  }
  return s.str();
}

Error thread_fault(const ptx::Program& p, const CtaState& cta, uint32_t pc, const Fault& f) {
  const Dim3 tid = cta.tid(f.tid);
  std::ostringstream s;
  s << fault_where(p, cta, pc) << " thread " << dim3_text(tid) << " [linear " << f.tid << "]: " << f.message;
  if (f.has_addr) s << " (address 0x" << std::hex << f.addr << ")";
  FaultSite site;
  for (int i = 0; i < 3; ++i) {
    site.cta[i] = cta.ctaid()[i];
    site.thread[i] = tid[i];
  }
  site.pc = pc;
  site.kind = f.kind;
  site.addr = f.addr;
  site.has_addr = f.has_addr;
  return kernel_fault(s.str()).at(site);
}

}  // namespace simt::func
