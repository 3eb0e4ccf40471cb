/* perf.data's feature sections, as perf 6.1 writes and reads them
 * (tools/perf/util/header.c: write_X / process_X for each HEADER_X). Each
 * writer emits its section through a feat_out, which either writes or only
 * counts, so perfdata_finish can lay out the table of sections before
 * writing them. */
#include "perfdata_int.h"
#include "../lib/fmt.h"
#include "../lib/str.h"

static void feat_put(struct feat_out *o, const void *data, size_t len)
{
	if (o->pd)
		pd_put_bytes(o->pd, data, len);
	o->bytes += len;
}

static void feat_u32(struct feat_out *o, u32 v) { feat_put(o, &v, 4); }
static void feat_u64(struct feat_out *o, u64 v) { feat_put(o, &v, 8); }

/* A name's room in perf's header: its bytes and a NUL, padded to
 * NAME_ALIGN (header strings and build-id file names alike). */
static u32 name_padded(u32 len)
{
	return (len + 1 + NAME_ALIGN - 1) & ~(u32)(NAME_ALIGN - 1);
}

/* perf's header string: u32 length (NUL included, padded to NAME_ALIGN),
 * then the bytes. */
static void feat_string(struct feat_out *o, const char *s)
{
	static const u8 zeros[NAME_ALIGN];
	u32 len = (u32)bp_strlen(s), padded = name_padded(len);
	feat_u32(o, padded);
	feat_put(o, s, len);
	feat_put(o, zeros, padded - len);
}

static void feat_event_desc(struct feat_out *o, const struct perfdata *pd)
{
	u8 attr[PERFDATA_ATTR_SIZE];
	feat_u32(o, pd->nr_events);
	feat_u32(o, PERFDATA_ATTR_SIZE);
	for (u32 i = 0; i < pd->nr_events; i++) {
		pd_encode_attr(pd, i, attr);
		feat_put(o, attr, sizeof(attr));
		feat_u32(o, pd->nr_slots);
		feat_string(o, pd->events[i].name);
		for (u32 k = 0; k < pd->nr_slots; k++)
			feat_u64(o, pd_slot_id(pd, i, k));
	}
}

/* Build-id records (struct perf_record_header_build_id): header, pid -1
 * (the host machine), 20 id bytes + size byte + 3 reserved, the file name
 * padded to NAME_ALIGN. MISC_BUILD_ID_SIZE says the size byte is valid. */
static void feat_build_ids(struct feat_out *o, const struct perfdata *pd)
{
	static const u8 zeros[NAME_ALIGN];
	for (u32 i = 0; i < pd->nr_build_ids; i++) {
		const struct pd_build_id *b = &pd->build_ids[i];
		u8 id[24] = { 0 };
		u32 len = (u32)bp_strlen(b->filename);
		u32 padded = name_padded(len);
		u16 misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE;
		u16 size = (u16)(8 + 4 + 24 + padded);
		bp_memcpy(id, b->id, b->len);
		id[20] = (u8)b->len;
		feat_u32(o, PERF_RECORD_HEADER_BUILD_ID);
		feat_put(o, &misc, 2);
		feat_put(o, &size, 2);
		feat_u32(o, 0xffffffffu);
		feat_put(o, id, sizeof(id));
		feat_put(o, b->filename, len);
		feat_put(o, zeros, padded - len);
	}
}

static void feat_cmdline(struct feat_out *o, const struct perfdata *pd)
{
	feat_u32(o, pd->argc);
	for (u32 i = 0; i < pd->argc; i++)
		feat_string(o, pd->args[i]);
}

/* "0-N" (or "0"): every CPU, as perf's cpu lists are written. */
static void cpu_range(char *out, size_t cap, u32 nr_cpus)
{
	if (nr_cpus > 1)
		bp_snprintf(out, cap, "0-%u", nr_cpus - 1);
	else
		bp_snprintf(out, cap, "0");
}

/* One package, one die, one thread per core: what bareperf knows of the
 * machine (the CPUs the firmware's MP services count). perf c2c and
 * --sort socket read core_id/socket_id from here. */
static void feat_cpu_topology(struct feat_out *o, const struct perfdata *pd)
{
	char all[32], one[16];
	u32 n = pd->nr_cpus_avail;
	cpu_range(all, sizeof(all), n);
	feat_u32(o, 1);			/* core siblings: one package */
	feat_string(o, all);
	feat_u32(o, n);			/* thread siblings: each CPU alone */
	for (u32 i = 0; i < n; i++) {
		bp_snprintf(one, sizeof(one), "%u", i);
		feat_string(o, one);
	}
	for (u32 i = 0; i < n; i++) {
		feat_u32(o, i);		/* core_id */
		feat_u32(o, 0);		/* socket_id */
	}
	feat_u32(o, 1);			/* die siblings */
	feat_string(o, all);
	for (u32 i = 0; i < n; i++)
		feat_u32(o, 0);		/* die_id */
}

/* One node with all CPUs and all memory, and the memory free at the
 * start (perf record reads it from the node's meminfo at its start). */
