// A manifest's initialised buffers are made in host memory piece by piece
// (issue 35 item 5): whatever the piece size, every kind of initial
// contents reaches the device exactly as one piece would have it, and
// buffers that cannot fit in --max-device-memory are refused before any is made.
#define BOOST_TEST_MODULE manifest_staging
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/simtlab_process.h"
#include "runtime/device.h"
#include "runtime/manifest.h"
#include "util/error.h"
#include "util/rng.h"

namespace fs = std::filesystem;
using namespace simt;
using simt::test::slurp;

namespace {

const char* kPtx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry k()
{
  ret;
}
)";

fs::path scratch() {
  fs::path d = fs::temp_directory_path() / ("simtlab_staging_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Odd counts and every kind of init, so pieces end inside and across elements.
std::string manifest_text() {
  return R"({"ptx": "k.ptx",
  "buffers": [{"name": "iota", "type": "u16", "count": 1001, "init": {"kind": "iota", "start": 0}},
              {"name": "rnd", "type": "i32", "count": 777, "init": {"kind": "random", "seed": 9, "min": -50, "max": 50}},
              {"name": "rf", "type": "f64", "count": 333, "init": {"kind": "random", "seed": 4}},
              {"name": "fill", "type": "u16", "count": 555, "init": {"kind": "fill", "value": 48879}},
              {"name": "file", "type": "u32", "count": 500, "init": {"kind": "file", "path": "in.bin"}}],
  "launches": [{"kernel": "k", "grid": 1, "block": 1}],
  "outputs": [{"buffer": "iota", "path": "iota.bin"}, {"buffer": "rnd", "path": "rnd.bin"},
              {"buffer": "rf", "path": "rf.bin"}, {"buffer": "fill", "path": "fill.bin"},
              {"buffer": "file", "path": "file.bin"}]})";
}

template <class T>
std::vector<T> read_as(const fs::path& p) {
  const std::string bytes = slurp(p);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

}  // namespace

BOOST_AUTO_TEST_CASE(contents_do_not_depend_on_the_piece_size) {
  const fs::path d = scratch();
  std::ofstream(d / "k.ptx") << kPtx;
  std::vector<uint32_t> in(500);
  for (uint32_t i = 0; i < 500; ++i) in[i] = i * 2654435761u;
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 500 * 4);
  std::ofstream(d / "m.json") << manifest_text();
  const runtime::Manifest m = runtime::Manifest::load((d / "m.json").string());
  for (uint64_t piece : {uint64_t{1}, uint64_t{7}, uint64_t{64}, uint64_t{64} << 20}) {
    BOOST_TEST_CONTEXT("piece " << piece) {
      const fs::path out = d / ("out" + std::to_string(piece));
      runtime::Device dev;
      runtime::ManifestRunOptions o;
      o.staging_bytes = piece;
      runtime::run_manifest(m, dev, out.string(), o);
      const auto iota = read_as<uint16_t>(out / "iota.bin");
      BOOST_TEST_REQUIRE(iota.size() == 1001u);
      for (size_t i = 0; i < iota.size(); ++i) BOOST_TEST_REQUIRE(iota[i] == i);
      const auto rnd = read_as<int32_t>(out / "rnd.bin");
      util::Rng rng(9);
      BOOST_TEST_REQUIRE(rnd.size() == 777u);
      for (size_t i = 0; i < rnd.size(); ++i) BOOST_TEST_REQUIRE(rnd[i] == rng.range(-50, 50));
      const auto rf = read_as<double>(out / "rf.bin");
      util::Rng rng_f(4);
      BOOST_TEST_REQUIRE(rf.size() == 333u);
      for (size_t i = 0; i < rf.size(); ++i) BOOST_TEST_REQUIRE(rf[i] == rng_f.unit_double());
      const auto fill = read_as<uint16_t>(out / "fill.bin");
      BOOST_TEST_REQUIRE(fill.size() == 555u);
      for (uint16_t v : fill) BOOST_TEST_REQUIRE(v == 48879u);
      BOOST_TEST(read_as<uint32_t>(out / "file.bin") == in);
    }
  }
  fs::remove_all(d);
}

// A file of the wrong size is still refused by name, before anything runs.
BOOST_AUTO_TEST_CASE(a_file_of_the_wrong_size_is_refused) {
  const fs::path d = scratch();
  std::ofstream(d / "k.ptx") << kPtx;
  std::ofstream(d / "in.bin", std::ios::binary) << std::string(1999, 'x');
  std::ofstream(d / "m.json") << manifest_text();
  const runtime::Manifest m = runtime::Manifest::load((d / "m.json").string());
  runtime::Device dev;
  try {
    runtime::run_manifest(m, dev, (d / "out").string());
    BOOST_FAIL("accepted a 1999-byte file for 500 x u32");
  } catch (const Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == 2);
    BOOST_TEST(std::string(e.what()).find("must hold exactly 2000 bytes") != std::string::npos, e.what());
  }
  BOOST_TEST(!fs::exists(d / "out" / "iota.bin"));
  fs::remove_all(d);
}

// More initialised bytes than the device may touch: exit 5 naming the
// largest buffer and the option, with no device memory touched.
BOOST_AUTO_TEST_CASE(buffers_beyond_the_device_memory_cap_are_refused_first) {
  const fs::path d = scratch();
  std::ofstream(d / "k.ptx") << kPtx;
  std::ofstream(d / "m.json") << R"({"ptx": "k.ptx",
    "buffers": [{"name": "a", "type": "u8", "count": 65536, "init": {"kind": "fill", "value": 1}},
                {"name": "zero", "type": "u64", "count": 17179869184},
                {"name": "big", "type": "u64", "count": 17179869184, "init": {"kind": "iota"}}],
    "launches": [{"kernel": "k", "grid": 1, "block": 1}]})";
  const runtime::Manifest m = runtime::Manifest::load((d / "m.json").string());
  runtime::DeviceOptions o;
  o.max_device_memory = uint64_t{1} << 30;
  runtime::Device dev(o);
  try {
    runtime::run_manifest(m, dev, (d / "out").string());
    BOOST_FAIL("accepted 128 GiB of initialised buffers under a 1 GiB cap");
  } catch (const Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == 5);
    const std::string w = e.what();
    BOOST_TEST(w.find("buffers[2] \"big\"") != std::string::npos, w);
    BOOST_TEST(w.find("--max-device-memory") != std::string::npos, w);
  }
  BOOST_TEST(dev.memory().bytes_touched() == 0u);
  fs::remove_all(d);
}
