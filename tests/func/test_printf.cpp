#define BOOST_TEST_MODULE printf
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "exec_fixture.h"
#include "func/address_space.h"

using namespace simt;
using namespace simt::test;
using func::Control;

namespace {
// PC 0: call vprintf with the format pointer at local 0, the argument buffer
// pointer at local 8, and the result at local 16; the buffer itself at local 24.
struct PrintfProgram {
  ExecFixture f;
  uint64_t strings = 0;
  PrintfProgram(uint32_t threads, const std::string& text) {
    Instr call = make(Op::Call, Type::None, {});
    call.call_info = 0;
    f.add(call, "call.uni (retval0), vprintf, (param0, param1);");
    ptx::CallInfo ci;
    ci.builtin = ptx::Builtin::Vprintf;
    ci.args = {{0, 0, 8}, {8, 0, 8}};
    ci.rets = {{0, 16, 4}};
    f.prog.calls.push_back(ci);
    f.build(threads, 0, 24 + 128);
    strings = f.alloc(text.size() + 1);
    f.mem.write(strings, text.c_str(), text.size() + 1);
    for (uint32_t t = 0; t < threads; ++t) {
      put<uint64_t>(t, 0, strings);
      put<uint64_t>(t, 8, func::kLocalWindow + 24);
    }
  }
  template <class T>
  void put(uint32_t t, uint32_t off, T v) { std::memcpy(f.cta->local(t) + off, &v, sizeof v); }
  template <class T>
  void arg(uint32_t t, uint32_t off, T v) { put<T>(t, 24 + off, v); }
  int32_t result(uint32_t t) {
    int32_t v;
    std::memcpy(&v, f.cta->local(t) + 16, 4);
    return v;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(mixed_conversions_two_threads_in_order) {
  // Format first, then a second string ("ab") used by %s right after it.
  const std::string fmt =
      "t=%d u=%u x=%#x X=%08X o=%o c=%c s=%s ld=%ld lld=%lld hh=%hhd f=%.2f e=%e g=%g w=[%*d] l=[%-4s] %%\n";
  PrintfProgram p(2, fmt + '\0' + "ab");
  const uint64_t ab = p.strings + fmt.size() + 1;
  for (uint32_t t = 0; t < 2; ++t) {
    p.arg<int32_t>(t, 0, -5 - static_cast<int32_t>(t));
    p.arg<uint32_t>(t, 4, 4000000000u);
    p.arg<uint32_t>(t, 8, 255);
    p.arg<uint32_t>(t, 12, 0xbeef);
    p.arg<uint32_t>(t, 16, 8);
    p.arg<int32_t>(t, 20, 'Q');
    p.arg<uint64_t>(t, 24, ab);
    p.arg<int64_t>(t, 32, -(int64_t{1} << 40));
    p.arg<int64_t>(t, 40, 123456789012345ll);
    p.arg<int32_t>(t, 48, 0x1ff);  // %hhd keeps the low byte: -1
    p.arg<double>(t, 56, 3.14159);
    p.arg<double>(t, 64, 1500.0);
    p.arg<double>(t, 72, 0.0001);
    p.arg<int32_t>(t, 80, 5);
    p.arg<int32_t>(t, 84, 42);
    p.arg<uint64_t>(t, 88, ab);
  }
  p.f.run(0);
  BOOST_CHECK(p.f.out.control == Control::Next);
  const std::string line0 =
      "t=-5 u=4000000000 x=0xff X=0000BEEF o=10 c=Q s=ab ld=-1099511627776 lld=123456789012345 hh=-1 "
      "f=3.14 e=1.500000e+03 g=0.0001 w=[   42] l=[ab  ] %\n";
  std::string line1 = line0;
  line1.replace(2, 2, "-6");
  BOOST_CHECK_EQUAL(p.f.printed.str(), line0 + line1);
  BOOST_CHECK_EQUAL(p.result(0), static_cast<int32_t>(line0.size()));
}

BOOST_AUTO_TEST_CASE(no_arguments_and_guarded_threads) {
  PrintfProgram p(4, "hello\n");
  p.put<uint64_t>(1, 8, 0);  // a null argument buffer is fine without conversions
  p.f.run(0, lanes({1, 3}));
  BOOST_CHECK_EQUAL(p.f.printed.str(), "hello\nhello\n");
  BOOST_CHECK_EQUAL(p.result(3), 6);
  BOOST_CHECK_EQUAL(p.result(0), 0);  // not executing
}

BOOST_AUTO_TEST_CASE(bad_format_or_pointer_faults) {
  {
    PrintfProgram p(1, "%n");
    p.f.run(0);
    BOOST_CHECK(p.f.out.control == Control::Fault);
    BOOST_CHECK(p.f.out.fault.message.find("unsupported conversion") != std::string::npos);
  }
  {
    PrintfProgram p(2, "%s");
    p.arg<uint64_t>(0, 0, p.strings);
    p.arg<uint64_t>(1, 0, 0x10);  // unmapped
    p.f.run(0);
    BOOST_CHECK(p.f.out.control == Control::Fault);
    BOOST_CHECK_EQUAL(p.f.out.fault.tid, 1u);
  }
  {
    PrintfProgram p(1, "x");
    p.put<uint64_t>(0, 0, 0x20);  // format pointer unmapped
    p.f.run(0);
    BOOST_CHECK(p.f.out.control == Control::Fault);
  }
}
