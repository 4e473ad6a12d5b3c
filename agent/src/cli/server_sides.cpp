#include "cli/server_sides.hpp"

#include <nlohmann/json.hpp>

#include "sweep/drive_request.hpp"
#include "sweep/drive_side.hpp"
#include "tcp/tcp_throughput.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {

std::map<std::string, ServerSide> server_sides(const std::optional<SharedKey>& key) {
  // The server picks its RDMA device by what it is (the first Active port), or the rail asked.
  auto verbs = [](Channel& channel, const TestRequest& request, const Deadline& deadline) {
    DeviceChoice device;
    device.rail = request.rail.value_or(-1);
    return serve_verbs_test(channel, request, device, deadline);
  };
  // A drive reaches its peer with this server's own key: every agent of a sweep holds the same.
  auto drive = [key](Channel& channel, const TestRequest& request, const Deadline& deadline) {
    return serve_drive(channel, request, deadline, key);
  };
  return {
      {"tcp", serve_tcp},  {"lat", verbs},         {"bw", verbs},
      {kDriveTest, drive}, {"rails", serve_rails},
  };
}

}  // namespace ibkit
