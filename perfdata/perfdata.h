/* Streaming writer for Linux perf's perf.data file format (the "PERFILE2"
 * layout of tools/perf/Documentation/perf.data-file-format.txt), so that
 * `perf report`, `perf script`, `perf annotate` and `perf mem report` read
 * what bareperf records; checked against perf 6.1 and hotspot's
 * perfparser (tests/e2e/perf_readers.sh).
 *
 * Portable: no libc, no floating point; compiled into the UEFI image and the
 * host twin. Output goes through a sink (append + write-at-offset), so the
 * same code writes a UEFI file (SetPosition/Write) or a host FILE/buffer.
 *
 * Usage:
 *   pd = perfdata_open(&sink, &cfg, NULL, 0);          // plat_alloc'd state
 *   perfdata_add_event(pd, &ev0);  ...                  // before any record
 *   perfdata_comm(pd); perfdata_mmap2(pd, &image);      // starts the file
 *   loop: perfdata_sample(pd, &s) / perfdata_lost(pd, ev, n)
 *         perfdata_flush(pd) now and then               // cut-safe point
 *   perfdata_finish(pd);                                // features + header
 *   perfdata_close(pd);
 *
 * File layout: header (104 bytes) | attrs (n x 144) | ids (n x 8) | data ...
 * | feature table | feature sections. The header and attrs are written when
 * the first record is written (or at perfdata_start), with the data size
 * known so far; perfdata_flush() pushes buffered bytes to the sink and
 * rewrites the header's data size, so a file cut anywhere after a flush is
 * read by perf up to that flush. Feature sections (event names, CPU
 * description...) exist only after perfdata_finish(); a cut-short file has
 * samples and symbols but perf names its events from the attr
 * (perf 6.1 shows "raw 0x3c:upp" for a cycles:pp event).
 *
 * Records carry the fixed pid/tid of the config (default PERFDATA_PID = 1,
 * tid = pid): the whole firmware run is one "process", named by the COMM
 * record (default "bareperf"). Samples, MMAP2 and COMM are tagged user space
 * (misc = PERF_RECORD_MISC_USER), so perf resolves IPs through the MMAP2'd
 * ELF instead of asking for kallsyms, while the attrs say what was counted
 * (exclude_kernel only for :u). perf warns of a missing kernel symbol table
 * whenever an attr counts ring 0 and no kernel mapping exists, so the file
 * maps an empty "[kernel.kallsyms]" in the upper half, where no firmware
 * address is (perf's own name for the kernel; nothing is ever sampled in it).
 *
 * Every non-sample record carries sample_id_all's trailer (pid/tid, time,
 * cpu, id), so perf sorts records by time (it does so only then) and
 * COMM/MMAP2 have their time and CPU. Event names are written twice: in the
 * EVENT_DESC feature and as EVENT_UPDATE records right after the attrs, so
 * a file cut before its features still names its events.
 *
 * Cost: perfdata_sample() is O(1): it encodes the record into an internal
 * buffer (default 64 KiB) and calls the sink only when the buffer is full.
 * Not reentrant: call it from one context (e.g. a timer callback draining
 * the sample ring), never from the PMI itself. */
#ifndef BP_PERFDATA_H
#define BP_PERFDATA_H
#include "../lib/types.h"
#include "../lib/sample.h"

/* perf_event_attr.sample_type (include/uapi/linux/perf_event.h): a
 * sample's fields are lib/sample.h's BP_SAMPLE_* bits, which are perf's
 * own, so a session's field set is the attr's sample_type as it is
 * (tests/unit/test_pebs_record.c checks each against Linux's header).
 * Named here are the two bits that are not fields of a bareperf sample:
 * the record's event id, in the body and as the first word. */
#define PERF_SAMPLE_ID		BIT(6)
#define PERF_SAMPLE_IDENTIFIER	BIT(16)
#define PERFDATA_SAMPLE_SUPPORTED ((u64)BP_SAMPLE_PERFDATA_FIELDS | PERF_SAMPLE_ID | \
	PERF_SAMPLE_IDENTIFIER)

