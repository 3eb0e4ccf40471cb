# record -a on a full ESP keeps a fair cut by time (issue 39 item 8):
# every CPU's samples up to the moment the file could not grow, not one
# CPU's to the end and another's to where its last PEBS buffer drained.
# The writer merges the CPUs' rings in time order, up to the time every
# CPU has delivered (large PEBS holds a CPU's records until its
# threshold), so the file's last samples of the two CPUs are as close in
# time as their sampling. Before, on sim:icx, CPU 0's samples ran to
# 88.2 ms and CPU 1's stopped at 76.7 ms: 26 % of the file's span apart.
. "$(dirname "$0")/lib.bash"

check_cut() {	# check_cut WHAT
	perf script -i "$tmp/out/perf.data" -F cpu,time 2>"$tmp/err" | tr -d '[]:' >"$tmp/times" ||
		fail "$1: perf cannot read the file: $(head -3 "$tmp/err")"
	awk -v what="$1" '
		{ n[$1]++; if (!($1 in first)) first[$1] = $2; last[$1] = $2
		  if (lo == "" || $2 < lo) lo = $2; if ($2 > hi) hi = $2; total++ }
		END {
			span = hi - lo; cpus = 0
			for (c in n) { cpus++; if (c0 == "") c0 = c; else c1 = c }
			if (cpus != 2) { print what ": samples of " cpus " CPUs, expected 2"; exit 1 }
			gap = last[c0] - last[c1]; if (gap < 0) gap = -gap
			printf "%s: CPU %d: %d samples to %.6f s, CPU %d: %d to %.6f s; last samples %.2f %% of the span apart\n",
				what, c0, n[c0], last[c0], c1, n[c1], last[c1], 100 * gap / span
			if (gap > 0.02 * span) { print what ": the CPUs end more than 2 % of the span apart"; exit 1 }
			if (n[c0] < 0.3 * total || n[c1] < 0.3 * total) { print what ": one CPU holds under 30 % of the samples"; exit 1 }
		}' "$tmp/times" || fail "$1: not a fair cut by time"
}

for pmu in sim qemu; do
	if [ $pmu = sim ]; then
		QEMU_RUN_OPTS="--smp 2 --esp-size 2" qemu --pmu=sim:icx record -a -e instructions:pp -c 10007 soak -n 50000000
	else
		QEMU_RUN_OPTS="--pmu icx --smp 2 --esp-size 2" qemu record -a -e instructions:pp -c 10007 soak -n 50000000
	fi
	expect_rc 1
	expect_console "perf.data holds the first [0-9]* samples, and perf reads it"
	check_cut "$pmu"
done
echo PASS
