/* stream: memory bandwidth, McCalpin's STREAM kernels (copy c = a, scale
 * b = k*c, add c = a+b, triad a = b+k*c) over three arrays of --size bytes
 * each, --passes times. The kernels are NASM (workload/stream_loops.asm)
 * on 64-bit integers, so instructions, loads and stores are exact by
 * construction: per element and pass 24 instructions, 6 loads, 4 stores,
 * 80 bytes moved. Arrays larger than the last-level cache (STREAM's rule:
 * 4x) measure DRAM bandwidth; bandwidth = bytes / elapsed time. */
#include "stream.h"
#include "../arch/msr.h"
#include "../lib/out.h"
#include "../lib/plat.h"
#include "../lib/str.h"

void stream_copy(u64 *dst, const u64 *src, u64 n);
void stream_scale(u64 *dst, const u64 *src, u64 n, u64 k);
void stream_add(u64 *dst, const u64 *x, const u64 *y, u64 n);
void stream_triad(u64 *dst, const u64 *x, const u64 *y, u64 n, u64 k);

#define STREAM_SCALAR 3
#define STREAM_MIN_SIZE 4096ULL
#define STREAM_MAX_SIZE (1ULL << 32)
/* Profile: loads served from DRAM beyond this array size (a large LLC),
 * from L2 below; the load latencies and IPCs are typical Ice Lake figures. */
#define STREAM_LLC_BYTES (32ULL << 20)

static const char *const kernel_name[STREAM_KERNELS] = {
	"stream_copy", "stream_scale", "stream_add", "stream_triad",
};
static const u32 kernel_insns[STREAM_KERNELS] = { 5, 6, 6, 7 };

int stream_parse(int argc, char **argv, struct stream_opts *o)
{
	o->size = STREAM_DEFAULT_SIZE;
	o->passes = STREAM_DEFAULT_PASSES;
	for (int i = 1; i < argc; i++) {
		int r = workload_opt_u64("stream", argc, argv, &i, "--size", STREAM_MIN_SIZE,
					 STREAM_MAX_SIZE, &o->size);
		if (!r)
			r = workload_opt_u64("stream", argc, argv, &i, "--passes", 1, 1000000,
					     &o->passes);
		if (r < 0)
			return -1;
		if (!r) {
			err_printf("bareperf: stream: unknown option '%s' "
				   "(usage: stream [--size BYTES] [--passes N])\n", argv[i]);
			return -1;
		}
	}
	return 0;
}

u64 stream_elements(const struct stream_opts *o) { return o->size / 8; }

void stream_truth(const struct stream_opts *o, struct workload_truth *t)
{
	u64 n = stream_elements(o), p = o->passes;
	t->parts = STREAM_KERNELS;
	for (int k = 0; k < STREAM_KERNELS; k++) {
		t->part_name[k] = kernel_name[k];
		t->part_instructions[k] = p * (kernel_insns[k] * n + STREAM_INSNS_PER_CALL);
	}
	t->loads = p * n * STREAM_LOADS_PER_ELEM;
	t->stores = p * n * STREAM_STORES_PER_ELEM;
	t->bytes = (t->loads + t->stores) * 8;
	t->working_set = 3 * n * 8;
}

void stream_profile(const struct stream_opts *o, u64 base, struct code_profile *p)
{
	bool dram = 3 * o->size > STREAM_LLC_BYTES;
	u32 latency = dram ? 200 : 14;
	u32 src = dram ? 0xC : 0x2;	/* Intel data source: local DRAM / L2 hit */
	u64 span = 3 * stream_elements(o) * 8;
	bp_memset(p, 0, sizeof(*p));
	p->ipc_permille = dram ? 500 : 2000;
	p->nrates = 2;
	p->rate[0] = (struct code_rate){ EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_LOADS,
		STREAM_LOADS_PER_ELEM * 1000 / STREAM_INSNS_PER_ELEM, base, span, latency, src };
	p->rate[1] = (struct code_rate){ EVENT_MEM_INST_RETIRED, UMASK_MEM_INST_RETIRED_ALL_STORES,
		STREAM_STORES_PER_ELEM * 1000 / STREAM_INSNS_PER_ELEM, base, span, 0, 0 };
}

static int stream_check(int argc, char **argv)
{
	struct stream_opts o;
	return stream_parse(argc, argv, &o);
}

static int stream_run(int argc, char **argv, struct workload_result *r)
{
	struct stream_opts o;
	static struct code_profile profile;
	if (stream_parse(argc, argv, &o))
		return -1;
	u64 n = stream_elements(&o);
	size_t pages = (size_t)((3 * n * 8 + 4095) / 4096);
	u64 *mem = plat_alloc_pages(pages);
	if (!mem) {
		err_printf("bareperf: stream: cannot allocate 3 x %llu bytes\n",
			   (unsigned long long)o.size);
		return -1;
	}
	u64 *a = mem, *b = mem + n, *c = mem + 2 * n;
	for (u64 i = 0; i < n; i++) {	/* touch every page before the timed part */
		a[i] = i;
		b[i] = 2 * i;
		c[i] = 0;
	}
	bp_memset(r, 0, sizeof(*r));
	stream_profile(&o, (u64)(uintptr_t)mem, &profile);
	workload_begin(&profile);
	u64 t0 = plat_ticks();
	for (u64 p = 0; p < o.passes; p++) {
		stream_copy(c, a, n);
		stream_scale(b, c, n, STREAM_SCALAR);
		stream_add(c, a, b, n);
		stream_triad(a, b, c, n, STREAM_SCALAR);
	}
	r->ticks = plat_ticks() - t0;
	workload_begin(NULL);
	r->checksum = a[n - 1] ^ b[n / 2] ^ c[0];
	stream_truth(&o, &r->truth);
	plat_free_pages(mem, pages);
	return 0;
}

const struct workload workload_stream = {
	.name = "stream",
	.summary = "memory bandwidth: STREAM copy/scale/add/triad over 3 arrays",
	.usage = "[--size BYTES] [--passes N]",
	.run = stream_run,
	.check = stream_check,
};
