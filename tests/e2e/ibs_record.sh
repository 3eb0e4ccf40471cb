# AMD IBS end to end on the host twin's emulated Zen 4: `record -e
# ibs_op//,ibs_fetch//` and `cycles:pp` (sampled through ibs_op, as Linux
# forwards it) write a perf.data that perf reads without a warning, its
# samples named by soak's functions in soak's proportions; `perf report -D`
# decodes each sample's IBS registers with its AMD decoder (the ibs_op and
# ibs_fetch PMU mappings, PERF_SAMPLE_RAW in perf_ibs_handle_irq's order);
# chase's loads carry the level they were served from, as perf report
# --sort mem and perf mem report read it; a CPU without IBS refuses the
# event with the reason.
. "$(dirname "$0")/lib.bash"
bin=build/host/bareperf
[ -x "$bin" ] || fail "no host twin at $bin (make host)"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
export HOME=$tmp/home

record() {	# record EVENTS: into $tmp/out/perf.data, console in $tmp/console
	BAREPERF_OUT=$tmp "$bin" --pmu=sim:zen4 record -o "$tmp/out/perf.data" -e "$1" soak \
		>"$tmp/console" 2>&1 || { cat "$tmp/console"; fail "record -e $1 failed"; }
	grep -q "IBS: .* 0 lost" "$tmp/console" || { cat "$tmp/console"; fail "IBS lost samples"; }
}
mkdir -p "$tmp/out"

record "ibs_op//,ibs_fetch//"
perf report -D -i "$tmp/out/perf.data" >"$tmp/dump" 2>"$tmp/dump.err"
ops=$(grep -c '^ibs_op_ctl:.* En 1 Val 1' "$tmp/dump")
fetches=$(grep -c '^ibs_fetch_ctl:.* En 1 Val 1' "$tmp/dump")
rips=$(grep -c '^IbsOpRip:' "$tmp/dump")
[ "$ops" -gt 1000 ] && [ "$fetches" -gt 1000 ] ||
	fail "perf decoded $ops op and $fetches fetch samples"
[ "$rips" -eq "$ops" ] || fail "$rips IbsOpRip lines for $ops op samples"
grep -q "pmu mappings: ibs_op = .*ibs_fetch = " <(perf report --header-only -i "$tmp/out/perf.data") ||
	fail "HEADER_PMU_MAPPINGS lacks ibs_op/ibs_fetch"
echo "perf report -D: $ops ibs_op and $fetches ibs_fetch samples decoded"

for ev in "ibs_op//" "cycles:pp"; do
	record "$ev"
	# The host twin's symbols are in its own binary: no --symfs.
	perf report --stdio --no-children -i "$tmp/out/perf.data" >"$tmp/report" 2>"$tmp/report.err" ||
		fail "perf report failed"
	[ ! -s "$tmp/report.err" ] || fail "perf warned: $(cat "$tmp/report.err")"
	expect_shares 8
	echo "$ev: soak_hot $(share soak_hot) %, soak_warm $(share soak_warm) %"
done

# Data sources (issue 33 item 3): chase walks a buffer that fits in L1,
# L2, L3 or none; the model's IBS ops load from where the workload's
# profile says, and perf reads the level from the samples' data source
# (pmu/ibs_datasrc.c, Linux perf_ibs_get_mem_lvl): the heaviest row of
# perf report --mem-mode --sort mem names it, and perf mem report reads
# the file.
for level in "16384:L1 or L1 hit" "524288:L2 or L2 hit" "4194304:L3 or L3 hit" \
	     "67108864:Local RAM or RAM hit"; do
	size=${level%%:*} want=${level#*:}
	BAREPERF_OUT=$tmp "$bin" --pmu=sim:zen4 record -o "$tmp/out/perf.data" -e ibs_op// \
		chase --size "$size" >"$tmp/console" 2>&1 || { cat "$tmp/console"; fail "record chase --size $size failed"; }
	perf report --stdio --mem-mode --sort mem -i "$tmp/out/perf.data" >"$tmp/mem" 2>"$tmp/mem.err" ||
		fail "perf report --sort mem failed: $(cat "$tmp/mem.err")"
	top=$(grep -v '^#' "$tmp/mem" | grep '%' | grep -v ' N/A' | head -1 | sed 's/^ *[0-9.]*% *//; s/ *$//')
	echo "chase --size $size: perf report --sort mem: $(grep -v '^#' "$tmp/mem" | grep '%' | head -2 | tr -s ' ' | tr '\n' ';')"
	[ "$top" = "$want" ] || fail "chase --size $size: the loads' level is '$top', expected '$want'"
done
HOME=$tmp/home perf mem report --stdio -i "$tmp/out/perf.data" >"$tmp/memr" 2>&1 ||
	{ cat "$tmp/memr"; fail "perf mem report failed"; }
grep -q "Local RAM or RAM hit .*chase_walk" "$tmp/memr" || { head -30 "$tmp/memr"; fail "perf mem report lacks chase_walk's RAM loads"; }

out=$("$bin" --pmu=sim:icx record -o "$tmp/x.data" -e ibs_op// soak 2>&1) && fail "ibs_op// on icx was accepted"
grep -q "CPUID.80000001H:ECX\[10\] = 0" <<<"$out" || fail "no reason on icx: $out"
echo "PASS: IBS samples recorded, read and decoded by perf; refused without IBS"
