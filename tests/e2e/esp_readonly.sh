# On a write-protected ESP (tools/qemu-run --esp-readonly) the image still
# reads \bareperf\cmdline and runs every command that writes nothing; one
# that must write says the volume is read-only (issue 39). Before, every
# file open, reads included, first created \bareperf with write access:
# the image printed "no command given" and waited for the firmware's
# timeout.
. "$(dirname "$0")/lib.bash"
export QEMU_TIMEOUT=90
said() { grep -qF -- "$1" "$tmp/console" || fail "console lacks '$1'"; }
# A recording to read back, made by the host twin.
BAREPERF_OUT=$tmp/host build/host/bareperf --pmu=sim:icx record -q -c 100003 -o keep.data \
	soak -n 2000000 >/dev/null || fail "the host twin could not record"
export QEMU_RUN_OPTS="--esp-readonly --add $tmp/host/keep.data"
qemu info
expect_rc 0
said "perfmon:"
said 'bareperf: \bareperf\console.log was not saved: EFI_WRITE_PROTECTED: the volume is read-only'
qemu --pmu=sim:icx stat -e instructions soak -n 20000
expect_rc 0
said "instructions"
# The other commands that write nothing (the issue names them all).
qemu --pmu=sim:icx list
expect_rc 0
said "inst_retired.any"
qemu --pmu=sim:icx sched -e cycles,instructions,branches
expect_rc 0
said "cycles"
qemu --pmu=sim:icx selftest
expect_rc 0
said "selftest"
qemu --pmu=sim:icx msr 0x38f
expect_rc 0
said "0x38f"
qemu report -i keep.data
expect_rc 0
said "# bareperf report of keep.data"
qemu --pmu=sim:icx record -q -o new.data soak -n 20000
expect_rc 1
said "bareperf record: cannot create new.data: EFI_WRITE_PROTECTED: the volume is read-only"
qemu --pmu=sim:icx record -q -o keep.data soak -n 20000
expect_rc 1
said "bareperf record: cannot move the previous keep.data to keep.data.old (EFI_WRITE_PROTECTED: the volume is read-only)"
