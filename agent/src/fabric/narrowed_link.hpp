#pragma once

#include <optional>
#include <string>

#include "fabric/fabric_model.hpp"
#include "model/check_result.hpp"

namespace ibkit {

// Which of a link's figures fabric.link judges against what its ends support: those that
// --link-width or --link-speed does not set (an expectation given replaces this judgement).
struct NarrowedFigures {
  bool width = true;
  bool speed = true;
};

// fabric.link's warning for the ACTIVE link between `near` and `far` (named `subject`) that
// trained below what both ends support because an end's enabled set holds it back
// (width_held_back_by, speed_held_back_by): each such end, what the link trained to and what
// both ends support, and the ibportstate commands that enable the rest and retrain it. A warning,
// not a failure: an administrator may have narrowed it on purpose. nullopt when no end holds back
// a judged figure, or the link trained to what lifting them would give all the same.
std::optional<CheckResult> narrowed_link_warning(const Subnet& fabric, const SubnetPortRef& near,
                                                 const SubnetPortRef& far,
                                                 const std::string& subject,
                                                 NarrowedFigures judged = {});

}  // namespace ibkit
