#include "control/channel.hpp"

#include <nlohmann/json.hpp>

namespace ibkit {

Expected<nlohmann::json> receive_type(Channel& channel, const std::string& type,
                                      const Deadline& deadline) {
  auto message = channel.receive(deadline);
  if (!message) return message;
  auto found = message->find("type");
  if (found == message->end() || !found->is_string()) {
    return Error{"peer " + channel.peer_address() + " sent a message without a \"type\""};
  }
  const auto& actual = found->get_ref<const std::string&>();
  if (actual == "error") {
    auto text = message->find("message");
    std::string reason = text != message->end() && text->is_string()
                             ? text->get<std::string>()
                             : std::string("no reason given");
    return Error{"peer " + channel.peer_address() + " refused: " + reason};
  }
  if (actual != type) {
    return Error{"peer " + channel.peer_address() + " sent a \"" + actual + "\" message where \"" +
                 type + "\" was expected"};
  }
  return message;
}

Error send_error(Channel& channel, const std::string& reason, const Deadline& deadline) {
  channel.send({{"type", "error"}, {"message", reason}}, deadline);
  return Error{reason};
}

}  // namespace ibkit
