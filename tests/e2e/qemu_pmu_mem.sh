# Memory sampling on the real path, on the QEMU PMU (icx): chase's loads
# sampled with PEBS carry data addresses inside chase's working set, and
# the QEMU cost model's latency and data source (memory: 200 cycles, local
# DRAM).
. "$(dirname "$0")/lib.bash"
size=4194304
qemu_pmu icx record -e mem_load_retired.l3_miss:p -c 1009 chase --size $size --steps 2000000
expect_rc 0
mkdir -p "$tmp/home"
HOME=$tmp/home perf script -F ip,sym,addr,weight,data_src -i "$tmp/out/perf.data" --symfs build \
	>"$tmp/script" 2>"$tmp/script.err" || { cat "$tmp/script.err"; fail "perf script failed"; }
head -3 "$tmp/script"
n=$(grep -c chase_walk "$tmp/script")
[ "$n" -gt 500 ] || fail "only $n samples in chase_walk"
grep -q "RAM hit" "$tmp/script" || fail "no data source decoded as RAM"
# The data addresses of chase_walk's samples: all within one span of at
# most the working set's size, and spread over most of it.
grep chase_walk "$tmp/script" | awk '{ print $1 }' | grep -E '^[0-9a-f]+$' >"$tmp/addr"
span=$(python3 -c "
import sys
a = [int(l, 16) for l in open('$tmp/addr')]
print(max(a) - min(a), len(a))")
echo "data addresses: span ${span% *} bytes over ${span#* } samples"
[ "${span% *}" -lt $size ] || fail "addresses span ${span% *} bytes, more than the $size-byte working set"
[ "${span% *}" -gt $((size / 2)) ] || fail "addresses span only ${span% *} bytes of $size"
# Load latency on Sapphire Rapids (spr), whose facility reports a load's
# latency and data source only while the auxiliary event counts beside it
# (Linux: PMU_FL_MEM_LOADS_AUX; the model gives 0 without it): bareperf
# adds mem-loads-aux to the event's group, says so, and every sample has
# its weight.
qemu_pmu spr record -e MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32:pp -c 1009 chase
expect_rc 0
expect_console "mem-loads-aux added to the group of MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32:pp"
weights=$(HOME=$tmp/home perf script -i "$tmp/out/perf.data" -F weight 2>/dev/null |
	awk '{ n++; if ($1 == 0) z++ } END { print n + 0, z + 0 }')
echo "load latency on spr: ${weights% *} samples, ${weights#* } without a weight"
[ "${weights% *}" -gt 1000 ] && [ "${weights#* }" -eq 0 ] ||
	fail "load-latency samples on spr: ${weights% *}, of them ${weights#* } without a weight"
