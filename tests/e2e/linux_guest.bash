# Helpers shared by the Linux guest tests (linux_guest.sh on the Intel
# models, linux_guest_amd.sh on the AMD ones); sourced after lib.bash.

# The job's start, on every model: the PMU driver's boot lines, sampling
# unthrottled, and perf stat of two soak lengths with their truths (on a
# hybrid part perf names the events cpu_core/instructions:u/).
job_start() {
	cat <<'JOB'
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
		sed -n 's/^\([0-9]*\),,\(cpu_core\/\)\{0,1\}\(instructions:u\|branches:u\)\/\{0,1\},.*/stat '$n' \3 \1/p; s/^truth instructions/truth '$n' instructions/p'
done
pmi() { awk '/PMI:/ { print $2 }' /proc/interrupts; }
JOB
}

boot() {	# boot MODEL [OPTION...]: runs $tmp/job.sh, the guest's console in $tmp/console
	tools/linux-guest --pmu "$@" -t 600 "$tmp/job.sh" >"$tmp/console.crlf" 2>&1
	rc=$?
	tr -d '\r' <"$tmp/console.crlf" >"$tmp/console"
	cat "$tmp/console"
	expect_rc 0
	expect_console "== linux-guest: job end, status 0 =="
	grep -qi "broken pmu\|software events only" "$tmp/console" && fail "$1: Linux refused the PMU"
}
val() { awk -v a="$1" -v b="$2" -v c="$3" '$1 == a && $2 == b && $3 == c { print $4 }' "$tmp/console"; }
share() { awk -v s="$1" '$1 == "share" && $NF == s { sub("%", "", $2); print $2 }' "$tmp/console"; }
near() {	# near WHAT GOT WANT TOLERANCE
	awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { exit !(g != "" && g - w <= t && w - g <= t) }' ||
		fail "$1: $2, expected $3 +- $4"
}

# perf stat: the workload's instructions and branches, exactly, once the
# program's own start and exit (the same in both runs) cancel.
check_stat() {	# check_stat MODEL
	local t1 t2 i1 i2 b1 b2
	t1=$(val truth 1000000 instructions) t2=$(val truth 2000000 instructions)
	i1=$(val stat 1000000 instructions:u) i2=$(val stat 2000000 instructions:u)
	b1=$(val stat 1000000 branches:u) b2=$(val stat 2000000 branches:u)
	echo "$1: perf stat instructions:u $i1 / $i2 (truth $t1 / $t2), branches:u $b1 / $b2"
	near "$1: instructions beyond the truth" $((i1 - t1)) 30000 20000
	near "$1: instruction difference of the two runs" $((i2 - i1)) $((t2 - t1)) 100
	near "$1: branch difference (one per iteration)" $((b2 - b1)) 1000000 100
}

# perf record's split: soak's by construction, 50/30/15/5, within 0.5
# points, and nothing else over 0.1 %.
check_split() {	# check_split MODEL
	grep '^share' "$tmp/console" | head -5
	for f in soak_hot:50 soak_warm:30 soak_cool:15 soak_cold:5; do
		near "$1: perf record share of ${f%:*}" "$(share "${f%:*}")" "${f#*:}" 0.5
	done
	awk '$1 == "share" && $NF !~ /^soak_/ { sub("%", "", $2); if ($2 > 0.1) bad = bad " " $NF "=" $2 }
	     END { if (bad) { print "outside soak:" bad; exit 1 } }' "$tmp/console" ||
		fail "$1: perf record samples outside soak's functions"
}
