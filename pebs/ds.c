/* DS save area and PEBS buffer; see ds.h. */
#include "ds.h"
#include "../arch/hw.h"
#include "../events/event.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../lib/fmt.h"

_Static_assert(__builtin_offsetof(struct ds_area, bts_buffer_base) == DS_BTS_BUFFER_BASE, "DS layout");
_Static_assert(__builtin_offsetof(struct ds_area, bts_interrupt_threshold) == DS_BTS_INTERRUPT_THRESHOLD, "DS layout");
_Static_assert(__builtin_offsetof(struct ds_area, pebs_buffer_base) == DS_PEBS_BUFFER_BASE, "DS layout");
_Static_assert(__builtin_offsetof(struct ds_area, pebs_index) == DS_PEBS_INDEX, "DS layout");
_Static_assert(__builtin_offsetof(struct ds_area, pebs_absolute_maximum) == DS_PEBS_ABSOLUTE_MAXIMUM, "DS layout");
_Static_assert(__builtin_offsetof(struct ds_area, pebs_interrupt_threshold) == DS_PEBS_INTERRUPT_THRESHOLD, "DS layout");
_Static_assert(__builtin_offsetof(struct ds_area, pebs_counter_reset) == DS_PEBS_COUNTER_RESET, "DS layout");
_Static_assert(sizeof(struct ds_area) <= PEBS_PAGE_SIZE, "DS area fits one page");

size_t pebs_ds_default_bytes(u8 format)
{
	return format == 0 ? PEBS_BUFFER_FMT0_BYTES : PEBS_BUFFER_DEFAULT_BYTES;
}

static u64 addr_of(const void *p)
{
	return (u64)(uintptr_t)p;
}

/* Bounds for the current layout: a whole number of records (Linux does the
 * same), so the CPU can never start a record it has no room to finish. */
static bool set_bounds(struct pebs_ds *ds)
{
	u64 bytes = (u64)ds->buffer_pages * PEBS_PAGE_SIZE;
	u32 size = ds->layout.record_size;
	if (size == 0 || bytes < size)
		return false;
	ds->base = addr_of(ds->buffer);
	ds->max_records = bytes / size;
	ds->abs_max = ds->base + ds->max_records * size;
	ds->area->pebs_buffer_base = ds->base;
	ds->area->pebs_index = ds->base;
	ds->area->pebs_absolute_maximum = ds->abs_max;
	/* Slots the CPU has not written yet read as consumed: a clamped
	 * walk counts them stale rather than attribute zeros (format 0 has
	 * no applicable-counters field to tell them apart). */
	for (u64 at = ds->base; at < ds->abs_max; at += size)
		pebs_record_mark_consumed(&ds->layout, (void *)(uintptr_t)at);
	pebs_ds_set_threshold(ds, 1);
	return true;
}

bool pebs_ds_init(struct pebs_ds *ds, const struct pebs_layout *l,
		  size_t buffer_bytes, char *err, size_t errlen)
{
	bp_memset(ds, 0, sizeof(*ds));
	if (buffer_bytes == 0)
		buffer_bytes = pebs_ds_default_bytes(l->format);
	if (buffer_bytes < l->record_size || buffer_bytes > PEBS_BUFFER_MAX_BYTES) {
		bp_snprintf(err, errlen, "PEBS buffer size %llu bytes is out of range: "
			    "it must hold at least one %u-byte record and be at most %u bytes",
			    (unsigned long long)buffer_bytes, l->record_size, PEBS_BUFFER_MAX_BYTES);
		return false;
	}
	ds->layout = *l;
	ds->buffer_pages = (buffer_bytes + PEBS_PAGE_SIZE - 1) / PEBS_PAGE_SIZE;
	ds->area = plat_alloc_pages(1);
	ds->buffer = plat_alloc_pages(ds->buffer_pages);
	if (!ds->area || !ds->buffer) {
		bp_snprintf(err, errlen, "no memory for the PEBS buffer (%llu pages)",
			    (unsigned long long)ds->buffer_pages);
		pebs_ds_free(ds);
		return false;
	}
	bp_memset(ds->area, 0, PEBS_PAGE_SIZE);
	return set_bounds(ds);
}

void pebs_ds_free(struct pebs_ds *ds)
{
	if (ds->area)
		plat_free_pages(ds->area, 1);
	if (ds->buffer)
		plat_free_pages(ds->buffer, ds->buffer_pages);
	ds->area = NULL;
	ds->buffer = NULL;
}

bool pebs_ds_set_layout(struct pebs_ds *ds, const struct pebs_layout *l)
{
	struct pebs_layout old = ds->layout;
	ds->layout = *l;
	if (set_bounds(ds))
		return true;
	ds->layout = old;
	set_bounds(ds);
	return false;
}

void pebs_ds_set_threshold(struct pebs_ds *ds, u64 records)
{
	records = MAX(records, 1);
	records = MIN(records, ds->max_records);
	ds->threshold_records = records;
	ds->area->pebs_interrupt_threshold = ds->base + records * ds->layout.record_size;
}

int pebs_ds_reset_slot(u8 format, int counter)
{
	if (counter < 0)
		return -1;
	unsigned gp_slots = format >= 5 ? DS_GP_SLOTS_FMT5 : DS_GP_SLOTS_FMT4;
	unsigned fixed_base = format >= 5 ? DS_RESET_FIXED_SLOT_FMT5 : DS_RESET_FIXED_SLOT_FMT4;
	unsigned idx = counter_index(counter);
	if (!counter_is_fixed(counter))
		return idx < gp_slots ? (int)idx : -1;
	return idx < 16 ? (int)(fixed_base + idx) : -1;
}

bool pebs_ds_set_period(struct pebs_ds *ds, int counter, u64 period, u8 width)
{
	int slot = pebs_ds_reset_slot(ds->layout.format, counter);
	if (slot < 0 || period == 0 || width == 0 || width > 64)
		return false;
	u64 mask = GENMASK(width - 1, 0);
	/* -period must be a value the counter can hold (and must not be 0) */
	if (period > (mask >> 1))
		return false;
	ds->area->pebs_counter_reset[slot] = (0 - period) & mask;
	return true;
}

bool pebs_ds_program(struct pebs_ds *ds, char *err, size_t errlen)
{
	u64 old;
	if (hw_rdmsr_safe(MSR_IA32_DS_AREA, &old)) {
		bp_snprintf(err, errlen, "IA32_DS_AREA (0x%x) cannot be read: no Debug Store",
			    MSR_IA32_DS_AREA);
		return false;
	}
	if (hw_wrmsr_safe(MSR_IA32_DS_AREA, addr_of(ds->area))) {
		bp_snprintf(err, errlen, "IA32_DS_AREA (0x%x) refused the DS area address 0x%llx",
			    MSR_IA32_DS_AREA, (unsigned long long)addr_of(ds->area));
		return false;
	}
	ds->saved_ds_area = old;
	ds->programmed = true;
	return true;
}

bool pebs_ds_still_ours(const struct pebs_ds *ds, u64 *found)
{
	*found = 0;
	if (hw_rdmsr_safe(MSR_IA32_DS_AREA, found))
		return false;
	return *found == addr_of(ds->area);
}

void pebs_ds_restore(struct pebs_ds *ds)
{
	if (!ds->programmed)
		return;
	hw_wrmsr(MSR_IA32_DS_AREA, ds->saved_ds_area);
	ds->programmed = false;
}
