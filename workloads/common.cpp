#include "common.h"

#include "util/error.h"

namespace simt::workloads {

runtime::Module& load_workload_ptx(runtime::Device& dev, const std::string& name) {
  const char* text = embedded_ptx(name);
  if (!text || !*text)
    throw Error(ExitCode::Failure, "workload '" + name + "' has no embedded PTX (rebuild after adding it)");
  return dev.load_ptx(text, "workloads/" + name + "/" + name + ".ptx");
}

}  // namespace simt::workloads
