# Every perf.data bareperf writes is read whole by perf's subcommands and
# by hotspot's own parser: perf and hotspot-perfparser name the
# same top symbols (to 0.01 points) on a PEBS recording on the QEMU PMU, a
# PMI-mode -g recording and an -a recording; perf report warns of nothing;
# --sort srcline finishes with the source lines of our functions; the
# header features users' tools need are there (build-ids for perf archive,
# CPU and NUMA topology for c2c and --sort socket, groups, sample times,
# the clock for -F tod, HOSTNAME for data convert and hotspot), and an
# -a file's per-CPU ids, thread and CPU maps.
. "$(dirname "$0")/lib.bash"
command -v perf >/dev/null || fail "perf is missing (tools/install-deps)"
[ -x /usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser ] ||
	fail "hotspot-perfparser is missing (tools/install-deps installs hotspot)"
make_symfs
export HOME=$tmp/home	# perf's build-id cache and config
mkdir -p "$HOME"

# same_top FILE: perf report's top symbols equal perfparser's, to 0.01.
same_top() {
	perf report -i "$1" --symfs "$tmp/symfs" --no-children --stdio --sort sym -g none \
		-F overhead,sym 2>"$tmp/perf.err" | grep -E '^ *[0-9.]+%' |
		awk '{ gsub("%", "", $1); print $1 "\t" $NF }' | sort -t$'\t' -k1,1gr | head -40 >"$tmp/perf.top"
	[ ! -s "$tmp/perf.err" ] || fail "perf report warned: $(cat "$tmp/perf.err")"
	tools/perfparser-top -n 40 --symfs "$tmp/symfs" "$1" 2>"$tmp/pp.err" |
		grep -v '^samples' | awk -F'\t' '{ sub("::.*", "", $2); print $1 "\t" $2 }' >"$tmp/pp.top"
	# perfparser names a function with the ones inlined into it at the
	# address ("percpu_hold_self::on_main_flow_cpu::main_flow_sampler",
	# bareperf's code is C, so "::" is only that); perf names the first.
	# perfparser reads fewer fields than perf 6.1 writes (it warns so of
	# Linux's own files: CPU_TOPOLOGY's core and die ids, SAMPLE_TIME,
	# CLOCKID) and skips EVENT_UPDATE, ID_INDEX, THREAD_MAP and CPU_MAP
	# (69, 73, 74, 78: in perf record's files too). A firmware image has no ELF file
	# ("[firmware/DxeCore.efi", boot/image.c): perfparser says so of each
	# and names it by its basename, as it does a Linux file it cannot find.
	# Anything else is a warning.
	if grep -v "feature not properly read\|unhandled event type \(69\|73\|74\|78\) \|FINISHED_ROUND" "$tmp/pp.err" |
		grep -v "Could not find ELF file for \[firmware/" | grep -q .; then
		fail "perfparser warned: $(cat "$tmp/pp.err")"
	fi
	echo "perf:        $(head -4 "$tmp/perf.top" | tr '\t\n' ' ;')"
	echo "perfparser:  $(head -4 "$tmp/pp.top" | tr '\t\n' ' ;')"
	# The named symbols above 1 % in either, with their shares, to 0.01
	# (perf shows a firmware image's unnamed addresses one by one,
	# perfparser as one [unknown]). A function GCC split or specialised
	# is "f.part.0" (or .isra.N, .constprop.N, .cold) in perf, which names
	# the ELF symbol, and "f" in perfparser, which names the function's
	# DWARF entry: its parts count as f on both sides, and shares summed
	# from two rounded figures may differ by 0.01.
	named_shares "$tmp/perf.top" >"$tmp/perf.big"
	named_shares "$tmp/pp.top" >"$tmp/pp.big"
	[ -s "$tmp/perf.big" ] || fail "no symbol in $1"
	awk -F'\t' 'NR == FNR { perf[$2] = $1; next } { pp[$2] = $1 }
		END {	# (a test "s in a" creates no element; a read a[s] would)
			for (s in perf) if (perf[s] >= 1) big[s] = 1
			for (s in pp) if (pp[s] >= 1) big[s] = 1
			for (s in big) {
				if (!(s in perf) || !(s in pp)) {
					printf "%s: %s %s only; ", s, (s in perf) ? "perf" : "perfparser",
						(s in perf) ? perf[s] : pp[s]
					continue
				}
				d = perf[s] - pp[s]
				if (d > 0.0101 || d < -0.0101)
					printf "%s: perf %s, perfparser %s; ", s, perf[s], pp[s]
			}
		}' "$tmp/perf.big" "$tmp/pp.big" >"$tmp/disagree"
	[ ! -s "$tmp/disagree" ] || fail "perf and perfparser disagree on $1: $(cat "$tmp/disagree")"
}

