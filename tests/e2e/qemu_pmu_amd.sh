# The QEMU AMD PMU (qemu/README.md): zen4 (EPYC-Milan with Zen 4's CPUID,
# PerfMonV2) and zen2 (EPYC-Rome, no PerfMonV2) boot bareperf on its real
# path. info names the part from the model's CPUID (vendor, signature,
# brand, PerfCtrExtCore, PerfMonV2 or not, IBS); stat with AMD's raw events counts
# soak's 8 instructions (0xC0) and 1 branch (0xC2) per iteration, core
# cycles (0x76) one per instruction (the cost model); record samples on
# counter overflows delivered through LVT PC, which AMD parts leave
# unmasked, with soak's 50/30/15/5 split.
. "$(dirname "$0")/lib.bash"
n=1000000
declare -A sig=([zen4]=0x00a10f11 [zen2]=0x00830f10)
declare -A v2=([zen4]=yes [zen2]=no)
declare -A brand=([zen4]="AMD EPYC 9654" [zen2]="AMD EPYC 7742")
for m in zen4 zen2; do
	qemu_pmu $m info
	expect_rc 0
	expect_console "AuthenticAMD, family .* (signature ${sig[$m]})"
	expect_console "brand: *${brand[$m]}"
	expect_console "core counters: 6 x 48 bits"
	expect_console "PerfCtrExtCore"
	grep -q "^PerfMonV2: *${v2[$m]}" "$tmp/console" || fail "$m: PerfMonV2 is not '${v2[$m]}'"
	expect_console "IBS: .*op sampling"
	qemu_pmu $m stat -e r0c0,r076,r0c2 soak -n $n
	expect_rc 0
	ins=$(count r0c0) cyc=$(count r076) br=$(count r0c2)
	[ -n "$ins" ] && [ "$ins" -ge $((8 * n)) ] && [ "$ins" -le $((8 * n + 8 * n / 100 + 20000)) ] ||
		fail "$m: $ins instructions (0xC0) for soak -n $n, expected 8 x $n + < 1 %"
	[ "$cyc" = "$ins" ] || fail "$m: $cyc cycles (0x76), the cost model gives one per instruction ($ins)"
	[ -n "$br" ] && [ "$br" -ge "$n" ] && [ "$br" -le $((n + n / 50)) ] ||
		fail "$m: $br branches (0xC2), expected $n + < 2 %"
	qemu_pmu $m record -e r0c0 -c 100003 soak -n 10000000
	expect_rc 0
	# soak -n 10 M retires 80 M instructions: 800 overflows of 100,003.
	[ "$(samples)" -ge 795 ] || fail "$m: only $(samples) samples, 800 overflows owed"
	[ "$(pmis)" = "$(samples)" ] || fail "$m: $(pmis) PMIs for $(samples) samples"
	report; expect_shares 3
done
# IBS on zen4 (sim/sim_ibs.c behind the machine): the IBS MSRs reach the
# model, IBS_CTL holds the offset "the firmware" assigned (entry 1), and
# each tagged op's interrupt goes out through QEMU's extended LVT entry
# 1, which bareperf programs: one interrupt per sample, none lost, at
# soak's functions. The op the counter tags ends its slice as an overflow
# does, so IbsOpRip is the tagged instruction's.
qemu_pmu zen4 record -e ibs_op/cnt_ctl=1/ -c 100000 soak -n 5000000
expect_rc 0
expect_console "IBS: one interrupt per sample through extended LVT entry 1"
n=$(sed -n 's/^\[ IBS: \([0-9]*\) samples, \([0-9]*\) delivered, 0 lost.*/\1 \2/p' "$tmp/console")
read -r tagged delivered <<<"$n"
[ -n "$tagged" ] && [ "$tagged" = "$delivered" ] && [ "$tagged" -ge 300 ] ||
	fail "zen4 IBS: '$n' (samples, delivered) for 40 M ops at 100,000, none lost"
report; expect_shares 3

# bareperf's ibs_op// (cycles) samples on both parts, read by perf and by
# hotspot's perfparser, within 1 point of soak's 50/30/15/5, as Linux's
# own ibs_op// samples on the same machine are (e2e linux_guest_amd): at
# 20,000 cycles soak -n 5 M gives about 2,000 samples, enough for 1 point
# with CurCnt's random start.
for m in zen4 zen2; do
	qemu_pmu $m record -e ibs_op// -c 20000 soak -n 5000000 >/dev/null
	expect_rc 0
	report
	echo "$m ibs_op//: perf: $(for f in soak_hot soak_warm soak_cool soak_cold; do printf '%s %s%% ' $f "$(share $f)"; done)"
	expect_shares 1
	tools/perfparser-top -n 8 --symfs build "$tmp/out/perf.data" 2>/dev/null >"$tmp/pp.top"
	for f in soak_hot soak_warm soak_cool soak_cold; do
		pp=$(awk -F'\t' -v f=$f '$2 == f { print $1 }' "$tmp/pp.top")
		[ -n "$pp" ] && awk -v a="$pp" -v b="$(share $f)" 'BEGIN { exit !(a - b < 0.01 && b - a < 0.01) }' ||
			fail "$m ibs_op//: perfparser gives $f '$pp' %, perf $(share $f) %"
	done
done

# IBS data sources on the QEMU machine (issue 33 item 3): a tag on a load
# latches that load's address and the level the machine's cache model
# served it from (sim/sim_machine.c single_load), which bareperf turns into
# perf's data source as Linux does (pmu/ibs_datasrc.c): chase over 64 MiB
# misses to memory, over 16 KiB stays in L1, and perf report --mem-mode
# --sort mem,sym puts chase_walk's loads at that level.
for level in "67108864:Local RAM or RAM hit" "16384:L1 or L1 hit"; do
	size=${level%%:*} want=${level#*:}
	qemu_pmu zen4 record -e ibs_op// -c 20000 chase --size "$size" --steps 2000000 >/dev/null
	expect_rc 0
	HOME=$tmp/home perf report --stdio --mem-mode --sort mem,sym -i "$tmp/out/perf.data" \
		--symfs build >"$tmp/mem" 2>"$tmp/mem.err" || fail "perf report --sort mem: $(cat "$tmp/mem.err")"
	top=$(grep -v '^#' "$tmp/mem" | grep '%' | grep -v ' N/A ' | head -1)
	echo "zen4 chase --size $size: $top"
	grep -q "% *$want *\[\.\] chase_walk" <<<"$top" || fail "zen4 chase --size $size: top load row '$top', expected $want in chase_walk"
done
echo "PASS: IBS data sources from the machine's cache model"
