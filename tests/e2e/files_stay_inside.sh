# In the image: -o and -i names stay inside \bareperf\ (issue 39). Before,
# `record -o ../EFI/BOOT/BOOTX64.EFI` wrote perf.data as the boot loader
# and moved the loader to BOOTX64.EFI.old (the next boot failed), and
# report -i read outside the folder. Each is now refused, with its reason,
# before anything is touched (exit 2).
. "$(dirname "$0")/lib.bash"
said() { grep -qF -- "$1" "$tmp/console" || fail "console lacks '$1'"; }
for name in '../EFI/BOOT/BOOTX64.EFI' '..\EFI\BOOT\BOOTX64.EFI'; do
	qemu --pmu=sim:icx record -q -o "$name" soak -n 20000
	expect_rc 2
	said "bareperf record: -o $name: names outside \\bareperf\\ are refused (..)"
	[ ! -e "$tmp/out/perf.data" ] || fail "-o $name: a perf.data was written"
	qemu report -i "$name"
	expect_rc 2
	said "bareperf report: -i $name: names outside"
done
# An absolute name, and a .EFI one inside the folder, are refused too.
qemu --pmu=sim:icx record -q -o '\EFI\BOOT\x.data' soak -n 20000
expect_rc 2
said "-o \\EFI\\BOOT\\x.data: absolute names are refused: files are in \\bareperf\\"
qemu --pmu=sim:icx record -q -o hello.efi soak -n 20000
expect_rc 2
said "-o hello.efi: a .EFI name is refused for output"
