# `selftest` on the real path, on the QEMU PMU, for every modelled part:
# every check PASS (a SKIP only where the part lacks the feature).
. "$(dirname "$0")/lib.bash"
for model in icx skl spr adl; do
	qemu_pmu $model selftest
	expect_rc 0
	grep -q "FAIL" "$tmp/console" && fail "$model: a selftest check failed"
	echo "$model: $(grep -c PASS "$tmp/console") PASS, $(grep -c SKIP "$tmp/console") SKIP"
done
