# `record` with large PEBS on the emulated PMU in QEMU, read back by the
# real perf: no warnings, soak's functions by name with their shares.
. "$(dirname "$0")/lib.bash"
qemu --pmu=sim:icx record -e instructions:pp -c 100003 soak -n 200000000
expect_rc 0
expect_console "large PEBS"
expect_console "0 lost"
[ -s "$tmp/out/perf.data" ] || fail "no perf.data came back"
report			# lib.bash: perf report, no warnings allowed
cat "$tmp/report"
# Ground truth: soak_hot retires 50% of soak's instructions, soak_cold 5%.
# Shares are taken of soak's own samples: how many land in our sample
# handling and in the firmware's timer handler depends on how fast TCG
# runs the emulated PMU's tick (34 to 48 % soak_hot of all samples seen
# on a loaded machine, with the split among soak's functions unchanged).
hot=$(share soak_hot) warm=$(share soak_warm) cool=$(share soak_cool) cold=$(share soak_cold)
soak=$(awk -v a="$hot" -v b="$warm" -v c="$cool" -v d="$cold" 'BEGIN { print a + b + c + d }')
awk -v t="$soak" 'BEGIN { exit !(t >= 60) }' || fail "soak has only $soak % of the samples"
of_soak() { awk -v s="$1" -v t="$soak" 'BEGIN { printf "%.2f", 100 * s / t }'; }
h=$(of_soak "$hot") c=$(of_soak "$cold")
awk -v h="$h" 'BEGIN { exit !(h >= 42 && h <= 56) }' || fail "soak_hot $h % of soak's samples, expected 50 +- 8"
awk -v c="$c" 'BEGIN { exit !(c >= 2 && c <= 8) }' || fail "soak_cold $c % of soak's samples, expected 5 +- 3"
HOME=$tmp/home perf script -i "$tmp/out/perf.data" --symfs build | head -3 | grep -q "instructions:pp" ||
	fail "perf script shows no samples"
