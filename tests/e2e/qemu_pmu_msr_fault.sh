# MSR faults on APs, on the real path on the QEMU PMU (icx, 4 vCPUs):
# `msr -a` reads IA32_PERF_GLOBAL_CTRL and the x2APIC ID register (0x802,
# which raises #GP while the local APIC is in xAPIC mode: SDM Vol. 3A
# 11.12.1) on every CPU. Each AP's #GP comes back to our probe (every AP
# procedure runs on an IDT copy with our #GP gate) and is reported by the
# BSP with its CPU and MSR; without that gate OVMF's handler prints
# "X64 Exception Type - 0D" and halts the AP, and MP services time out.
. "$(dirname "$0")/lib.bash"
export QEMU_RUN_OPTS="--pmu icx --smp 4"
qemu msr -a 0x38f 0x802
expect_rc 1
for cpu in 0 1 2 3; do
	grep -Eq "^$cpu +0x38f +0x00000000000000ff" "$tmp/console" ||
		fail "CPU $cpu: no IA32_PERF_GLOBAL_CTRL value"
	grep -Eq "^$cpu +0x802 +#GP" "$tmp/console" || fail "CPU $cpu: the #GP on 0x802 is not reported"
done
! grep -q "X64 Exception" "$tmp/console" || fail "the firmware's exception handler ran"
! grep -q "did not finish in time" "$tmp/console" || fail "an AP hung"
# -C reads just the CPUs named, all of them without a fault.
qemu msr -C 1-3 0x38f
expect_rc 0
[ "$(grep -Ec '^[123] +0x38f +0x00000000000000ff' "$tmp/console")" -eq 3 ] || fail "-C 1-3 read 3 CPUs"
echo "PASS: #GP on RDMSR 0x802 reported for CPUs 0-3, no firmware exception"
