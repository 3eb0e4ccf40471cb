# A hybrid part on the QEMU PMU (adl: CPUs 0 and 2 are P-cores, 1 and 3
# E-cores, each vCPU with its own CPUID.1AH): the events are parsed once
# per core type, before the PMU is taken, and each CPU samples its type's
# list. decode.lcp is in the P-core table only: record -a refuses it on
# each E-core with the core type and the parser's reason, and the P-cores
# sample. With events both tables have, every CPU samples.
. "$(dirname "$0")/lib.bash"
export QEMU_RUN_OPTS="--pmu adl --smp 4"
per_cpu() {	# per_cpu N: CPU N's samples, from "[ samples per CPU: cpu0 A cpu1 B ... ]"
	sed -n 's/^\[ samples per CPU: \(.*\) \]$/\1/p' "$tmp/console" |
		awk -v c="cpu$1" '{ for (i = 1; i < NF; i += 2) if ($i == c) print $(i + 1) }'
}
qemu record -a -e instructions,decode.lcp -c 100003 soak -n 5000000
expect_rc 0
# One message for both E-cores, which share the reason.
grep -q "^bareperf record: CPUs 1, 3 are not sampled: efficiency core (Atom): .*decode.lcp" \
	"$tmp/console" || fail "E-cores 1 and 3 not refused with their core type and reason"
for cpu in 1 3; do
	[ "$(per_cpu $cpu)" = 0 ] || fail "E-core CPU $cpu sampled"
done
[ "$(grep -c "not sampled" "$tmp/console")" -eq 1 ] || fail "not exactly one refusal, of the two E-cores"
expect_console "; 2 CPUs;"
for cpu in 0 2; do
	n=$(per_cpu $cpu)
	[ -n "$n" ] && [ "$n" -ge 10 ] || fail "P-core CPU $cpu has ${n:-no} samples"
done
qemu record -a -e instructions -c 100003 soak -n 5000000
expect_rc 0
! grep -q "is not sampled" "$tmp/console" || fail "a CPU was refused an event both core types have"
expect_console "; 4 CPUs;"
for cpu in 0 1 2 3; do
	n=$(per_cpu $cpu)
	[ -n "$n" ] && [ "$n" -ge 10 ] || fail "CPU $cpu has ${n:-no} samples"
done
echo "PASS: adl -a: E-cores refused decode.lcp with their reason while the P-cores sampled; every CPU sampled instructions"
