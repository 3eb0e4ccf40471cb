# The commands issue 33 lists for AMD, on the QEMU AMD PMU (bareperf's
# real path): stat -I prints soak's 8 instructions per iteration in each
# interval; stat with 8 events on 6 counters multiplexes and scales each
# back to the truth; record -g on zen2 (no PerfMonV2: each PERF_CTL's En is
# the enable) gives every sample its call chain down from record_with;
# record -a on a 2-CPU zen4 samples both CPUs; msr -a reads PERF_CTL0 on
# each CPU; perf annotate of an IBS op recording lays soak_hot's samples
# on its instructions.
. "$(dirname "$0")/lib.bash"
make_symfs
export HOME=$tmp/home

# stat -I: the machine runs -icount shift=4, 16 ns a guest instruction,
# so each full 200 ms interval retires 12.5 M instructions: every
# interval but the first (the start) and the last (the rest), to 1 %.
qemu_pmu zen4 stat -I 200 -e r0c0 soak -n 20000000 >/dev/null
expect_rc 0
awk '$3 == "r0c0" { gsub(",", "", $2); print $2 }' "$tmp/console" >"$tmp/intervals"
n=$(wc -l <"$tmp/intervals")
[ "$n" -ge 4 ] || fail "stat -I 200: $n intervals"
sed -n "2,$((n - 1))p" "$tmp/intervals" | while read -r v; do
	near=$(awk -v v="$v" 'BEGIN { exit !(v > 12375000 && v < 12625000) }' && echo yes)
	[ "$near" = yes ] || fail "stat -I 200: an interval counted $v, not about 12.5 M"
done
echo "zen4 stat -I 200: $n intervals, e.g. $(sed -n 2p "$tmp/intervals")"

# multiplexing: 8 events on 6 counters, each scaled to within 3 % of the
# truth (a scaled count is an estimate: each event ran three quarters of
# the time; seen: +0.9 % to +1.9 %): soak -n 10 M retires 80 M
# instructions (r0c0, r076 one cycle each) and 10 M branches (r0c2), all
# in ring 0 (:k), none in ring 3.
for m in zen4 zen2; do
	qemu_pmu $m stat -e r0c0,r076,r0c2,r0c0:u,r076:u,r0c2:u,r0c0:k,r0c2:k soak -n 10000000 >/dev/null
	expect_rc 0
	grep -q "(7[0-9]\.[0-9][0-9]%)" "$tmp/console" || fail "$m: no event ran part of the time: not multiplexed"
	for want in r0c0:80000000 r076:80000000 r0c2:10000000 r0c0:k:80000000 r0c2:k:10000000 r0c0:u:0; do
		got=$(count "${want%:*}")
		awk -v g="$got" -v w="${want##*:}" 'BEGIN { exit !(g != "" && (w == 0 ? g == 0 : g > 0.97 * w && g < 1.03 * w)) }' ||
			fail "$m: ${want%:*} scaled to '$got', truth ${want##*:}"
	done
	echo "$m multiplexed: r0c0 $(count r0c0), r0c2 $(count r0c2), r0c0:k $(count r0c0:k)"
done

# record -g on zen2: soak_hot's samples come with their call chain
qemu_pmu zen2 record -g -e r076 -c 100003 soak -n 10000000 >/dev/null
expect_rc 0
perf report --stdio -i "$tmp/out/perf.data" --symfs "$tmp/symfs" -g caller --no-children \
	>"$tmp/report" 2>/dev/null || fail "perf report -g failed"
grep -A8 "\[\.\] soak_hot" "$tmp/report" | grep -q "record_with" ||
	{ head -20 "$tmp/report"; fail "zen2 record -g: soak_hot's chain lacks record_with"; }
echo "zen2 record -g: soak_hot $(share soak_hot | head -1) % with its call chain"

# record -a on two CPUs of zen4 (PerfMonV2's global control on each)
QEMU_RUN_OPTS="--pmu zen4 --smp 2" qemu record -a -e r076 -c 100003 soak -n 10000000 >/dev/null
expect_rc 0
per=$(sed -n 's/^\[ samples per CPU: \(.*\) \]/\1/p' "$tmp/console")
read -r _ c0 _ c1 <<<"$per"
[ "${c0:-0}" -gt 100 ] && [ "${c1:-0}" -gt 100 ] || fail "zen4 record -a: samples per CPU '$per'"
echo "zen4 record -a: $per"

# msr -a: PerfCntrGlobalCtl on each CPU of zen4, as the firmware left it
QEMU_RUN_OPTS="--pmu zen4 --smp 2" qemu msr -a 0xC0000301 >/dev/null
expect_rc 0
[ "$(grep -c '^[01] *0xc0000301 ' "$tmp/console")" -eq 2 ] || fail "msr -a: not one row per CPU"

# perf annotate of an IBS op recording: soak_hot's samples on its lines
qemu_pmu zen4 record -e ibs_op// -c 20000 soak -n 5000000 >/dev/null
expect_rc 0
(cd "$tmp" && timeout 120 perf annotate --stdio -i out/perf.data --symfs "$tmp/symfs" soak_hot) >"$tmp/ann" 2>&1
grep -q "imul   \$0x3,%rax,%rax" "$tmp/ann" || { head -30 "$tmp/ann"; fail "perf annotate soak_hot shows no disassembly"; }
awk '$1 ~ /^[0-9.]+$/ && $1 > 0 { n++ } END { exit !(n >= 4) }' "$tmp/ann" ||
	{ head -30 "$tmp/ann"; fail "perf annotate: fewer than 4 of soak_hot's instructions have samples"; }
echo "PASS: stat -I, multiplexing, record -g, record -a, msr -a and perf annotate on the QEMU AMD PMU"