static void feat_numa_topology(struct feat_out *o, const struct perfdata *pd)
{
	char all[32];
	cpu_range(all, sizeof(all), pd->nr_cpus_avail);
	feat_u32(o, 1);
	feat_u32(o, 0);
	feat_u64(o, pd->total_mem_kb);
	feat_u64(o, MIN(pd->free_mem_kb, pd->total_mem_kb));
	feat_string(o, all);
}

/* MEM_TOPOLOGY version 1: memory in blocks of PERFDATA_MEM_BLOCK bytes,
 * all in node 0 (a bitmap of its blocks): perf c2c counts its memory
 * nodes from here. */
#define PERFDATA_MEM_BLOCK	(128ULL << 20)
static void feat_mem_topology(struct feat_out *o, const struct perfdata *pd)
{
	u64 blocks = (pd->total_mem_kb * 1024 + PERFDATA_MEM_BLOCK - 1) / PERFDATA_MEM_BLOCK;
	feat_u64(o, 1);
	feat_u64(o, PERFDATA_MEM_BLOCK);
	feat_u64(o, 1);			/* nodes */
	feat_u64(o, 0);			/* node 0 ... */
	feat_u64(o, blocks);		/* ... has every block: */
	feat_u64(o, blocks);		/* the bitmap's bits, then its words */
	for (u64 w = 0; w < (blocks + 63) / 64; w++)
		feat_u64(o, blocks - w * 64 >= 64 ? ~0ULL : (1ULL << (blocks - w * 64)) - 1);
}

/* Whether an earlier event than i has i's dynamic type. */
static bool type_seen(const struct perfdata *pd, u32 i)
{
	for (u32 j = 0; j < i; j++)
		if (pd->events[j].ev.type == pd->events[i].ev.type)
			return true;
	return false;
}

/* The events' dynamic PMUs (perf's IBS decoder finds ibs_op and
 * ibs_fetch here, evlist__has_amd_ibs), then cpu and software. */
static u32 dynamic_pmus(const struct perfdata *pd, struct feat_out *o)
{
	u32 n = 0;
	for (u32 i = 0; i < pd->nr_events; i++) {
		const struct perfdata_event *ev = &pd->events[i].ev;
		if (ev->type < PERFDATA_TYPE_DYNAMIC || !ev->pmu_name || type_seen(pd, i))
			continue;
		n++;
		if (o) {
			feat_u32(o, ev->type);
			feat_string(o, ev->pmu_name);
		}
	}
	return n;
}

static void feat_pmu_mappings(struct feat_out *o, const struct perfdata *pd)
{
	feat_u32(o, 2 + dynamic_pmus(pd, NULL));
	dynamic_pmus(pd, o);
	feat_u32(o, PERF_TYPE_RAW);
	feat_string(o, "cpu");
	feat_u32(o, 1);			/* PERF_TYPE_SOFTWARE */
	feat_string(o, "software");
}

static u32 group_count(const struct perfdata *pd)
{
	u32 n = 0;
	for (u32 i = 0; i < pd->nr_events; i++)
		n += pd->events[i].ev.group_size > 1;
	return n;
}

/* Per group: its name ("{anon_group}": perf then names it by its
 * members), the leader's index and the group's size. */
static void feat_group_desc(struct feat_out *o, const struct perfdata *pd)
{
	feat_u32(o, group_count(pd));
	for (u32 i = 0; i < pd->nr_events; i++) {
		if (pd->events[i].ev.group_size < 2)
			continue;
		feat_string(o, "{anon_group}");
		feat_u32(o, i);
		feat_u32(o, pd->events[i].ev.group_size);
	}
}

/* A cache's entries: one per CPU for a CPU's own (map "N"), one for all
 * (map "0-N") for a shared level. */
static u32 cache_entries(const struct perfdata *pd, const struct pd_cache *c)
{
	return c->level >= 3 ? 1 : pd->nr_cpus_avail;
}

/* CACHE version 1: every distinct cache of the machine, by level, each
 * with level, line size, sets, ways, then type, size ("48K", as sysfs)
 * and the CPUs sharing it (write_cache in perf's header.c). */
static void feat_cache(struct feat_out *o, const struct perfdata *pd)
{
	char size[24], map[32];
	u32 n = 0;
	for (u32 i = 0; i < pd->nr_caches; i++)
		n += cache_entries(pd, &pd->caches[i]);
	feat_u32(o, 1);
	feat_u32(o, n);
	for (u32 level = 1; level <= 7; level++)
		for (u32 i = 0; i < pd->nr_caches; i++) {
			const struct pd_cache *c = &pd->caches[i];
			if (c->level != level)
				continue;
			bp_snprintf(size, sizeof(size), "%lluK", (unsigned long long)(c->size / 1024));
			for (u32 cpu = 0; cpu < cache_entries(pd, c); cpu++) {
				if (level >= 3)
					cpu_range(map, sizeof(map), pd->nr_cpus_avail);
				else
					bp_snprintf(map, sizeof(map), "%u", cpu);
				feat_u32(o, c->level);
				feat_u32(o, c->line_size);
				feat_u32(o, c->sets);
				feat_u32(o, c->ways);
				feat_string(o, c->type);
				feat_string(o, size);
				feat_string(o, map);
			}
		}
}

