# `selftest` on the emulated Ice Lake server in the image: every check
# passes through the real IDT gate, LVT PC and drive tick, and says so.
. "$(dirname "$0")/lib.bash"
qemu --pmu=sim:icx selftest
expect_rc 0
expect_console "EMULATED PMU (sim:icx)"
for check in counters widths overflow-pmi lvt-mask pebs-record pebs-threshold auto-reload; do
	grep -Eq "^$check +PASS " "$tmp/console" || fail "check $check did not pass"
done
expect_console "7 passed, 0 failed, 0 skipped"
! grep -q "FAIL" "$tmp/console" || fail "a FAIL line"

# QEMU's TCG has no PMU: every check SKIPs with the reason, status 3.
qemu selftest
expect_rc 3
expect_console "counters         SKIP"
expect_console "0 passed, 0 failed, 7 skipped"
