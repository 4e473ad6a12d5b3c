// Long cells in the text reports' tables (issue 50: cells of 330-600 characters pushed the rest
// of their row off to the right, and a long EXPECTED or hint ran on unbounded): a cell wraps in
// its column, the other columns stay in place, every line keeps within the width, nothing is
// cut.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/check_result.hpp"
#include "report/check_text.hpp"
#include "report/sweep_text.hpp"
#include "report/text_table.hpp"
#include "sweep_sample.hpp"
#include "util/text.hpp"
#include "util/text_wrap.hpp"
#include "word_text.hpp"

namespace ibkit {
namespace {

using test::words_of;

std::vector<std::string> lines_of(const std::string& text) {
  auto lines = split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::string without_colours(std::string text) {
  for (auto start = text.find('\033'); start != std::string::npos; start = text.find('\033')) {
    text.erase(start, text.find('m', start) - start + 1);
  }
  return text;
}

// A check table's rows and where its columns start, read back from its text.
struct ReadTable {
  std::vector<std::size_t> starts;  // of STATUS, CHECK, SUBJECT, OBSERVED, EXPECTED
  std::vector<std::string> lines;   // every line under the heading but the verdict

  explicit ReadTable(const std::string& text) {
    auto all = lines_of(text);
    std::size_t heading = 0;
    while (heading < all.size() && all[heading].rfind("STATUS", 0) != 0) ++heading;
    REQUIRE(heading + 2 < all.size());
    for (const char* name : {"STATUS", "CHECK", "SUBJECT", "OBSERVED", "EXPECTED"})
      starts.push_back(all[heading].find(name));
    lines.assign(all.begin() + static_cast<long>(heading) + 1, all.end() - 1);
  }

  // Column `index` of the lines [first, last) without padding: a cell's pieces, top to bottom.
  std::vector<std::string> column(std::size_t index, std::size_t first, std::size_t last) const {
    std::vector<std::string> pieces;
    for (std::size_t i = first; i < last; ++i) {
      const std::string& line = lines[i];
      if (line.size() <= starts[index]) continue;
      const std::size_t end = index + 1 < starts.size() ? starts[index + 1] : line.size();
      const std::string piece(trim(line.substr(starts[index], end - starts[index])));
      if (!piece.empty()) pieces.push_back(piece);
    }
    return pieces;
  }

  // True when no line has text in the two spaces before a column: no cell ran into the next.
  bool aligned() const {
    for (const auto& line : lines) {
      // A hint's lines start at column 11, where no column of a row does.
      if (line.rfind("        -> ", 0) == 0 || line.find_first_not_of(' ') == 11) continue;
      for (std::size_t c = 1; c < starts.size(); ++c) {
        if (line.size() > starts[c] - 2 && line.substr(starts[c] - 2, 2) != "  ") return false;
      }
    }
    return true;
  }
};

std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0;
  for (const auto& line : lines_of(text)) widest = std::max(widest, display_width(line));
  return widest;
}

CheckResults results_with(const CheckResult& long_one) {
  return {{"port.state", "mlx5_0/1", Status::kPass, "ACTIVE/LinkUp", "ACTIVE/LinkUp", ""},
          long_one,
          {"memlock", "process", Status::kPass, "unlimited", "unlimited", ""}};
}

}  // namespace

TEST_CASE("check text: a 400-character observed wraps in its column, the row's others in place",
          "[report]") {
  const std::string observed = words_of(400, "34 links:");
  const std::string text = render_results_table(
      results_with({"fabric.links", "leaf-17 (0x0002c903000e1a2b)", Status::kFail, observed,
                    "every link at its ends' best width and speed", "reseat the cables"}),
      false);
  INFO(text);
  CHECK(widest_line(text) <= kReportWidth);
  const ReadTable table(text);
  CHECK(table.aligned());
  REQUIRE(table.lines.size() > 4);
  CHECK(table.lines[0].rfind("pass    port.state", 0) == 0);
  CHECK(table.lines[1].rfind("fail    fabric.links", 0) == 0);
  // The long row's lines, down to its hint: the observed value joined back is the value.
  std::size_t hint = 1;
  while (table.lines[hint].find("-> ") == std::string::npos) ++hint;
  CHECK(join(table.column(3, 1, hint), " ") == observed);
  CHECK(join(table.column(2, 1, hint), " ") == "leaf-17 (0x0002c903000e1a2b)");
  CHECK(join(table.column(4, 1, hint), " ") == "every link at its ends' best width and speed");
  CHECK(table.lines[hint] == "        -> reseat the cables");
  CHECK(table.lines[hint + 1].rfind("pass    memlock", 0) == 0);
}

TEST_CASE("check text: a 400-character subject wraps in its column, the columns after it aligned",
          "[report]") {
  const std::string subject = words_of(400, "h2 HCA-1");
  const std::string text =
      render_results_table(results_with({"fabric.duplicates", subject, Status::kWarn,
                                         "GUID seen twice", "each GUID once", ""}),
                           false);
  INFO(text);
  CHECK(widest_line(text) <= kReportWidth);
  const ReadTable table(text);
  CHECK(table.aligned());
  const std::size_t last = table.lines.size() - 1;  // the memlock row
  CHECK(join(table.column(2, 1, last), " ") == subject);
  CHECK(table.column(3, 1, last) == std::vector<std::string>{"GUID seen twice"});
  CHECK(table.column(4, 1, last) == std::vector<std::string>{"each GUID once"});
  CHECK(table.lines[last].rfind("pass    memlock", 0) == 0);
}

TEST_CASE("check text: a word longer than its column is cut at the column, every character kept",
          "[report]") {
  std::string observed;
  for (int i = 0; i < 40; ++i) observed += "0123456789";
  const std::string text = render_results_table(
      results_with({"port.counters", "mlx5_0/1", Status::kFail, observed, "within [limits]", ""}),
      false);
  INFO(text);
  CHECK(widest_line(text) <= kReportWidth);
  const ReadTable table(text);
  CHECK(table.aligned());
  CHECK(join(table.column(3, 1, table.lines.size() - 1), "") == observed);
}

TEST_CASE("check text: a 400-character hint and EXPECTED wrap within the width", "[report]") {
  const std::string hint = words_of(400, "set [limits]");
  const std::string expected = words_of(400, "at most");
  const std::string text = render_results_table(
      results_with({"port.counters", "mlx5_0/1", Status::kFail, "symbol_error +7", expected, hint}),
      false);
  INFO(text);
  CHECK(widest_line(text) <= kReportWidth);
  const ReadTable table(text);
  CHECK(table.aligned());
  std::size_t first_hint = 1;
  while (table.lines[first_hint].rfind("        -> ", 0) != 0) ++first_hint;
  CHECK(join(table.column(4, 1, first_hint), " ") == expected);
  // The hint's later lines start under its first character.
  std::vector<std::string> pieces{table.lines[first_hint].substr(11)};
  for (std::size_t i = first_hint + 1; i + 1 < table.lines.size(); ++i) {
    CHECK(table.lines[i].rfind(std::string(11, ' '), 0) == 0);
    CHECK(table.lines[i][11] != ' ');
    pieces.push_back(table.lines[i].substr(11));
  }
  CHECK(pieces.size() > 3);
  CHECK(join(pieces, " ") == hint);
}

TEST_CASE("check text: colour codes take no room, a narrower width is kept to", "[report]") {
  const CheckResults results = results_with(
      {"fabric.links", words_of(300, "leaf-17"), Status::kFail, words_of(400, "34 links:"),
       "every link at its ends' best", words_of(350, "reseat")});
  const std::string plain = render_results_table(results, false);
  const std::string coloured = render_results_table(results, true);
  CHECK(coloured != plain);
  CHECK(without_colours(coloured) == plain);
  for (const std::size_t width : {80, 100, 200}) {
    const std::string narrow = render_results_table(results, true, width);
    INFO(narrow);
    CHECK(widest_line(without_colours(narrow)) <= width);
    CHECK(ReadTable(without_colours(narrow)).aligned());
  }
}

TEST_CASE("check text: characters of several bytes count as one column each", "[report]") {
  const std::string subject = "caf\xc3\xa9-\xe2\x82\xac";  // 6 characters, 9 bytes
  const std::string text = render_results_table(
      {{"port.state", subject, Status::kPass, "ACTIVE/LinkUp", "ACTIVE/LinkUp", ""},
       {"port.state", "mlx5_0/1", Status::kPass, "ACTIVE/LinkUp", "ACTIVE/LinkUp", ""}},
      false);
  const auto lines = lines_of(text);
  REQUIRE(lines.size() == 4);
  // "mlx5_0/1" is the widest subject (8): both rows' OBSERVED start at one column.
  CHECK(lines[1] == "pass    port.state  " + subject + "    ACTIVE/LinkUp  ACTIVE/LinkUp");
  CHECK(lines[2] == "pass    port.state  mlx5_0/1  ACTIVE/LinkUp  ACTIVE/LinkUp");
}

TEST_CASE("sweep text: a 400-character reason wraps under its own start, nothing cut", "[report]") {
  SweepReport report = test::sample_sweep();
  const std::string reason = words_of(400, "connect:");
  REQUIRE(report.pairs[3].status == PairStatus::kUnreachable);
  report.pairs[3].reason = reason;
  report.blamed[0].reason = words_of(350, "all 3 pairs failed:");
  const std::string text = render_sweep_text(report, false);
  INFO(text);
  CHECK(widest_line(text) <= kReportWidth);
  const auto lines = lines_of(text);
  const auto tagged = [&](const std::string& tag) {
    std::size_t at = 0;
    while (at < lines.size() && lines[at].rfind(tag + "  ", 0) != 0) ++at;
    REQUIRE(at < lines.size());
    std::vector<std::string> pieces{lines[at].substr(tag.size() + 2)};
    const std::string indent(tag.size() + 2, ' ');
    for (++at; at < lines.size() && lines[at].rfind(indent, 0) == 0; ++at) {
      CHECK(lines[at][indent.size()] != ' ');
      pieces.push_back(lines[at].substr(indent.size()));
    }
    CHECK(pieces.size() > 3);
    return join(pieces, " ");
  };
  CHECK(tagged("unreachable") ==
        "lab2 -> " + test::kHostileNode + ": " + reason + " (round 2, 2 attempts, 5 s)");
  CHECK(tagged("blamed") == test::kHostileNode + ": " + report.blamed[0].reason);
}

}  // namespace ibkit