/* CPU_PMU_CAPS: the cpu PMU's caps, name and value strings (perf reads
 * "branches" for the LBR depth, and "max_precise": 0 with ibs_op mapped
 * is AMD's "precise events go to IBS"). */
static void feat_cpu_pmu_caps(struct feat_out *o, const struct perfdata *pd)
{
	feat_u32(o, pd->nr_pmu_caps);
	for (u32 i = 0; i < pd->nr_pmu_caps; i++) {
		feat_string(o, pd->pmu_caps[i][0]);
		feat_string(o, pd->pmu_caps[i][1]);
	}
}

/* CLOCK_DATA version 1: the clock's id, then one moment read on both
 * clocks (wall clock and sample clock), so perf script -F tod converts. */
static void feat_clock_data(struct feat_out *o, const struct perfdata *pd)
{
	feat_u32(o, 1);
	feat_u32(o, PERFDATA_CLOCKID);
	feat_u64(o, pd->tod_ns);
	feat_u64(o, pd_tsc_to_ns(pd->start_tsc, pd->tsc_hz));
}

static bool feature_string(struct feat_out *o, const char *s)
{
	if (!s[0])
		return false;
	feat_string(o, s);
	return true;
}

bool pd_feature(struct feat_out *o, const struct perfdata *pd, int bit)
{
	switch (bit) {
	case HEADER_BUILD_ID:	if (!pd->nr_build_ids) return false;
				feat_build_ids(o, pd); return true;
	case HEADER_HOSTNAME:	return feature_string(o, pd->hostname);
	case HEADER_OSRELEASE:	return feature_string(o, pd->osrelease);
	case HEADER_VERSION:	return feature_string(o, pd->version);
	case HEADER_ARCH:	feat_string(o, pd->arch); return true;
	case HEADER_NRCPUS:	if (!pd->nr_cpus_online) return false;
				feat_u32(o, pd->nr_cpus_avail);
				feat_u32(o, pd->nr_cpus_online); return true;
	case HEADER_CPUDESC:	return feature_string(o, pd->cpudesc);
	case HEADER_CPUID:	return feature_string(o, pd->cpuid);
	case HEADER_TOTAL_MEM:	if (!pd->total_mem_kb) return false;
				feat_u64(o, pd->total_mem_kb); return true;
	case HEADER_CMDLINE:	if (!pd->argc) return false;
				feat_cmdline(o, pd); return true;
	case HEADER_EVENT_DESC:	feat_event_desc(o, pd); return true;
	case HEADER_CPU_TOPOLOGY: if (!pd->nr_cpus_avail) return false;
				feat_cpu_topology(o, pd); return true;
	case HEADER_NUMA_TOPOLOGY: if (!pd->nr_cpus_avail || !pd->total_mem_kb) return false;
				feat_numa_topology(o, pd); return true;
	case HEADER_PMU_MAPPINGS: feat_pmu_mappings(o, pd); return true;
	case HEADER_CACHE:	if (!pd->nr_caches || !pd->nr_cpus_avail) return false;
				feat_cache(o, pd); return true;
	case HEADER_CPU_PMU_CAPS: if (!pd->nr_pmu_caps) return false;
				feat_cpu_pmu_caps(o, pd); return true;
	/* The other PMUs' caps: none (Linux writes 0 where only "cpu" has
	 * any, as on a part that is not hybrid; bareperf's hybrid files use
	 * the one cpu PMU too). */
	case HEADER_PMU_CAPS:	feat_u32(o, 0); return true;
	case HEADER_GROUP_DESC:	if (!group_count(pd)) return false;
				feat_group_desc(o, pd); return true;
	case HEADER_SAMPLE_TIME: if (!pd->first_sample_ns) return false;
				feat_u64(o, pd->first_sample_ns);
				feat_u64(o, pd->last_sample_ns); return true;
	case HEADER_MEM_TOPOLOGY: if (!pd->total_mem_kb) return false;
				feat_mem_topology(o, pd); return true;
	case HEADER_CLOCKID:	if (!pd->tsc_hz) return false;
				feat_u64(o, 1); return true;	/* resolution: 1 ns */
	case HEADER_CLOCK_DATA:	if (!pd->tsc_hz || !pd->tod_ns) return false;
				feat_clock_data(o, pd); return true;
	default:		return false;
	}
}

const int pd_feature_bits[PD_NR_FEATURES] = {
	HEADER_BUILD_ID, HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION,
	HEADER_ARCH, HEADER_NRCPUS, HEADER_CPUDESC, HEADER_CPUID,
	HEADER_TOTAL_MEM, HEADER_CMDLINE, HEADER_EVENT_DESC, HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY, HEADER_PMU_MAPPINGS, HEADER_GROUP_DESC, HEADER_CACHE,
	HEADER_SAMPLE_TIME, HEADER_MEM_TOPOLOGY, HEADER_CLOCKID, HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA, HEADER_PMU_CAPS,
};
