/* Names of files in the tool's output folder (\bareperf\ on the ESP,
 * $BAREPERF_OUT in the host twin), as record -o, report -i and every
 * plat_file_* call take them: '/' and '\' both separate components, in
 * the image and in the host twin alike. A name stays inside the folder:
 * no component is "..", and only where absolute_ok (the host twin) is a
 * name that starts with a separator taken as it is. A name to write
 * never ends in ".efi", in any case: a recording, or the .old it moves
 * aside, must never replace a UEFI application (\EFI\BOOT\BOOTX64.EFI is
 * the boot loader). */
#ifndef BP_PATH_H
#define BP_PATH_H
#include "types.h"

static inline bool path_is_sep(char c) { return c == '/' || c == '\\'; }

/* 0 when name may be used; else -1 with why, a phrase to follow
 * "NAME: " (e.g. "names outside \bareperf\ are refused (..)"). folder
 * names the output folder in the message. */
int path_check(const char *name, bool write, bool absolute_ok, const char *folder,
	       char *why, size_t cap);

#endif
