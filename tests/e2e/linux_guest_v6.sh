# Linux 6.12 (Debian 12's linux-image-6.12) as the judge of the perfmon v6
# QEMU PMU (lnl): its driver reads CPUID.23H for the P-core's counters
# (update_pmu_cap: 10 GP, fixed 0-3, event mask 0xf000003ff), addresses
# them in the 1900H block ("Support V6+ MSR Aliasing"), offers UMASK2 (its
# umask format grows to config:8-15,40-47: umask=0x101 is umask 0x01 with
# UMASK2 0x01) and programs it without an unchecked MSR access, and its perf
# counts soak exactly and samples it with PEBS in soak's split. Linux 6.1
# keeps judging the older parts (linux_guest.sh). Linux 6.12 prints
# "PEBS fmt4+" for formats 4 to 6 (intel_ds_init: case 6 and 5 fall
# through to case 4's message).
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/linux_guest.bash"
{ job_start; cat <<'JOB'; } >"$tmp/job.sh"
dmesg | grep "event mask"
perf record -q -e cycles:upp -c 6007 -o c.data bp-workload soak -n 5000000 >/dev/null 2>&1
perf report -i c.data --stdio --no-children --sort sym 2>/dev/null | grep '%' | sed 's/^/share /'
echo "umask format $(cat /sys/bus/event_source/devices/cpu_core/format/umask)"
perf stat -x, -e cpu_core/event=0xc4,umask=0x101/u bp-workload soak -n 1000000 2>&1 |
	sed -n 's/^\([0-9]*\),,.*umask=0x101.*/umask2 \1/p'
dmesg | grep -i "unchecked MSR" || true
JOB

boot lnl --kernel 6.12
expect_console "Performance Events: PEBS fmt4+-baseline,.*Lunarlake Hybrid events.*Intel PMU driver"
expect_console "version:                6"
expect_console "generic registers:      10"
expect_console "fixed-purpose events:   4"
expect_console "event mask:             0000000f000003ff"
expect_console "umask format config:8-15,40-47"
! grep -qi "unchecked MSR" "$tmp/console" || fail "lnl: Linux 6.12 met a #GP on an MSR it was told exists"
check_stat lnl
check_split lnl
u2=$(awk '$1 == "umask2" { print $2 }' "$tmp/console")
[ -n "$u2" ] || fail "lnl: perf stat of an event with umask2 printed no count"
echo "PASS: lnl under Linux 6.12: CPUID.23H's 10 GP + 4 fixed taken, perf stat exact, cycles:upp in soak's split; umask2 event counted $u2"
