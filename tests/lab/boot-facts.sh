#!/bin/sh
# Runs INSIDE a lab VM (labctl ssh NODE sh -s -- REPORT < boot-facts.sh), in a fresh login after
# a reboot: waits (at most 120 s) for the boot-time check unit to finish, then prints what must
# have come back by itself, one key=value a line, for converge.sh to judge.
report=${1:?usage: boot-facts.sh REPORT}
deadline=$(( $(date +%s) + 120 ))
# A oneshot unit with RemainAfterExit is "active" once its check passed, "failed" if not.
until systemctl is-active -q ibkit-check.service || systemctl is-failed -q ibkit-check.service ||
  [ "$(date +%s)" -ge "$deadline" ]; do
  sleep 2
done
echo "unit=$(systemctl is-active ibkit-check.service)"
echo "modules=$(cut -d' ' -f1 /proc/modules | sort | tr '\n' ' ')"
echo "links=$(rdma link show | awk '{print $2 ":" $4}' | tr '\n' ' ')"
# POSIX leaves ulimit -l out, but the sh that runs this (dash in the Debian guest) has it.
# shellcheck disable=SC3045
echo "memlock=$(ulimit -l)"
echo "boot=$(( $(date +%s) - $(cut -d. -f1 /proc/uptime) ))"
echo "report=$(stat -c %Y "$report" 2>/dev/null || echo 0)"
