/* PEBS drain throughput on the host, in records per second per record
 * format: a 256 KiB buffer filled with synthetic records is drained into
 * the sample ring again and again (figures, not assertions).
 *
 * `make bench` builds and runs it (with bench_sched).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pebs/drain.h"
#include "events/event.h"
#include "arch/msr.h"
/* the synthetic record writer of the unit tests (libc-free) */
#include "tests/unit/pebs_synth.c"

#define BUFFER_BYTES (256 * 1024)
#define RUN_NS       300000000LL	/* per configuration */

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct config {
	const char *name;
	u8 format;
	u64 data_cfg;
	unsigned counters;	/* PEBS counters, all set in every record */
	enum pebs_mem_kind mem;
};

static int bench(const struct config *cfg)
{
	struct pebs_layout l;
	struct pebs_ds ds;
	struct pebs_ctx ctx;
	struct sample_ring ring;
	struct pebs_loss loss = { 0 };
	char err[200];
	if (!pebs_layout_init(&l, cfg->format, cfg->data_cfg, err, sizeof(err)) ||
	    !pebs_ds_init(&ds, &l, BUFFER_BYTES, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", cfg->name, err);
		return 1;
	}
	if (!ring_alloc(&ring, 16384)) {
		fprintf(stderr, "no memory for the ring\n");
		return 1;
	}
	pebs_ctx_init(&ctx, &ds, PEBS_DSE_SNB, 0);
	u64 applicable = 0;
	for (unsigned i = 0; i < cfg->counters; i++) {
		struct pebs_counter pc = { .counter = counter_gp(i), .event = i, .period = 100003,
					   .mem = cfg->mem };
		pebs_ctx_add(&ctx, &pc, err, sizeof(err));
		applicable |= BIT(i);
	}
	for (u64 i = 0; i < ds.max_records; i++) {
		struct synth_rec r = { .ip = 0x401001 + i, .eventing_ip = 0x401000 + i,
				       .applicable = applicable, .tsc = i, .addr = 0x7f0000 + 64 * i,
				       .dse = i & 0xF, .latency = 30 + (i & 63) };
		synth_write(&l, (u8 *)(uintptr_t)(ds.base + i * l.record_size), &r);
	}
	/* The drain marks what it consumed: each round the "CPU" writes the
	 * records afresh (untimed; the buffer stays in cache as before). */
	size_t filled = ds.abs_max - ds.base;
	u8 *fresh = malloc(filled);
	if (!fresh) {
		fprintf(stderr, "no memory for the record copy\n");
		return 1;
	}
	memcpy(fresh, (void *)(uintptr_t)ds.base, filled);
	u64 drains = 0;
	long long start = now_ns(), elapsed = 0;
	do {
		memcpy((void *)(uintptr_t)ds.base, fresh, filled);
		ds.area->pebs_index = ds.abs_max;	/* the CPU filled the buffer */
		long long t0 = now_ns();
		pebs_drain(&ctx, &ring, &loss);
		elapsed += now_ns() - t0;
		ring.tail = ring.head;			/* the consumer discards */
		drains++;
	} while (now_ns() - start < RUN_NS);
	free(fresh);
	double secs = elapsed / 1e9;
	printf("%-28s %5u B %5llu rec/buf  %7.1f M records/s  %7.1f M samples/s  %6.1f ns/record%s\n",
	       cfg->name, l.record_size, (unsigned long long)ds.max_records,
	       loss.records / secs / 1e6, loss.delivered / secs / 1e6,
	       elapsed / (double)loss.records,
	       pebs_loss_balanced(&loss) && !pebs_loss_lost_total(&loss) ? "" : "  (ACCOUNTING MISMATCH)");
	ring_free(&ring);
	pebs_ds_free(&ds);
	return 0;
}

int main(void)
{
	static const struct config configs[] = {
		{ "fmt0 (Core 2)", 0, 0, 1, PEBS_MEM_NONE },
		{ "fmt1 (Nehalem) load", 1, 0, 1, PEBS_MEM_LOAD },
		{ "fmt2 (Haswell) load", 2, 0, 1, PEBS_MEM_LOAD },
		{ "fmt3 (Skylake) load", 3, 0, 1, PEBS_MEM_LOAD },
		{ "fmt3 3 counters/record", 3, 0, 3, PEBS_MEM_NONE },
		{ "fmt4 basic", 4, 0, 1, PEBS_MEM_NONE },
		{ "fmt4 meminfo+gpr load", 4, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP, 1, PEBS_MEM_LOAD },
		{ "fmt5 meminfo+gpr load", 5, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP, 1, PEBS_MEM_LOAD },
		{ "fmt5 all groups, 32 LBRs", 5, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP |
			PEBS_DATACFG_XMMS | PEBS_DATACFG_LBRS | (31ULL << 24), 1, PEBS_MEM_LOAD },
	};
	printf("PEBS drain throughput (host, %d KiB buffer, decode + ring append):\n",
	       BUFFER_BYTES / 1024);
	int rc = 0;
	for (unsigned i = 0; i < sizeof(configs) / sizeof(configs[0]); i++)
		rc |= bench(&configs[i]);
	return rc;
}
