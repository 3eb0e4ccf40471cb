# \bareperf\cmdline in the encodings the tools on the target machine write
# (issue 39): UCS-2/UTF-16LE as the UEFI shell's `echo ... > FILE` writes
# it, with its BOM or without, and UTF-8 with a BOM. Before, the file was
# read as bytes: "unknown command '??-'", --qemu-exit unseen, QEMU waited
# for its timeout (exit 124 here).
. "$(dirname "$0")/lib.bash"
export QEMU_TIMEOUT=60
said() { grep -qF -- "$1" "$tmp/console" || fail "console lacks '$1'"; }
boot() {	# boot BOM ENCODING TEXT: TEXT in ENCODING after the bytes BOM
	{ printf "$1"; printf '%s\r\n' "$3" | iconv -f UTF-8 -t "$2"; } >"$tmp/cmdline"
	QEMU_RUN_OPTS="--cmdline-file $tmp/cmdline" qemu
}
boot '\xff\xfe' UTF-16LE '--qemu-exit --version'
expect_rc 0
said "bareperf 0."
boot '' UTF-16LE '--qemu-exit --version'
expect_rc 0
said "bareperf 0."
boot '\xef\xbb\xbf' UTF-8 '--qemu-exit --version'
expect_rc 0
said "bareperf 0."
# A character bareperf cannot represent: named with the encoding, nothing
# run, and QEMU still ends.
boot '\xff\xfe' UTF-16LE '--qemu-exit info 中'
expect_rc 2
said 'bareperf: the command line (\bareperf\cmdline, read as UTF-16LE): U+4E2D at character 18 is outside ASCII/Latin-1, which bareperf cannot represent; nothing was run'
# A line error names the encoding too.
boot '\xff\xfe' UTF-16LE '--qemu-exit stat "soak'
expect_rc 2
said 'bareperf: unterminated quote on the command line (\bareperf\cmdline, read as UTF-16LE); nothing was run'
