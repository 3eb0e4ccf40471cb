# Results off the machine over the serial line (issue 37): `record -o
# serial` and `send` put a file on the console as checksummed frames, and
# tools/serial-extract rebuilds it byte for byte from the saved log, also
# after the log was wrapped at 80 columns with firmware lines between and
# inside the frames; a damaged or missing chunk is named. `--then
# poweroff|reset` ends an unattended run.
. "$(dirname "$0")/lib.bash"
export QEMU_TIMEOUT=120
extract() { tools/serial-extract "$@" >"$tmp/x.out" 2>"$tmp/x.err"; xrc=$?; cat "$tmp/x.out" "$tmp/x.err"; }

qemu --pmu=sim:icx record -q -c 100003 -o serial soak -n 2000000
expect_rc 0
expect_console "BPSEND1 begin size="
expect_console "sent perf.data over the serial line"
grep -q '^BPS1 ' "$tmp/console" && fail "qemu-run printed the chunk lines (they belong in serial.log)"
log=$tmp/out/serial.log
extract "$log" -o "$tmp/back.data"
[ "$xrc" -eq 0 ] || fail "serial-extract failed on the raw log"
cmp "$tmp/back.data" "$tmp/out/perf.data" || fail "the rebuilt perf.data differs from the ESP copy"
samples=$(perf script -i "$tmp/back.data" -F ip 2>/dev/null | wc -l)
[ "$samples" -gt 100 ] || fail "perf script read $samples samples from the rebuilt file"
echo "figure: perf.data $(stat -c %s "$tmp/back.data") bytes, $samples samples, rebuilt whole"
# The line's cost: the frames' characters over 115200 baud (10 bits a
# character), as a lab's console would carry them.
chars=$(grep -a -E '^(BPS1|BPSEND1) ' "$log" | wc -c)
awk -v c="$chars" -v b="$(stat -c %s "$tmp/back.data")" 'BEGIN {
	printf "figure: %d characters of frames for %d bytes (%.1f%%): %.1f s at 115200 baud, %.2f KB/s\n",
		c, b, 100 * b / c, c / 11520, b / (c / 11520) / 1000 }'

# Wrapped at 80 columns, firmware lines between frames and one inside a
# wrapped frame (between its pieces), terminal escapes and CRs kept.
fold -w 80 "$log" | awk 'NR % 7 == 0 { print "BdsDxe: loading Boot0001 \"UEFI QEMU HARDDISK QM00001\" from PciRoot(0x0)/Pci(0x1F,0x2)\r" } { print }' >"$tmp/wrapped.log"
extract "$tmp/wrapped.log" -o "$tmp/wrapped.data"
[ "$xrc" -eq 0 ] || fail "serial-extract failed on the wrapped, interleaved log"
cmp "$tmp/wrapped.data" "$tmp/out/perf.data" || fail "the file rebuilt from the wrapped log differs"

# One character of chunk 5 changed: named, nothing written.
awk '/^BPS1 5 / && !done { sub(/AAAA/, "AABA"); done = 1 } { print }' "$log" >"$tmp/bad.log"
cmp -s "$tmp/bad.log" "$log" && fail "the test did not damage chunk 5"
rm -f "$tmp/bad.data"
extract "$tmp/bad.log" -o "$tmp/bad.data"
[ "$xrc" -eq 1 ] || fail "a damaged chunk gave exit status $xrc, expected 1"
grep -q "chunk 5 is corrupt (CRC-32 [0-9a-f]*, its frame says" "$tmp/x.err" || fail "the damaged chunk is not named"
[ -e "$tmp/bad.data" ] && fail "a file with a damaged chunk was written"
# Chunks 10-12 lost, and the end frame.
awk '!/^BPS1 1[012] / && !/^BPSEND1 end/' "$log" >"$tmp/lost.log"
extract "$tmp/lost.log" -o "$tmp/lost.data"
[ "$xrc" -eq 1 ] || fail "lost chunks gave exit status $xrc, expected 1"
grep -q "chunks 10-12 missing from the log" "$tmp/x.err" || fail "the lost chunks are not named"
grep -q "its end frame is missing" "$tmp/x.err" || fail "the lost end frame is not named"
extract "$tmp/console" -o "$tmp/none.data"
[ "$xrc" -eq 1 ] || fail "qemu-run's console (no chunks) gave exit status $xrc, expected 1"

# send: a file already on the ESP, and a name that is not there.
cp "$tmp/out/perf.data" "$tmp/old.data"
QEMU_RUN_OPTS="--add $tmp/old.data" qemu send old.data
expect_rc 0
extract "$tmp/out/serial.log" -d "$tmp"
cmp "$tmp/old.data" "$tmp/out/old.data" || fail "send: the rebuilt old.data differs"
qemu send nosuch.data
expect_rc 2
expect_console "bareperf send: nosuch.data: EFI_NOT_FOUND"

# selftest --json -o serial: the JSON the console shows, as a file sent.
qemu --pmu=sim:icx selftest --json -o serial counters lvt-mask
expect_rc 0
extract "$tmp/out/serial.log" -d "$tmp"
cmp "$tmp/selftest.json" "$tmp/out/selftest.json" || fail "the rebuilt selftest.json differs from the ESP copy"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert [c["result"] for c in d["checks"]] == ["PASS", "PASS"], d' \
	"$tmp/selftest.json" || fail "selftest.json sent over the line is not the checks' JSON"

# The host twin: frames into $BAREPERF_SERIAL.
rm -rf "$tmp/host" && mkdir -p "$tmp/host"
BAREPERF_OUT=$tmp/host BAREPERF_SERIAL=$tmp/host/serial.log build/host/bareperf --pmu=sim:icx \
	record -q -c 100003 -o serial soak -n 2000000 >/dev/null || fail "the host twin's record -o serial failed"
extract "$tmp/host/serial.log" -o "$tmp/host.data"
cmp "$tmp/host.data" "$tmp/host/perf.data" || fail "the host twin's rebuilt perf.data differs"

# --then poweroff: QEMU powers off by itself; qemu-run takes the status
# from the image's last line. --then reset: the machine boots again.
printf -- '--pmu=sim:icx --then poweroff stat -e instructions soak -n 20000\n' >"$tmp/cmdline"
QEMU_RUN_OPTS="--cmdline-file $tmp/cmdline" qemu
expect_rc 0
expect_console "\[ bareperf: exit status 0; --then poweroff \]"
# A line that cannot be split still powers off, with its usage status.
printf -- '--then=poweroff info "open quote\n' >"$tmp/cmdline"
QEMU_RUN_OPTS="--cmdline-file $tmp/cmdline" qemu
expect_rc 2
expect_console "\[ bareperf: exit status 2; --then poweroff \]"
printf -- '--pmu=sim:icx --then reset stat -e nosuch soak\n' >"$tmp/cmdline"
QEMU_RUN_EXTRA="-action reboot=reset" QEMU_TIMEOUT=20 QEMU_RUN_OPTS="--cmdline-file $tmp/cmdline" qemu
boots=$(grep -c "exit status 2; --then reset" "$tmp/console")
[ "$boots" -ge 2 ] || fail "--then reset: the image ran $boots times in 20 s, expected a reset and another boot"
echo "serial_send: all checks passed"