/* perf_event_attr.type values. */
#define PERF_TYPE_HARDWARE	0
#define PERF_TYPE_RAW		4
/* The types bareperf gives the PMUs Linux numbers at registration
 * (perf_pmu_register: from PERF_TYPE_MAX on, in registration order, so
 * they differ between machines); HEADER_PMU_MAPPINGS names them. */
#define PERFDATA_TYPE_DYNAMIC	10

/* perf_event_attr flag bits (the bitfield word at offset 40). */
#define PERF_ATTR_FLAG_DISABLED		BIT(0)
#define PERF_ATTR_FLAG_EXCLUDE_USER	BIT(4)
#define PERF_ATTR_FLAG_EXCLUDE_KERNEL	BIT(5)
#define PERF_ATTR_FLAG_EXCLUDE_HV	BIT(6)
#define PERF_ATTR_FLAG_FREQ		BIT(10)
#define PERF_ATTR_PRECISE_SHIFT		15	/* precise_ip: bits 16:15 */
#define PERF_ATTR_FLAG_SAMPLE_ID_ALL	BIT(18)
#define PERF_ATTR_FLAG_USE_CLOCKID	BIT(25)
#define PERF_ATTR_CLOCKID_OFFSET	92	/* s32 clockid in the attr */
#define PERFDATA_CLOCKID	4	/* CLOCK_MONOTONIC_RAW: the TSC */

/* Record types and header.misc bits. */
#define PERF_RECORD_MMAP	1
#define PERF_RECORD_LOST	2
#define PERF_RECORD_COMM	3
#define PERF_RECORD_SAMPLE	9
#define PERF_RECORD_MMAP2	10
#define PERF_RECORD_LOST_SAMPLES 13
#define PERF_RECORD_HEADER_BUILD_ID	67
#define PERF_RECORD_FINISHED_ROUND	68
#define PERF_RECORD_ID_INDEX		69
#define PERF_RECORD_THREAD_MAP		73
#define PERF_RECORD_CPU_MAP		74
#define PERF_CPU_MAP__CPUS		0	/* CPU_MAP data: u16 nr, u16 cpu[nr] */
#define PERF_RECORD_EVENT_UPDATE	78
#define PERF_EVENT_UPDATE_NAME		2	/* enum perf_event_update_type */
#define PERF_RECORD_MISC_KERNEL		1
#define PERF_RECORD_MISC_USER		2
#define PERF_RECORD_MISC_BUILD_ID_SIZE	BIT(15)
#define PERF_RECORD_MISC_EXACT_IP	BIT(14)
/* Marks the start of the user part of a callchain (perf's
 * PERF_CONTEXT_USER = (u64)-512). */
#define PERF_CONTEXT_USER	((u64)-512)

/* Feature bits (enum HEADER_* in tools/perf/util/header.h). */
#define HEADER_HOSTNAME		3
#define HEADER_OSRELEASE	4
#define HEADER_VERSION		5
#define HEADER_ARCH		6
#define HEADER_NRCPUS		7
#define HEADER_CPUDESC		8
#define HEADER_CPUID		9
#define HEADER_BUILD_ID		2
#define HEADER_TOTAL_MEM	10
#define HEADER_CMDLINE		11
#define HEADER_EVENT_DESC	12
#define HEADER_CPU_TOPOLOGY	13
#define HEADER_NUMA_TOPOLOGY	14
#define HEADER_PMU_MAPPINGS	16
#define HEADER_GROUP_DESC	17
#define HEADER_CACHE		20
#define HEADER_SAMPLE_TIME	21
#define HEADER_MEM_TOPOLOGY	22
#define HEADER_CLOCKID		23
#define HEADER_CPU_PMU_CAPS	28
#define HEADER_CLOCK_DATA	29
#define HEADER_PMU_CAPS		31

#define PERFDATA_HEADER_SIZE	104
#define PERFDATA_ATTR_SIZE	128	/* perf_event_attr, PERF_ATTR_SIZE_VER7 */
#define PERFDATA_FILE_ATTR_SIZE	(PERFDATA_ATTR_SIZE + 16)
#define PERFDATA_MAX_EVENTS	32
#define PERFDATA_MAX_NAME	128	/* event name as typed, with NUL */
#define PERFDATA_PID		1
/* Event i on the file's CPU k (k-th of perfdata_config.cpus) has id
 * PERFDATA_ID_BASE + i * (CPUs) + k: one id per event and CPU, as perf
 * record opens an event once per CPU. */
