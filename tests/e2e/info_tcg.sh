# `info` under QEMU's TCG: no PMU, said plainly, and success.
. "$(dirname "$0")/lib.bash"
qemu info
expect_rc 0
expect_console "TCGTCGTCGTCG"
expect_console "perfmon:      none"
expect_console "QEMU's TCG has none"
expect_console "local APIC:   xAPIC"
expect_console "LVT PC:       0x00010000"
expect_console "firmware:     EDK II"
