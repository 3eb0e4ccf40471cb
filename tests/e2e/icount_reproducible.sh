# With --icount, guest time follows instructions: two runs of the emulated
# PMU count the same to within 0.05%, one tick of the drive (1 ms, 62,500
# instructions at shift 4, 0.039% of this run). The model advances by whole
# ticks, and disk I/O completions still follow host time, which moves the
# guest by a few hundred instructions: enough to carry the run's end across
# a tick when it ends near one (seen, by time alone: 161,489,885 instead
# of 161,429,256). And instructions match soak's ground truth (8 per
# iteration + 3 per call, 400 calls): 160,001,200 for 20M iterations,
# which soak tells the drive (exactly that since; the 2 % bound is for
# the time around it).
. "$(dirname "$0")/lib.bash"
count() { awk -v ev="$1" '$2 == ev { gsub(",", "", $1); print $1 }' "$tmp/console"; }
runs=()
for i in 1 2; do
	rm -rf "$tmp/out"
	tools/qemu-run --icount -t 240 -o "$tmp/out" -- --pmu=sim:icx stat -e instructions,cycles,branches \
		soak -n 20000000 >"$tmp/console" 2>&1 || { cat "$tmp/console"; fail "run $i failed"; }
	runs+=("$(count instructions) $(count cycles) $(count branches)")
done
echo "run 1: ${runs[0]}"
echo "run 2: ${runs[1]}"
read -r a _ _ <<<"${runs[0]}"
read -r b _ _ <<<"${runs[1]}"
awk -v a="$a" -v b="$b" 'BEGIN { d = (a - b) / a; exit !(d > -0.0005 && d < 0.0005) }' ||
	fail "the two --icount runs differ by more than 0.05% (one tick of the drive)"
insn=$(count instructions)
awk -v n="$insn" 'BEGIN { d = n / 160001200 - 1; exit !(d > -0.02 && d < 0.02) }' ||
	fail "instructions $insn not within 2% of 160,001,200"
