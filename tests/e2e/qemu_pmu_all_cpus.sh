# -a on 4 vCPUs on the real path, on the QEMU PMU (icx): every AP takes
# PMIs inside its sampling loop (our gates in its own IDT copy, interrupts
# on, LVT PC programmed again after the firmware's wake-up INIT), in PMI
# mode and with PEBS; per-CPU counts of one run sum to the total of
# another, within 10 %, and that total is several CPUs' worth. Two boots
# count the same soak on the BSP, but the APs spin (or halt in the
# firmware) while it runs, and under icount each vCPU's round-robin share
# of the time to the next deadline (qemu/README.md) decides how far an
# AP's loop gets. Without record/replay QEMU's I/O completions land at
# host-timed points, so that share is not the same from boot to boot: the
# same command line gave 78.59 and 84.82 million instructions in all, the
# -A line 84.61 to 84.82 million. A total that were one CPU's count (about
# 26 million) or every CPU's twice fails either way.
. "$(dirname "$0")/lib.bash"
export QEMU_RUN_OPTS="--pmu icx --smp 4"
per_cpu_samples() {	# prints the lowest per-CPU sample count
	sed -n 's/^\[ samples per CPU: \(.*\) \]$/\1/p' "$tmp/console" |
		awk '{ min = -1; for (i = 2; i <= NF; i += 2) if (min < 0 || $i < min) min = $i; print min }'
}
for mode in "-e instructions" "-e instructions:pp --pebs-threshold 1" "-e instructions:pp"; do
	qemu record -a $mode -c 100003 soak -n 20000000
	expect_rc 0
	grep "samples per CPU" "$tmp/console"
	[ "$(grep -o 'cpu[0-3] ' "$tmp/console" | sort -u | wc -l)" -eq 4 ] || fail "$mode: not every CPU listed"
	min=$(per_cpu_samples)
	[ "$min" -ge 1000 ] || fail "$mode: a CPU has only $min samples"
done
qemu stat -a -e instructions soak -n 2000000
expect_rc 0
total=$(count instructions)
qemu stat -a -A -e instructions soak -n 2000000
expect_rc 0
sum=$(awk '$1 ~ /^CPU[0-9]/ && $3 == "instructions" { gsub(",", "", $2); s += $2 } END { print s }' "$tmp/console")
echo "total $total, per-CPU sum $sum"
[ -n "$total" ] && [ -n "$sum" ] || fail "no total ($total) or no per-CPU counts ($sum)"
awk -v a="$sum" -v b="$total" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b / 10) }' ||
	fail "per-CPU counts sum to $sum, the total is $total: more than 10 % apart"
most=$(awk '$1 ~ /^CPU[0-9]/ && $3 == "instructions" { gsub(",", "", $2); if ($2 > m) m = $2 } END { print m }' "$tmp/console")
awk -v t="$total" -v m="$most" 'BEGIN { exit !(t >= 2.5 * m) }' ||
	fail "the total $total is not several CPUs' worth (the busiest CPU counted $most)"
# The firmware still needs the APs while they sample (CpuDxe syncs MTRRs to
# them as drivers connect): -a --connect-all must finish, every CPU sampled.
qemu record -a -c 100003 --connect-all
expect_rc 0
min=$(per_cpu_samples)
[ "$min" -ge 500 ] || fail "--connect-all: a CPU has only $min samples"
