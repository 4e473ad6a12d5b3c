#!/bin/sh
# Runs INSIDE a lab VM (labctl ssh NODE sh -s -- REPORT < boot-facts.sh), in a fresh login after
# a reboot: waits (at most 120 s) for the boot-time check unit to finish, then prints what must
# have come back by itself, one key=value a line, for converge.sh to judge.
report=${1:?usage: boot-facts.sh REPORT}
deadline=$(( $(date +%s) + 120 ))
# The oneshot unit's check has run once its main process exited (the time is 0 until then);
# its Result is then "success", or what went wrong ("exit-code").
until [ "$(systemctl show --property=ExecMainExitTimestampMonotonic --value ibkit-check.service)" != 0 ] ||
  systemctl is-failed -q ibkit-check.service || [ "$(date +%s)" -ge "$deadline" ]; do
  sleep 2
done
echo "unit=$(systemctl show --property=Result --value ibkit-check.service)"
echo "timer=$(systemctl is-active ibkit-check.timer)"
echo "modules=$(cut -d' ' -f1 /proc/modules | sort | tr '\n' ' ')"
echo "links=$(rdma link show | awk '{print $2 ":" $4}' | tr '\n' ' ')"
# POSIX leaves ulimit -l out, but the sh that runs this (dash in the Debian guest) has it.
# shellcheck disable=SC3045
echo "memlock=$(ulimit -l)"
echo "boot=$(( $(date +%s) - $(cut -d. -f1 /proc/uptime) ))"
echo "report=$(stat -c %Y "$report" 2>/dev/null || echo 0)"
