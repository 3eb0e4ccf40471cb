# Linux's AMD PMU driver as the QEMU AMD PMU's client: Debian's 6.1
# kernel boots on zen4 and zen2 (tools/linux-guest) and takes the part as
# the real one: "Performance Events: ... core perfctr, AMD PMU driver"
# with 6 counters of 48 bits, version 2 on zen4 (Linux prints PerfMonV2
# as version 2, arch/x86/events/amd/core.c) and none on zen2; no "Broken
# PMU hardware" (check_hw_exists) and no fallback to software events.
# perf stat counts soak exactly, once the program's own start and exit
# cancel between two run lengths (as linux_guest.sh), and perf record of
# cycles:u (0x76, no PEBS on AMD) takes one sample per PMI, delivered
# through LVT PC as NMI, with soak's 50/30/15/5 split; IBS op samples
# come through the extended LVT entry IBS_CTL names, ibs_op// and
# ibs_op/cnt_ctl=1/ with soak's split within 1 point, and perf mem puts
# chase's loads over 64 MiB in local RAM.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/linux_guest.bash"
{ job_start; cat <<'JOB'; } >"$tmp/job.sh"
a=$(pmi)
perf record -q -e cycles:u -c 6007 -o c.data bp-workload soak -n 5000000 >/dev/null 2>&1
echo "pmis $(( $(pmi) - a ))"
echo "samples $(perf script -i c.data -F ip 2>/dev/null | wc -l)"
perf report -i c.data --stdio --no-children --sort sym 2>/dev/null | grep '%' | sed 's/^/share /'
# IBS op sampling (Linux 6.1's IBS PMU counts system-wide only, -a).
dmesg | grep "AMD IBS detected"
nmi() { awk '/NMI:/ { print $2 }' /proc/interrupts; }
a=$(nmi)
perf record -a -q -e ibs_op/cnt_ctl=1/ -c 20000 -o o.data bp-workload soak -n 5000000 >/dev/null 2>&1
echo "ibs nmis $(( $(nmi) - a ))"
echo "ibs samples $(perf script -i o.data -F ip 2>/dev/null | wc -l)"
perf report -i o.data --stdio --no-children --sort sym 2>/dev/null | grep '%' | sed 's/^/ibs_share /'
perf record -a -q -e ibs_op// -c 20000 -o d.data bp-workload soak -n 5000000 >/dev/null 2>&1
perf report -i d.data --stdio --no-children --sort sym 2>/dev/null | grep '%' | sed 's/^/ibs_cyc_share /'
# perf mem on chase over 64 MiB (IBS op, system-wide on AMD)
perf mem record -a -o m.data bp-workload chase --size 67108864 --steps 2000000 >/dev/null 2>&1
echo "mem record status $?"
perf mem report --stdio -i m.data --sort mem,sym 2>/dev/null | grep '%' | head -4 | sed 's/^/mem_row /'
# IBS fetch sampling: Linux takes a sample only when IbsFetchCnt completes
# the period (perf_ibs_handle_irq, get_ibs_fetch_count).
perf record -a -q -e ibs_fetch// -c 100000 -o f.data bp-workload soak -n 5000000 >/dev/null 2>&1
echo "fetch samples $(perf script -i f.data -F ip 2>/dev/null | wc -l)"
JOB

