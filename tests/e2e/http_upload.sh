# Results off the machine over HTTP (issue 37 item 2): `record -o
# http://HOST[:PORT]/PATH` records PATH's last part into the output folder
# and PUTs it through the firmware's HTTP stack (DHCP on QEMU's user
# network) to a test server on the host's loopback (10.0.2.2 to the
# guest); the file received is byte-identical to the ESP copy and read by
# perf. A 500 answer, a dropped connection, nothing listening and no NIC
# each give a clear error naming the step, exit 1, and the ESP copy stays.
# The host twin does the same over a socket.
. "$(dirname "$0")/lib.bash"
export QEMU_TIMEOUT=150
sink_pid=
serve() {	# serve MODE: a test server, its port in $port
	[ -n "$sink_pid" ] && kill "$sink_pid" 2>/dev/null
	rm -rf "$tmp/srv" && mkdir -p "$tmp/srv"
	tools/http-sink "$tmp/srv" "$tmp/srv/port" "$1" &
	sink_pid=$!
	for _ in $(seq 50); do [ -s "$tmp/srv/port" ] && break; sleep 0.1; done
	port=$(cat "$tmp/srv/port") || fail "the test server did not start"
}
trap '[ -n "$sink_pid" ] && kill "$sink_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
host() { BAREPERF_OUT=$tmp/host build/host/bareperf --pmu=sim:icx "$@" >"$tmp/console" 2>&1; rc=$?; cat "$tmp/console"; }

# The host twin.
serve ok
host record -q -c 100003 -o "http://127.0.0.1:$port/runs/h.data" soak -n 2000000
expect_rc 0
cmp "$tmp/srv/h.data" "$tmp/host/h.data" || fail "host twin: the file received differs from the one written"
expect_console "sent h.data to http://127.0.0.1:$port/runs/h.data"
# stat -o URL: the table the console shows, as a file on the server.
host stat -e instructions -o "http://127.0.0.1:$port/counts/s.txt" soak -n 20000
expect_rc 0
grep -q " instructions" "$tmp/srv/s.txt" || fail "stat -o URL: the server has no counts"
cmp "$tmp/srv/s.txt" "$tmp/host/s.txt" || fail "stat -o URL: the file received differs"
serve fail
host record -q -o "http://127.0.0.1:$port/h.data" soak -n 200000
expect_rc 1
expect_console "h.data was not sent to http://127.0.0.1:$port/h.data: the server answered 500 Internal Server Error; it stays in the output folder as h.data"
serve drop
host record -q -o "http://127.0.0.1:$port/h.data" soak -n 200000
expect_rc 1
expect_console "closed the connection without an HTTP answer"
host record -q -o http://127.0.0.1:1/h.data soak -n 200000
expect_rc 1
expect_console "connecting to 127.0.0.1:1: Connection refused"
host record -o https://lab/x.data soak
expect_rc 2
expect_console "bareperf record: -o https://lab/x.data: only http:// URLs are taken (https needs"
host record -o http://lab:0/x.data soak
expect_rc 2
expect_console "the port is not a number from 1 to 65535"

# The image, through OVMF's HTTP stack.
serve ok
QEMU_RUN_OPTS=--nic qemu --results --pmu=sim:icx record -q -c 10007 -o "http://10.0.2.2:$port/runs/q.data" soak -n 20000000
expect_rc 0
expect_console "BPRESULT record.sent pass"
cmp "$tmp/srv/q.data" "$tmp/out/q.data" || fail "the file received differs from the ESP copy"
samples=$(perf script -i "$tmp/srv/q.data" -F ip 2>/dev/null | wc -l)
[ "$samples" -gt 1000 ] || fail "perf read $samples samples from the file received"
echo "figure: $(grep -o 'sent q.data to [^]]*' "$tmp/console")"
grep -q '^PUT /runs/q.data ' "$tmp/srv/requests.log" || fail "the server logged no PUT"

serve fail
QEMU_RUN_OPTS=--nic qemu --pmu=sim:icx record -q -o "http://10.0.2.2:$port/f.data" soak -n 200000
expect_rc 1
expect_console "f.data was not sent to http://10.0.2.2:$port/f.data: the server answered 500; it stays in the output folder as f.data"
perf script -i "$tmp/out/f.data" -F ip >/dev/null 2>&1 || fail "the ESP copy of a failed upload is not readable"

serve drop
QEMU_RUN_OPTS=--nic qemu --pmu=sim:icx record -q -o "http://10.0.2.2:$port/d.data" soak -n 200000
expect_rc 1
# OVMF says EFI_CONNECTION_RESET while the body is still going out, or
# that no answer came.
expect_console "d.data was not sent to http://10.0.2.2:$port/d.data: "
grep -qE "d.data: (sending to|10.0.2.2:$port gave no HTTP answer:)[^;]*EFI_CONNECTION_(RESET|FIN)" "$tmp/console" ||
	fail "the dropped connection is not named"
[ -s "$tmp/out/d.data" ] || fail "the ESP copy of a dropped upload is gone"

kill "$sink_pid"; sink_pid=
QEMU_RUN_OPTS=--nic qemu --pmu=sim:icx record -q -o "http://10.0.2.2:$port/r.data" soak -n 200000
expect_rc 1
expect_console "r.data was not sent to http://10.0.2.2:$port/r.data: sending to 10.0.2.2:$port: EFI_"
[ -s "$tmp/out/r.data" ] || fail "the ESP copy of a refused upload is gone"

# A NIC on a network with no DHCP server (an empty QEMU hub).
QEMU_RUN_EXTRA="-netdev hubport,id=n0,hubid=0 -device virtio-net-pci,netdev=n0,romfile=" \
	qemu --pmu=sim:icx record -q -o "http://10.0.2.2:$port/a.data" soak -n 200000
expect_rc 1
expect_console "a.data was not sent to http://10.0.2.2:$port/a.data: no IPv4 address: DHCP gave none in 15 s"

qemu --pmu=sim:icx record -q -o "http://10.0.2.2:$port/n.data" soak -n 200000
expect_rc 1
expect_console "n.data was not sent to http://10.0.2.2:$port/n.data: no network device (no EFI_SIMPLE_NETWORK_PROTOCOL)"
echo "http_upload: all checks passed"
