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
