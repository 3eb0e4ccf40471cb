# The same MSR and event sequence (tests/diff/pmu_diff.c) on the model on
# the host and on our QEMU's TCG PMU in a guest: counting, CPL filtering,
# RDPMC, overflow and status, STATUS_SET/RESET, freeze on PMI, PEBS. The
# transcripts must be equal, value for value, on every part with adaptive
# PEBS (skl's format-3 record starts with the guest's RFLAGS).
. "$(dirname "$0")/lib.bash"
for model in icx spr adl; do
	build/host/tests/pmu_diff_host "$model" >"$tmp/host.txt" || fail "$model: pmu_diff_host failed"
	rm -rf "$tmp/out"
	tools/qemu-run --pmu "$model" --image build/tests/pmudiff.efi -t 120 -o "$tmp/out" -- \
		>"$tmp/console" 2>&1
	rc=$?
	expect_rc 0
	# GNU-EFI's Print writes hex digits in capitals.
	grep '^pmudiff ' "$tmp/console" | tr 'A-F' 'a-f' >"$tmp/guest.txt"
	grep -q '^pmudiff done' "$tmp/guest.txt" || { cat "$tmp/console"; fail "$model: the guest did not finish"; }
	# Exact instruction counts: 5 * 10000 + 3 on fixed 0 and IA32_PMC0.
	grep -qx 'pmudiff fixed0 0xc353' "$tmp/guest.txt" || fail "$model: fixed 0 did not count 50003"
	diff -u "$tmp/host.txt" "$tmp/guest.txt" || fail "$model: the QEMU PMU and the model disagree"
	echo "$model: $(wc -l <"$tmp/guest.txt") values equal"
done
