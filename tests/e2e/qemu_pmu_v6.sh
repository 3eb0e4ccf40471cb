# Perfmon v6 on the QEMU PMU (lnl, Lunar Lake: CPU 0 Lion Cove with 10 GP
# counters, CPU 1 Skymont with fixed counters 0-2 and 4-6): the image's
# real path finds CPUID.07H.1:EAX[8] and CPUID.23H, reaches every counter
# through the 1900H block (SDM Vol. 3B, "Architectural Performance
# Monitoring Version 6"; Linux 6.11 "Support V6+ MSR Aliasing"), counts on
# all ten GP counters at once (8 and 9 have no legacy MSR: had bareperf
# used the legacy blocks, QEMU would #GP), samples with PEBS format 6 and
# counts and samples on the E-core too.
. "$(dirname "$0")/lib.bash"
n=1000000
qemu_pmu lnl info
expect_rc 0
expect_console "perfmon:      version 6"
expect_console "gp counters:  10 x 48 bits (mask 0x3ff) \[CPUID.23H\]"
expect_console "perfmon ext:  CPUID.23H, sub-leaves 0x3; PERFEVTSEL extension: UMASK2 yes, EQ yes"
expect_console "counter MSRs: perfmon v6 block"
expect_console "PEBS record format     6"

# Ten branch counters (GP 0-9) and instructions (fixed 0): none
# multiplexed, each counts soak's branch per iteration.
events=instructions$(printf ',branches%.0s' 1 2 3 4 5 6 7 8 9 10)
qemu_pmu lnl stat -e "$events" soak -n $n
expect_rc 0
! grep -q "%)" "$tmp/console" || fail "lnl: events were multiplexed over 10 GP counters"
ins=$(count instructions)
[ -n "$ins" ] && [ "$ins" -ge $((8 * n)) ] && [ "$ins" -le $((8 * n + 8 * n / 100 + 20000)) ] ||
	fail "lnl: $ins instructions for soak -n $n, expected 8 x $n + < 1 %"
mapfile -t br < <(count branches)
[ "${#br[@]}" -eq 10 ] || fail "lnl: ${#br[@]} branch counts, expected 10"
for b in "${br[@]}"; do
	[ "$b" -ge "$n" ] && [ "$b" -le $((n + n / 50 + 5000)) ] ||
		fail "lnl: a branch counter read $b for soak -n $n (counts: ${br[*]})"
done

# PEBS format 6 (laid out as format 5): soak's 50/30/15/5 split.
qemu_pmu lnl record -e instructions:pp -c 20011 soak -n 5000000
expect_rc 0
expect_console "PEBS: "
[ "$(samples)" -ge 1500 ] || fail "lnl: only $(samples) PEBS samples"
report; expect_shares 2

# Both core types: the E-core's fixed counters are at 1980H + 4n.
QEMU_RUN_OPTS="--pmu lnl --smp 2" qemu stat -a -A -e instructions,cycles soak -n $n
expect_rc 0
e_ins=$(awk '$1 == "CPU1" && $3 == "instructions" { gsub(",", "", $2); print $2 }' "$tmp/console")
[ -n "$e_ins" ] && [ "$e_ins" -gt 0 ] || fail "lnl: the E-core (CPU 1) counted ${e_ins:-no} instructions"
QEMU_RUN_OPTS="--pmu lnl --smp 2" qemu record -a -e instructions -c 100003 soak -n 5000000
expect_rc 0
expect_console "; 2 CPUs;"
! grep -q "is not sampled" "$tmp/console" || fail "lnl: a CPU was not sampled"
echo "PASS: lnl (perfmon v6): 10 GP counters through the 1900H block (branches ${br[0]} x 10), $ins instructions, PEBS fmt 6 shares, E-core counted $e_ins instructions"
