# record --pmi=nmi on the real path, on the QEMU PMU (icx). irqoff runs
# half of its instructions with interrupts off (irqoff_masked) and half
# with them on (irqoff_open). A fixed-vector PMI waits while interrupts are
# off and lands after they come back on: irqoff_masked gets no sample. An
# NMI is taken there too: irqoff_masked gets its true half. With -a the
# APs take their PMIs as NMIs as well. The emulated PMU refuses --pmi=nmi.
. "$(dirname "$0")/lib.bash"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
make_symfs
# share SYMBOL: its integer share of the samples in $tmp/out/perf.data.
share() {
	perf report -i "$tmp/out/perf.data" --symfs "$tmp/symfs" --sort sym --stdio 2>/dev/null |
		awk -v s="$1" '$NF == s { print int($1) }'
}
qemu_pmu icx record -e instructions -c 100003 irqoff -n 4000000
expect_rc 0
vector_masked=$(share irqoff_masked)
vector_open=$(share irqoff_open)
echo "vector: irqoff_masked ${vector_masked:-0}%, irqoff_open ${vector_open:-0}%"
[ "${vector_masked:-0}" -le 1 ] || fail "fixed-vector PMIs sampled irqoff_masked (${vector_masked}%)"
[ "${vector_open:-0}" -ge 40 ] || fail "irqoff_open has only ${vector_open:-0}% with fixed-vector PMIs"
qemu_pmu icx record --pmi=nmi -e instructions -c 100003 irqoff -n 4000000
expect_rc 0
nmi_masked=$(share irqoff_masked)
nmi_open=$(share irqoff_open)
echo "nmi: irqoff_masked ${nmi_masked:-0}%, irqoff_open ${nmi_open:-0}%"
[ "${nmi_masked:-0}" -ge 45 ] && [ "${nmi_masked:-0}" -le 55 ] ||
	fail "NMI PMIs put ${nmi_masked:-0}% in irqoff_masked, expected 50 +- 5"
[ "${nmi_open:-0}" -ge 45 ] && [ "${nmi_open:-0}" -le 55 ] ||
	fail "NMI PMIs put ${nmi_open:-0}% in irqoff_open, expected 50 +- 5"
QEMU_RUN_OPTS="--pmu icx --smp 4" qemu record -a --pmi=nmi -e instructions -c 100003 soak -n 4000000
expect_rc 0
grep "samples per CPU" "$tmp/console"
min=$(sed -n 's/^\[ samples per CPU: \(.*\) \]$/\1/p' "$tmp/console" | head -1 |
	awk '{ m = -1; for (i = 2; i <= NF; i += 2) if (m < 0 || $i < m) m = $i; print m }')
[ "${min:-0}" -ge 100 ] || fail "-a --pmi=nmi: a CPU has only ${min:-0} samples"
qemu --pmu=sim:icx record --pmi=nmi soak
expect_rc 2
expect_console "--pmi=nmi needs a PMU in the machine"
echo "PASS: irqoff_masked ${vector_masked:-0}% (vector) vs ${nmi_masked:-0}% (NMI); -a NMI min $min samples per CPU"
