# Diamond Rapids on the QEMU PMU (dmr: Panther Cove, display family 19;
# Architectural PEBS; load data sources in the OMR encoding, decoded as
# Linux's pnc_latency_data does) against Sapphire Rapids (spr: adaptive
# PEBS through the DS area) on the same workloads: the differential test of
# the two PEBS engines in a machine. icount makes the guest's instruction
# stream the same on every run, not the instant each timer interrupt lands
# in it, so shares move a little from one run to the next (below).
. "$(dirname "$0")/lib.bash"
qemu_pmu dmr info
expect_rc 0
expect_console "family 0x13 model 0x1 stepping 0x0 (signature 0x00400f10)"
expect_console "architecture: intel-arch-pebs (precise sampling: Architectural PEBS)"
qemu_pmu dmr list
expect_console "Events of dmr: Diamond Rapids (Panther Cove), from Linux's tables"

# Counting through the perfmon v6 block: soak's 8 instructions and one
# branch per iteration, exact but for bareperf's own few.
n=1000000
qemu_pmu dmr stat -e instructions,branches soak -n $n
expect_rc 0
ins=$(count instructions)
br=$(count branches)
[ -n "$ins" ] && [ "$ins" -ge $((8 * n)) ] && [ "$ins" -le $((8 * n + 8 * n / 100)) ] ||
	fail "dmr: $ins instructions for soak -n $n, expected 8 x $n + < 1 %"
[ -n "$br" ] && [ "$br" -ge "$n" ] && [ "$br" -le $((n + n / 50)) ] ||
	fail "dmr: $br branches for soak -n $n"

# soak's split: each function's share of soak's samples within 0.1 point
# of spr's (about 20,000 samples each: at 2,000 the two runs of one model
# already differ by 0.1 point).
declare -A soak
for m in spr dmr; do
	qemu_pmu $m record -e instructions:pp -c 2003 soak -n 5000000
	expect_rc 0
	[ "$(samples)" -ge 19000 ] || fail "$m: only $(samples) PEBS samples"
	report
	for f in soak_hot soak_warm soak_cool soak_cold; do
		soak[$m.$f]=$(share $f)
	done
done
for f in soak_hot soak_warm soak_cool soak_cold; do
	awk -v a="${soak[spr.$f]}" -v b="${soak[dmr.$f]}" 'BEGIN { d = a - b; exit !(d <= 0.1 && d >= -0.1) }' ||
		fail "$f: ${soak[spr.$f]} % on spr, ${soak[dmr.$f]} % on dmr (more than 0.1 point apart)"
done

# Loads: chase's 32 MiB chain misses to memory (200 cycles) or hits the
# LLC (40); perf reads dmr's OMR sources as the same levels as spr's, in
# the same shares: about 3,600 samples each, so within 3 points (one run
# to the next moves a share by about 1).
declare -A lvl
for m in spr dmr; do
	qemu_pmu $m record -e MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:pp -c 211 chase --size 33554432 --steps 200000
	expect_rc 0
	HOME=$tmp/home perf script -i "$tmp/out/perf.data" -F weight,data_src >"$tmp/mem" 2>/dev/null ||
		fail "$m: perf script -F weight,data_src failed"
	n=$(wc -l <"$tmp/mem")
	[ "$n" -ge 3000 ] || fail "$m: only $n load samples"
	ram=$(grep -c "LVL Local RAM or RAM hit" "$tmp/mem")
	l3=$(grep -c "LVL L3 or L3 hit" "$tmp/mem")
	[ $((ram + l3)) -eq "$n" ] || fail "$m: $((n - ram - l3)) of $n loads neither RAM nor L3: $(grep -v "RAM hit\|L3 hit" "$tmp/mem" | head -2)"
	! awk '/RAM hit/ && $NF != 200 || /L3 hit/ && $NF != 40' "$tmp/mem" | grep -q . ||
		fail "$m: a load's latency is not its level's"
	lvl[$m]=$(awk -v r="$ram" -v n="$n" 'BEGIN { printf "%.2f", 100 * r / n }')
done
awk -v a="${lvl[spr]}" -v b="${lvl[dmr]}" 'BEGIN { d = a - b; exit !(d <= 3 && d >= -3) }' ||
	fail "memory's share of the loads: ${lvl[spr]} % on spr, ${lvl[dmr]} % on dmr"
echo "PASS: dmr (Architectural PEBS, OMR data sources): stat $ins instructions, $br branches; against spr (adaptive PEBS): soak_hot ${soak[spr.soak_hot]}/${soak[dmr.soak_hot]} %, soak_cold ${soak[spr.soak_cold]}/${soak[dmr.soak_cold]} %; loads from memory ${lvl[spr]}/${lvl[dmr]} %"
