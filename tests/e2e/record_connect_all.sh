# `record --connect-all` samples the firmware connecting every driver to
# every controller: `perf report --sort dso` lists several firmware images
# by the names their firmware files carry (DxeCore.efi among them).
. "$(dirname "$0")/lib.bash"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
qemu --pmu=sim:icx record -c 100003 --connect-all
expect_rc 0
expect_console "ConnectController on [0-9]* handles"
make_symfs
perf_dso "$tmp/out/perf.data" | tee "$tmp/dso"
grep -q "DxeCore.efi" "$tmp/dso" || fail "no samples in DxeCore.efi"
n=$(grep -c '\.efi' "$tmp/dso")
[ "$n" -ge 3 ] || fail "samples in only $n firmware images"
perf script -i "$tmp/out/perf.data" --show-mmap-events 2>/dev/null | grep -c 'MMAP2.*Dxe\.efi' >"$tmp/n"
[ "$(cat "$tmp/n")" -ge 20 ] || fail "only $(cat "$tmp/n") *Dxe.efi images mapped"
echo "PASS: $n firmware images with samples"
