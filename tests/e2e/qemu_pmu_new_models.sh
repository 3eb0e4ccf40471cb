# Broadwell (bdw: PEBS format 2, no baseline) and Sierra Forest (srf:
# E-cores only, adaptive PEBS), the two generations modelled with every
# perfmon table: on the QEMU PMU (the image's real path) and on the
# in-image model, the CPUID signature selects the part's own table, stat
# counts soak's 8 instructions and 1 branch per iteration (give or take
# the firmware's timer ticks, as qemu_pmu_stat.sh), and PEBS recordings
# give soak's 50/30/15/5 split with times perf can order (Broadwell's
# format-2 records carry no TSC: they take the drain's).
. "$(dirname "$0")/lib.bash"
n=1000000
check_stat() {	# check_stat WHAT
	local ins br
	ins=$(count instructions) br=$(count branches)
	[ -n "$ins" ] && [ "$ins" -ge $((8 * n)) ] && [ "$ins" -le $((8 * n + 8 * n / 100 + 20000)) ] ||
		fail "$1: $ins instructions for soak -n $n, expected 8 x $n + < 1 %"
	[ -n "$br" ] && [ "$br" -ge "$n" ] || fail "$1: $br branches, fewer than $n"
}
declare -A table=([bdw]="Broadwell client" [srf]="Sierra Forest")
declare -A precise=([bdw]=INST_RETIRED.PREC_DIST:pp [srf]=instructions:pp)
for m in bdw srf; do
	qemu_pmu $m list INST_RETIRED.ANY
	expect_rc 0
	expect_console "Events of $m: ${table[$m]}"
	qemu_pmu $m stat -e instructions,branches soak -n $n
	expect_rc 0
	check_stat "$m, QEMU PMU"
	qemu_pmu $m record -e "${precise[$m]}" -c 20011 soak -n 5000000
	expect_rc 0
	[ "$(samples)" -ge 1500 ] || fail "$m: only $(samples) PEBS samples"
	report; expect_shares 2
	HOME=$tmp/home perf script -i "$tmp/out/perf.data" -F time --symfs build 2>/dev/null |
		awk '$1 + 0 == 0 { zero++ } END { exit zero > 0 }' || fail "$m: samples at time 0"
	# The same part as the image's own model (no QEMU PMU). It counts
	# elapsed time in units of the calibrated retire rate (README, "The
	# emulated PMU"): with --icount within 2 % of soak's truth.
	QEMU_RUN_OPTS=--icount qemu --pmu=sim:$m stat -e instructions,branches soak -n 20000000
	expect_rc 0
	expect_console "EMULATED PMU (sim:$m)"
	i=$(count instructions) b=$(count branches)
	[ -n "$i" ] && [ "$i" -ge 156800000 ] && [ "$i" -le 163200000 ] ||
		fail "$m, in-image model: $i instructions, soak retires 160,000,000 (2 %)"
	[ $((i / b)) -eq 8 ] || fail "$m, in-image model: instructions/branches = $((i / b)), expected 8"
done
