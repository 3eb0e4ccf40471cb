# In the image, '\' (the UEFI separator) and '/' both separate folders in
# -o and -i (issue 39): -o nodir\x.data used to fail with "cannot create"
# and no reason, while -o sub/x.data made the folder. A name that cannot
# be created says why, with the firmware's EFI_STATUS named.
. "$(dirname "$0")/lib.bash"
said() { grep -qF -- "$1" "$tmp/console" || fail "console lacks '$1'"; }
qemu --pmu=sim:icx record -q -o 'nodir\x.data' soak -n 20000
expect_rc 0
said 'wrote nodir\x.data'
[ -s "$tmp/out/nodir/x.data" ] || fail "no nodir/x.data came back"
qemu --pmu=sim:icx report -i 'nodir\none.data'
expect_rc 1
said "cannot open 'nodir\\none.data' in the output folder"
said "EFI_NOT_FOUND"
# A folder where a file is (the command line's own file, cmdline).
qemu --pmu=sim:icx record -q -o 'cmdline\x.data' soak -n 20000
expect_rc 1
said 'bareperf record: cannot create cmdline\x.data: cannot create the folder \bareperf\cmdline: a file of that name is there'
# A name FAT does not take: the firmware's status, named.
qemu --pmu=sim:icx record -q -o 'x?.data' soak -n 20000
expect_rc 1
said 'bareperf record: cannot create x?.data: EFI_'
