# `record --connect-all` samples the firmware connecting every driver to
# every controller: `perf report --sort dso` lists several firmware images
# by the names their firmware files carry (DxeCore.efi among them), and
# hotspot's parser names the same images with the same shares (issue 39
# item 19: it left every "[Name.efi]" without a binary name, "??").
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
# The dso rows above 1 %, "SHARE NAME", from perf and from perfparser.
awk '$1 + 0 >= 1 { print $1 + 0, $2 }' "$tmp/dso" | sort >"$tmp/perf.rows"
tools/perfparser-top --by dso --symfs "$tmp/symfs" "$tmp/out/perf.data" 2>/dev/null |
	awk -F'\t' '$1 + 0 >= 1 { print $1 + 0, ($3 == "" ? "??" : $3) }' | sort >"$tmp/pp.rows"
echo "perfparser: $(tr '\n' ';' <"$tmp/pp.rows")"
grep -q "DxeCore.efi" "$tmp/pp.rows" || fail "perfparser names no DxeCore.efi: $(tr '\n' ';' <"$tmp/pp.rows")"
cmp -s "$tmp/perf.rows" "$tmp/pp.rows" ||
	fail "perf and perfparser differ: $(tr '\n' ';' <"$tmp/perf.rows") against $(tr '\n' ';' <"$tmp/pp.rows")"
# perf 6.1 runs addr2line on a mapping with no file unless its name
# starts with '[' (and then dies of SIGPIPE): --sort srcline reads it all.
perf report -i "$tmp/out/perf.data" --symfs "$tmp/symfs" --sort srcline --stdio >/dev/null 2>&1 ||
	fail "perf report --sort srcline failed ($?)"
echo "PASS: $n firmware images with samples"
