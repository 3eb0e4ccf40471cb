# A network boot (issue 37 item 1): OVMF boots the image by PXE from
# QEMU's user network (tools/qemu-run --net-boot pxe) or by UEFI HTTP boot
# (--net-boot http), the image reads its command line from
# bareperf/cmdline beside it on the TFTP or HTTP server, keeps
# its files in memory (the boot device has no file system), and
# `record -o serial` brings perf.data back over the serial line, rebuilt
# by qemu-run into the output folder. Before, the image found no command
# line ("no command given") and could write nothing.
. "$(dirname "$0")/lib.bash"
export QEMU_TIMEOUT=180
start=$(date +%s.%N)
QEMU_RUN_OPTS="--net-boot pxe" qemu --results --pmu=sim:icx record -q -c 100003 -o serial soak -n 2000000
end=$(date +%s.%N)
expect_rc 0
grep -aq 'starting Boot[0-9]* "UEFI PXEv4' "$tmp/out/serial.log" || fail "the firmware did not boot by PXE"
expect_console "the boot device has no file system (a network boot): files are kept in memory"
expect_console "BPRESULT record.sent pass"
[ -f "$tmp/out/perf.data" ] || fail "qemu-run did not rebuild perf.data from the serial log"
samples=$(perf script -i "$tmp/out/perf.data" -F ip 2>/dev/null | wc -l)
[ "$samples" -gt 100 ] || fail "perf script read $samples samples from the file sent"
awk -v s="$start" -v e="$end" -v b="$(stat -c %s "$tmp/out/perf.data")" -v n="$samples" 'BEGIN {
	printf "figure: PXE boot to perf.data back on the host: %.1f s (%d bytes, %d samples)\n", e - s, b, n }'

# UEFI HTTP boot: OVMF loads the image from tools/http-sink (QEMU's DHCP
# names its URL), and the image fetches bareperf/cmdline beside it by HTTP.
QEMU_RUN_OPTS="--net-boot http" qemu --pmu=sim:icx record -q -c 100003 -o serial soak -n 2000000
expect_rc 0
grep -aq 'starting Boot[0-9]* "UEFI HTTPv4' "$tmp/out/serial.log" || fail "the firmware did not boot by HTTP"
n=$(perf script -i "$tmp/out/perf.data" -F ip 2>/dev/null | wc -l)
[ "$n" -gt 100 ] || fail "perf read $n samples from what an HTTP-booted image sent"

# The line from the server is the image's line: its errors name it.
printf -- '--qemu-exit %4096s\n' x >"$tmp/long"
QEMU_RUN_OPTS="--net-boot pxe --cmdline-file $tmp/long" qemu
expect_rc 2
expect_console "the command line (tftp://10.0.2.2/bareperf/cmdline) is longer than 2047 characters"

# Without -o serial the recording stays in memory, and the note says how
# to bring it back; nothing comes back.
QEMU_RUN_OPTS="--net-boot pxe" qemu --pmu=sim:icx record -q -c 100003 soak -n 200000
expect_rc 0
expect_console "-o serial or \`bareperf send\` brings them back"
[ -e "$tmp/out/perf.data" ] && fail "a file that was never sent came back"
QEMU_RUN_OPTS="--net-boot pxe" qemu send perf.data
expect_rc 2
expect_console "bareperf send: perf.data: no such file (the output folder is in memory)"
# PXE-booted, the recording in memory goes to an HTTP server on the host.
mkdir -p "$tmp/srv"
tools/http-sink "$tmp/srv" "$tmp/srv/port" ok &
sink_pid=$!
trap 'kill "$sink_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/srv/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/srv/port")
QEMU_RUN_OPTS="--net-boot pxe" qemu --pmu=sim:icx record -q -c 100003 -o "http://10.0.2.2:$port/pxe.data" soak -n 2000000
expect_rc 0
expect_console "sent pxe.data to http://10.0.2.2:$port/pxe.data"
n=$(perf script -i "$tmp/srv/pxe.data" -F ip 2>/dev/null | wc -l)
[ "$n" -gt 100 ] || fail "perf read $n samples from the file a PXE-booted image sent over HTTP"
echo "net_boot: all checks passed"
