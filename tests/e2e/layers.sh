# No #include runs back up a layer (ARCHITECTURE.md, "Layers"): each
# folder reaches only the folders below it, and the command layer opens
# the emulated PMU in one place (cmd/backend.c -> sim/sim.h).
. "$(dirname "$0")/lib.bash"
tools/check-layers || fail "an include runs back up a layer"
# The check itself can fail: a copy of the tree where the PMU layer
# includes the command layer, and the command layer the emulator's drive.
cp -a arch boot cmd events host lib pebs perfdata pmu sampling sched sim workload tools "$tmp/"
echo '#include "../cmd/session.h"' >>"$tmp/pmu/pmu.c"
echo '#include "../sim/drive.h"' >>"$tmp/cmd/cmd_stat.c"
"$tmp/tools/check-layers" >"$tmp/bad" && fail "check-layers passed a tree with back-arrows"
grep -q "pmu/pmu.c includes cmd/session.h" "$tmp/bad" || fail "pmu -> cmd not named: $(cat "$tmp/bad")"
grep -q "cmd/cmd_stat.c includes sim/drive.h" "$tmp/bad" || fail "cmd -> sim/drive.h not named: $(cat "$tmp/bad")"
echo "PASS: layers hold; a back-arrow is named"
