# Every event of every core-PMU file in Intel's perfmon data round-trips
# through `list --cpu MODEL --json` with the event code, umask, UMaskExt
# (UMASK2), Equal (EQ), cmask,
# inv, edge, any, counters, PEBS counters, taken-alone and extra MSR the
# file states (tests/events/roundtrip.py, which reads the JSON on its own), and every
# file of mapfile.csv has a model. The same for every core event of Linux's
# AMD Zen JSON (amdzen1..5, extracted from Debian's linux-source-6.12 into
# build/ by tools/amd-events-json, or BAREPERF_AMD_JSON): its 12-bit event
# code and umask on the six core counters. Host twin: the same tables and
# lister.
. "$(dirname "$0")/lib.bash"
perfmon=${BAREPERF_PERFMON:-../shared/perfmon}
[ -f "$perfmon/mapfile.csv" ] || fail "no perfmon data at $perfmon (set BAREPERF_PERFMON)"
[ -x build/host/bareperf ] || fail "no host twin at build/host/bareperf (make host)"
amd=$(tools/amd-events-json) || fail "no AMD Zen event JSON (tools/install-deps installs linux-source-6.12)"
python3 tests/events/roundtrip.py "$perfmon" build/host/bareperf "$amd" ||
	fail "the tables do not say what the files say"
