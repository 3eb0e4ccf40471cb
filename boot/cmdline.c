/* The image's command line. From the UEFI shell or a boot entry with
 * arguments, UEFI hands us LoadOptions (UCS-2 text). When it gives none (a
 * plain removable-media boot, as tools/qemu-run does), we read the file
 * \bareperf\cmdline on the ESP instead: ASCII, UCS-2 (UTF-16LE, what the
 * UEFI shell's `echo ... > FILE` writes) or UTF-8 with a BOM (lib/text.h).
 * After a PXE boot, with no file system to read, the file bareperf/cmdline
 * beside the image on its TFTP server (net_boot.c), read the same way. */
#include "efi.h"
#include "../cmd/cli.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../lib/text.h"

#define CMDLINE_MAX 2048
static char line[CMDLINE_MAX];

enum source { NONE, TAKEN, TOO_LONG, BAD_TEXT };
static const char *file_encoding;	/* how \bareperf\cmdline was read */
static char bad_text[96];		/* why it could not be (BAD_TEXT) */

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

/* The whole file: its lines are words like any others. Room for the
 * longest line in UTF-16, its BOM and one more character (too long). */
static u8 raw[2 * CMDLINE_MAX + 2];

static enum source decode(long n, bool cut)
{
	long got = text_decode(raw, (size_t)n, line, CMDLINE_MAX, &file_encoding, bad_text,
			       sizeof(bad_text));
	if (cut || got == TEXT_TOO_LONG)
		return TOO_LONG;
	return got == TEXT_BAD_CHAR ? BAD_TEXT : TAKEN;
}

static enum source cmdline_file(void)
{
	long size = plat_file_size("cmdline");
	long n = plat_file_read("cmdline", raw, sizeof(raw));
	return n < 0 ? NONE : decode(n, size > n);
}

/* A network boot: the file beside the image on its server. */
static char net_where[192];
static enum source cmdline_net(void)
{
	bool cut;
	long n = net_boot_cmdline(raw, sizeof(raw), net_where, sizeof(net_where), &cut);
	return n < 0 ? NONE : decode(n, cut);
}

/* --qemu-exit and --then must work even when the line cannot be taken:
 * without them QEMU would wait in the UEFI shell until its timeout, and a
 * lab's machine would sit there until someone came by. A word of the line
 * as it is, before splitting, is enough. */
static bool word_at(const char *text, const char *s, const char *word, size_t *len)
{
	size_t k = 0;
	if (s != text && !bp_isspace(s[-1]))
		return false;
	while (word[k] && s[k] == word[k])
		k++;
	*len = k;
	return !word[k];
}

/* "--then WHAT" or "--then=WHAT" at s, WHAT one of cli_then_words. */
static void take_then(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '=')
		s++;
	for (unsigned i = 0; cli_then_words[i]; i++) {
		size_t n = bp_strlen(cli_then_words[i]);
		if (bp_strncmp(s, cli_then_words[i], n) == 0 && (!s[n] || bp_isspace(s[n])))
			boot_set_then(i);
	}
}

static void find_exit_options(const char *text)
{
	size_t len;
	for (const char *s = text; *s; s++) {
		if (word_at(text, s, "--qemu-exit", &len) && (!s[len] || bp_isspace(s[len])))
			boot_set_qemu_exit(true);
		if (word_at(text, s, "--then", &len) && (!s[len] || bp_isspace(s[len]) || s[len] == '='))
			take_then(s + len);
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
	bool from_file = src == NONE, from_net = false;
	if (from_file && (src = cmdline_file()) == NONE && (src = cmdline_net()) != NONE)
		from_net = true;
	if (src == NONE)
		line[0] = 0;
	find_exit_options(line);
	/* Where the line came from, and how it was read when that was not
	 * plain bytes, for the errors. */
	char where[224];
	bool encoded = from_file && file_encoding && bp_strcmp(file_encoding, "bytes") != 0;
	bp_snprintf(where, sizeof(where), "%s%s%s",
		    from_net ? net_where : from_file ? "\\bareperf\\cmdline" : "LoadOptions",
		    encoded ? ", read as " : "", encoded ? file_encoding : "");
	if (src == TOO_LONG) {
		err_printf("bareperf: the command line (%s) is longer than %u characters; "
			   "nothing was run\n", where, CMDLINE_MAX - 1);
		return -1;
	}
	if (src == BAD_TEXT) {
		err_printf("bareperf: the command line (%s): %s, which bareperf cannot represent; "
			   "nothing was run\n", where, bad_text);
		return -1;
	}
	argv[0] = "bareperf";
	int n = cli_split(line, argv + 1, max - 1, &err);
	if (n < 0) {
		if (encoded)
			err_printf("bareperf: %s (%s); nothing was run\n", err, where);
		else
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
