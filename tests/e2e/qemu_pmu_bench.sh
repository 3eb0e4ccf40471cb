# bench overhead and bench error on the real path, on the QEMU PMU (icx).
# Under icount guest time is instructions, so overhead is the handler's
# instructions: at period 10003, large PEBS takes no PMI for soak and costs
# less than one record per PMI; sample shares follow soak's truth.
. "$(dirname "$0")/lib.bash"
QEMU_TIMEOUT=500 qemu_pmu icx bench overhead --periods 10003,100003
expect_rc 0
row=$(awk '$1 == "10003"' "$tmp/console")
[ -n "$row" ] || fail "no row for period 10003"
plain=$(awk '{ print $2 }' <<<"$row") multi=$(awk '{ print $3 }' <<<"$row")
multi_pmis=$(awk '{ print $8 }' <<<"$row")
awk -v p="$plain" -v m="$multi" 'BEGIN { exit !(m < p) }' || fail "multi $multi s is not below plain $plain s"
[ "$multi_pmis" = 0 ] || fail "large PEBS took $multi_pmis PMIs for soak -n 4000000"
QEMU_TIMEOUT=500 qemu_pmu icx bench error --periods 10003
expect_rc 0
awk '$1 == "max" { for (i = 3; i <= NF; i++) { v = $i; sub("pp", "", v); if (v + 0 > 1) bad = 1 } } END { exit bad }' \
	"$tmp/console" || fail "a share is more than 1 point from soak's truth at period 10003"
