# `record -- bs:NAME LOOPS` samples one boot service in a loop: the
# variable service's time is in the variable driver (VariableRuntimeDxe.efi:
# a firmware-volume name). On the emulated PMU
# and on the real path on the QEMU PMU (icx).
. "$(dirname "$0")/lib.bash"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
make_symfs
# top_dso_is NAME: perf's top dso in $tmp/out/perf.data is NAME.
top_dso_is() {
	perf_dso "$tmp/out/perf.data" | tee "$tmp/dso"
	top=$(head -1 "$tmp/dso" | awk '{print $2}')
	[ "$top" = "$1" ] || fail "top dso is $top, not $1"
}
qemu --pmu=sim:icx record -c 100003 -- bs:GetVariable 5000
expect_rc 0
expect_console "GetVariable called 5000 times"
top_dso_is "VariableRuntimeDxe.efi"
qemu_pmu icx record -c 100003 -- bs:GetVariable 5000
expect_rc 0
expect_console "GetVariable called 5000 times"
top_dso_is "VariableRuntimeDxe.efi"
qemu --pmu=sim:icx record -- bs:Nope
expect_rc 2
expect_console "unknown boot service 'Nope'"
