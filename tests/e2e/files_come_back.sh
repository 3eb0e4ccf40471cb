# A file the image writes on the ESP comes back in the output folder: the
# console transcript, with what the image printed.
. "$(dirname "$0")/lib.bash"
qemu --version
expect_rc 0
[ -f "$tmp/out/console.log" ] || fail "no console.log came back"
grep -q "bareperf 0." "$tmp/out/console.log" || fail "console.log lacks the version line"
[ -s "$tmp/out/serial.log" ] || fail "no serial.log"
