#include "cli/serve.hpp"
#include "tcp/tcp_test.hpp"
#include "verbs/verbs_session.hpp"

namespace ibkit {

std::map<std::string, ServerSide> server_sides() {
  // The server picks its RDMA device by what it is (the first Active port).
  auto verbs = [](Channel& channel, const TestRequest& request, const Deadline& deadline) {
    return serve_verbs_test(channel, request, DeviceChoice{}, deadline);
  };
  return {
      {"tcp", serve_tcp},
      {"lat", verbs},
      {"bw", verbs},
  };
}

}  // namespace ibkit
