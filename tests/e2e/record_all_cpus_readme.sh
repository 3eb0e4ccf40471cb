# The README's example of `record -a` on four CPUs with the emulated PMU
# (on a 2-core host it ran away, a PEBS run made no
# progress in 150 s, and in PMI mode cpu0 got 50 times the samples of the
# others). Exactly the README's command line, then the same with PEBS:
# each ends within a bound, every CPU has its share (the model's time is
# the same for every model CPU), and nothing is throttled or lost.
. "$(dirname "$0")/lib.bash"
line=$(sed -n 's/^\$ tools\/qemu-run --smp 4 -o out -- \(--pmu=sim:icx record -a .* --connect-all\)$/\1/p' README.md)
[ -n "$line" ] || fail "the README has no 'record -a ... --connect-all' example"
export QEMU_RUN_OPTS="--smp 4" QEMU_TIMEOUT=120
check_run() {	# check_run ARGS...: one run, its per-CPU shares and its time
	local t0 t1 counts
	t0=$(date +%s)
	qemu "$@"
	t1=$(date +%s)
	expect_rc 0
	! grep -q "PMI storm\|lost (" "$tmp/console" || fail "'$*' was throttled or lost samples"
	counts=$(sed -n 's/^\[ samples per CPU: cpu0 \([0-9]*\) cpu1 \([0-9]*\) cpu2 \([0-9]*\) cpu3 \([0-9]*\) \]$/\1 \2 \3 \4/p' "$tmp/console")
	[ -n "$counts" ] || fail "'$*' printed no samples per CPU"
	# Within 20 % of their mean: the BSP's workload and the APs' loop run
	# on one model clock.
	awk -v c="$counts" 'BEGIN { n = split(c, v, " "); for (i = 1; i <= n; i++) s += v[i]; m = s / n;
		for (i = 1; i <= n; i++) if (v[i] < 0.8 * m || v[i] > 1.2 * m) exit 1 }' ||
		fail "'$*': samples per CPU $counts are not even"
	[ $((t1 - t0)) -le 60 ] || fail "'$*' took $((t1 - t0)) s with the boot"
	echo "'$*': samples per CPU $counts, $((t1 - t0)) s with the boot"
}
# shellcheck disable=SC2086
check_run $line
# shellcheck disable=SC2086
check_run ${line/record -a/record -a -e instructions:pp}
exit 0
