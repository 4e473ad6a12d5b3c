#include "measure/measurement_subject.hpp"

namespace ibkit {

std::string verbs_subject(const VerbsMeasurement& verbs, std::uint64_t size) {
  return verbs.test + " " + verbs.op + (verbs.bidir ? " bidir" : "") +
         (verbs.qps > 1 ? " " + std::to_string(verbs.qps) + " QPs" : "") + " " +
         std::to_string(size) + " B";
}

std::string tcp_subject(const TcpResult& tcp) {
  return "tcp " + std::to_string(tcp.streams) + (tcp.streams == 1 ? " stream " : " streams ") +
         std::to_string(tcp.write_size) + " B" + (tcp.bidir ? " bidir" : "");
}

}  // namespace ibkit
