# Arguments with blanks survive the trip through the ESP command-line file.
. "$(dirname "$0")/lib.bash"
qemu "info" "two words"
expect_rc 2
expect_console "unexpected argument 'two words'"
