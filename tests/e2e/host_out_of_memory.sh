# Out of memory is a failure (exit 1) with a message naming what could not
# be allocated, never a usage error. The host twin runs
# under shrinking address-space limits (ulimit -v): at every limit where
# it starts at all, record and bench either succeed or fail with exit 1
# and a "cannot allocate" message; at least one limit must make them fail.
. "$(dirname "$0")/lib.bash"
bin=build/host/bareperf
[ -x "$bin" ] || fail "no host twin at $bin (make host)"
failed_cleanly=0
for kib in 3500 4000 4500 5000 6000 8000; do
	for cmd in "record -o $tmp/oom.data soak -n 100000" "bench overhead --periods 100003 --runs 1 --workload soak -n 100000"; do
		# shellcheck disable=SC2086
		out=$(BAREPERF_OUT=$tmp prlimit --as=$((kib * 1024)) -- "$bin" --pmu=sim:icx $cmd 2>&1)
		rc=$?
		[ "$rc" -eq 127 ] && continue	# the loader itself could not map libc
		[ "$rc" -eq 0 ] && continue
		[ "$rc" -eq 1 ] || fail "--as $kib KiB, '$cmd': exit $rc, expected 1: $(tail -2 <<<"$out")"
		grep -q "cannot allocate" <<<"$out" ||
			fail "--as $kib KiB, '$cmd': exit 1 without naming the allocation: $(tail -2 <<<"$out")"
		failed_cleanly=$((failed_cleanly + 1))
	done
done
[ "$failed_cleanly" -gt 0 ] || fail "no address-space limit made the host twin run out of memory"
echo "PASS: $failed_cleanly out-of-memory runs exited 1 with the allocation named"
