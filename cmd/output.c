/* -o FILE | serial | http://... (output.h). */
#include "output.h"
#include "cli.h"
#include "send.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../lib/url.h"

#define OUTPUT_TEXT_MAX (1024 * 1024)	/* what stat -I or selftest may print */

int cmd_output_parse(struct cmd_output *o, const char *value, const char *default_name,
		     const char *cmd)
{
	char why[160];
	*o = (struct cmd_output){ .file = value ? value : default_name };
	if (value && bp_strcmp(value, "serial") == 0) {
		o->serial = true;
		o->file = default_name;
	} else if (value && url_is_url(value)) {
		struct url u;
		if (url_parse(value, &u, why, sizeof(why))) {
			err_printf("bareperf %s: -o %s: %s\n", cmd, value, why);
			return EXIT_USAGE;
		}
		o->url = value;
		o->file = url_file_name(&u, default_name);
	}
	if (plat_file_check(o->file, true, why, sizeof(why))) {
		err_printf("bareperf %s: -o %s: %s\n", cmd, o->file, why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_output_send(const struct cmd_output *o, const char *cmd)
{
	if (o->url)
		return send_file_http(o->file, o->url, cmd);
	return o->serial ? send_file_serial(o->file, cmd) : 0;
}

int cmd_output_begin(struct cmd_output *o, const char *cmd)
{
	o->cap = OUTPUT_TEXT_MAX;
	o->text = plat_alloc(o->cap);
	if (!o->text) {
		err_printf("bareperf %s: -o %s: no memory to hold the output\n", cmd, o->file);
		return -1;
	}
	out_tee_start(o->text, o->cap);
	return 0;
}

int cmd_output_end(struct cmd_output *o, const char *cmd)
{
	bool cut;
	size_t len = out_tee_stop(&cut);
	int rc = plat_file_write(o->file, o->text, len);
	if (rc)
		err_printf("bareperf %s: cannot write %s: %s\n", cmd, o->file, plat_file_error());
	else if (cut)
		err_printf("bareperf %s: %s holds the first %zu bytes of the output only\n", cmd,
			   o->file, len);
	plat_free(o->text);
	o->text = NULL;
	return rc ? -1 : cmd_output_send(o, cmd);
}
