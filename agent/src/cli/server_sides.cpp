#include "cli/serve.hpp"
#include "tcp/tcp_test.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {

std::map<std::string, ServerSide> server_sides() {
  // The server picks its RDMA device by what it is (the first Active port), or the rail asked.
  auto verbs = [](Channel& channel, const TestRequest& request, const Deadline& deadline) {
    DeviceChoice device;
    device.rail = request.rail.value_or(-1);
    return serve_verbs_test(channel, request, device, deadline);
  };
  return {
      {"tcp", serve_tcp},
      {"lat", verbs},
      {"bw", verbs},
  };
}

}  // namespace ibkit
