# A bad command line exits non-zero with a message naming what was wrong.
. "$(dirname "$0")/lib.bash"
qemu no-such-command
expect_rc 2
expect_console "unknown command 'no-such-command'"
expect_console "usage: bareperf"
qemu --pmu=bogus info
expect_rc 2
expect_console "expected 'hw', 'sim' or 'sim:MODEL'"
