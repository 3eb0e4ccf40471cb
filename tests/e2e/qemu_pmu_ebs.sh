# An OS loader under record, on the real path on the QEMU PMU (icx).
# tests/efi/ebs.efi spins, then calls ExitBootServices and, as an OS
# would, reads the PMU, the DS area, LVT PC and IDT gate 0xF0 (to COM1).
# bareperf ends the recording inside that call, while boot services still
# work (perf.data written, with the loader's samples), and gives
# everything back first: the loader then finds IA32_PERF_GLOBAL_CTRL,
# IA32_PEBS_ENABLE and IA32_DS_AREA as the firmware has them (read with
# `msr` in another boot), LVT PC masked and gate 0xF0 no longer bareperf's:
# PEBS cannot write into memory the OS owns.
. "$(dirname "$0")/lib.bash"
make efi >/dev/null || fail "make efi"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
qemu_pmu icx msr 0x38f 0x3f1 0x600
expect_rc 0
fw() { awk -v m="$1" '$2 == m { print $3 }' "$tmp/console"; }
fw_ctrl=$(fw 0x38f) fw_pebs=$(fw 0x3f1) fw_ds=$(fw 0x600)
echo "firmware: GLOBAL_CTRL=$fw_ctrl PEBS_ENABLE=$fw_pebs DS_AREA=$fw_ds"
[ -n "$fw_ctrl" ] && [ -n "$fw_pebs" ] && [ -n "$fw_ds" ] || fail "msr did not read the firmware's values"

rm -rf "$tmp/out"
tools/qemu-run --pmu icx -t "${QEMU_TIMEOUT:-240}" -o "$tmp/out" --add build/tests/ebs.efi -- \
	record -e instructions:pp -c 10007 -- '\bareperf\ebs.efi' >"$tmp/console" 2>&1
rc=$?
cat "$tmp/console"
expect_rc 0	# the loader's own exit through isa-debug-exit
expect_console "the application called ExitBootServices: the recording ends here"
expect_console 'wrote perf.data'
serial=$tmp/out/serial.log
grep -a "^ebs:" "$serial" | tr -d '\r' | tee "$tmp/ebs"
grep -q "boot services exited after" "$tmp/ebs" || fail "the loader did not get past ExitBootServices"
field() { sed -n "s/^ebs: $1: .*$2=\(0x[0-9a-f]*\).*/\1/p" "$tmp/ebs"; }
[ "$(field after GLOBAL_CTRL)" = "$fw_ctrl" ] || fail "GLOBAL_CTRL after is $(field after GLOBAL_CTRL), not the firmware's $fw_ctrl"
[ "$(field after PEBS_ENABLE)" = "$fw_pebs" ] || fail "PEBS_ENABLE after is $(field after PEBS_ENABLE), not $fw_pebs"
[ "$(field after DS_AREA)" = "$fw_ds" ] || fail "DS_AREA after is $(field after DS_AREA), not $fw_ds"
[ "$(field before PEBS_ENABLE)" != "$fw_pebs" ] || fail "PEBS was not on while the loader ran"
[ "$(field before DS_AREA)" != "$fw_ds" ] || fail "bareperf's DS area was not in place while the loader ran"
lvt=$(field after LVT_PC)
[ $((lvt & 0x10000)) -ne 0 ] || fail "LVT PC after is $lvt: not masked"
[ "$(field before IDT_F0)" != "$(field after IDT_F0)" ] || fail "IDT gate 0xF0 was not given back"
make_symfs
perf_dso "$tmp/out/perf.data" | tee "$tmp/dso"
top=$(head -1 "$tmp/dso" | awk '{print $2}')
[ "$top" = ebs.efi ] || fail "the loader is not the top dso ($top)"
echo "PASS: recording ended inside ExitBootServices; after it GLOBAL_CTRL=$fw_ctrl PEBS_ENABLE=$fw_pebs DS_AREA=$fw_ds LVT_PC=$lvt"
