#define BOOST_TEST_MODULE manifest_ranges
// Issue 8, items 9 and 11: manifest values that do not fit their buffer type
// (fill, iota, random bounds) and launch sizes beyond CUDA's limits are bad
// input naming the JSON path, never silently truncated or wrapped.
#include <boost/test/unit_test.hpp>

#include <string>

#include "runtime/manifest.h"
#include "util/error.h"

using simt::runtime::Manifest;

namespace {

std::string buffer_manifest(const std::string& type, const std::string& init) {
  return R"({"ptx": "k.ptx", "buffers": [{"name": "b", "type": ")" + type + R"(", "count": 4, "init": )" + init +
         R"(}], "launches": [{"kernel": "k", "grid": 1, "block": 1}]})";
}

std::string launch_manifest(const std::string& grid, const std::string& block) {
  return R"({"ptx": "k.ptx", "buffers": [], "launches": [{"kernel": "k", "grid": )" + grid + R"(, "block": )" +
         block + "}]}";
}

// The error text of parsing `text` ("" if accepted); every error must be bad input.
std::string error_of(const std::string& text) {
  try {
    Manifest::parse(text, "m.json");
  } catch (const simt::Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == 2);
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(fill_values_outside_the_type_are_refused_with_the_json_path) {
  const std::string u8 = error_of(buffer_manifest("u8", R"({"kind": "fill", "value": 300})"));
  BOOST_TEST(has(u8, "buffers[0].init.value"), u8);
  BOOST_TEST(has(u8, "u8"), u8);
  const std::string i8 = error_of(buffer_manifest("i8", R"({"kind": "fill", "value": -1000})"));
  BOOST_TEST(has(i8, "buffers[0].init.value"), i8);
  const std::string f32 = error_of(buffer_manifest("f32", R"({"kind": "fill", "value": 1e300})"));
  BOOST_TEST(has(f32, "buffers[0].init.value"), f32);
  BOOST_TEST(has(f32, "f32"), f32);
  const std::string frac = error_of(buffer_manifest("i32", R"({"kind": "fill", "value": 1.5})"));
  BOOST_TEST(has(frac, "buffers[0].init.value"), frac);
}

BOOST_AUTO_TEST_CASE(fill_values_at_the_ends_of_the_type_are_accepted_exactly) {
  BOOST_TEST(error_of(buffer_manifest("u8", R"({"kind": "fill", "value": 255})")) == "");
  BOOST_TEST(error_of(buffer_manifest("i8", R"({"kind": "fill", "value": -128})")) == "");
  BOOST_TEST(error_of(buffer_manifest("f32", R"({"kind": "fill", "value": -3.4e38})")) == "");
  const Manifest m = Manifest::parse(buffer_manifest("u64", R"({"kind": "fill", "value": 18446744073709551615})"),
                                     "m.json");
  BOOST_TEST(m.buffers[0].init.bits == ~uint64_t{0});  // exact, not rounded through a double
}

BOOST_AUTO_TEST_CASE(random_bounds_outside_the_type_are_refused) {
  const std::string hi = error_of(buffer_manifest("u8", R"({"kind": "random", "min": 0, "max": 256})"));
  BOOST_TEST(has(hi, "buffers[0].init.max"), hi);
  const std::string lo = error_of(buffer_manifest("i8", R"({"kind": "random", "min": -129, "max": 0})"));
  BOOST_TEST(has(lo, "buffers[0].init.min"), lo);
  const std::string f = error_of(buffer_manifest("f32", R"({"kind": "random", "min": 0, "max": 1e39})"));
  BOOST_TEST(has(f, "buffers[0].init.max"), f);
  BOOST_TEST(error_of(buffer_manifest("u8", R"({"kind": "random", "min": 0, "max": 255})")) == "");
}

BOOST_AUTO_TEST_CASE(an_iota_that_runs_past_the_type_is_refused) {
  const std::string e = error_of(buffer_manifest("u8", R"({"kind": "iota", "start": 253})"));  // 253..256
  BOOST_TEST(has(e, "buffers[0].init.start"), e);
  BOOST_TEST(error_of(buffer_manifest("u8", R"({"kind": "iota", "start": 252})")) == "");
}

BOOST_AUTO_TEST_CASE(grid_y_and_z_above_65535_are_refused) {
  const std::string y = error_of(launch_manifest("[1, 65536, 1]", "1"));
  BOOST_TEST(has(y, "launches[0].grid[1]"), y);
  BOOST_TEST(has(y, "65535"), y);
  const std::string z = error_of(launch_manifest("[1, 1, 65536]", "1"));
  BOOST_TEST(has(z, "launches[0].grid[2]"), z);
  BOOST_TEST(error_of(launch_manifest("[2147483647, 65535, 65535]", "1")) == "");
}

BOOST_AUTO_TEST_CASE(block_z_above_64_is_refused) {
  const std::string z = error_of(launch_manifest("1", "[1, 1, 65]"));
  BOOST_TEST(has(z, "launches[0].block[2]"), z);
  BOOST_TEST(has(z, "64"), z);
}

BOOST_AUTO_TEST_CASE(a_grid_whose_cta_count_would_wrap_is_refused) {
  const std::string e = error_of(launch_manifest("[4294967295, 4294967295, 4294967295]", "1"));
  BOOST_TEST(has(e, "launches[0].grid[0]"), e);
}
