# `bench overhead` and `bench error` in the image on the emulated AMD PMU
# (sim:zen4) under QEMU --icount: IBS has no threshold, so the study is
# PMI mode (cycles on a core counter) against IBS (cycles:p, forwarded to
# ibs_op). Both columns sample about one per period, and the long period
# loses nothing; error has a PMI and an IBS column with samples. About 25 s.
. "$(dirname "$0")/lib.bash"
QEMU_RUN_OPTS=--icount qemu --pmu=sim:zen4 bench overhead --periods 10003,1000003 --runs 1
expect_rc 0
expect_console "Sampling overhead, PMI mode vs IBS: PMI (cycles on a core counter) vs IBS (cycles:p, one sample per interrupt), EMULATED PMU (sim:zen4)"
row() { awk -v p="$1" '$1 == p { print }' "$tmp/console"; }
short=$(row 10003) long=$(row 1000003)
[ -n "$short" ] || fail "no row for period 10003"
[ -n "$long" ] || fail "no row for period 1000003"
# soak -n 4000000: 32 M instructions, about as many cycles in the model
read -r _ _ _ _ _ _ _ _ samp_pmi samp_ibs _ <<<"$short"
[ "$samp_pmi" -gt 2000 ] && [ "$samp_ibs" -gt 2000 ] ||
	fail "period 10003: samples PMI $samp_pmi, IBS $samp_ibs"
read -r _ _ _ _ _ _ _ _ samp_pmi samp_ibs lost _ <<<"$long"
[ "$samp_pmi" -gt 10 ] && [ "$samp_ibs" -gt 10 ] && [ "$lost" = 0/0 ] ||
	fail "period 1000003: samples PMI $samp_pmi, IBS $samp_ibs, lost $lost"
QEMU_RUN_OPTS=--icount qemu --pmu=sim:zen4 bench error --periods 100003 --runs 1
expect_rc 0
expect_console "event cycles:p (IBS); PMI: cycles on a core counter"
samples=$(awk '$1 == "samples" { print $2, $3 }' "$tmp/console")
read -r samp_pmi samp_ibs <<<"$samples"
[ "${samp_pmi:-0}" -gt 100 ] && [ "${samp_ibs:-0}" -gt 100 ] ||
	fail "bench error: samples PMI '$samp_pmi', IBS '$samp_ibs'"
echo "PASS"
