# `record -- bs:NAME LOOPS` samples one boot service in a loop: the
# variable service's time is in the variable driver.
. "$(dirname "$0")/lib.bash"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
qemu --pmu=sim:icx record -c 100003 -- bs:GetVariable 5000
expect_rc 0
expect_console "GetVariable called 5000 times"
make_symfs
perf_dso "$tmp/out/perf.data" | tee "$tmp/dso"
top=$(head -1 "$tmp/dso" | awk '{print $2}')
[ "$top" = VariableRuntimeDxe.efi ] || fail "top dso is $top, not VariableRuntimeDxe.efi"
qemu --pmu=sim:icx record -- bs:Nope
expect_rc 2
expect_console "unknown boot service 'Nope'"
