# `record` on the real path, on the QEMU PMU (icx), in every mode: PMI mode
# (-c, -F, -g), PEBS with one record per PMI, large PEBS. Under icount the
# runs are deterministic, so soak's shares sit close to 50/30/15/5.
. "$(dirname "$0")/lib.bash"
mkdir -p "$tmp/home"
report() {
	HOME=$tmp/home perf report --stdio --no-children -i "$tmp/out/perf.data" --symfs build \
		>"$tmp/report" 2>"$tmp/report.err" || fail "perf report failed"
	[ ! -s "$tmp/report.err" ] || { cat "$tmp/report.err"; fail "perf printed warnings"; }
}
share() { awk -v s="$1" '$NF == s { sub("%", "", $1); print $1 }' "$tmp/report"; }
# Each soak function's share of soak's samples (bareperf's own sample
# handling and the firmware's disk driver are sampled too, more so at
# short periods), against 50/30/15/5 by construction.
expect_shares() {	# expect_shares TOLERANCE
	local f want total
	total=$(awk -v a="$(share soak_hot)" -v b="$(share soak_warm)" -v c="$(share soak_cool)" \
		-v d="$(share soak_cold)" 'BEGIN { print a + b + c + d }')
	awk -v t="$total" 'BEGIN { exit !(t >= 75) }' || fail "soak has only $total % of the samples"
	for f in soak_hot:50 soak_warm:30 soak_cool:15 soak_cold:5; do
		want=${f#*:}
		awk -v s="$(share "${f%:*}")" -v T="$total" -v w="$want" -v t="$1" \
			'BEGIN { r = 100 * s / T; exit !(r >= w - t && r <= w + t) }' ||
			fail "${f%:*} $(share "${f%:*}")% of $total %, expected $want +- $1 of soak's"
	done
}
pmis() { sed -n 's/.*; \([0-9,]*\) PMIs.*/\1/p' "$tmp/console" | tr -d , | tail -n 1; }
samples() { sed -n 's/.* \([0-9,]*\) samples written.*/\1/p' "$tmp/console" | tr -d , | tail -n 1; }

# PMI mode, fixed period: one PMI per sample.
qemu_pmu icx record -e instructions -c 100003 soak -n 20000000
expect_rc 0
[ "$(pmis)" = "$(samples)" ] || fail "PMI mode: $(pmis) PMIs for $(samples) samples"
[ "$(samples)" -ge 1500 ] || fail "PMI mode: only $(samples) samples"
report; expect_shares 1
# PMI mode with callchains.
qemu_pmu icx record -g -e instructions -c 100003 soak -n 5000000
expect_rc 0
# Frame-pointer chains from soak's leaf loops up to the image's entry.
HOME=$tmp/home perf script -i "$tmp/out/perf.data" --symfs build >"$tmp/script"
grep -q "soak_hot" "$tmp/script" && grep -q "target_run" "$tmp/script" && grep -q "efi_main" "$tmp/script" ||
	{ head -20 "$tmp/script"; fail "-g: no callchain from soak_hot up to efi_main"; }
# PMI mode, frequency.
qemu_pmu icx record -F 1000 -e cycles soak -n 5000000
expect_rc 0
[ "$(samples)" -ge 100 ] || fail "-F 1000: only $(samples) samples"
# PEBS, one record per PMI.
qemu_pmu icx record -e instructions:pp -c 100003 --pebs-threshold 1 soak -n 20000000
expect_rc 0
[ "$(pmis)" -ge $(($(samples) - 1)) ] || fail "one-record PEBS: $(pmis) PMIs for $(samples) samples"
report; expect_shares 1
# Large PEBS: one PMI per 8180 records.
qemu_pmu icx record -e instructions:pp -c 10003 soak -n 20000000
expect_rc 0
expect_console "large PEBS"
s=$(samples) p=$(pmis)
[ "$s" -ge 15000 ] || fail "large PEBS: only $s samples"
[ "$p" -le $((s / 8180 + 1)) ] || fail "large PEBS: $p PMIs for $s samples"
report; expect_shares 1
