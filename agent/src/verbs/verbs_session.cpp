#include "verbs/verbs_session.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "verbs/bandwidth_engine.hpp"
#include "verbs/cm_connections.hpp"
#include "verbs/latency_engine.hpp"
#include "verbs/port_counters.hpp"
#include "verbs/prepared_side.hpp"
#include "verbs/work_requests.hpp"

namespace ibkit {
namespace {

// A side whose queue pairs are connected to the peer's. With --cm the rdma_cm connections
// outlive the side (members go in reverse order), so the QPs are destroyed first.
struct ConnectedSide {
  std::optional<CmConnections> cm;
  PreparedSide prepared;
};

// A peer's port data rate is only believed in this range (Gb/s): a soft device's 2 to 8 XDR
// links' 1600 with room to spare.
constexpr double kMaxPortDataGbps = 100000;

Expected<Done> send_endpoint(Channel& channel, const VerbsSide& side, const Deadline& deadline) {
  nlohmann::json message = to_json(local_endpoint(side));
  message["type"] = "endpoint";
  message["device"] = describe(side.device);
  // The other end compares it with its own (pair/pair_ends.hpp); an older peer ignores it.
  if (auto rate = read_port_data_gbps(side.device.name, side.device.port)) {
    message["port_data_gbps"] = *rate;
  }
  return channel.send(message, deadline);
}

Expected<Endpoint> receive_endpoint(Channel& channel, const VerbsSide& side,
                                    const Deadline& deadline, VerbsMeasurement& measurement) {
  auto answer = receive_type(channel, "endpoint", deadline);
  if (!answer) return answer.error();
  measurement.remote_device = answer->value("device", "");
  const auto rate = answer->find("port_data_gbps");
  if (rate != answer->end() && rate->is_number() && rate->get<double>() > 0 &&
      rate->get<double>() <= kMaxPortDataGbps) {
    measurement.remote_port_data_gbps = rate->get<double>();
  }
  auto endpoint = endpoint_from_json(*answer, side.qps.size());
  if (endpoint) measurement.remote_mtu = mtu_bytes(static_cast<ibv_mtu>(endpoint->mtu));
  return endpoint;
}

void note_local_device(const VerbsSide& side, VerbsMeasurement& measurement) {
  measurement.local_device = describe(side.device);
  measurement.port_data_gbps = read_port_data_gbps(side.device.name, side.device.port);
  measurement.local_mtu = mtu_bytes(side.device.port_attr.active_mtu);
}

nlohmann::json result_json(const BandwidthResult& result) {
  return {{"messages", result.messages}, {"bytes", result.bytes}, {"seconds", result.seconds}};
}

// Runs this side's part of one size: the latency responder/initiator or the bandwidth roles. The
// control connection's `hangup_fd` ends it when the peer's agent is gone.
Expected<nlohmann::json> run_size(VerbsSide& side, const TestRequest& request, std::uint64_t size,
                                  bool client, const Deadline& deadline, int hangup_fd,
                                  SizeMeasurement& measured) {
  if (request.test == "lat") {
    LatencyPlan plan{request.op, size, request.iters, std::chrono::milliseconds(10000), hangup_fd};
    auto samples =
        run_latency(side, client ? PingRole::kInitiator : PingRole::kResponder, plan, deadline);
    if (!samples) return samples.error();
    measured.iterations = request.iters;
    if (client) measured.latency = latency_stats(std::move(*samples));
    return nlohmann::json::object();
  }
  BandwidthPlan plan = bandwidth_plan(request, size, client);
  plan.hangup_fd = hangup_fd;
  if (!plan.post_data && !plan.receive_sends)
    return result_json({});  // passive target of writes/reads
  auto result = run_bandwidth(side, plan, deadline);
  if (!result) return result.error();
  measured.iterations = result->messages;
  measured.bytes = result->bytes;
  measured.seconds = result->seconds;
  return result_json(*result);
}

// The perftest way: each side sends its QP numbers, PSNs, GID/LID, buffer and key over the
// control channel, the client first, and moves its QPs to RTS itself.
Expected<ConnectedSide> accept_through_channel(Channel& channel, const TestRequest& request,
                                               const DeviceChoice& device,
                                               const Deadline& deadline) {
  auto client_endpoint = receive_type(channel, "endpoint", deadline);
  if (!client_endpoint) return client_endpoint.error();
  auto remote =
      endpoint_from_json(*client_endpoint, static_cast<std::size_t>(RequestBounds::kMaxQps));
  if (!remote) return remote.error();
  auto prepared = prepare_side(request, device);
  if (!prepared) return prepared.error();
  ConnectedSide connected{std::nullopt, std::move(*prepared)};
  VerbsSide& side = *connected.prepared.side;
  if (auto linked = connect_verbs_side(side, *remote); !linked) return linked.error();
  if (auto sent = send_endpoint(channel, side, deadline); !sent) return sent.error();
  return connected;
}

Expected<ConnectedSide> connect_through_channel(Channel& channel, const TestRequest& request,
                                                const DeviceChoice& device,
                                                const Deadline& deadline,
                                                VerbsMeasurement& measurement) {
  auto prepared = prepare_side(request, device);
  if (!prepared) {
    measurement.no_local_device = prepared.error().environment;
    return send_error(channel, prepared.error().message, deadline);
  }
  ConnectedSide connected{std::nullopt, std::move(*prepared)};
  VerbsSide& side = *connected.prepared.side;
  note_local_device(side, measurement);
  if (auto sent = send_endpoint(channel, side, deadline); !sent) return sent.error();
  auto remote = receive_endpoint(channel, side, deadline, measurement);
  if (!remote) return remote.error();
  if (auto linked = connect_verbs_side(side, *remote); !linked) return linked.error();
  return connected;
}

// --cm: the server listens with rdma_cm on the address the client reached it on and tells the
// client the port; rdma_cm connects the QPs one by one; then the buffers and keys go over the
// control channel (client first, as without --cm).
Expected<ConnectedSide> accept_through_cm(Channel& channel, const TestRequest& request,
                                          const Deadline& deadline) {
  ConnectedSide connected;
  auto cm = CmConnections::listen(channel.local_address());
  if (!cm) return send_error(channel, cm.error().message, deadline);
  connected.cm = std::move(*cm);
  if (auto sent = channel.send({{"type", "cm"}, {"port", connected.cm->port()}}, deadline); !sent)
    return sent.error();
  auto prepared = prepare_side(request, connected.cm->device());
  if (!prepared) return send_error(channel, prepared.error().message, deadline);
  connected.prepared = std::move(*prepared);
  VerbsSide& side = *connected.prepared.side;
  for (auto& qp : side.qps) {
    if (auto accepted = connected.cm->accept(qp.get(), read_depth(side.device),
                                             side.caps.ack_timeout, deadline);
        !accepted)
      return accepted.error();
  }
  auto client_endpoint = receive_type(channel, "endpoint", deadline);
  if (!client_endpoint) return client_endpoint.error();
  auto remote = endpoint_from_json(*client_endpoint, side.qps.size());
  if (!remote) return remote.error();
  if (auto adopted = adopt_remote(side, *remote); !adopted) return adopted.error();
  if (auto sent = send_endpoint(channel, side, deadline); !sent) return sent.error();
  return connected;
}

Expected<ConnectedSide> connect_through_cm(Channel& channel, const TestRequest& request,
                                           const Deadline& deadline,
                                           VerbsMeasurement& measurement) {
  auto listening = receive_type(channel, "cm", deadline);
  if (!listening) return listening.error();
  const auto port = listening->value("port", 0);
  if (port <= 0 || port > 65535) return Error{"the peer's rdma_cm port is not a port"};
  ConnectedSide connected;
  auto cm =
      CmConnections::resolve(channel.peer_address(), static_cast<std::uint16_t>(port), deadline);
  if (!cm) return send_error(channel, cm.error().message, deadline);
  connected.cm = std::move(*cm);
  auto prepared = prepare_side(request, connected.cm->device());
  if (!prepared) {
    measurement.no_local_device = prepared.error().environment;
    return send_error(channel, prepared.error().message, deadline);
  }
  connected.prepared = std::move(*prepared);
  VerbsSide& side = *connected.prepared.side;
  note_local_device(side, measurement);
  for (auto& qp : side.qps) {
    if (auto linked = connected.cm->connect(qp.get(), read_depth(side.device),
                                            side.caps.ack_timeout, deadline);
        !linked)
      return linked.error();
  }
  if (auto sent = send_endpoint(channel, side, deadline); !sent) return sent.error();
  auto remote = receive_endpoint(channel, side, deadline, measurement);
  if (!remote) return remote.error();
  if (auto adopted = adopt_remote(side, *remote); !adopted) return adopted.error();
  return connected;
}

}  // namespace

Expected<Done> check_verbs_operation(const std::string& test, const std::string& op) {
  if (test == "lat" && (op == "send" || op == "write")) return Done{};
  if (test == "bw" && (op == "send" || op == "write" || op == "read")) return Done{};
  return Error{
      "--op " + op + " does not apply to --test " + test +
      (test == "lat" ? "; latency runs send or write" : "; bandwidth runs write, read or send")};
}

Expected<Done> check_completion_events(const std::string& test, const std::string& op,
                                       bool events) {
  if (events && test == "lat" && op == "write") {
    return Error{
        "--events does not apply to --test lat --op write: an RDMA write raises no completion "
        "where it lands, so its ping-pong polls memory; use --op send for event-driven latency"};
  }
  return Done{};
}

Expected<Done> check_verbs_request(const TestRequest& request) {
  if (auto valid = check_verbs_operation(request.test, request.op); !valid) return valid;
  return check_completion_events(request.test, request.op, request.events);
}

VerbsMeasurement measurement_of(const TestRequest& request) {
  VerbsMeasurement measurement;
  measurement.test = request.test;
  measurement.op = request.op;
  measurement.qps = request.test == "lat" ? 1 : request.qps;
  measurement.bidir = request.bidir;
  measurement.rdma_cm = request.use_cm;
  measurement.ack_timeout = request.ack_timeout;
  measurement.completions = request.events ? "events" : "poll";
  return measurement;
}

Expected<nlohmann::json> serve_verbs_test(Channel& channel, const TestRequest& request,
                                          const DeviceChoice& device, const Deadline& deadline) {
  if (auto valid = check_verbs_request(request); !valid) return valid.error();
  auto connected = request.use_cm ? accept_through_cm(channel, request, deadline)
                                  : accept_through_channel(channel, request, device, deadline);
  if (!connected) return connected.error();
  PreparedSide* prepared = &connected->prepared;
  VerbsSide& side = *prepared->side;

  std::uint64_t sizes_run = 0;
  while (true) {
    auto message = channel.receive(deadline);
    if (!message) return message.error();
    const std::string type = message->value("type", "");
    if (type == "end") break;
    if (type != "start" || !message->contains("size") || !(*message)["size"].is_number_unsigned()) {
      return Error{"expected a start or end message, got " + message->dump()};
    }
    const std::uint64_t size = (*message)["size"].get<std::uint64_t>();
    if (std::find(request.sizes.begin(), request.sizes.end(), size) == request.sizes.end()) {
      return Error{"size " + std::to_string(size) + " was not in the request"};
    }
    if (request.test == "lat" && request.op == "write") reset_latency_inbox(side, size);
    if (auto sent = channel.send({{"type", "ready"}}, deadline); !sent) return sent.error();
    SizeMeasurement measured;
    auto result = run_size(side, request, size, false, deadline, channel.hangup_fd(), measured);
    if (!result) return result.error();
    if (auto sent = channel.send({{"type", "done"}, {"result", *result}}, deadline); !sent)
      return sent.error();
    ++sizes_run;
  }
  // The server loop sends this back as the session's {"type": "result"}.
  auto deltas = counter_deltas(prepared->counters_before,
                               read_port_counters(side.device.name, side.device.port));
  return nlohmann::json{
      {"counter_deltas", deltas}, {"sizes", sizes_run}, {"device", describe(side.device)}};
}

VerbsMeasurement run_verbs_test(Channel& channel, const TestRequest& request,
                                const DeviceChoice& device, const Deadline& deadline) {
  VerbsMeasurement measurement = measurement_of(request);
  auto fail = [&](const Error& error) {
    measurement.error = error.message;
    return measurement;
  };
  if (auto valid = check_verbs_request(request); !valid) return fail(valid.error());

  auto connected = request.use_cm
                       ? connect_through_cm(channel, request, deadline, measurement)
                       : connect_through_channel(channel, request, device, deadline, measurement);
  if (!connected) return fail(connected.error());
  PreparedSide* prepared = &connected->prepared;
  VerbsSide& side = *prepared->side;
  // A test that stops once connected keeps this end's counters: sequence errors then tell a
  // lossy path from a peer that is gone.
  auto stopped = [&](const Error& error) {
    measurement.local_counter_deltas = counter_deltas(
        prepared->counters_before, read_port_counters(side.device.name, side.device.port));
    return fail(error);
  };

  for (std::uint64_t size : request.sizes) {
    if (request.test == "lat" && request.op == "write") reset_latency_inbox(side, size);
    if (auto sent = channel.send({{"type", "start"}, {"size", size}}, deadline); !sent)
      return stopped(sent.error());
    if (auto ready = receive_type(channel, "ready", deadline); !ready)
      return stopped(ready.error());
    SizeMeasurement measured;
    measured.size = size;
    auto local = run_size(side, request, size, true, deadline, channel.hangup_fd(), measured);
    if (!local) return stopped(local.error());
    auto done = receive_type(channel, "done", deadline);
    if (!done) return stopped(done.error());
    if (request.test == "bw") {
      std::optional<DirectionSent> peer_sent;
      if (request.bidir) {
        const auto& peer = (*done)["result"];
        peer_sent =
            DirectionSent{peer.value("bytes", std::uint64_t{0}),
                          peer.value("messages", std::uint64_t{0}), peer.value("seconds", 0.0)};
      }
      finish_bandwidth_size(measured, peer_sent);
    }
    measurement.sizes.push_back(measured);
  }

  if (auto sent = channel.send({{"type", "end"}}, deadline); !sent) return stopped(sent.error());
  auto summary = receive_type(channel, "result", deadline);
  if (!summary) return stopped(summary.error());
  const auto deltas = summary->find("counter_deltas");
  if (deltas != summary->end() && deltas->is_object()) {
    for (auto delta = deltas->begin(); delta != deltas->end(); ++delta) {
      if (delta->is_number_integer())
        measurement.remote_counter_deltas[delta.key()] = delta->get<std::int64_t>();
    }
  }
  measurement.local_counter_deltas = counter_deltas(
      prepared->counters_before, read_port_counters(side.device.name, side.device.port));
  return measurement;
}

}  // namespace ibkit
