/* File names in the output folder: see path.h. */
#include "path.h"
#include "fmt.h"
#include "str.h"

/* Whether the component at s (up to a separator or the end) is "..". */
static bool is_dotdot(const char *s)
{
	return s[0] == '.' && s[1] == '.' && (!s[2] || path_is_sep(s[2]));
}

int path_check(const char *name, bool write, bool absolute_ok, const char *folder,
	       char *why, size_t cap)
{
	size_t n = bp_strlen(name);
	bool absolute = n && path_is_sep(name[0]);

	if (!n || path_is_sep(name[n - 1])) {
		bp_snprintf(why, cap, "%s", n ? "names a folder, not a file" : "an empty name");
		return -1;
	}
	if (absolute && !absolute_ok) {
		bp_snprintf(why, cap, "absolute names are refused: files are in %s (give the "
			    "name relative to it)", folder);
		return -1;
	}
	for (const char *p = name; *p && !absolute; p++)
		if ((p == name || path_is_sep(p[-1])) && is_dotdot(p)) {
			bp_snprintf(why, cap, "names outside %s are refused (..)", folder);
			return -1;
		}
	if (write && n >= 4 && bp_strcasecmp(name + n - 4, ".efi") == 0) {
		bp_snprintf(why, cap, "a .EFI name is refused for output (it would replace a "
			    "UEFI application, or the boot loader)");
		return -1;
	}
	return 0;
}
