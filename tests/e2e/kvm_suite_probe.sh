# tests/kvm/run (issue 39 item 24) decides by itself whether this host can
# run the image under KVM on its PMU, and where it cannot, prints one SKIP
# line saying what the host lacks and counts nothing. Its probe, on stand-in
# hosts: no PMU flag in /proc/cpuinfo; a flag but perf counting nothing (a
# VM without vPMU); a PMU that counts but a KVM that cannot run the guest
# (tools/qemu-run's stand-in QEMU fails as KVM does). The checks it runs
# past the probe, on the QEMU PMU. On this host it runs the suite or skips
# it, and says which.
. "$(dirname "$0")/lib.bash"

probe() {	# probe WANT: tests/kvm/run on the stand-in host, one SKIP line with WANT
	"$@" tests/kvm/run >"$tmp/run.log" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || fail "tests/kvm/run exited $rc on a host it should skip: $(cat "$tmp/run.log")"
	[ "$(grep -c '^kvm: SKIP: ' "$tmp/run.log")" -eq 1 ] || fail "not one SKIP line: $(cat "$tmp/run.log")"
	grep -q '^kvm: 0 passed, 0 failed$' "$tmp/run.log" || fail "a skipped suite counted tests: $(cat "$tmp/run.log")"
	grep '^kvm: SKIP: ' "$tmp/run.log"
}
expect_skip() {	# expect_skip TEXT
	grep -q "^kvm: SKIP: .*$1" "$tmp/run.log" || fail "the SKIP line does not say '$1': $(cat "$tmp/run.log")"
}

printf 'processor\t: 0\nflags\t\t: fpu vme de pse tsc msr pae\n' >"$tmp/cpuinfo-none"
printf 'processor\t: 0\nflags\t\t: fpu tsc msr arch_perfmon pebs bts\n' >"$tmp/cpuinfo-pmu"
cat >"$tmp/perf-none" <<'PERF'
#!/bin/sh
echo '<not supported>,,instructions,0,100.00,,' >&2
PERF
cat >"$tmp/perf-counts" <<'PERF'
#!/bin/sh
echo '1234567,,instructions,2000000,100.00,,' >&2
PERF
cat >"$tmp/qemu" <<'QEMU'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do [ "$1" = -pidfile ] && echo $$ >"$2"; shift; done
echo "KVM internal error. Suberror: 1" >&2
echo "emulation failure" >&2
exec sleep 600
QEMU
chmod +x "$tmp/perf-none" "$tmp/perf-counts" "$tmp/qemu"
: >"$tmp/kvm"

probe env KVM_SUITE_CPUINFO="$tmp/cpuinfo-none"
expect_skip "shows no PMU"
probe env KVM_SUITE_CPUINFO="$tmp/cpuinfo-pmu" KVM_SUITE_PERF="$tmp/perf-none"
expect_skip "does not count (perf stat -e instructions true: '<not supported>')"
start=$(date +%s)
probe env KVM_SUITE_CPUINFO="$tmp/cpuinfo-pmu" KVM_SUITE_PERF="$tmp/perf-counts" \
	QEMU_RUN_QEMU="$tmp/qemu" QEMU_RUN_KVM_DEV="$tmp/kvm"
expect_skip "KVM cannot run the image here: .*KVM internal error"
[ $(( $(date +%s) - start )) -lt 30 ] || fail "the KVM probe took more than 30 s"

# The suite's own checks, where no KVM can run them: on the QEMU PMU
# (icx), past the probe, each of info, stat, record and precise (PEBS)
# must pass, with selftest's figures printed.
env KVM_SUITE_CPUINFO="$tmp/cpuinfo-pmu" KVM_SUITE_PERF="$tmp/perf-counts" KVM_SUITE_MACHINE="--pmu icx" \
	tests/kvm/run >"$tmp/run.log" 2>&1 || fail "the suite's checks on the QEMU PMU: $(cat "$tmp/run.log")"
cat "$tmp/run.log"
grep -q '^kvm: 4 passed, 0 failed$' "$tmp/run.log" || fail "not 4 checks passed on the QEMU PMU"
grep -q '^kvm selftest .*figures: 7 passed, 0 failed' "$tmp/run.log" || fail "no selftest figures"

# This host, as make test sees it: the suite's result or its one SKIP line.
tests/kvm/run >"$tmp/run.log" 2>&1 || fail "tests/kvm/run on this host: $(tail -n 5 "$tmp/run.log")"
cat "$tmp/run.log"
grep -qE '^kvm: [0-9]+ passed, 0 failed$' "$tmp/run.log" || fail "no summary line"
echo PASS