declare -A version=([zen4]=2 [zen2]=0)
declare -A ibs_caps=([zen4]=00000bff [zen2]=000003ff)
for model in zen4 zen2; do
	boot $model
	expect_console "Performance Events: .*core perfctr, AMD PMU driver"
	expect_console "version:                ${version[$model]}\$"
	expect_console "bit width:              48"
	expect_console "generic registers:      6"
	check_stat $model

	# soak -n 5 M retires 40 M user instructions: 6,659 periods of 6007.
	p=$(awk '$1 == "pmis" { print $2 }' "$tmp/console")
	s=$(awk '$1 == "samples" { print $2 }' "$tmp/console")
	echo "$model: cycles:u -c 6007: $s samples, $p PMIs"
	near "$model: samples" "$s" 6660 40
	[ "$p" -ge "$s" ] || fail "$model: $p PMIs for $s samples: not one PMI per sample"
	check_split $model

	# IBS: the IBS MSRs reach the model, IBS_CTL holds the offset "the
	# firmware" assigned (Linux warns of a firmware bug without one), and
	# each tagged op's NMI comes through QEMU's extended LVT entry, which
	# Linux's setup_APIC_eilvt programmed: soak -n 5 M dispatches 40 M ops,
	# more than 1,900 periods of 20,000 (the model's op counter rests from
	# the tag until the handler re-arms it), the rest is the kernel's.
	expect_console "perf: AMD IBS detected (0x${ibs_caps[$model]})"
	grep -q "invalid IBS interrupt offset" "$tmp/console" && fail "$model: Linux found no IBS LVT offset"
	in=$(awk '$1 == "ibs" && $2 == "nmis" { print $3 }' "$tmp/console")
	is=$(awk '$1 == "ibs" && $2 == "samples" { print $3 }' "$tmp/console")
	echo "$model: ibs_op/cnt_ctl=1/ -c 20000: $is samples, $in NMIs"
	[ -n "$is" ] && [ "$is" -ge 1900 ] && [ "$in" -ge "$is" ] ||
		fail "$model: IBS took '$is' samples in '$in' NMIs"
	# 40 M fetches (the model fetches as it dispatches): 400 periods; the
	# model's count cleared at the tag made Linux drop every one
	fs=$(awk '$1 == "fetch" && $2 == "samples" { print $3 }' "$tmp/console")
	echo "$model: ibs_fetch// -c 100000: $fs samples"
	[ -n "$fs" ] && [ "$fs" -ge 300 ] || fail "$model: IBS fetch took '$fs' samples"
	# -a samples the kernel too: soak's functions' shares among soak's
	# samples are the ones to hold to 50/30/15/5 (issue 33: within 1
	# point), for ops (cnt_ctl=1) and for cycles (ibs_op//, cnt_ctl=0).
	# The period divides soak's round (400,000 ops: 200,000/120,000/
	# 60,000/20,000), so every round puts 10/6/3/1 samples in the four
	# whatever the phase the kernel's ops leave. At 100,000 (four samples
	# a round, boundaries off the grid) the split rested on that phase
	# wandering evenly: 400 samples, and CI once saw soak_cool at 13.93.
	for tag in ibs_share ibs_cyc_share; do
		soak=$(awk -v t=$tag '$1 == t && $NF ~ /^soak_/ { sub("%", "", $2); s += $2 } END { print s + 0 }' "$tmp/console")
		awk -v t="$soak" 'BEGIN { exit !(t >= 80) }' || fail "$model: $tag: IBS samples in soak only $soak %"
		for f in soak_hot:50 soak_warm:30 soak_cool:15 soak_cold:5; do
			got=$(awk -v t=$tag -v fn="${f%:*}" -v all="$soak" '$1 == t && $NF == fn { sub("%", "", $2); printf "%.2f", 100 * $2 / all }' "$tmp/console")
			echo "$model: $tag ${f%:*} $got % of soak's samples"
			near "$model: $tag of ${f%:*}" "$got" "${f#*:}" 1
		done
	done
	# perf mem (Linux 6.1's IBS data source, perf_ibs_parse_ld_st_data):
	# chase's loads over 64 MiB come from RAM, as bareperf's own IBS
	# samples on this machine say (e2e qemu_pmu_amd)
	grep '^mem_row' "$tmp/console" | head -2
	grep -q '^mem_row .* Local RAM hit *\[\.\] chase_walk' "$tmp/console" ||
		fail "$model: perf mem report does not put chase_walk's loads in local RAM"
	echo "PASS: $model"
done