# named_shares TOP: "SHARE<tab>NAME" with the unnamed rows left out and
# GCC's clone suffixes taken off the names, a name's shares summed.
named_shares() {
	awk -F'\t' '$2 !~ /^\[unknown\]$|^0x/ {
			name = $2
			while (sub(/\.(part|isra|constprop|cold|lto_priv)(\.[0-9]+)?$/, "", name)) {}
			share[name] += $1
		}
		END { for (s in share) printf "%.2f\t%s\n", share[s], s }' "$1"
}

# 1. PEBS (large PEBS) on the QEMU PMU: the real path.
qemu_pmu icx record -e instructions:pp -c 100003 soak -n 30000000
expect_rc 0
data=$tmp/out/perf.data
same_top "$data"
grep -q "soak_hot" "$tmp/perf.top" || fail "soak_hot is not a top symbol"
# Progress under large PEBS: samples are counted at a drain, which comes
# only at the threshold, so the lines said "0 samples, 0 PMIs" for the
# whole run (issue 39 item 16); they now count the records waiting in
# the buffer (the DS index), and the count grows line by line.
waiting=$(sed -n 's/^\[ bareperf record: .* (+\([0-9,]*\) in PEBS buffers).*/\1/p' "$tmp/console" | tr -d ,)
[ "$(echo "$waiting" | grep -c .)" -ge 2 ] || fail "fewer than 2 progress lines count waiting PEBS records"
echo "$waiting" | awk 'NR > 1 && $1 <= prev { bad = 1 } { prev = $1 } END { exit bad }' ||
	fail "the waiting PEBS records do not grow between progress lines: $(echo $waiting)"

# srcline: addr2line must neither hang (ImageBase answered address 0) nor
# die of SIGPIPE (firmware images with no file); our loops' lines show.
timeout 60 perf report -i "$data" --symfs "$tmp/symfs" --no-children --stdio \
	--sort srcline >"$tmp/srcline" 2>"$tmp/srcline.err"
src_rc=$?
[ $src_rc -eq 0 ] || fail "perf report --sort srcline: status $src_rc ($(tail -2 "$tmp/srcline.err"))"
grep -q "loop8.inc:" "$tmp/srcline" || fail "--sort srcline has no loop8.inc line"
timeout 60 perf script -i "$data" --symfs "$tmp/symfs" -F ip,sym,srcline >"$tmp/script.sl" 2>&1 ||
	fail "perf script -F srcline failed"

# Build-ids: bareperf.elf's GNU build-id, for buildid-list and archive.
want=$(readelf -n build/bareperf.elf | awk '/Build ID/ { print $3 }')
perf buildid-list -i "$data" | grep -q "^$want /bareperf.elf$" ||
	fail "buildid-list lacks $want /bareperf.elf: $(perf buildid-list -i "$data")"
perf buildid-cache -a "$tmp/symfs/bareperf.elf" || fail "perf buildid-cache -a failed"
(cd "$tmp/out" && perf archive perf.data >"$tmp/archive" 2>&1) || fail "perf archive: $(cat "$tmp/archive")"
[ -s "$data.tar.bz2" ] || fail "perf archive wrote no $data.tar.bz2"

# Header features.
perf report -i "$data" --header-only >"$tmp/header" 2>&1
for want in "hostname :" "os release : EDK II" "perf version : bareperf" "cmdline : bareperf record" \
	"total memory :" "clockid: monotonic_raw" "time of first sample" "node0 meminfo" \
	"#  L1 Data " "#  L3 Unified " "cpu pmu capabilities: max_precise=3"; do
	grep -q "$want" "$tmp/header" || perf report -i "$data" --header-only -I 2>&1 | grep -q "$want" ||
		fail "header lacks '$want'"
done
# The node's free memory at the start (it read 0 kB, issue 39 item 22),
# and PMU_CAPS present (no PMU but cpu has caps, as on Linux's non-hybrid parts).
free=$(perf report -i "$data" --header-only -I 2>&1 |
	sed -n 's/.*node0 meminfo *: total = [0-9]* kB, free = \([0-9]*\) kB.*/\1/p')
