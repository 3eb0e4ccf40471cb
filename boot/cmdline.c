/* The image's command line. From the UEFI shell or a boot entry with
 * arguments, UEFI hands us LoadOptions (UCS-2 text). When it gives none (a
 * plain removable-media boot, as tools/qemu-run does), we read the ASCII
 * file \bareperf\cmdline on the ESP instead. */
#include "efi.h"
#include "../cmd/cli.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

#define CMDLINE_MAX 2048
static char line[CMDLINE_MAX];

enum source { NONE, TAKEN, TOO_LONG };

/* LoadOptions is only a command line if it is printable UCS-2 text: some
 * boot managers pass binary optional data there. */
static enum source load_options_text(void)
{
	const CHAR16 *w = boot_loaded_image ? boot_loaded_image->LoadOptions : NULL;
	UINTN chars = boot_loaded_image ? boot_loaded_image->LoadOptionsSize / 2 : 0;
	size_t n = 0;

	if (!w || chars == 0)
		return NONE;
	for (UINTN i = 0; i < chars && w[i]; i++) {
		if (w[i] < 0x20 || w[i] > 0x7E) {
			if (w[i] == '\t')
				continue;
			return NONE;
		}
		if (n + 1 >= CMDLINE_MAX) {
			line[n] = 0;
			return TOO_LONG;
		}
		line[n++] = (char)w[i];
	}
	line[n] = 0;
	return n > 0 ? TAKEN : NONE;
}

/* The whole file: its lines are words like any others. */
static enum source cmdline_file(void)
{
	long size = plat_file_size("cmdline");
	long n = plat_file_read("cmdline", line, CMDLINE_MAX - 1);
	if (n < 0)
		return NONE;
	line[n] = 0;
	return size > n ? TOO_LONG : TAKEN;
}

/* --qemu-exit must work even when the line cannot be taken: without it
 * QEMU would wait in the UEFI shell until its timeout. A word of the
 * line as it is, before splitting, is enough. */
static void find_qemu_exit(const char *text)
{
	static const char opt[] = "--qemu-exit";
	for (const char *s = text; *s; s++) {
		bool starts = s == text || bp_isspace(s[-1]);
		size_t k = 0;
		while (opt[k] && s[k] == opt[k])
			k++;
		if (starts && !opt[k] && (!s[k] || bp_isspace(s[k])))
			boot_set_qemu_exit(true);
	}
}

/* The UEFI shell passes the program's own name first; a boot entry
 * usually passes only the arguments. */
static bool is_program_name(const char *w)
{
	size_t n = bp_strlen(w);
	return (n >= 4 && bp_strcasecmp(w + n - 4, ".efi") == 0) ||
	       bp_strcasecmp(w, "bareperf") == 0;
}

int boot_cmdline(int max, char **argv)
{
	const char *err;

	enum source src = load_options_text();
	bool from_file = src == NONE;
	if (from_file && (src = cmdline_file()) == NONE)
		line[0] = 0;
	find_qemu_exit(line);
	if (src == TOO_LONG) {
		err_printf("bareperf: the command line (%s) is longer than %u characters; "
			   "nothing was run\n", from_file ? "\\bareperf\\cmdline" : "LoadOptions",
			   CMDLINE_MAX - 1);
		return -1;
	}
	argv[0] = "bareperf";
	int n = cli_split(line, argv + 1, max - 1, &err);
	if (n < 0) {
		err_printf("bareperf: %s; nothing was run\n", err);
		return -1;
	}
	if (n > 0 && is_program_name(argv[1])) {
		for (int i = 1; i < n; i++)
			argv[i] = argv[i + 1];
		n--;
	}
	argv[n + 1] = NULL;
	return n + 1;
}
