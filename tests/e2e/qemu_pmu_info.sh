# info, list and sched on the real path, on the QEMU PMU, without --cpu:
# each reads the machine's own CPUID. icx: the Ice Lake
# server's PMU as the model gives it (CPUID.0AH version 5, 8 GP and 4
# fixed counters, PEBS format 4 with baseline), its event table, and a
# schedule on its counters; adl: CPU 0 is a P-core, whose 2 GP and 1
# fixed counter beyond CPUID.0AH's common 6 and 3 bareperf adds.
. "$(dirname "$0")/lib.bash"
qemu_pmu icx info
expect_rc 0
for line in "perfmon:      version 5" "gp counters:  8 x 48 bits (mask 0xff)" \
	"fixed:        4 x 48 bits" "PEBS record format     4" "PEBS baseline          yes"; do
	expect_console "$line"
done
! grep -q "EMULATED PMU" "$tmp/console" || fail "info on the real path says EMULATED"
qemu_pmu icx list l3_miss
expect_rc 0
expect_console "mem_load_retired.l3_miss "
qemu_pmu icx sched -e "{cycles,instructions},MEM_LOAD_RETIRED.L3_MISS:pp,branches"
expect_rc 0
expect_console "MEM_LOAD_RETIRED.L3_MISS:pp"
grep -q "gp[0-7]" "$tmp/console" || fail "sched placed nothing on a GP counter"
qemu_pmu adl info
expect_rc 0
expect_console "gp counters:  8 x 48 bits (mask 0xff) \[CPUID.0AH's common ones and this P-core's own\]"
echo "PASS: info, list and sched read the QEMU PMU's own CPUID (icx, adl)"
