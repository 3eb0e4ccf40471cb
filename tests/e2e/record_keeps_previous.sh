# In the image: a wrong command line leaves the previous
# recording on the ESP as it was, and a good one moves it to FILE.old
# (renamed through EFI_FILE_PROTOCOL.SetInfo) before writing the new one.
. "$(dirname "$0")/lib.bash"
head -c 300000 /dev/urandom >"$tmp/keep.data"
export QEMU_RUN_OPTS="--add $tmp/keep.data"
qemu --pmu=sim:icx record -q -o keep.data soak -n 1000
expect_rc 2
expect_console "expected a number from 10000 to"
cmp -s "$tmp/keep.data" "$tmp/out/keep.data" || fail "a typo changed the previous recording"
[ ! -e "$tmp/out/keep.data.old" ] || fail "a typo moved the previous recording"
qemu --pmu=sim:icx record -q -o keep.data -c 100003 soak -n 2000000
expect_rc 0
cmp -s "$tmp/keep.data" "$tmp/out/keep.data.old" || fail "keep.data.old is not the previous recording"
mkdir -p "$tmp/home"
HOME=$tmp/home perf report --stdio -i "$tmp/out/keep.data" --symfs build >"$tmp/report" 2>&1 ||
	fail "perf cannot read the new recording: $(head -5 "$tmp/report")"
grep -q "soak_hot" "$tmp/report" || fail "the new recording has no soak samples"
# A workload that cannot start (stream cannot have 3 x 4 GiB: out of
# memory, a command that failed, exit 1 as README's exit statuses say) records
# nothing: the previous recording stays where it was, twice in a row
# (before, each run moved it to .old and left a 0-sample keep.data: the
# second lost it).
export QEMU_RUN_OPTS="--add $tmp/keep.data"
qemu --pmu=sim:icx record -q -o keep.data stream --size 4294967296
expect_rc 1
expect_console "cannot allocate"
expect_console "nothing recorded (the target did not start): the previous recording is back where it was"
cmp -s "$tmp/keep.data" "$tmp/out/keep.data" || fail "a workload that did not start replaced the previous recording"
[ ! -e "$tmp/out/keep.data.old" ] || fail "a workload that did not start left keep.data.old"
cp "$tmp/out/keep.data" "$tmp/keep2.data"
QEMU_RUN_OPTS="--add $tmp/keep2.data:bareperf/keep.data" qemu --pmu=sim:icx record -q -o keep.data stream --size 4294967296
expect_rc 1
cmp -s "$tmp/keep.data" "$tmp/out/keep.data" || fail "the second failed start lost the previous recording"
# With no previous file, none is left behind.
export QEMU_RUN_OPTS=
qemu --pmu=sim:icx record -q -o none.data stream --size 4294967296
expect_rc 1
expect_console "nothing recorded (the target did not start): no file written"
[ ! -e "$tmp/out/none.data" ] || fail "a workload that did not start left none.data"
