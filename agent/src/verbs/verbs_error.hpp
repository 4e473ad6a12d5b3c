#pragma once

#include <string_view>

#include "util/expected.hpp"

namespace ibkit {

// The one place a verbs/rdma_cm errno becomes an Error: "<call>: <strerror> (<what to do>)".
// Verbs calls fail two ways: some return the errno (ibv_query_port, ibv_modify_qp), some
// return NULL and set errno (ibv_create_qp); callers pass whichever they got.
Error verbs_error(std::string_view call, int error_number);

}  // namespace ibkit
