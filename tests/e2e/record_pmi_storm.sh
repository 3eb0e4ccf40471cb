# A PMI storm ends with its workload (`record -c 2 soak -n
# 2000000` had not finished after 200 s, 13.5 M PMIs and 13.5 M lost; with
# :pp no progress at all). Throttled by the PMI rate and by the handler's
# share of the CPU, as Linux (kernel/events/core.c: perf_event_max_sample_rate,
# perf_cpu_time_max_percent); a PEBS period under 128 is raised to it. On
# the emulated PMU in the image and on the QEMU PMU (the real path); each
# file must read back whole in perf.
. "$(dirname "$0")/lib.bash"
mkdir -p "$tmp/home"
QEMU_TIMEOUT=120
# storm WHERE ARGS...: one run, timed; exit 0, the file readable.
storm() {
	local where=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	case $where in
	sim) qemu --pmu=sim:icx record -c 2 "$@" soak -n 2000000 ;;
	hw) qemu_pmu icx record -c 2 "$@" soak -n 2000000 ;;
	esac
	t1=$(date +%s.%N)
	expect_rc 0
	HOME=$tmp/home perf report --stdio -i "$tmp/out/perf.data" --symfs build >/dev/null 2>"$tmp/err" ||
		fail "perf cannot read the $where storm's file: $(cat "$tmp/err")"
	# Which functions: at -c 2 on the real path the counter wraps in the
	# handler's own tail (the instructions after it re-enables the
	# counters), so soak need not be among them; samples must be there.
	HOME=$tmp/home perf report --stdio -i "$tmp/out/perf.data" --symfs build 2>/dev/null |
		grep -q "bareperf.elf" || fail "no samples in the $where storm's file"
	echo "storm on $where $*: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s with boot," \
		"record $(sed -n 's/.* in \([0-9.]*\) s;.*/\1/p' "$tmp/console" | tail -n 1) s"
}
storm sim
expect_console "PMI storm: sampling was throttled"
storm sim -e instructions:pp
expect_console "PEBS events sample every 128 events, not 2 (the shortest PEBS period)"
# PMI mode at -c 2 on the QEMU PMU: the counter wraps again in the
# handler's own tail, fewer than 100,000 times a second under TCG, so the
# PMI-rate limit never sees it; the handlers' share of the CPU does.
storm hw
expect_console "PMI storm: sampling was throttled"
grep -q "for the handler taking more than 25 % of the CPU" "$tmp/console" ||
	fail "the hw storm was not throttled by the handler's share"
storm hw -e instructions:pp
expect_console "PEBS events sample every 128 events, not 2"
exit 0