#define PERFDATA_ID_BASE	1000
#define PERFDATA_MAX_CPUS	256	/* CPUs a file names, and the highest number + 1 */
#define PERFDATA_MAX_BUILD_IDS	8
#define PERFDATA_BUILD_ID_MAX	20	/* bytes: a GNU build-id (SHA-1) */
#define PERFDATA_MAX_ARGS	32	/* CMDLINE words kept */

/* Where the bytes go. Both return 0 or a negative value on failure. */
struct perfdata_sink {
	/* Appends len bytes at the end of the file. */
	int (*append)(void *ctx, const void *data, size_t len);
	/* Overwrites len bytes at offset, inside what was appended already;
	 * must leave the append position at the end of the file. */
	int (*write_at)(void *ctx, u64 offset, const void *data, size_t len);
	/* Optional: cuts the file to size bytes (a failed append may have
	 * stored part of its bytes); the next append goes there. */
	int (*truncate)(void *ctx, u64 size);
	void *ctx;
};

/* One cache of a CPU (HEADER_CACHE, as Linux's sysfs cache/indexN). */
#define PERFDATA_MAX_CACHES	8
struct perfdata_cache {
	u32 level, line_size, sets, ways;
	const char *type;	/* "Data", "Instruction", "Unified" */
	u64 size;		/* bytes */
};

/* A capability of the "cpu" PMU (HEADER_CPU_PMU_CAPS), as Linux's
 * /sys/bus/event_source/devices/cpu/caps/NAME holds VALUE. */
#define PERFDATA_MAX_PMU_CAPS	4
struct perfdata_pmu_cap {
	const char *name, *value;
};

/* Description of the run; every string is optional (NULL = default or
 * feature omitted) and is read only during the call that uses it, except
 * where noted. */
struct perfdata_config {
	u64 tsc_hz;		/* TSC frequency for TIME; 0: TIME = raw TSC */
	u32 pid;		/* 0: PERFDATA_PID */
	const char *comm;	/* process name; NULL: "bareperf" */
	/* Feature sections, copied at perfdata_open. */
	const char *cpudesc;	/* CPU brand string, HEADER_CPUDESC */
	const char *cpuid;	/* "GenuineIntel,6,106,6", HEADER_CPUID */
	const char *arch;	/* NULL: "x86_64" */
	const char *hostname;	/* optional HEADER_HOSTNAME */
	const char *osrelease;	/* optional HEADER_OSRELEASE (firmware) */
	const char *version;	/* optional HEADER_VERSION (bareperf's) */
	u32 nr_cpus_online;	/* HEADER_NRCPUS; 0: feature omitted */
	u32 nr_cpus_avail;	/* 0: same as online */
	/* The command line (HEADER_CMDLINE), copied; argc 0: omitted. */
	u32 argc;
	const char *const *argv;
	u64 total_mem_kb;	/* HEADER_TOTAL_MEM and the NUMA node; 0: omitted */
	u64 free_mem_kb;	/* the NUMA node's free memory at the start */
	/* The clock (HEADER_CLOCKID, HEADER_CLOCK_DATA): the TSC read at
	 * start_tsc was wall-clock time tod_ns (ns since 1970, UTC); 0:
	 * omitted. start_tsc also times the COMM and MMAP2 records. */
	u64 start_tsc;
	u64 tod_ns;
	/* The CPUs the events count on, ascending (perf's evlist CPU map):
	 * each event has an id per CPU there, which the samples of that CPU
	 * carry, listed in the ID_INDEX record with the CPU, and the CPU_MAP
	 * record lists them. nr_cpus 0: one id per event, on any CPU (-1), as
	 * perf's --per-thread. Up to PERFDATA_MAX_CPUS, numbered below it. */
	u32 nr_cpus;
	const u32 *cpus;
	/* -a/-C: the events count every thread of their CPUs (the ids' tid
	 * -1, and the THREAD_MAP perf's dummy, pid -1); else the one process
	 * (pid, comm). */
	bool system_wide;
	/* HEADER_CACHE: one CPU's caches, up to PERFDATA_MAX_CACHES (0:
	 * omitted). Levels 1 and 2 are each CPU's own, 3 and up every CPU's,
	 * as the topology's one package of one-thread cores has them. */
	u32 nr_caches;
	const struct perfdata_cache *caches;
	/* HEADER_CPU_PMU_CAPS, up to PERFDATA_MAX_PMU_CAPS (0: none known). */
	u32 nr_pmu_caps;
	const struct perfdata_pmu_cap *pmu_caps;
};

