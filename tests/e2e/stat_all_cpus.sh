# `--smp 4 ... stat -a -A`: figures per CPU, counted on each CPU's own
# (emulated) PMU; -a alone sums them.
. "$(dirname "$0")/lib.bash"
rm -rf "$tmp/out"
tools/qemu-run -t "${QEMU_TIMEOUT:-120}" --smp 4 -o "$tmp/out" -- \
	--pmu=sim:icx stat -a -A -e cycles,instructions soak >"$tmp/console" 2>&1
rc=$?
cat "$tmp/console"
expect_rc 0
for cpu in 0 1 2 3; do
	n=$(grep -c "^CPU$cpu .*[1-9][0-9,]* *cycles" "$tmp/console")
	[ "$n" -eq 1 ] || fail "no cycles counted on CPU $cpu"
done
tools/qemu-run -t "${QEMU_TIMEOUT:-120}" --smp 4 -o "$tmp/out" -- \
	--pmu=sim:icx stat -a -e cycles soak >"$tmp/console" 2>&1
rc=$?
cat "$tmp/console"
expect_rc 0
expect_console "Performance counter stats for 'system wide'"
grep -q "^CPU" "$tmp/console" && fail "-a without -A printed per-CPU lines"
echo PASS
