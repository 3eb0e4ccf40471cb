# Load-latency sampling in QEMU: PEBS memory records of the chase workload
# carry data addresses, weights (latency) and data sources that perf script
# and perf mem report show.
. "$(dirname "$0")/lib.bash"
# 32 MiB: beyond the model's 8 MiB L3 (workload/chase.c), served by DRAM
qemu --pmu=sim:icx record -e mem_load_retired.l3_miss:p -c 1009 chase --size 33554432 --steps 2000000
expect_rc 0
[ -s "$tmp/out/perf.data" ] || fail "no perf.data came back"
mkdir -p "$tmp/home"
HOME=$tmp/home perf script -F ip,sym,addr,weight,data_src -i "$tmp/out/perf.data" --symfs build \
	>"$tmp/script" 2>"$tmp/script.err" || { cat "$tmp/script.err"; fail "perf script failed"; }
head -3 "$tmp/script"
[ "$(wc -l <"$tmp/script")" -gt 100 ] || fail "fewer than 100 load samples"
# chase's loads miss the caches and are served by local DRAM in 200 cycles.
grep -q "chase_walk" "$tmp/script" || fail "samples do not resolve to chase_walk"
grep -q "RAM hit" "$tmp/script" || fail "no data source decoded as RAM"
awk '{ for (i = 1; i <= NF; i++) if ($i == "200") found = 1 } END { exit !found }' "$tmp/script" ||
	fail "no sample with weight 200"
awk '$1 ~ /^[0-9a-f]+$/ && $1 != "0" { n++ } END { exit !(n > 100) }' "$tmp/script" ||
	fail "data addresses missing"
HOME=$tmp/home perf mem report --stdio -i "$tmp/out/perf.data" --symfs build >"$tmp/mem" 2>&1 ||
	{ cat "$tmp/mem"; fail "perf mem report failed"; }
grep -q "chase_walk" "$tmp/mem" || { cat "$tmp/mem"; fail "perf mem report lacks chase_walk"; }
