# `record -- \PATH\APP.EFI ARGS` loads the test application from the ESP,
# passes its arguments, prints its exit status (EFIERR(21) = EFI_ABORTED
# here) and still exits 0; perf names the application's mapping and finds
# its hot functions in hello.elf, in the proportions it spends there
# (3:1 by construction). Run on the emulated PMU (checked loosely: the
# model samples on a 1 kHz tick) and on the real path on the QEMU PMU
# (icx), where the counters count hello's own instructions.
. "$(dirname "$0")/lib.bash"
make efi >/dev/null || fail "make efi"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
make_symfs

# record_hello RUNNER-OPTS PMU-OPTION MILLIONS LOW HIGH: records hello.efi
# and checks hello_hot:hello_cold within LOW..HIGH (tenths).
record_hello() {
	local opts=$1 pmu=$2 millions=$3 low=$4 high=$5
	rm -rf "$tmp/out"
	tools/qemu-run $opts -t "${QEMU_TIMEOUT:-120}" -o "$tmp/out" --add build/tests/hello.efi -- \
		$pmu record -c 100003 -- '\bareperf\hello.efi' "$millions" 21 >"$tmp/console" 2>&1
	rc=$?
	cat "$tmp/console"
	expect_rc 0
	expect_console "hello: options '\\\\bareperf\\\\hello.efi $millions 21', $millions million iterations, status 21"
	expect_console "hello.efi exited with status 0x8000000000000015: Aborted"
	[ -s "$tmp/out/perf.data" ] || fail "no perf.data came back"
	perf_dso "$tmp/out/perf.data" | tee "$tmp/dso"
	top=$(head -1 "$tmp/dso" | awk '{print $2}')
	[ "$top" = hello.efi ] || fail "the application is not the top dso ($top)"
	share=$(head -1 "$tmp/dso" | awk '{print int($1)}')
	[ "$share" -ge 80 ] || fail "hello.efi has only $share% of the samples"
	perf report -i "$tmp/out/perf.data" --symfs "$tmp/symfs" --sort sym --stdio 2>/dev/null |
		grep -v '^#' | grep -v '^$' | tee "$tmp/sym"
	hot=$(awk '/hello_hot/ {print int($1)}' "$tmp/sym")
	cold=$(awk '/hello_cold/ {print int($1)}' "$tmp/sym")
	[ -n "$hot" ] && [ -n "$cold" ] || fail "hello_hot/hello_cold not resolved"
	[ $((hot * 10)) -ge $((cold * low)) ] && [ $((hot * 10)) -le $((cold * high)) ] ||
		fail "hello_hot:hello_cold = $hot:$cold, expected about 3:1"
	echo "PASS (${pmu:-hw on the QEMU PMU}): hello.efi $share%, hello_hot $hot%, hello_cold $cold%"
}
record_hello "" --pmu=sim:icx 300 20 45
record_hello "--pmu icx" "" 30 27 33
