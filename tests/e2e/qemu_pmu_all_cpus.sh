# -a on 4 vCPUs on the real path, on the QEMU PMU (icx): every AP takes
# PMIs inside its sampling loop (our gates in its own IDT copy, interrupts
# on, LVT PC programmed again after the firmware's wake-up INIT), in PMI
# mode and with PEBS; per-CPU counts of one run sum to the total of
# another within 0.1 % (under icount both count the same work; each vCPU's
# round-robin share of the time to the next deadline, qemu/README.md,
# makes where an AP's loop stands when counting starts depend on the
# instructions the BSP ran before: the two command lines differ by -A,
# and their counts by some thousand instructions in 85 million).
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
awk -v a="$sum" -v b="$total" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b / 1000) }' ||
	fail "per-CPU counts sum to $sum, the total is $total: more than 0.1 % apart"
# The firmware still needs the APs while they sample (CpuDxe syncs MTRRs to
# them as drivers connect): -a --connect-all must finish, every CPU sampled.
qemu record -a -c 100003 --connect-all
expect_rc 0
min=$(per_cpu_samples)
[ "$min" -ge 500 ] || fail "--connect-all: a CPU has only $min samples"