/* One event. sample_type says which fields each sample record carries;
 * IDENTIFIER is added automatically when the file has several events. */
struct perfdata_event {
	const char *name;	/* as the user typed it, copied */
	u32 type;		/* PERF_TYPE_RAW for bareperf's raw events; from
				 * PERFDATA_TYPE_DYNAMIC on, a PMU Linux registers
				 * at run time, named by pmu_name */
	const char *pmu_name;	/* that PMU's name ("ibs_op"; a static string),
				 * for HEADER_PMU_MAPPINGS */
	u64 config, config1, config2;
	u8 precise;		/* precise_ip 0..3 (the :p count) */
	bool exclude_user;	/* ring 3 not counted (:k) */
	bool exclude_kernel;	/* ring 0 not counted (:u) */
	/* On a group's leader, the group's size (itself included; the
	 * members are the events added right after it); 0 elsewhere. */
	u32 group_size;
	bool freq;		/* sample_period is a frequency in Hz */
	u64 sample_period;	/* period, or frequency when freq */
	u64 sample_type;	/* PERF_SAMPLE_* within SUPPORTED */
};

struct perfdata;

/* Bytes of state memory the writer needs for a buffer of buf_size bytes
 * (buf_size >= PERFDATA_MIN_BUFFER). */
#define PERFDATA_MIN_BUFFER	4096
#define PERFDATA_DEFAULT_BUFFER	(64 * 1024)
size_t perfdata_mem_size(size_t buf_size);

/* Opens a writer. mem/mem_size: caller memory for the state and the output
 * buffer (mem_size >= perfdata_mem_size(PERFDATA_MIN_BUFFER), 8-byte
 * aligned); mem NULL: plat_alloc'd with a PERFDATA_DEFAULT_BUFFER buffer.
 * Returns NULL if memory is missing or too small, the sink is
 * incomplete, or the CPU list is not ascending numbers below
 * PERFDATA_MAX_CPUS. Writes nothing yet. */
struct perfdata *perfdata_open(const struct perfdata_sink *sink,
			       const struct perfdata_config *cfg,
			       void *mem, size_t mem_size);

/* Adds an event before the file starts; returns its index (0, 1, ...) in
 * the order added, which is bp_sample.event, or -1 (perfdata_error says
 * why). */
int perfdata_add_event(struct perfdata *pd, const struct perfdata_event *ev);
/* A GNU build-id for a file a mapping names (HEADER_BUILD_ID); up to
 * PERFDATA_MAX_BUILD_IDS, before perfdata_finish. */
int perfdata_build_id(struct perfdata *pd, const char *filename, const u8 *id, u32 len);
/* The perf id of event i on the file's first CPU (what LOST records
 * carry), and on CPU cpu (a sample's; the first CPU's if the file does
 * not name cpu). */
u64 perfdata_event_id(const struct perfdata *pd, u32 event);
u64 perfdata_event_cpu_id(const struct perfdata *pd, u32 event, u32 cpu);

/* Writes header, attrs and ids. Called by the first record if not before;
 * events cannot be added afterwards. */
int perfdata_start(struct perfdata *pd);

/* The image, as perf should map it: the ELF file that has the symbols
 * (recorded path; perf prefixes --symfs), the run-time address of its
 * executable PT_LOAD, its size, and pgoff = that PT_LOAD's p_offset. */
