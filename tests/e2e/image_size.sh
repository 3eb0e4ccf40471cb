# The image stays at or under 1 MiB with every perfmon model's event
# tables in it (docs/events.md, "Size"): a USB stick's ESP or a firmware
# volume has room for it, and a table that grows past the budget fails here
# rather than in the field.
. "$(dirname "$0")/lib.bash"
limit=1048576
size=$(stat -c %s build/bareperf.efi) || fail "no build/bareperf.efi (make efi)"
tables=$(size -A build/efi/obj/events/events_data.o | awk '$1 ~ /^\.(rodata|data)/ { s += $2 } END { print s }')
echo "bareperf.efi: $size bytes (limit $limit); event tables: $tables bytes"
[ "$size" -le "$limit" ] || fail "bareperf.efi is $size bytes, over 1 MiB"
