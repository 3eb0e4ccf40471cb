# A UEFI application that is not on the boot volume: a clear error naming
# the path and the firmware's reason, before the PMU is touched.
. "$(dirname "$0")/lib.bash"
qemu --pmu=sim:icx record -- '\bareperf\nosuch.efi' 1
expect_rc 1
expect_console "cannot load \\\\bareperf\\\\nosuch.efi from the boot volume: Not Found"
