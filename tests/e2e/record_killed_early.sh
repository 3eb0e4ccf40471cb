# QEMU killed at any moment of a recording leaves a
# perf.data that perf reads, with every sample up to the last header
# rewrite (once a second): the header, the event and the mappings are on
# the disk before the first sample (without that, a cut in the first
# second left a 0-byte file). Kills 0.2, 0.5, 1 and 3 s after the emulated
# PMU's banner, the record's first line (the console reaches us about a
# second late, so the first two cuts fall in the recording's first
# second); prints the samples each cut file holds.
. "$(dirname "$0")/lib.bash"
mkdir -p "$tmp/home"
kill_qemu_of() {	# kill_qemu_of PID: SIGKILL the QEMU under that qemu-run
	local t
	t=$(pgrep -P "$1" -x timeout) || return 1
	pkill -KILL -P "$t"
}
for delay in 0.2 0.5 1 3; do
	out=$tmp/out-$delay
	tools/qemu-run -t 200 -o "$out" -- --pmu=sim:icx record -e instructions:pp -c 100003 \
		soak -n 100000000000 >"$tmp/console-$delay" 2>&1 &
	qr=$!
	for _ in $(seq 1 3600); do
		grep -q "EMULATED PMU" "$tmp/console-$delay" && break
		sleep 0.05
	done
	grep -q "EMULATED PMU" "$tmp/console-$delay" ||
		{ kill "$qr"; cat "$tmp/console-$delay"; fail "the record did not start"; }
	sleep "$delay"
	kill_qemu_of "$qr" || fail "no QEMU to kill at $delay s"
	wait "$qr"
	[ -s "$out/perf.data" ] || fail "killed at $delay s: no perf.data, or an empty one"
	HOME=$tmp/home perf script -i "$out/perf.data" --symfs build >"$tmp/script" 2>"$tmp/err" ||
		{ cat "$tmp/err"; fail "killed at $delay s: perf cannot read the file"; }
	! grep -qi "error\|corrupt\|invalid" "$tmp/err" ||
		{ cat "$tmp/err"; fail "killed at $delay s: perf complained"; }
	echo "killed $delay s after the banner: $(stat -c %s "$out/perf.data") bytes, $(wc -l <"$tmp/script") samples readable"
done
