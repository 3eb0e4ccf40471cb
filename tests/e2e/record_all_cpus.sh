# `--smp 4 ... record -a --connect-all`: samples from all four CPUs (perf
# script -F cpu), the firmware's images among the BSP's, and the issue's
# "done when" command as written. -C picks CPUs.
. "$(dirname "$0")/lib.bash"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
rm -rf "$tmp/out"
tools/qemu-run -t "${QEMU_TIMEOUT:-120}" --smp 4 -o "$tmp/out" -- \
	--pmu=sim:icx record -a -c 100003 --connect-all >"$tmp/console" 2>&1
rc=$?
cat "$tmp/console"
expect_rc 0
expect_console "4 CPUs; [0-9]* other images mapped"
cpus=$(perf script -i "$tmp/out/perf.data" -F cpu 2>/dev/null | tr -d ' []' | sort -u | tr '\n' ' ')
[ "$cpus" = "000 001 002 003 " ] || fail "samples came from CPUs '$cpus', not 000-003"
make_symfs
perf_dso "$tmp/out/perf.data" | tee "$tmp/dso"
n=$(grep -c '\.efi' "$tmp/dso")
[ "$n" -ge 3 ] || fail "samples in only $n firmware images"
# The APs wait in bareperf's loop meanwhile: that is where their samples are.
perf report -i "$tmp/out/perf.data" --symfs "$tmp/symfs" --sort cpu,sym --stdio 2>/dev/null |
	grep -q "003 .*percpu_ap_spin" || fail "CPU 3's samples are not in percpu_ap_spin"

rm -rf "$tmp/out"
tools/qemu-run -t "${QEMU_TIMEOUT:-120}" --smp 4 -o "$tmp/out" -- \
	--pmu=sim:icx record -C 1,3 -c 100003 soak >"$tmp/console" 2>&1
rc=$?
cat "$tmp/console"
expect_rc 0
cpus=$(perf script -i "$tmp/out/perf.data" -F cpu 2>/dev/null | tr -d ' []' | sort -u | tr '\n' ' ')
[ "$cpus" = "001 003 " ] || fail "-C 1,3 gave samples from '$cpus'"
echo "PASS: CPUs 0-3 with -a, 1 and 3 with -C 1,3; $n firmware images"