[ "${free:-0}" -gt 0 ] || fail "node0's free memory reads '${free}' kB"
! grep "missing features" "$tmp/header" | grep -q " PMU_CAPS" || fail "no PMU_CAPS feature"
grep -q "exclude_kernel" "$tmp/header" && fail "instructions:pp claims exclude_kernel: $(grep '# event' "$tmp/header")"
perf data convert --to-json "$tmp/data.json" -i "$data" >/dev/null 2>&1 || fail "perf data convert --to-json failed"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/data.json" || fail "the JSON does not parse"
perf report -i "$data" --symfs "$tmp/symfs" --stdio --sort socket 2>/dev/null | grep -Eq "^ *[0-9.]+% +000 *$" ||
	fail "--sort socket does not show socket 000"
perf report -i "$data" --symfs "$tmp/symfs" --stdio --time 10%/1 2>&1 | grep -q "soak_" ||
	fail "perf report --time 10%/1 shows no samples"
perf script -i "$data" -F tod,ip 2>&1 | head -1 | grep -q "^ *20[0-9][0-9]-" ||
	fail "perf script -F tod has no wall-clock time"
# The on-device report of the same file (all ~100 firmware mappings kept:
# a cap of 16 once left our image unnamed) shows perf's top rows.
tools/qemu-run -t 120 -o "$tmp/rep" --add "$data" -- report -n 6 >"$tmp/ondevice" 2>&1 ||
	fail "the on-device report failed: $(tail -3 "$tmp/ondevice")"
grep '\[\.\]' "$tmp/ondevice" | head -4 | awk '{ print $1, $NF }' >"$tmp/ondevice.top"
perf report -i "$data" --symfs "$tmp/symfs" --no-children --stdio 2>/dev/null | grep '\[\.\]' |
	head -4 | awk '{ print $1, $NF }' >"$tmp/perf.rows"
cat "$tmp/ondevice.top"
grep -q "soak_hot" "$tmp/ondevice.top" || fail "the on-device report does not name soak_hot"
diff "$tmp/perf.rows" "$tmp/ondevice.top" >/dev/null ||
	fail "on-device report and perf report differ: $(diff "$tmp/perf.rows" "$tmp/ondevice.top" | tr '\n' ' ')"
echo "PASS: PEBS file: perf and perfparser agree, srcline, build-ids, header features, on-device report"

# 2. PMI mode with callchains, and a group, on the emulated PMU.
qemu --pmu=sim:icx record -g -e '{cycles,instructions}' -c 100003 soak -n 20000000
expect_rc 0
data=$tmp/out/perf.data
perf evlist -g -i "$data" | grep -q "^{cycles,instructions}" ||
	fail "perf evlist -g: $(perf evlist -g -i "$data")"
same_top "$data"
echo "PASS: -g group file"

# 3. All CPUs: perf orders the CPUs' samples by time (sample_id_all).
QEMU_RUN_OPTS="--smp 2" qemu --pmu=sim:icx record -a -c 100003 soak -n 20000000
expect_rc 0
data=$tmp/out/perf.data
same_top "$data"
back=$(perf script -i "$data" -F time 2>/dev/null | tr -d ' :' |
	awk 'NR > 1 && $1 + 0 < prev { n++ } { prev = $1 + 0 } END { print n + 0 }')
[ "$back" -eq 0 ] || fail "perf script's times go backwards $back times"
# Every CPU's samples fall in the mappings: the APs' model TSCs run on the
# BSP's clock (their samples once came before the MMAP2 records, 48 % of
# the file in no mapping), and the AP's spin loop is named.
unmapped=$(perf report -i "$data" --symfs "$tmp/symfs" --no-children --stdio --sort dso 2>/dev/null |
	awk '$2 == "[unknown]" { gsub("%", "", $1); print $1 }')
awk -v u="${unmapped:-0}" 'BEGIN { exit !(u < 1) }' || fail "${unmapped} % of the -a samples are in no mapping"
perf report -i "$data" --symfs "$tmp/symfs" --no-children --stdio --sort cpu,sym 2>/dev/null |
	grep -Eq "^ *[0-9.]+% +001 +\[\.\] percpu_ap_spin" || fail "CPU 1's samples do not name percpu_ap_spin"
