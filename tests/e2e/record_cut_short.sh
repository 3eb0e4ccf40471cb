# A recording cut short (QEMU killed mid-run) still leaves a perf.data
# whose header perf accepts: the header is rewritten every second.
. "$(dirname "$0")/lib.bash"
QEMU_TIMEOUT=14 qemu --pmu=sim:icx record -e instructions:pp -c 1000003 soak -n 100000000000
expect_rc 124
expect_console "bareperf record:"
[ -s "$tmp/out/perf.data" ] || fail "no perf.data came back"
mkdir -p "$tmp/home"
HOME=$tmp/home perf report --stdio -i "$tmp/out/perf.data" --symfs build >"$tmp/report" 2>&1 ||
	{ cat "$tmp/report"; fail "perf cannot read the cut-short file"; }
grep -q "soak_" "$tmp/report" || { cat "$tmp/report"; fail "no soak samples in the cut-short file"; }
