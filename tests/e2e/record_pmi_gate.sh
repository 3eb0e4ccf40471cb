# PMI mode in QEMU: every sample comes through the image's PMI gate
# (one PMI per sample), and the file is valid.
. "$(dirname "$0")/lib.bash"
qemu --pmu=sim:icx record -e cycles -c 1000003 soak -n 100000000
expect_rc 0
expect_console "PMI mode"
line=$(grep "samples written" "$tmp/console")
samples=$(sed -E 's/.* ([0-9,]+) samples written.*/\1/; s/,//g' <<<"$line")
pmis=$(sed -E 's/.*; ([0-9,]+) PMIs.*/\1/; s/,//g' <<<"$line")
[ "$samples" -gt 50 ] || fail "only $samples samples"
[ "$samples" = "$pmis" ] || fail "$samples samples but $pmis PMIs"
mkdir -p "$tmp/home"
HOME=$tmp/home perf report --stdio -i "$tmp/out/perf.data" --symfs build 2>&1 | grep -q "soak_hot" ||
	fail "perf report does not name soak_hot"
