// docs/parameters.md lists every machine parameter with its default, range
// and meaning; it is generated, and this test keeps it equal to the model.
#define BOOST_TEST_MODULE parameter_docs
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

#include "gpu/machine_config.h"

BOOST_AUTO_TEST_CASE(parameters_page_matches_the_model) {
  std::ifstream in(SIMT_SOURCE_DIR "/docs/parameters.md", std::ios::binary);
  BOOST_REQUIRE(in);
  std::ostringstream page;
  page << in.rdbuf();
  const std::string want = simt::gpu::parameter_reference_markdown();
  BOOST_TEST(page.str() == want,
             "docs/parameters.md is out of date: run `build/simtlab params --markdown > docs/parameters.md`");
}

BOOST_AUTO_TEST_CASE(every_parameter_has_a_row_with_its_range) {
  const std::string page = simt::gpu::parameter_reference_markdown();
  BOOST_TEST(page.find("| `l1d.assoc` |") != std::string::npos);
  BOOST_TEST(page.find("| `func.shfl_undefined` | `zero` | {") != std::string::npos);
  BOOST_TEST(page.find("[1, 1024]") != std::string::npos);  // sm.max_warps' range
}
