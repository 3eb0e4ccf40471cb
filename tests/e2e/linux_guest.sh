# Linux's perf driver as the QEMU PMU's client: Debian's kernel
# boots on our QEMU (tools/linux-guest) and its Intel PMU driver takes the
# part as the real one (the "Performance Events:" line with the PEBS format
# and counters, no "Broken PMU hardware", no fallback to software events);
# Linux's perf then counts and samples bareperf's soak workload, a static
# Linux program here, against soak's ground truth.
#
# Documented differences: perf stat of the whole program counts its
# start and exit too (about 30,000 user instructions on top of the
# workload's own), so the check is that the difference between two run
# lengths is the difference of their truths, give or take 100 (the
# program prints its elapsed guest time, whose digits change from run to
# run, and glibc formats a double in a value-dependent number of
# instructions and branches: identical runs of soak -n 1000000 differed by
# up to 37 instructions and 13 branches, while `busybox true` and soak -n
# 1000, too short for the time to vary, counted the same every time);
# and Linux 6.1 takes large
# PEBS for fixed-period samples with or without timestamps on PEBS format
# 3 and later (TIME is in its large_pebs_flags there), so the one-record-
# per-PMI run is the one with callchains (-g).
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/linux_guest.bash"
{ job_start; cat <<'JOB'; } >"$tmp/job.sh"
perf record -q -e instructions:upp -c 6007 -o i.data bp-workload soak -n 5000000 >/dev/null 2>&1
perf report -i i.data --stdio --no-children --sort sym 2>/dev/null | grep '%' | sed 's/^/share /'
for mode in --no-timestamp -g; do
	a=$(pmi)
	perf record -e cycles:p -c 10003 $mode -o c.data bp-workload soak -n 5000000 2>&1 >/dev/null |
		sed -n 's/.*(\([0-9]*\) samples).*/samples '$mode' \1/p'
	echo "pmis $mode $(( $(pmi) - a ))"
done
JOB

for model in icx skl; do
	boot $model
	case $model in
	icx) expect_console "Performance Events: PEBS fmt4+-baseline,.*Icelake events.*Intel PMU driver"
	     expect_console "generic registers:      8"
	     expect_console "fixed-purpose events:   4" ;;
	skl) expect_console "Performance Events: PEBS fmt3+,.*Skylake events.*Intel PMU driver"
	     expect_console "generic registers:      4"
	     expect_console "fixed-purpose events:   3" ;;
	esac

	check_stat $model

	# perf record with PEBS (instructions:upp -c 6007): soak's split by
	# construction, 50/30/15/5, within 0.5 points, and nothing else over
	# 0.1 %. (Before the QEMU PMU cut its slice at each privilege change,
	# a user-only counter's overflows after a return from the kernel were
	# found at the next settle: the split scattered between boots by up to
	# 2.5 points and 1.1 % fell on libc's fstatat.)
	check_split $model

	# Large PEBS: many records per PMI; with callchains, one PMI each.
	s_large=$(awk '$1 == "samples" && $2 == "--no-timestamp" { print $3 }' "$tmp/console")
	p_large=$(awk '$1 == "pmis" && $2 == "--no-timestamp" { print $3 }' "$tmp/console")
	s_plain=$(awk '$1 == "samples" && $2 == "-g" { print $3 }' "$tmp/console")
	p_plain=$(awk '$1 == "pmis" && $2 == "-g" { print $3 }' "$tmp/console")
	echo "$model: cycles:p -c 10003: $s_large samples in $p_large PMIs (large PEBS), -g: $s_plain in $p_plain"
	[ -n "$s_large" ] && [ "$s_large" -gt 1000 ] || fail "$model: large PEBS run took only '$s_large' samples"
	[ "$p_large" -lt $((s_large / 100)) ] || fail "$model: $p_large PMIs for $s_large samples: not large PEBS"
	[ -n "$s_plain" ] && [ "$s_plain" -gt 0 ] && [ "$p_plain" -ge "$s_plain" ] ||
		fail "$model: -g: $p_plain PMIs for $s_plain samples: not one PMI per record"
	echo "PASS: $model"
done
