# perf annotate shows the source of the .asm workloads (issue 39 item 20):
# NASM writes DW_AT_comp_dir as the source's folder and include names as
# found, so a relative include named workload//workload/loop8.inc, which
# does not exist, and perf annotate showed disassembly alone. Every file
# of every NASM object's line table must exist, and perf annotate of a
# host-twin recording interleaves loop8.inc's lines. soak runs 20 M
# iterations (about 100 ticks of the host twin's 1 kHz drive): at 2 M, ten
# ticks on a busy CI machine once all missed soak_hot, and perf said "the
# data has no samples" for it.
. "$(dirname "$0")/lib.bash"
for o in build/host/obj/workload/*.o build/efi/obj/workload/*.o; do
	case $o in *_loops.o|*_loop.o) ;; *) continue ;; esac
	comp=$(objdump --dwarf=info "$o" | awk '/DW_AT_comp_dir/ { print $NF; exit }')
	while read -r name; do
		path=$name
		[ "${name#/}" = "$name" ] && path=$comp/$name
		[ -f "$path" ] || fail "$o: its line table names $path, which does not exist"
	done < <(objdump --dwarf=rawline "$o" | awk '/File Name Table/ { t = 1; next }
		t && /^ *[0-9]+\t/ { print $NF } t && /^$/ { t = 0 }')
done
BAREPERF_OUT=$tmp build/host/bareperf --pmu=sim:icx record -c 100003 -o a.data soak -n 20000000 \
	>"$tmp/rec" 2>&1 || { cat "$tmp/rec"; fail "record failed"; }
(cd "$tmp" && HOME=$tmp timeout 120 perf annotate --stdio -i a.data soak_hot) >"$tmp/ann" 2>&1
grep -q "imul rax, rax, 3" "$tmp/ann" || { head -40 "$tmp/ann"; fail "perf annotate soak_hot shows no loop8.inc source line"; }
grep -q "imul   \$0x3,%rax,%rax" "$tmp/ann" || fail "perf annotate shows no disassembly"
echo "PASS: the NASM line tables name existing files; perf annotate soak_hot shows loop8.inc"
