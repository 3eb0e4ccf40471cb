/* The Debug Store save area and its PEBS buffer (64-bit DS layout, SDM
 * Vol. 3B 18.4.9 / 20.6.2.4.2, "Debug Store (DS) Mechanism").
 *
 * The area and the buffer come from plat_alloc_pages (page aligned, memory
 * the firmware will not reuse while we run). The CPU writes records at
 * pebs_index and advances it; it never writes at or past
 * pebs_absolute_maximum, which is base + a whole number of records. */
#ifndef BP_PEBS_DS_H
#define BP_PEBS_DS_H
#include "../lib/types.h"
#include "../arch/msr.h"
#include "record.h"

/* Counter reset slots: GP i at i; fixed i at 8+i below format 5 and at
 * 32+i from format 5 on; 16 fixed counters at most. */
#define DS_RESET_SLOTS        (DS_RESET_FIXED_SLOT_FMT5 + 16)
#define DS_GP_SLOTS_FMT4      DS_RESET_FIXED_SLOT_FMT4	/* GP counters with a slot, format < 5 */
#define DS_GP_SLOTS_FMT5      DS_RESET_FIXED_SLOT_FMT5

struct ds_area {
	u64 bts_buffer_base;
	u64 bts_index;
	u64 bts_absolute_maximum;
	u64 bts_interrupt_threshold;
	u64 pebs_buffer_base;
	u64 pebs_index;		/* written by the CPU */
	u64 pebs_absolute_maximum;
	u64 pebs_interrupt_threshold;
	u64 pebs_counter_reset[DS_RESET_SLOTS];
};

#define PEBS_PAGE_SIZE            4096u
#define PEBS_BUFFER_DEFAULT_BYTES (256u * 1024)	/* 4x Linux's 64 KiB */
#define PEBS_BUFFER_FMT0_BYTES    PEBS_PAGE_SIZE	/* Core 2: one page, as Linux */
#define PEBS_BUFFER_MAX_BYTES     (64u * 1024 * 1024)

struct pebs_ds {
	struct ds_area *area;	/* one page */
	u8 *buffer;
	size_t buffer_pages;
	struct pebs_layout layout;
	/* Our own copies of the bounds: the drain trusts these, never the
	 * values in memory the CPU (or a bug) could have changed. */
	u64 base;		/* linear address of the first record */
	u64 abs_max;		/* base + max_records * record_size */
	u64 max_records;
	u64 threshold_records;
	u64 saved_ds_area;	/* IA32_DS_AREA before pebs_ds_program() */
	bool programmed;
};

/* Allocates the area and a buffer of buffer_bytes (0: the default for the
 * format) and sets the bounds for layout l, with a one-record threshold.
 * Returns false with a message in err on a bad size or no memory. */
bool pebs_ds_init(struct pebs_ds *ds, const struct pebs_layout *l,
		  size_t buffer_bytes, char *err, size_t errlen);
void pebs_ds_free(struct pebs_ds *ds);
/* Default buffer size for a format (fmt0: one page). */
size_t pebs_ds_default_bytes(u8 format);

/* New record layout (PEBS_DATA_CFG changed): the buffer must have been
 * drained; resets the index and recomputes the bounds. False if the new
 * record does not fit the buffer even once. */
bool pebs_ds_set_layout(struct pebs_ds *ds, const struct pebs_layout *l);
/* Interrupt threshold in records from base, clamped to [1, max_records]. */
void pebs_ds_set_threshold(struct pebs_ds *ds, u64 records);

/* Reset slot of a unified counter index for a format, or -1 when the
 * counter has none. */
int pebs_ds_reset_slot(u8 format, int counter);
/* Auto-reload value: the counter restarts at -period (truncated to its
 * width) after each record, so it overflows again after period events.
 * False when the counter has no slot or period is 0 or does not fit. */
bool pebs_ds_set_period(struct pebs_ds *ds, int counter, u64 period, u8 width);

/* True when IA32_DS_AREA still points at our area. The pages are
 * EfiLoaderData, which the firmware does not reclaim while the image runs,
 * but firmware (an SMI handler, a driver's timer) could still point the
 * CPU elsewhere: then records go where we cannot see them. *found gets
 * what the MSR holds (0 if it cannot be read). */
bool pebs_ds_still_ours(const struct pebs_ds *ds, u64 *found);
/* IA32_DS_AREA through the hardware seam: program saves the previous
 * value, restore puts it back. Returns false (err says why) if the MSR
 * faults. */
bool pebs_ds_program(struct pebs_ds *ds, char *err, size_t errlen);
void pebs_ds_restore(struct pebs_ds *ds);

#endif
