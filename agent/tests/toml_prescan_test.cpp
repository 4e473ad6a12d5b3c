#include "config/toml_prescan.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "build_paths.hpp"

namespace ibkit {
namespace {

std::optional<std::size_t> deep_line(const std::string& toml) {
  auto hazard = first_toml_hazard(toml, kMaxConfigDepth);
  if (!hazard || hazard->kind != TomlHazard::Kind::too_deep) return std::nullopt;
  return hazard->line;
}

// The line of the first non-ASCII character toml++ must not see.
std::optional<std::size_t> non_ascii_line(const std::string& toml) {
  auto hazard = first_toml_hazard(toml, kMaxConfigDepth);
  if (!hazard || hazard->kind != TomlHazard::Kind::non_ascii) return std::nullopt;
  return hazard->line;
}

std::string repeated(const std::string& part, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += part;
  return out;
}

}  // namespace

TEST_CASE("ibkit's own configuration is never too deep", "[config]") {
  std::ifstream example(std::filesystem::path(ibkit::test::source_dir()) /
                        "docs/ibkit.toml.example");
  std::stringstream text;
  text << example.rdbuf();
  REQUIRE_FALSE(text.str().empty());
  CHECK_FALSE(deep_line(text.str()));
  // The deepest forms the schema allows, written every way TOML allows.
  CHECK_FALSE(deep_line("[expect]\nports = [\"mlx5_0/1\", \"mlx5_1/1\"]\n"));
  CHECK_FALSE(deep_line("expect.ports = [\n  \"mlx5_0/1\",\n]\n"));
  CHECK_FALSE(deep_line("expect = { ports = [\"a/1\"], modules = [] }\n"));
  CHECK_FALSE(deep_line("[ expect ]  # a comment with a.b.c.d.e.f\nport_count = 2\n"));
}

TEST_CASE("dots inside strings, comments and values do not nest anything", "[config]") {
  CHECK_FALSE(deep_line("[expect]\ncpu_governor = \"a.b.c.d.e.f.g\"\n"));
  CHECK_FALSE(deep_line("[expect]\ncpu_governor = 'a.b.c.d.e.f.g'\n"));
  CHECK_FALSE(deep_line("[expect]\nx = \"\"\"\na.b.c.d.e.f\n[a.b.c.d.e.f]\n\"\"\"\n"));
  CHECK_FALSE(deep_line("[expect]\nx = '''a.b.c.d.e.f\n[[a.b.c.d.e]]'''\n"));
  CHECK_FALSE(deep_line("[expect]\nx = \"\"\"quote \\\"\"\" still a.b.c.d.e.f\"\"\"\n"));
  CHECK_FALSE(deep_line("[expect]\nx = \"\"\"ends with quotes\"\"\"\"\"\ny = 1\n"));
  CHECK_FALSE(
      deep_line("[\"a.b.c.d.e.f\"]\nmin_rate_gbps = 54.5\nwhen = 1979-05-27T07:32:00.999\n"));
  CHECK_FALSE(deep_line("[thresholds]\nmin_bandwidth_fraction = 0.9 # a.b.c.d.e.f\n"));
}

TEST_CASE("a dotted key, a table header, or brackets deeper than the bound name their line",
          "[config]") {
  CHECK(deep_line("[expect]\n\na.b.c.d = 1\n") == 3u);
  CHECK(deep_line("a.b.c.d.e = 1\n") == 1u);
  CHECK_FALSE(deep_line("a.b.c.d = 1\n"));
  CHECK(deep_line("[a.b.c.d.e]\n") == 1u);
  CHECK(deep_line("# one\n[[a.b.c.d]]\n") == 2u);
  CHECK(deep_line("\"a\".'b'.\"c\".d.e = 1\n") == 1u);
  CHECK(deep_line("[expect]\nx = [[[[1]]]]\n") == 2u);
  CHECK(deep_line("x = {a = {b = {c = {d = 1}}}}\n") == 1u);
  CHECK(deep_line("x = [\n  {a.b.c = 1},\n]\n") == 2u);
  CHECK(deep_line("x = \"\"\"\n\n\"\"\"\n[a.b]\nc.d.e = 1\n") == 5u);
}

TEST_CASE("200,000 levels are found at once, whatever form they take", "[config]") {
  const int levels = 200000;
  CHECK(deep_line("expect." + repeated("a.", levels) + "a = 1\n") == 1u);
  CHECK(deep_line("[" + repeated("a.", levels) + "a]\n") == 1u);
  CHECK(deep_line("x = " + repeated("[", levels) + repeated("]", levels) + "\n") == 1u);
  CHECK(deep_line("x = " + repeated("{a = ", levels) + "1" + repeated("}", levels) + "\n") == 1u);
}

TEST_CASE("non-ASCII characters are refused where toml++ would ask if they are whitespace",
          "[config]") {
  const std::string dot = "\xCE\x87";  // U+0387, in the range toml++ 3.3 mishandles
  // Every place fuzzing and review found toml++ reaching its unreachable branch.
  CHECK(non_ascii_line(dot) == 1u);
  CHECK(non_ascii_line("[expect]\nport_count = 2" + dot + "\n") == 2u);
  CHECK(non_ascii_line("a = 1\n" + dot + "\n") == 2u);
  CHECK(non_ascii_line("[" + dot + "]\n") == 1u);
  CHECK(non_ascii_line("a = [ " + dot + " ]\n") == 1u);
  CHECK(non_ascii_line("a = { b = 1" + dot + "}\n") == 1u);
  CHECK(non_ascii_line("a = true" + dot + "\n") == 1u);
  CHECK(non_ascii_line("a = 1 \xC2\xA0\n") == 1u);
  CHECK(non_ascii_line("a = \"\"\"x\\" + dot + "\"\"\"\n") == 1u);
  CHECK(non_ascii_line("a = \"\"\"x\\ " + dot + "\"\"\"\n") == 1u);
  CHECK(non_ascii_line("a = \"\"\"x\\\n\n  " + dot + "y\"\"\"\n") == 3u);
  // A quote inside a bare token opens no string: toml++ reads the token on through it.
  const std::string u01d9 = "\xC7\x99";  // found by fuzzing after a number
  CHECK(non_ascii_line("[thresholds]\nmin_gbps = 1844674407'70" + u01d9 + "x = 0\n") == 2u);
  // Nor does a bracket: toml++ reads a bare token to its end ('[' and '{' included).
  const std::string ufe7f = "\xEF\xB9\xBF";  // found by fuzzing after a number, in U+FB26..
  CHECK(non_ascii_line("[expect]\nport_coey=89'?[[\"\"\"9223" + ufe7f + " ta =x\n") == 2u);
  for (const std::string& bracketed :
       {"a = 1[\"" + dot + "\"]\n", "a = x{b = '" + dot + "'}\n", "a = [1[\"" + dot + "\"]]\n"}) {
    INFO(bracketed);
    CHECK(non_ascii_line(bracketed) == 1u);
  }
  for (const std::string& quoted :
       {"a = 1\"" + dot + "\"\n", "a = true'" + dot + "'\n", "a = [1'" + dot + "']\n",
        "a'" + dot + "' = 1\n", "[a'" + dot + "']\n", "[a.]'" + dot + "'\n",
        "a = 'x''" + dot + "'\n"}) {
    INFO(quoted);
    CHECK(non_ascii_line(quoted) == 1u);
  }
  // Where TOML allows them, they pass: strings of every kind, quoted keys, comments.
  CHECK_FALSE(first_toml_hazard("# caf\xC3\xA9 " + dot + "\n", kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard("a = \"" + dot + "\"\nb = '" + dot + "'\n", kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard("a = \"\"\"" + dot + "\"\"\"\nb = \'\'\'" + dot + "\'\'\'\n",
                                kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard("a = [ '" + dot + "',\n  \"" + dot + "\" ]\n", kMaxConfigDepth));
  CHECK_FALSE(
      first_toml_hazard("a = { b = '" + dot + "', 'c' . \"" + dot + "\" = 1 }\n", kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard("[ 'x' . \"" + dot + "\" ]\n'" + dot + "' = 2\n", kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard("\"" + dot + "\" = 1\n", kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard(
      "a = [[\"" + dot + "\"],['" + dot + "']]\nb = {c=\"" + dot + "\"}\n", kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard("a = \"\"\"x\\\\" + dot + "\"\"\"\n", kMaxConfigDepth));
  CHECK_FALSE(first_toml_hazard("\xEF\xBB\xBF[expect]\nport_count = 2\n", kMaxConfigDepth));
}

TEST_CASE(
    "toml_safe_text replaces what toml++ cannot be asked about, one for one, and nothing else",
    "[config]") {
  const std::string replacement = "\xEF\xBF\xBD";
  // Each block's first and last, and what fuzzing found: U+00A1, U+0387, U+0499, U+2C5E,
  // U+3057, U+FB26, U+FE7F, U+FEFE; and U+00A1 written overlong in three bytes.
  for (const std::string hazard :
       {"\xC2\xA1", "\xCE\x87", "\xD2\x99", "\xE2\xB1\x9E", "\xE3\x81\x97", "\xEF\xAC\xA6",
        "\xEF\xB9\xBF", "\xEF\xBB\xBE", "\xE0\x82\xA1"}) {
    INFO(hazard);
    CHECK(toml_safe_text("a = 1" + hazard + "\n# " + hazard) ==
          "a = 1" + replacement + "\n# " + replacement);
  }
  // Their neighbours, and the whitespace toml++ does know: U+00A0, U+049A, U+2C5D, U+3000,
  // U+3058, U+FB25, U+FEFF (a byte order mark), U+1680, U+2000; ASCII; broken sequences.
  for (const std::string kept :
       {"\xC2\xA0", "\xD2\x9A", "\xE2\xB1\x9D", "\xE3\x80\x80", "\xE3\x81\x98", "\xEF\xAC\xA5",
        "\xEF\xBB\xBF", "\xE1\x9A\x80", "\xE2\x80\x80", "[expect]\nport_count = 2\n", "a\xCE",
        "\xCE\x41\x87", "\x87\xCE"}) {
    INFO(kept);
    CHECK(toml_safe_text(kept) == kept);
  }
}

}  // namespace ibkit
