#include "cli/help_formatter.hpp"

#include <algorithm>
#include <cctype>

namespace ibkit {
namespace {

bool cli11_type(const std::string& name) {
  return name == "TEXT" || name == "INT" || name == "UINT" || name == "FLOAT";
}

// "INT in [1 - 65535]" -> "(1-65535)"; "" when the text is no range.
std::string range_text(const std::string& text) {
  const auto open = text.find(" in [");
  const auto dash = text.find(" - ", open == std::string::npos ? 0 : open);
  if (open == std::string::npos || dash == std::string::npos || text.back() != ']') return "";
  return "(" + text.substr(open + 5, dash - open - 5) + "-" +
         text.substr(dash + 3, text.size() - dash - 4) + ")";
}

}  // namespace

std::string help_value_text(const std::string& type_name, const std::string& long_name) {
  const auto colon = type_name.find(':');
  const std::string base = type_name.substr(0, colon);
  const std::string check = colon == std::string::npos ? "" : type_name.substr(colon + 1);
  if (check.size() > 2 && check.front() == '{' && check.back() == '}') {
    std::string choices = check.substr(1, check.size() - 2);
    std::replace(choices.begin(), choices.end(), ',', '|');
    return " " + choices;
  }
  if (!cli11_type(base)) return " " + base;  // the option's own name for its value
  if (base != "TEXT") {
    const std::string range = range_text(check);
    return range.empty() ? " N" : " N " + range;
  }
  if (long_name.empty()) return "";
  std::string named = long_name.substr(long_name.find_first_not_of('-'));
  std::transform(named.begin(), named.end(), named.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return " " + named;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  if (!option->get_option_text().empty()) return " " + option->get_option_text();
  if (option->get_type_size() == 0) return "";
  const auto& names = option->get_lnames();
  std::string text =
      help_value_text(option->get_type_name(), names.empty() ? "" : "--" + names.front());
  if (option->get_expected_max() == CLI::detail::expected_max_vector_size) text += " ...";
  if (option->get_required()) text += " REQUIRED";
  return text;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
  return help_description(option->get_description(), option->get_default_str(),
                          option->get_type_size() == 0);
}

std::string help_description(const std::string& description, const std::string& default_text,
                             bool flag) {
  // A flag's default is off; an empty or zero-length one says nothing; a description that
  // already names its default (or why there is none) says it better.
  if (flag || default_text.empty() || default_text == "[]" || default_text == "\"\"" ||
      description.find("default") != std::string::npos)
    return description;
  return description + " (default " + default_text + ")";
}

}  // namespace ibkit
