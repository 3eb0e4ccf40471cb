/* Architectural PEBS (arch/msr.h names the registers and the record; the
 * facts follow Intel's ISE manual, "Architectural PEBS", and Linux 6.19's
 * arch/x86/events/intel/ds.c): the per-CPU buffer IA32_PEBS_BASE names,
 * the groups a record carries, IA32_PEBS_INDEX's threshold, and the drain
 * that walks records of fragments into the sample ring.
 *
 * Pure logic: the caller reads IA32_PEBS_INDEX and writes it back re-armed
 * (arch_pebs_index_armed) before handing the value read to the drain, as
 * Linux's intel_pmu_drain_arch_pebs does, so that records the CPU writes
 * meanwhile go to a buffer already reset. The drain keeps drain.h's
 * accounting: every record owes one sample per enabled counter its
 * applicable-counters field names (one lost as an orphan when it names
 * none); records behind a header that cannot be followed are estimated
 * with the layout's record size and lost as corrupt; a consumed record
 * (its first header marked PEBS_RECORD_CONSUMED) met again is stale. */
#ifndef BP_PEBS_ARCH_H
#define BP_PEBS_ARCH_H
#include "drain.h"

#define ARCH_PEBS_DEFAULT_BYTES (1u << 20)	/* 16x Linux's 64 KiB */
#define ARCH_PEBS_MIN_BYTES     4096u		/* SIZE 0 */
#define ARCH_PEBS_MAX_BYTES     (64u << 20)	/* SIZE 14; WR's 23 bits of 16 bytes reach 128 MiB */

/* The groups every record of a session carries, resolved once. */
struct arch_pebs_layout {
	u64 groups;		/* CFG_C group bits (ARCH_PEBS_AUX, ...) */
	u32 record_bytes;	/* a one-fragment record with these groups */
	bool latency_split;	/* the aux group's latency: the cache latency at [47:32] */
};

/* The groups the sample fields need (the aux group for the memory
 * fields, GPRs for registers), of those the CPU offers (CPUID.23H.4 as
 * CFG_C bits). False, with err naming the group, when one is not offered. */
bool arch_pebs_layout_for(struct arch_pebs_layout *l, u32 fields, u64 offered,
			  char *err, size_t errlen);

struct arch_pebs_buf {
	u8 *buffer;		/* page aligned; its address is physical (identity map) */
	size_t bytes;		/* 4 KiB << SIZE */
	u64 base_msr;		/* IA32_PEBS_BASE: address | SIZE */
	u64 max_records;	/* whole records of the layout's size */
	u64 thresh_units;	/* IA32_PEBS_INDEX.THRESH, 16-byte units */
	struct arch_pebs_layout layout;
};

/* A buffer of bytes (0: the default), a power of two from 4 KiB to
 * ARCH_PEBS_MAX_BYTES; false with err on another size or no memory. The
 * threshold starts at one record. */
bool arch_pebs_buf_init(struct arch_pebs_buf *b, size_t bytes, const struct arch_pebs_layout *l,
			char *err, size_t errlen);
void arch_pebs_buf_free(struct arch_pebs_buf *b);
/* Whether bytes (0: the default) is a size the buffer can have; false
 * with err saying the rule. */
bool arch_pebs_size_ok(size_t bytes, char *err, size_t errlen);
/* The PMI threshold after this many records, clamped to [1, max_records]. */
void arch_pebs_buf_set_threshold(struct arch_pebs_buf *b, u64 records);
/* IA32_PEBS_INDEX for an empty buffer: WR 0, FULL 0, EN, THRESH. */
u64 arch_pebs_index_armed(const struct arch_pebs_buf *b);
/* A PEBS counter's CFG_C: EN, the layout's groups, and the reload value
 * -period (CFG_C[31:0]; Linux intel_pmu_enable_event_ext). */
u64 arch_pebs_cfg_c(const struct arch_pebs_layout *l, u64 period);
/* The longest period CFG_C's 32-bit reload value can restart a counter
 * with (it is read as a negative 32-bit number). */
#define ARCH_PEBS_MAX_PERIOD BIT(31)

/* Walks the records below index's WR into the ring (c: the PEBS counters,
 * c->ds unused). Sets loss->buffer_was_full when index has FULL. Returns
 * the samples delivered. Interrupt-safe, bounded by the buffer size. */
u64 arch_pebs_drain(struct pebs_ctx *c, struct arch_pebs_buf *b, u64 index,
		    struct sample_ring *ring, struct pebs_loss *loss);
/* Records written and not yet drained, read from memory (for progress
 * lines; the CPU may be writing meanwhile). */
u64 arch_pebs_pending(const struct arch_pebs_buf *b);

#endif
