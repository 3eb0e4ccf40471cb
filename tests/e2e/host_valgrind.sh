# Host-twin commands under valgrind end as they do
# without it. Valgrind delivers signals late, so a tick raised before
# plat_tick_stop used to meet SIGALRM's default action at teardown: every
# record and selftest died with exit 142. Memory errors fail the test too.
. "$(dirname "$0")/lib.bash"
command -v valgrind >/dev/null || fail "valgrind is not installed (tools/install-deps)"
vg() {	# vg ARGS...: the host twin under valgrind; sets $rc
	BAREPERF_OUT=$tmp timeout 300 valgrind -q --error-exitcode=99 build/host/bareperf "$@" \
		>"$tmp/console" 2>&1
	rc=$?
	cat "$tmp/console"
}
vg --pmu=sim:icx record -q -c 100003 -o vg.data soak -n 200000
expect_rc 0
expect_console "samples written, 0 lost"
vg --pmu=sim:icx record -q -e instructions:pp -c 20011 -o vg-pebs.data soak -n 200000
expect_rc 0
vg --pmu=sim:icx stat -a -e cycles,instructions soak -n 200000
expect_rc 0
vg --pmu=sim:icx selftest
expect_rc 0
expect_console "PASS"
