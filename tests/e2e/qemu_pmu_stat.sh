# `stat` on the real path, on the QEMU PMU (icx): counts come from the
# machine's counters. soak retires exactly 8 instructions and 1 branch per
# iteration (workload/soak_loops.asm); the counts may exceed that only by
# what else runs at ring 0 while counting: bareperf's enable/disable path
# and the firmware's timer interrupt (about 4,000 instructions each 10 ms
# tick of guest time, i.e. 0.65 % at 16 ns per instruction). Two lengths
# must differ by exactly 8 x and 1 x the iterations, give or take those ticks.
. "$(dirname "$0")/lib.bash"
declare -A ins br
for n in 1000000 3000000; do
	qemu_pmu icx stat -e instructions,branches,cycles soak -n $n
	expect_rc 0
	grep -q "EMULATED" "$tmp/console" && fail "the real path printed the emulated banner"
	ins[$n]=$(count instructions) br[$n]=$(count branches)
	[ "${ins[$n]}" -ge $((8 * n)) ] || fail "soak -n $n: ${ins[$n]} instructions, fewer than 8 x $n"
	[ "${br[$n]}" -ge "$n" ] || fail "soak -n $n: ${br[$n]} branches, fewer than $n"
	[ "${ins[$n]}" -le $((8 * n + 8 * n / 100 + 20000)) ] ||
		fail "soak -n $n: ${ins[$n]} instructions, more than 1 % over 8 x $n"
	[ "$(count cycles)" = "${ins[$n]}" ] || fail "cycles $(count cycles) != instructions (cost model: 1 each)"
done
d=$((ins[3000000] - ins[1000000])) db=$((br[3000000] - br[1000000]))
echo "extra instructions: $((ins[1000000] - 8000000)) at 1 M, $((ins[3000000] - 24000000)) at 3 M; difference $d"
[ $d -ge 16000000 ] && [ $d -le $((16000000 + 16000000 / 100)) ] || fail "difference $d, expected 16,000,000 + < 1 %"
# The extra branches are the interrupt handler's: at most one per two of
# its instructions.
[ $db -ge 2000000 ] && [ $((db - 2000000)) -le $(((d - 16000000) / 2)) ] ||
	fail "branch difference $db, expected 2,000,000 + at most half the extra instructions"
# Every CPU: -a on 4 vCPUs counts each CPU, and the total is their sum.
QEMU_RUN_OPTS="--pmu icx --smp 4" qemu stat -a -A -e instructions soak -n 1000000
expect_rc 0
cpus=$(grep -c "CPU[0-3] .* instructions" "$tmp/console")
[ "$cpus" -eq 4 ] || fail "per-CPU lines for $cpus CPUs, expected 4"
# A hybrid P-core has 2 GP counters more than CPUID.0AH's common 6 (adl:
# CPUs 0 and 2 are P-cores, 1 and 3 E-cores; Linux adds them the same
# way, intel_pmu_init): 8 GP-only events count at once on CPU 0, and are
# multiplexed on the E-core, CPU 1.
ev=branches,branch-misses,cache-references,cache-misses,r01c4,r02c4,r04c4,r08c4
QEMU_RUN_OPTS="--pmu adl --smp 2" qemu stat -C 0 -e $ev soak -n 1000000
expect_rc 0
! grep -q "%)" "$tmp/console" || fail "8 GP events were multiplexed on the P-core"
QEMU_RUN_OPTS="--pmu adl --smp 2" qemu stat -C 1 -e $ev soak -n 1000000
expect_rc 0
grep -q "branches .*(.*%)" "$tmp/console" || fail "8 GP events fit the E-core's 6 counters"
exit 0
