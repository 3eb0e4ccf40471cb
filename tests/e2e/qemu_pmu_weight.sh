# record -W on Architectural PEBS (ptl's P-core, on the QEMU PMU): each
# sample's weight is perf's union perf_sample_weight
# (PERF_SAMPLE_WEIGHT_STRUCT, as perf record -W writes it on x86): the
# load's cache latency in var1, the instruction latency of the aux group
# in var2 (perf's ins_lat) and the basic group's retire latency in var3
# (Linux setup_arch_pebs_sample_data). perf 6.1 shows var1 and var2; it
# has no x86 view of var3, so the test reads the file itself (weights
# below). The model's loads cost 40 cycles (LLC) or 200 (memory), and a
# load's instruction and retire latency are its level's (sim/README.md).
# Without -W the attr has PERF_SAMPLE_WEIGHT alone: the load latency.
. "$(dirname "$0")/lib.bash"
# weights PERF.DATA: "sample_type 0x..", then "var1 A var2 B var3 C: N
# samples" per distinct weight (one attr, no read or branch fields).
weights() {
	python3 - "$1" <<'PY'
import struct, sys, collections
f = open(sys.argv[1], "rb").read()
magic, hsize, attr_size = struct.unpack_from("<8sQQ", f, 0)
assert magic == b"PERFILE2", magic
a_off, a_size, d_off, d_size = struct.unpack_from("<QQQQ", f, 24)
types = set()
for at in range(a_off, a_off + a_size, attr_size):
    types.add(struct.unpack_from("<Q", f, at + 24)[0])
assert len(types) == 1, types
t = types.pop()
print("sample_type 0x%x" % t)
order = [(1 << 16, 8), (1 << 0, 8), (1 << 1, 8), (1 << 2, 8), (1 << 3, 8), (1 << 6, 8), (1 << 9, 8), (1 << 7, 8), (1 << 8, 8)]
c = collections.Counter()
at = d_off
while at < d_off + d_size:
    typ, misc, size = struct.unpack_from("<IHH", f, at)
    if typ == 9:
        p = at + 8
        for bit, n in order:
            if t & bit:
                p += n
        assert not t & (1 << 4)
        if t & (1 << 5):
            nr = struct.unpack_from("<Q", f, p)[0]; p += 8 + 8 * nr
        if t & (1 << 10):
            rs = struct.unpack_from("<I", f, p)[0]; p += 4 + rs
        assert not t & ((1 << 11) | (1 << 12) | (1 << 13))
        if t & ((1 << 14) | (1 << 24)):
            w = struct.unpack_from("<Q", f, p)[0]
            c[(w & 0xFFFFFFFF, w >> 32 & 0xFFFF, w >> 48)] += 1
    at += size
for k, v in sorted(c.items()):
    print("var1 %d var2 %d var3 %d: %d samples" % (k + (v,)))
PY
}
events="MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:pp"
run="-c 1009 chase --size 33554432 --steps 200000"
qemu_pmu ptl record -W -e $events $run
expect_rc 0
weights "$tmp/out/perf.data" >"$tmp/weights" || fail "the perf.data could not be read: $(cat "$tmp/weights")"
cat "$tmp/weights"
grep -q "^sample_type 0x1......$" "$tmp/weights" || fail "-W: no PERF_SAMPLE_WEIGHT_STRUCT in the attr"
type=$(sed -n 's/^sample_type //p' "$tmp/weights")
[ $((type & 0x4000)) -eq 0 ] || fail "-W: PERF_SAMPLE_WEIGHT beside _WEIGHT_STRUCT ($type)"
for level in 40 200; do
	n=$(sed -n "s/^var1 $level var2 $level var3 $level: \([0-9]*\) samples/\1/p" "$tmp/weights")
	[ "${n:-0}" -ge 100 ] || fail "-W: no loads of $level cycles with instruction and retire latency $level"
done
! grep -v "^sample_type" "$tmp/weights" | grep -qv "^var1 \(40\|200\) var2 \1 var3 \1:" ||
	fail "-W: a sample whose latencies disagree with the model's"
# perf reads var1 as weight and var2 as ins_lat
HOME=$tmp/home perf script -i "$tmp/out/perf.data" -F weight,ins_lat >"$tmp/script" 2>/dev/null ||
	fail "perf script -F weight,ins_lat failed"
! awk '$1 != $2 || ($1 != 40 && $1 != 200)' "$tmp/script" | grep -q . ||
	fail "perf script: weight and ins_lat differ: $(awk '$1 != $2' "$tmp/script" | head -3)"
with=$(wc -l <"$tmp/script")

qemu_pmu ptl record -e $events $run
expect_rc 0
weights "$tmp/out/perf.data" >"$tmp/weights"
type=$(sed -n 's/^sample_type //p' "$tmp/weights")
[ $((type & 0x4000)) -ne 0 ] && [ $((type & 0x1000000)) -eq 0 ] ||
	fail "without -W: sample_type $type, expected PERF_SAMPLE_WEIGHT alone"
! grep -v "^sample_type" "$tmp/weights" | grep -qv "^var1 \(40\|200\) var2 0 var3 0:" ||
	fail "without -W: a weight carries more than the load latency"
echo "PASS: record -W: $with load samples with cache, instruction and retire latency (40 or 200 cycles each) in PERF_SAMPLE_WEIGHT_STRUCT; without -W the load latency alone"
