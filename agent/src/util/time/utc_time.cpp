#include "util/time/utc_time.hpp"

#include <cstdio>
#include <ctime>

namespace ibkit {

std::string utc_timestamp_of(long long seconds) {
  const auto time = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&time, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

std::string utc_timestamp() { return utc_timestamp_of(std::time(nullptr)); }

std::optional<long long> unix_seconds(const std::string& timestamp) {
  std::tm utc{};
  char zone = 0;
  int read = 0;
  if (std::sscanf(timestamp.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &utc.tm_year, &utc.tm_mon,
                  &utc.tm_mday, &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &zone, &read) != 7 ||
      zone != 'Z' || static_cast<std::size_t>(read) != timestamp.size()) {
    return std::nullopt;
  }
  if (utc.tm_mon < 1 || utc.tm_mon > 12 || utc.tm_mday < 1 || utc.tm_mday > 31 ||
      utc.tm_hour > 23 || utc.tm_min > 59 || utc.tm_sec > 60) {
    return std::nullopt;
  }
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return static_cast<long long>(timegm(&utc));
}

}  // namespace ibkit
