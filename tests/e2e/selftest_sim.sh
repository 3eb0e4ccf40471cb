# `selftest` on the emulated Ice Lake server, Zen 4 and Zen 2 in the image:
# every check the architecture has passes through the real IDT gate, LVT
# PC (or IBS's extended LVT entry) and drive tick, and says so; the others
# SKIP with the reason (IBS on Intel, PEBS on AMD).
. "$(dirname "$0")/lib.bash"
core_checks="counters widths overflow-pmi lvt-mask"

expect_checks() {	# verdict check...
	local verdict=$1 check
	shift
	for check in "$@"; do
		grep -Eq "^$check +$verdict " "$tmp/console" || fail "check $check: not $verdict"
	done
}

qemu --pmu=sim:icx selftest
expect_rc 0
expect_console "EMULATED PMU (sim:icx)"
expect_checks PASS $core_checks pebs-record pebs-threshold auto-reload
expect_checks SKIP ibs-op ibs-fetch
expect_console "no IBS on Intel"
expect_console "7 passed, 0 failed, 2 skipped"
! grep -q "FAIL" "$tmp/console" || fail "a FAIL line"

for model in zen4 zen2; do
	qemu --pmu=sim:$model selftest
	expect_rc 0
	expect_console "EMULATED PMU (sim:$model)"
	expect_checks PASS $core_checks ibs-op ibs-fetch
	expect_checks SKIP pebs-record pebs-threshold auto-reload
	expect_console "AMD has no PEBS; IBS checks below"
	expect_console "6 passed, 0 failed, 3 skipped"
	! grep -q "FAIL" "$tmp/console" || fail "$model: a FAIL line"
done
expect_console "PERF_CTR0's top bit clear at the PMI"	# zen2: no PerfMonV2

# QEMU's TCG has no PMU: every check SKIPs with the reason, status 3.
qemu selftest
expect_rc 3
expect_console "counters         SKIP"
expect_console "0 passed, 0 failed, 9 skipped"
