#define BOOST_TEST_MODULE lexer_errors
// Issue 35, item 3: every lexer error names the line and column where the
// offending construct starts. An unterminated /* comment spanning lines was
// reported at column 18446744073709551576 (the column was computed against
// the start of the comment's LAST line).
#include <boost/test/unit_test.hpp>

#include <string>

#include "ptx/lexer.h"
#include "util/error.h"

using namespace simt::ptx;

namespace {

// The message of the BadInput error tokenizing `src` throws ("" if none).
std::string error_of(const std::string& src) {
  try {
    tokenize(src, "bad.ptx");
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == simt::ExitCode::BadInput);
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(unterminated_comment_spanning_lines_is_reported_where_it_opens) {
  BOOST_TEST(error_of(".version 9.0\n  .target /* no end\nmore text\n\nstill none") ==
             "bad.ptx:2:11: unterminated /* comment");
  // A long last line used to give a huge (wrapped) column instead.
  BOOST_TEST(error_of("/*\n" + std::string(100, 'x')) == "bad.ptx:1:1: unterminated /* comment");
  BOOST_TEST(error_of("a\nb /* x") == "bad.ptx:2:3: unterminated /* comment");
  BOOST_TEST(error_of("/*") == "bad.ptx:1:1: unterminated /* comment");
  BOOST_TEST(error_of("/*/") == "bad.ptx:1:1: unterminated /* comment");
}

BOOST_AUTO_TEST_CASE(tokens_after_a_closed_multiline_comment_keep_their_positions) {
  const std::vector<Token> t = tokenize("/* one\ntwo\n*/ ab /**/ cd\n  ef", "ok.ptx");
  BOOST_REQUIRE_EQUAL(t.size(), 4u);
  BOOST_TEST(t[0].text == "ab");
  BOOST_TEST(t[0].line == 3u);
  BOOST_TEST(t[0].col == 4u);
  BOOST_TEST(t[1].col == 12u);
  BOOST_TEST(t[2].line == 4u);
  BOOST_TEST(t[2].col == 3u);
}

BOOST_AUTO_TEST_CASE(unterminated_string_is_reported_where_it_opens) {
  BOOST_TEST(error_of("x\n  \"abc\nnext") == "bad.ptx:2:3: unterminated string");
  // A backslash before the newline does not carry the string onto the next
  // line (it used to, and every later line number was one short).
  BOOST_TEST(error_of("x\n  \"abc\\\nnext\"") == "bad.ptx:2:3: unterminated string");
  BOOST_TEST(error_of("\"abc\\") == "bad.ptx:1:1: unterminated string");
  const std::vector<Token> t = tokenize("\"a\\\"b\" c", "ok.ptx");
  BOOST_REQUIRE_EQUAL(t.size(), 3u);
  BOOST_TEST(t[0].text == "\"a\\\"b\"");
  BOOST_TEST(t[1].col == 8u);
}

BOOST_AUTO_TEST_CASE(stray_characters_are_shown_readably) {
  BOOST_TEST(error_of("ab\n  #") == "bad.ptx:2:3: unexpected character '#'");
  BOOST_TEST(error_of(std::string("ab \0", 4)) == "bad.ptx:1:4: unexpected character 0x00");
  BOOST_TEST(error_of("\xC3\xA9") == "bad.ptx:1:1: unexpected character 0xC3");
}
