# Helpers for the end-to-end tests: each test boots the image in QEMU
# through tools/qemu-run and checks its console, exit status and files.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# qemu ARGS...: boots with ARGS, sets $rc, console in $tmp/console, files in $tmp/out
qemu() {
	rm -rf "$tmp/out"
	tools/qemu-run ${QEMU_RUN_OPTS:-} -t "${QEMU_TIMEOUT:-240}" -o "$tmp/out" -- "$@" >"$tmp/console" 2>&1
	rc=$?
	cat "$tmp/console"
}
# qemu_pmu MODEL ARGS...: as qemu, on our QEMU whose TCG PMU models MODEL
# (the image's real path, --pmu=hw).
qemu_pmu() {
	local model=$1
	shift
	QEMU_RUN_OPTS="--pmu $model" qemu "$@"
}
# count EVENT: the count stat printed for EVENT.
count() { awk -v ev="$1" '$2 == ev { gsub(",", "", $1); print $1 }' "$tmp/console"; }
expect_rc() { [ "$rc" -eq "$1" ] || fail "exit status $rc, expected $1"; }
expect_console() { grep -q -- "$1" "$tmp/console" || fail "console lacks '$1'"; }
# A --symfs folder for perf: bareperf.elf at its recorded name, and the
# test application's ELF at the name its mapping has (its path on the ESP:
# a GNU-EFI image has no debug directory to name it otherwise).
make_symfs() {
	mkdir -p "$tmp/symfs/bareperf"
	cp build/bareperf.elf "$tmp/symfs/bareperf.elf"
	cp build/tests/hello.elf "$tmp/symfs/bareperf/hello.efi"
}
# perf_dso FILE: `perf report --sort dso` rows as "SHARE NAME", no warnings allowed.
perf_dso() {
	perf report -i "$1" --symfs "$tmp/symfs" --sort dso --stdio 2>"$tmp/perf.err" |
		grep -v '^#' | grep -v '^$'
	[ ! -s "$tmp/perf.err" ] || fail "perf warned: $(cat "$tmp/perf.err")"
}

# ---- soak recordings read by perf (qemu_pmu_record, qemu_pmu_new_models) ----
mkdir -p "$tmp/home"
# report: perf report of $tmp/out/perf.data into $tmp/report; no warnings allowed.
report() {
	HOME=$tmp/home perf report --stdio --no-children -i "$tmp/out/perf.data" --symfs build \
		>"$tmp/report" 2>"$tmp/report.err" || fail "perf report failed"
	[ ! -s "$tmp/report.err" ] || { cat "$tmp/report.err"; fail "perf printed warnings"; }
}
share() { awk -v s="$1" '$NF == s { sub("%", "", $1); print $1 }' "$tmp/report"; }
# Each soak function's share of soak's samples (bareperf's own sample
# handling and the firmware's disk driver are sampled too, more so at
# short periods), against 50/30/15/5 by construction.
expect_shares() {	# expect_shares TOLERANCE
	local f want total
	total=$(awk -v a="$(share soak_hot)" -v b="$(share soak_warm)" -v c="$(share soak_cool)" \
		-v d="$(share soak_cold)" 'BEGIN { print a + b + c + d }')
	awk -v t="$total" 'BEGIN { exit !(t >= 75) }' || fail "soak has only $total % of the samples"
	for f in soak_hot:50 soak_warm:30 soak_cool:15 soak_cold:5; do
		want=${f#*:}
		awk -v s="$(share "${f%:*}")" -v T="$total" -v w="$want" -v t="$1" \
			'BEGIN { r = 100 * s / T; exit !(r >= w - t && r <= w + t) }' ||
			fail "${f%:*} $(share "${f%:*}")% of $total %, expected $want +- $1 of soak's"
	done
}
pmis() { sed -n 's/.*; \([0-9,]*\) PMIs.*/\1/p' "$tmp/console" | tr -d , | tail -n 1; }
samples() { sed -n 's/.* \([0-9,]*\) samples written.*/\1/p' "$tmp/console" | tr -d , | tail -n 1; }