# One id per CPU, as perf record's per-CPU events (the -a file had one id
# in all, issue 39 item 22): the attr lists both, ID_INDEX says each
# one's CPU (perf refuses an id no attr has), the thread map is perf's
# system-wide dummy and the CPU map names both CPUs.
perf report -D -i "$data" >"$tmp/dump" 2>/dev/null
for want in "PERF_RECORD_ID_INDEX nr: 2" "... id: 1000  idx: 0  cpu: 0  tid: -1" \
	"... id: 1001  idx: 1  cpu: 1  tid: -1" "PERF_RECORD_THREAD_MAP nr: 1 thread: -1" \
	"PERF_RECORD_CPU_MAP: 0-1"; do
	grep -qF -- "$want" "$tmp/dump" || fail "perf report -D shows no '$want'"
done
# Each pass over the CPUs' rings ends with FINISHED_ROUND, so perf sorts
# and frees as it reads, not the whole file at its end.
[ "$(grep -c "PERF_RECORD_FINISHED_ROUND" "$tmp/dump")" -ge 2 ] ||
	fail "fewer than 2 FINISHED_ROUND records in the -a file"
perf report -i "$data" --header-only 2>&1 | grep -q "id = { 1000, 1001 }" ||
	fail "the attr does not list an id per CPU: $(perf report -i "$data" --header-only 2>&1 | grep '# event')"

# 4. perf c2c on memory samples.
qemu --pmu=sim:icx record -e mem_load_retired.l3_miss:p -c 1009 chase
expect_rc 0
perf c2c report -i "$tmp/out/perf.data" --stdio >"$tmp/c2c" 2>&1 ||
	fail "perf c2c report: $(head -3 "$tmp/c2c")"
grep -q "Load Operations" "$tmp/c2c" || fail "perf c2c report printed no load statistics"
echo "PASS: -a file in time order; perf c2c report"

# 5. A PMI storm (a 131 MB file perf read as 0 samples,
# and no progress line): throttled, it ends with progress lines, and perf
# reads every sample written. Long enough for progress lines (one a
# second): the emulated PMU's time is this machine's, so the run's length
# follows the machine and bareperf's PMI path (50 M iterations took 3.3 to
# 5.4 s here, then 0.66 s once the PMI got faster); 200 M take about 2.6 s
# here now. A run that still ended within 1.5 s is too short to owe a
# progress line, and says so, rather than failing on a fast machine.
qemu --pmu=sim:icx record -c 2000 soak -n 200000000
expect_rc 0
secs=$(sed -n 's/.*samples written, .* in \([0-9.]*\) s;.*/\1/p' "$tmp/console")
[ -n "$secs" ] || fail "the storm printed no summary"
if awk -v s="$secs" 'BEGIN { exit !(s >= 1.5) }'; then
	expect_console "bareperf record: *[0-9.]* s, "
else
	echo "NOTE: the storm took $secs s, too short to owe a progress line (one a second)"
fi
written=$(sed -n 's/.*bareperf record: \([0-9,]*\) samples written.*/\1/p' "$tmp/console" | tr -d ,)
read_back=$(perf script -i "$tmp/out/perf.data" -F ip 2>/dev/null | wc -l)
[ -n "$written" ] && [ "$written" -gt 10000 ] || fail "the storm wrote only '$written' samples"
[ "$read_back" -eq "$written" ] || fail "perf script reads $read_back of the $written samples written"
echo "PASS: PMI storm: $written samples written, all read by perf"

# 6. The seed's own event, cycles:p, as Linux samples it (its
# intel_pebs_aliases_*): on Ice Lake by extended PEBS on cycles' own
# counters, on Skylake as INST_RETIRED.TOTAL_CYCLES_PS; the banner says so.
for model in icx skl; do
	qemu_pmu $model record -e cycles:p -c 100003 soak -n 20000000
	expect_rc 0
	case $model in
	icx) expect_console "cycles:p is sampled with PEBS on its own counters" ;;
	skl) expect_console "cycles:p is sampled as INST_RETIRED.TOTAL_CYCLES_PS" ;;
	esac
	perf report -i "$tmp/out/perf.data" --symfs "$tmp/symfs" --no-children --stdio 2>/dev/null |
		grep '\[\.\]' | head -1 | grep -q soak_hot || fail "cycles:p on $model: soak_hot is not on top"
done
echo "PASS: cycles:p on icx (extended PEBS) and skl (its alias)"
