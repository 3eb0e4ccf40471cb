# `stat` on the emulated PMU in QEMU: counts, the IPC line, the banner.
. "$(dirname "$0")/lib.bash"
qemu --pmu=sim:icx stat -e instructions,cycles,branches soak -n 20000000
expect_rc 0
expect_console "EMULATED PMU"
expect_console "insn per cycle"
for ev in instructions cycles branches; do
	n=$(awk -v ev="$ev" '$2 == ev { gsub(",", "", $1); print $1 }' "$tmp/console")
	[ -n "$n" ] && [ "$n" -gt 1000000 ] || fail "$ev counted '$n'"
done
# soak retires one branch per 8 instructions by construction.
i=$(awk '$2 == "instructions" { gsub(",", "", $1); print $1 }' "$tmp/console")
b=$(awk '$2 == "branches" { gsub(",", "", $1); print $1 }' "$tmp/console")
[ $((i / b)) -ge 7 ] && [ $((i / b)) -le 9 ] || fail "instructions/branches = $((i / b)), expected 8"
