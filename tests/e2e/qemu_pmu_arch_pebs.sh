# Architectural PEBS on the QEMU PMU (cwf, Clearwater Forest: PEBS_FORMAT
# 0xF, CPUID.23H sub-leaves 4 and 5): the image's real path picks the
# architectural engine, programs IA32_PEBS_BASE, IA32_PEBS_INDEX and each
# counter's CFG_C (no IA32_PEBS_ENABLE or DS area: QEMU would #GP), and the
# QEMU PMU writes records of the guest's own execution into its buffer.
# Large PEBS (several records per PMI), one record per PMI, and loads.
. "$(dirname "$0")/lib.bash"
qemu_pmu cwf info
expect_rc 0
expect_console "architecture: intel-arch-pebs (precise sampling: Architectural PEBS)"
expect_console "arch PEBS:    groups aux gpr xmm"
expect_console "PEBS record format     15"

# A 64 KiB buffer: about a thousand records per PMI; soak's 50/30/15/5.
qemu_pmu cwf record -e instructions:pp -c 20011 --pebs-buffer 64 soak -n 5000000
expect_rc 0
expect_console "PEBS: "
expect_console "large PEBS"
n=$(samples)
pmis=$(sed -n 's/.* in [0-9.]* s; \([0-9,]*\) PMIs.*/\1/p' "$tmp/console" | tr -d , | tail -n 1)
[ "${n:-0}" -ge 1500 ] || fail "cwf: only ${n:-0} PEBS samples"
[ "${pmis:-0}" -ge 1 ] && [ "$pmis" -le $((n / 500)) ] ||
	fail "cwf: $pmis PMIs for $n records: large PEBS should take about a thousand per PMI"
grep -q "PEBS: $n records, $n samples delivered, 0 lost" "$tmp/console" ||
	fail "cwf: records lost or not accounted"
report; expect_shares 2

# One record per PMI.
qemu_pmu cwf record -e instructions:pp -c 20011 --pebs-threshold 1 soak -n 1000000
expect_rc 0
n1=$(samples)
pmis1=$(sed -n 's/.* in [0-9.]* s; \([0-9,]*\) PMIs.*/\1/p' "$tmp/console" | tr -d , | tail -n 1)
[ "${n1:-0}" -ge 300 ] && [ "$pmis1" -ge $((n1 - 1)) ] ||
	fail "cwf: --pebs-threshold 1 gave $n1 samples in $pmis1 PMIs"

# A fixed counter writes records too (CPUID.23H.5:ECX; fixed 0 has PDist,
# EDX bit 0): INST_RETIRED.ANY:ppp is placed on fixed 0 and gives soak's
# split.
qemu_pmu cwf sched -e INST_RETIRED.ANY:ppp
expect_rc 0
grep -q "INST_RETIRED.ANY:ppp *fixed0" "$tmp/console" || fail "cwf: INST_RETIRED.ANY:ppp not on fixed 0"
qemu_pmu cwf record -e INST_RETIRED.ANY:ppp -c 20011 soak -n 5000000
expect_rc 0
nf=$(samples)
[ "${nf:-0}" -ge 1900 ] || fail "cwf: only ${nf:-0} samples from fixed 0"
report; expect_shares 2

# Precise loads land in chase: building its 32 MiB chain (chase_run) and
# walking it (chase_walk).
qemu_pmu cwf record -e MEM_UOPS_RETIRED.ALL_LOADS:pp -c 1009 chase --size 33554432 --steps 200000
expect_rc 0
[ "$(samples)" -ge 1000 ] || fail "cwf: only $(samples) load samples"
report
awk -v a="$(share chase_run)" -v b="$(share chase_walk)" 'BEGIN { exit !(a + b >= 80 && b > 0) }' ||
	fail "cwf: chase_run and chase_walk have $(share chase_run) and $(share chase_walk) % of the load samples"

# The E-core's load-latency event (MEM_UOPS_RETIRED.LOAD_LATENCY, 0xD0/0x05
# with MSR_PEBS_LD_LAT_THRESHOLD): chase's loads above 4 cycles, each with
# its level's latency (40 LLC, 200 memory) in the aux group, read by perf.
qemu_pmu cwf record -e MEM_UOPS_RETIRED.LOAD_LATENCY_GT_4:pp -c 1009 chase --size 33554432 --steps 200000
expect_rc 0
HOME=$tmp/home perf script -i "$tmp/out/perf.data" -F weight,data_src >"$tmp/mem" 2>/dev/null ||
	fail "cwf: perf script -F weight,data_src failed"
nl=$(wc -l <"$tmp/mem")
[ "$nl" -ge 700 ] || fail "cwf: only $nl load-latency samples"
! awk '/RAM hit/ && $NF != 200 || /L3 hit/ && $NF != 40 || !/RAM hit|L3 hit/' "$tmp/mem" | grep -q . ||
	fail "cwf: a load's level or latency is wrong: $(awk '!/RAM hit|L3 hit/ || /RAM hit/ && $NF != 200' "$tmp/mem" | head -2)"
echo "PASS: cwf (Architectural PEBS): $n samples in $pmis PMIs (large), $n1 in $pmis1 (threshold 1), $nf from fixed 0 (:ppp), soak's shares, loads in chase, $nl load-latency samples (40 or 200 cycles)"
