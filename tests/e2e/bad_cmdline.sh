# A bad command line exits non-zero with a message naming what was wrong.
. "$(dirname "$0")/lib.bash"
qemu no-such-command
expect_rc 2
expect_console "unknown command 'no-such-command'"
expect_console "usage: bareperf"
qemu --pmu=bogus info
expect_rc 2
expect_console "expected 'hw', 'sim' or 'sim:MODEL'"
# A line the image cannot take is refused by
# name, and --qemu-exit still ends QEMU (before, the UEFI shell started and
# QEMU waited for its timeout: exit 124 here).
export QEMU_TIMEOUT=120
raw() {	# raw TEXT: boot with TEXT as \bareperf\cmdline, verbatim
	printf '%s\n' "$1" >"$tmp/cmdline"
	QEMU_RUN_OPTS="--cmdline-file $tmp/cmdline" qemu
}
raw '--qemu-exit stat -e "cycles soak'
expect_rc 2
expect_console "unterminated quote on the command line; nothing was run"
raw "--qemu-exit info $(printf 'w%d ' $(seq 1 70))"
expect_rc 2
expect_console "too many words on the command line; nothing was run"
raw "--qemu-exit stat soak -n 20000 $(head -c 2100 /dev/zero | tr '\0' x)"
expect_rc 2
expect_console "is longer than 2047 characters; nothing was run"
# An empty word reaches the image as one (tools/qemu-run used to drop it,
# and -o then took the workload's name for the file).
qemu --pmu=sim:icx record -o "" soak
expect_rc 2
expect_console "-o '': expected a file name"
