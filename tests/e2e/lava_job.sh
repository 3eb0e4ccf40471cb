# The LAVA job of lab/ (issue 37 item 3), run on this machine by Debian's
# lava-dispatcher (tools/lab-run: lava-run with lab/qemu-device.yaml): the
# image's BPRESULT lines are LAVA's test cases, each selftest check one
# with the verdict the image printed, the record's sample count a
# measurement equal to what perf reads from the perf.data that came back
# over the serial line in LAVA's own log; a failing check fails its case
# and the run. The x86 PXE job is checked against LAVA's job schema.
. "$(dirname "$0")/lib.bash"
command -v lava-run >/dev/null || fail "lava-run is missing (tools/install-deps installs lava-dispatcher)"
lab() { tools/lab-run -o "$tmp/lab" -t 3 -- "$@" >"$tmp/lab.out" 2>&1; rc=$?; cat "$tmp/lab.out"; }
case_of() { awk -F'\t' -v n="$1" '$1 == n { print $2 " " $3 }' "$tmp/lab/cases.tsv"; }

start=$(date +%s.%N)
lab --pmu=sim:icx selftest
end=$(date +%s.%N)
expect_rc 0
grep -q "monitor pass; LAVA job pass" "$tmp/lab.out" || fail "the LAVA job or its monitor did not pass"
for check in counters widths overflow-pmi lvt-mask pebs-record pebs-threshold auto-reload; do
	[ "$(case_of "selftest.$check")" = "pass " ] || fail "selftest.$check: LAVA has '$(case_of "selftest.$check")', expected pass"
done
for check in ibs-op ibs-fetch; do
	[ "$(case_of "selftest.$check")" = "skip " ] || fail "selftest.$check: LAVA has '$(case_of "selftest.$check")', expected skip"
done
[ "$(case_of selftest.exit)" = "pass 0" ] || fail "selftest.exit: LAVA has '$(case_of selftest.exit)'"
awk -v s="$start" -v e="$end" 'BEGIN { printf "figure: LAVA job (lava-run, QEMU TCG, OVMF, selftest) %.1f s\n", e - s }'

lab --pmu=sim:icx record -c 100003 -o serial soak -n 2000000
expect_rc 0
[ -f "$tmp/lab/perf.data" ] || fail "perf.data did not come back through LAVA's log"
measured=$(case_of record.samples)
read_back=$(perf script -i "$tmp/lab/perf.data" -F ip 2>/dev/null | wc -l)
[ "$measured" = "pass $read_back" ] || fail "record.samples is '$measured', perf reads $read_back samples"
HOME=$tmp perf report --stdio -i "$tmp/lab/perf.data" --symfs build 2>/dev/null | grep -q soak_hot ||
	fail "perf report of the file LAVA brought back has no soak_hot"
echo "figure: $read_back samples, $(stat -c %s "$tmp/lab/perf.data") bytes back through LAVA's log"

# A held PMU: the check fails, the case says so, the run exits 1.
lab --pmu=sim:icx,held selftest counters
expect_rc 1
[ "$(case_of selftest.counters)" = "fail " ] || fail "a failing check is '$(case_of selftest.counters)' in LAVA"

# The lab's x86 job: LAVA's schema takes it; one without its image does not.
tools/lab-job x86-pxe --image-url http://lab.example/bareperf.efi -o "$tmp/x86" -- \
	record -e 'instructions:pp' -o serial soak >/dev/null || fail "lab-job x86-pxe failed"
tools/lab-job --validate "$tmp/x86/job.yaml" || fail "LAVA's schema refuses the x86 job"
grep -q "chain tftp://{SERVER_IP}/{KERNEL} --then poweroff --results record -e instructions:pp -o serial soak'" "$tmp/x86/job.yaml" ||
	fail "the x86 job's chain line lacks the command line"
sed '/kernel:/,/url:/d' "$tmp/x86/job.yaml" >"$tmp/x86/broken.yaml"
tools/lab-job --validate "$tmp/x86/broken.yaml" 2>"$tmp/err" && fail "a job without its image validated"
grep -q "not a valid LAVA job" "$tmp/err" || fail "the invalid job is not named: $(cat "$tmp/err")"
echo "lava_job: all checks passed"
