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
cat >"$tmp/job.sh" <<'JOB'
dmesg | grep -A7 "Performance Events"
# Linux lowers its sample rate when PMIs take long, and emulated ones do
# ("perf: interrupt took too long"); throttled gaps would skew soak's
# short parts (a CI run gave soak_cold 2.79 %). The limit off, every
# sample is taken. (The rate first: Linux refuses it once the limit is off.)
echo 1000000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
dmesg | grep -i -E "broken pmu|software events only" || true
for n in 1000000 2000000; do
	perf stat -x, -e instructions:u,branches:u bp-workload soak -n $n 2>&1 |
		sed -n 's/^\([0-9]*\),,\(instructions:u\|branches:u\),.*/stat '$n' \2 \1/p; s/^truth instructions/truth '$n' instructions/p'
done
perf record -q -e instructions:upp -c 6007 -o i.data bp-workload soak -n 5000000 >/dev/null 2>&1
perf report -i i.data --stdio --no-children --sort sym 2>/dev/null | grep '%' | sed 's/^/share /'
pmi() { awk '/PMI:/ { print $2 }' /proc/interrupts; }
for mode in --no-timestamp -g; do
	a=$(pmi)
	perf record -e cycles:p -c 10003 $mode -o c.data bp-workload soak -n 5000000 2>&1 >/dev/null |
		sed -n 's/.*(\([0-9]*\) samples).*/samples '$mode' \1/p'
	echo "pmis $mode $(( $(pmi) - a ))"
done
JOB

boot() {	# boot MODEL: the guest's console in $tmp/console
	tools/linux-guest --pmu "$1" -t 600 "$tmp/job.sh" >"$tmp/console.crlf" 2>&1
	rc=$?
	tr -d '\r' <"$tmp/console.crlf" >"$tmp/console"
	cat "$tmp/console"
	expect_rc 0
	expect_console "== linux-guest: job end, status 0 =="
}
val() { awk -v a="$1" -v b="$2" -v c="$3" '$1 == a && $2 == b && $3 == c { print $4 }' "$tmp/console"; }
share() { awk -v s="$1" '$1 == "share" && $NF == s { sub("%", "", $2); print $2 }' "$tmp/console"; }
near() {	# near WHAT GOT WANT TOLERANCE
	awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { exit !(g != "" && g - w <= t && w - g <= t) }' ||
		fail "$1: $2, expected $3 +- $4"
}

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
	grep -qi "broken pmu\|software events only" "$tmp/console" && fail "$model: Linux refused the PMU"

	# perf stat: the workload's instructions and branches, exactly, once
	# the program's own start and exit (the same in both runs) cancel.
	t1=$(val truth 1000000 instructions) t2=$(val truth 2000000 instructions)
	i1=$(val stat 1000000 instructions:u) i2=$(val stat 2000000 instructions:u)
	b1=$(val stat 1000000 branches:u) b2=$(val stat 2000000 branches:u)
	echo "$model: perf stat instructions:u $i1 / $i2 (truth $t1 / $t2), branches:u $b1 / $b2"
	near "$model: instructions beyond the truth" $((i1 - t1)) 30000 20000
	near "$model: instruction difference of the two runs" $((i2 - i1)) $((t2 - t1)) 100
	near "$model: branch difference (one per iteration)" $((b2 - b1)) 1000000 100

	# perf record with PEBS (instructions:upp -c 6007): soak's split by
	# construction, 50/30/15/5, within 0.5 points, and nothing else over
	# 0.1 %. (Before the QEMU PMU cut its slice at each privilege change,
	# a user-only counter's overflows after a return from the kernel were
	# found at the next settle: the split scattered between boots by up to
	# 2.5 points and 1.1 % fell on libc's fstatat.)
	grep '^share' "$tmp/console" | head -5
	for f in soak_hot:50 soak_warm:30 soak_cool:15 soak_cold:5; do
		near "$model: perf record share of ${f%:*}" "$(share "${f%:*}")" "${f#*:}" 0.5
	done
	awk '$1 == "share" && $NF !~ /^soak_/ { sub("%", "", $2); if ($2 > 0.1) bad = bad " " $NF "=" $2 }
	     END { if (bad) { print "outside soak:" bad; exit 1 } }' "$tmp/console" ||
		fail "$model: perf record samples outside soak's functions"

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
