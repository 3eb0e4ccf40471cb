# Linux's AMD PMU driver as the QEMU AMD PMU's client: Debian's 6.1
# kernel boots on zen4 and zen2 (tools/linux-guest) and takes the part as
# the real one: "Performance Events: ... core perfctr, AMD PMU driver"
# with 6 counters of 48 bits, version 2 on zen4 (Linux prints PerfMonV2
# as version 2, arch/x86/events/amd/core.c) and none on zen2; no "Broken
# PMU hardware" (check_hw_exists) and no fallback to software events.
# perf stat counts soak exactly, once the program's own start and exit
# cancel between two run lengths (as linux_guest.sh), and perf record of
# cycles:u (0x76, no PEBS on AMD) takes one sample per PMI, delivered
# through LVT PC as NMI, with soak's 50/30/15/5 split.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/linux_guest.bash"
{ job_start; cat <<'JOB'; } >"$tmp/job.sh"
a=$(pmi)
perf record -q -e cycles:u -c 6007 -o c.data bp-workload soak -n 5000000 >/dev/null 2>&1
echo "pmis $(( $(pmi) - a ))"
echo "samples $(perf script -i c.data -F ip 2>/dev/null | wc -l)"
perf report -i c.data --stdio --no-children --sort sym 2>/dev/null | grep '%' | sed 's/^/share /'
JOB

declare -A version=([zen4]=2 [zen2]=0)
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
	echo "PASS: $model"
done
