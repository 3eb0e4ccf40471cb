# `record` with large PEBS on the emulated PMU in QEMU, read back by the
# real perf: no warnings, soak's functions by name with their shares.
. "$(dirname "$0")/lib.bash"
qemu --pmu=sim:icx record -e instructions:pp -c 100003 soak -n 200000000
expect_rc 0
expect_console "large PEBS"
expect_console "0 lost"
[ -s "$tmp/out/perf.data" ] || fail "no perf.data came back"
mkdir -p "$tmp/home"
HOME=$tmp/home perf report --stdio --no-children -i "$tmp/out/perf.data" --symfs build \
	>"$tmp/report" 2>"$tmp/report.err" || fail "perf report failed"
cat "$tmp/report"
[ ! -s "$tmp/report.err" ] || { cat "$tmp/report.err"; fail "perf printed warnings"; }
share() { awk -v s="$1" '$NF == s { sub("%", "", $1); print $1 }' "$tmp/report"; }
# Ground truth: soak_hot retires 50% of soak's instructions, soak_cold 5%;
# the tolerance covers sampling error and our own overhead.
hot=$(share soak_hot) cold=$(share soak_cold)
awk -v h="$hot" 'BEGIN { exit !(h >= 42 && h <= 56) }' || fail "soak_hot share $hot%, expected 50 +- 8"
awk -v c="$cold" 'BEGIN { exit !(c >= 2 && c <= 8) }' || fail "soak_cold share $cold%, expected 5 +- 3"
HOME=$tmp/home perf script -i "$tmp/out/perf.data" --symfs build | head -3 | grep -q "instructions:pp" ||
	fail "perf script shows no samples"
