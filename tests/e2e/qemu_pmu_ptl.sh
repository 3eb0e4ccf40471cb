# Architectural PEBS on a hybrid part, on the QEMU PMU (ptl, Panther Lake:
# CPU 0 Cougar Cove with 10 GP counters, CPU 1 Darkmont with fixed 0-2 and
# 4-6; CPUID.23H.5 gives each core type's PEBS counters). record -a takes
# large PEBS on both core types at once: each CPU's buffer (1 MiB by
# default, set up by the AP itself from the memory the BSP reserved for it)
# holds its own records, and every record becomes a sample.
. "$(dirname "$0")/lib.bash"
qemu_pmu ptl info
expect_rc 0
expect_console "hybrid:       yes; this CPU is a performance core"
expect_console "architecture: intel-arch-pebs (precise sampling: Architectural PEBS)"
expect_console "arch PEBS:    groups aux gpr xmm (CFG_C 0x6002000000000000); PEBS counters GP 0x3ff fixed 0xf; PDist GP 0x3 fixed 0x1"

# selftest's PEBS checks on the P-core's Architectural PEBS.
qemu_pmu ptl selftest
expect_rc 0
expect_console "pebs-threshold   PASS   Architectural PEBS"
expect_console "7 passed, 0 failed, 2 skipped"

# cycles:pp: Intel's files mark cycles not precise on these cores, but
# Architectural PEBS records from every counter CPUID.23H.5 names (as
# extended PEBS): cycles is sampled on its own counter.
qemu_pmu ptl record -e cycles:pp -c 20011 soak -n 5000000
expect_rc 0
expect_console "cycles:pp is sampled with PEBS on its own counters (extended PEBS"
[ "$(samples)" -ge 1900 ] || fail "ptl: only $(samples) cycles:pp samples"
report; expect_shares 2
cyc=$(samples)

# soak -n 5000000 on CPU 0: 40 M instructions, about 2,000 records at
# -c 20011 (more: CPU 0 also runs bareperf); CPU 1 waits in
# percpu_ap_spin meanwhile and records its own. All drained at the end (no
# PMI below the threshold), every record a sample, none lost.
QEMU_RUN_OPTS="--pmu ptl --smp 2" qemu record -a -e instructions:pp -c 20011 soak -n 5000000
expect_rc 0
expect_console "; 2 CPUs;"
! grep -q "is not sampled" "$tmp/console" || fail "ptl: a CPU was not sampled"
for cpu in 0 1; do
	line=$(grep "CPU $cpu: PEBS:" "$tmp/console") || fail "ptl: no PEBS line for CPU $cpu"
	recs=$(sed -n 's/.*PEBS: \([0-9]*\) records, \([0-9]*\) samples delivered, 0 lost.*/\1 \2/p' <<<"$line")
	set -- $recs
	[ "${1:-0}" -ge 1000 ] && [ "${1:-0}" -le 2600 ] && [ "$1" = "${2:-}" ] ||
		fail "ptl: CPU $cpu: '$line' (expected 1,000-2,600 records, each a sample, none lost)"
	eval "recs$cpu=$1"
done
[ "$recs0" -ge 1900 ] || fail "ptl: CPU 0 took $recs0 records of soak's 40 M instructions"
# perf's view per CPU: soak's split on the P-core, the spin on the E-core.
HOME=$tmp/home perf report --stdio --no-children -i "$tmp/out/perf.data" --symfs build \
	--sort cpu,sym >"$tmp/bycpu" 2>/dev/null || fail "perf report --sort cpu,sym failed"
spin=$(awk '$2 == "001" && $NF == "percpu_ap_spin" { sub("%", "", $1); print $1 }' "$tmp/bycpu")
awk -v s="${spin:-0}" -v r="$recs1" -v t="$((recs0 + recs1))" \
	'BEGIN { exit !(s >= 0.95 * 100 * r / t) }' || fail "ptl: CPU 1's samples are not in percpu_ap_spin ($spin %)"
HOME=$tmp/home perf report --stdio --no-children -i "$tmp/out/perf.data" --symfs build \
	--cpu 0 >"$tmp/report" 2>/dev/null || fail "perf report --cpu 0 failed"
expect_shares 2
echo "PASS: ptl (hybrid, Architectural PEBS): cycles:pp $cyc samples; record -a took $recs0 records on the P-core and $recs1 on the E-core, none lost; soak's shares on CPU 0, the E-core in percpu_ap_spin"