struct perfdata_mmap {
	const char *filename;
	u64 start;
	u64 len;
	u64 pgoff;
};
int perfdata_mmap2(struct perfdata *pd, const struct perfdata_mmap *m);
/* The COMM record naming the process (cfg.comm). */
int perfdata_comm(struct perfdata *pd);
/* One sample; s->event picks the attr. Fields the attr's sample_type asks
 * for but the sample does not have (flags) are written as 0. */
int perfdata_sample(struct perfdata *pd, const struct bp_sample *s);
/* Losses. perf 6.1 treats the two records differently:
 * - perfdata_lost(): PERF_RECORD_LOST {id, count}, perf's record for a
 *   full ring buffer. `perf report` counts it per event id and always
 *   prints the warning "Processed N events and lost K chunks! Check
 *   IO/CPU overload!"; its "# Total Lost Samples:" line stays 0.
 * - perfdata_lost_samples(): PERF_RECORD_LOST_SAMPLES {count}. `perf
 *   report` adds it to "# Total Lost Samples: N" in its header and warns
 *   only when more than 5% of the samples were lost.
 * bareperf writes the second for samples dropped in its ring (so the
 * header shows them) and may write the first, with the event, where the
 * per-event count matters. */
int perfdata_lost(struct perfdata *pd, u32 event, u64 count);
int perfdata_lost_samples(struct perfdata *pd, u64 count);

/* PERF_RECORD_FINISHED_ROUND (a header alone), written as perf record
 * writes it after each pass over its CPUs' buffers: perf's ordered-events
 * queue then sorts and frees what came before the previous round as it
 * reads, instead of holding the whole file until the end
 * (tools/perf/util/ordered-events.c, OE_FLUSH__ROUND). Written only when
 * samples came since the last one. The writer's contract: no sample after
 * round N+1 is older than the newest sample before round N, which a pass
 * that drains every CPU's ring keeps, as perf's own mmap pass does. */
int perfdata_finished_round(struct perfdata *pd);

/* Pushes buffered bytes to the sink and rewrites the header's data size:
 * the file is readable by perf up to here even if nothing more is written. */
int perfdata_flush(struct perfdata *pd);
/* Only the first half: buffered records to the sink, the header as it was.
 * A writer whose storage may store writes out of order (a file system's
 * cache) makes the records durable between this and perfdata_flush, so a
 * cut never meets a header that covers records not yet stored. */
int perfdata_push(struct perfdata *pd);
/* Ends the data, writes the feature sections and the final header. No
 * record may follow. */
int perfdata_finish(struct perfdata *pd);
/* After a failed write (a full disk): the records the sink took whole
 * become the file. The records still buffered are dropped (and their
 * samples with them: perfdata_samples() then counts only what the file
 * holds), the file is cut back to the end of the last whole append and
 * the header rewritten to cover it, without feature sections. The writer
 * goes on from there: perfdata_lost_samples() and perfdata_finish() may
 * still fit; if they fail, salvaging again leaves the file as readable as
 * before. perfdata_error() keeps the first failure. Returns 0 when the
 * file is a perf.data perf reads; needs the sink's truncate and the file
 * started with its header, attrs and ids stored. */
int perfdata_salvage(struct perfdata *pd);
/* Frees plat_alloc'd state (nothing for caller memory). Does not finish. */
void perfdata_close(struct perfdata *pd);

/* 0, or the first error (negative) that stopped the writer; once set every
 * call returns it. perfdata_error() says what went wrong ("" if nothing). */
int perfdata_status(const struct perfdata *pd);
const char *perfdata_error(const struct perfdata *pd);

/* Statistics: bytes written so far (file size once flushed) and records. */
u64 perfdata_bytes(const struct perfdata *pd);
u64 perfdata_samples(const struct perfdata *pd);

/* A sink into caller memory: an append that does not fit stores what fits
 * and fails, as a full disk does. */
struct perfdata_mem_sink {
	u8 *buf;
	size_t cap;
	size_t len;
};
void perfdata_mem_sink_init(struct perfdata_sink *sink,
			    struct perfdata_mem_sink *m, void *buf, size_t cap);

#endif
