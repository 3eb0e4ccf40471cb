# `bench overhead` under QEMU with --icount (guest time follows
# instructions): the table appears, says EMULATED, and plain PEBS costs
# clearly more than large PEBS at a short period (one PMI per record
# against none), while at a long period the two stay within 2 % of each
# other. About 15 s.
. "$(dirname "$0")/lib.bash"
rm -rf "$tmp/out"
tools/qemu-run --icount -t "${QEMU_TIMEOUT:-120}" -o "$tmp/out" -- --pmu=sim:icx \
	bench overhead --periods 10003,1000003 --runs 1 >"$tmp/console" 2>&1
rc=$?
cat "$tmp/console"
expect_rc 0
expect_console "plain (threshold 1) vs multi (large threshold), EMULATED PMU (sim:icx)"
expect_console "unsampled:"
row() { awk -v p="$1" '$1 == p { print }' "$tmp/console"; }
short=$(row 10003) long=$(row 1000003)
[ -n "$short" ] || fail "no row for period 10003"
[ -n "$long" ] || fail "no row for period 1000003"
read -r _ plain multi _ <<<"$short"
awk -v p="$plain" -v m="$multi" 'BEGIN { exit !(p > 1.3 * m) }' ||
	fail "period 10003: plain $plain s is not clearly above multi $multi s"
read -r _ _ _ _ _ _ pmis_plain pmis_multi _ <<<"$short"
[ "$pmis_plain" -gt 1000 ] && [ "$pmis_multi" -lt 10 ] ||
	fail "period 10003: PMIs plain $pmis_plain, multi $pmis_multi"
read -r _ plain multi _ <<<"$long"
awk -v p="$plain" -v m="$multi" 'BEGIN { exit !(p < 1.02 * m && m < 1.02 * p) }' ||
	fail "period 1000003: plain $plain s and multi $multi s do not meet"
echo "PASS"
