/* Platform services: what the shared code needs from its environment,
 * implemented once by the UEFI image (boot/plat_efi.c) and once by the host
 * twin (host/plat_host.c). Nothing here touches the PMU: that is the
 * hardware seam in arch/hw.h. */
#ifndef BP_PLAT_H
#define BP_PLAT_H
#include "types.h"

/* Console: bytes to the user (UEFI ConOut and COM1; stdout on the host). */
void plat_console_write(const char *s, size_t len);
/* Diagnostics (stderr on the host; the console in the image). */
void plat_error_write(const char *s, size_t len);
/* Bytes to the serial line alone, for what a console log must carry but
 * the screen and console.log need not (files sent with cmd/send.h): the
 * image writes COM1's UART (0x3F8) directly, '\n' as "\r\n"; the host
 * twin appends to the file $BAREPERF_SERIAL names, else stdout. Returns 0,
 * or -1 when no UART takes the bytes (plat_serial_error() says why). */
int plat_serial_write(const char *s, size_t len);
const char *plat_serial_error(void);

/* An HTTP PUT of len bytes to u (url_text as given), for a recording sent
 * off the machine: the firmware's EFI_HTTP_PROTOCOL in the image (DHCP
 * when the NIC has no address yet), a socket in the host twin. Returns 0
 * when the server answered 2xx; else -1 with why naming the step that
 * failed (no network stack, no address, the connection, the server's
 * answer, e.g. "the server answered 500 Internal Server Error"). */
struct url;
int plat_http_put(const struct url *u, const char *url_text, const void *data, size_t len,
		  char *why, size_t cap);

/* Files, by path relative to the tool's output folder (\bareperf\ on the
 * ESP; a folder on the host, where an absolute path is also taken as it
 * is). '/' and '\' separate components; a name that would leave the folder
 * ("..", an absolute one in the image) or write a .efi file is refused
 * (lib/path.h). Reading needs no write access to the volume. Returns 0 or
 * a negative value on failure, and plat_file_error() says why. */
/* 0 when name may be used for a file of the output folder (to write it,
 * when write); else -1 with why, a phrase to follow "NAME: ". */
int plat_file_check(const char *name, bool write, char *why, size_t cap);
/* Why the last plat_file_* call that failed did: the firmware's EFI_STATUS
 * named (e.g. "EFI_WRITE_PROTECTED: the volume is read-only"), the host's
 * errno as text, or why the name was refused. */
const char *plat_file_error(void);
int plat_file_write(const char *path, const void *data, size_t len);
int plat_file_append(const char *path, const void *data, size_t len);
/* Reads up to cap bytes; returns the bytes read or a negative value. */
long plat_file_read(const char *path, void *buf, size_t cap);
/* Renames file `from` to `to` (same volume), replacing `to` if it
 * exists. Returns 0 or negative (`from` missing, or the rename refused). */
int plat_file_rename(const char *from, const char *to);
/* Size of a file in bytes, or a negative value if it cannot be opened. */
long plat_file_size(const char *path);
/* Deletes a file. Returns 0 or negative. */
int plat_file_delete(const char *path);
/* Whether the output folder is in memory (a boot device without a file
 * system: lib/memfs.h), so a file not sent is lost when the run ends. */
bool plat_files_in_memory(void);

/* Streaming files, for output that grows during a run (perf.data) and
 * input bigger than a memory buffer. Paths as above.
 * UEFI: EFI_FILE_PROTOCOL may only be called at TPL_APPLICATION or
 * TPL_CALLBACK (UEFI spec, "EFI_FILE_PROTOCOL"), so these run from the main
 * flow or a timer event at TPL_CALLBACK, never from an interrupt handler
 * or a TPL_NOTIFY event. Not reentrant per file. */
struct plat_file;
/* Creates path (truncating an existing file) for writing; NULL on failure. */
struct plat_file *plat_file_create(const char *path);
/* Opens an existing file for plat_file_read_at; NULL if it cannot. */
struct plat_file *plat_file_open_read(const char *path);
/* Appends len bytes at the end of the file. Returns 0 or negative. */
int plat_file_append_to(struct plat_file *f, const void *data, size_t len);
/* Overwrites len bytes at off (inside or at the end of what was written),
 * then goes back to the end, so the next append continues there. */
int plat_file_write_at(struct plat_file *f, u64 off, const void *data, size_t len);
/* Cuts the file to size bytes (at most what it holds); appends go on
 * from there. Returns 0 or negative. */
int plat_file_truncate(struct plat_file *f, u64 size);
/* Reads up to len bytes at off; returns the bytes read (0 at the end of
 * the file) or a negative value. */
long plat_file_read_at(struct plat_file *f, u64 off, void *buf, size_t len);
/* Pushes written bytes to the medium (UEFI Flush(); fsync on the host), so
 * they survive a reset or a kill. */
int plat_file_sync(struct plat_file *f);
/* Closes and frees f (NULL is fine); returns 0 or negative if the final
 * write-back failed. */
int plat_file_close(struct plat_file *f);

/* Memory that the firmware will not reuse while we run. Page allocations
 * are 4 KiB aligned. Returns NULL on failure. */
void *plat_alloc(size_t size);
void plat_free(void *p);
void *plat_alloc_pages(size_t pages);
void plat_free_pages(void *p, size_t pages);

/* Time: a monotonic cycle counter and its frequency (Hz, 0 if unknown). */
u64 plat_ticks(void);
u64 plat_ticks_per_second(void);
/* The time this CPU ran our code, in plat_ticks units: on the machine
 * plat_ticks itself; in the host twin the thread's CPU time, so that the
 * time the host gave other processes is not charged to whatever
 * instruction the next tick interrupts (the emulated PMU's drive). */
u64 plat_run_ticks(void);

/* Description of the firmware or host, for `info`. */
const char *plat_firmware_vendor(void);
u32 plat_firmware_revision(void);
/* The machine, as perf.data's header describes it (HOSTNAME, TOTAL_MEM,
 * CLOCK_DATA, BUILD_ID). The image: SMBIOS's system product name, the
 * firmware's memory map, its real-time clock and bareperf.elf's GNU
 * build-id; the host: its own. Each says "unknown" as "" or 0. */
void plat_hostname(char *out, size_t cap);
u64 plat_memory_kb(void);
u64 plat_free_memory_kb(void);	/* free now (the firmware: EfiConventionalMemory) */
u64 plat_wallclock_ns(void);		/* ns since 1970-01-01 UTC */
u32 plat_image_build_id(u8 *out, u32 cap);	/* bytes, for plat_image_path() */
/* Number of logical CPUs (UEFI MP services; sysconf on the host). */
u32 plat_cpu_count(void);

/* Interrupts off on this CPU (plat_irqs_off returns what to give back to
 * plat_irqs_restore): for workloads that stand for firmware code run with
 * interrupts off. The host twin's process cannot: there both do nothing. */
u64 plat_irqs_off(void);
void plat_irqs_restore(u64 flags);

/* Interrupts. The frame is the interrupted context. */
struct plat_irq_frame {
	u64 ip, sp, bp;
};
typedef void (*plat_irq_fn)(const struct plat_irq_frame *f, void *ctx);
/* A periodic tick: the HPET through the IOAPIC in the image, SIGALRM
 * (ITIMER_REAL) on the host. Returns 0, or -1 with *why. */
int plat_tick_start(u32 period_us, plat_irq_fn fn, void *ctx, const char **why);
void plat_tick_stop(void);
/* The PMI's handler, one function whichever way the PMI is delivered: it
 * returns whether the PMI was the PMU's (what an NMI gate needs to know;
 * a fixed vector's gate ignores it). */
typedef bool (*plat_pmi_fn)(const struct plat_irq_frame *f, void *ctx);
/* Through an IDT gate in the image. The vector is what LVT PC must be
 * programmed with. */
u8 plat_pmi_install(plat_pmi_fn fn, void *ctx);
/* The PMI as an NMI (LVT PC in NMI delivery mode, as Linux delivers it):
 * taken where interrupts are off too. An NMI that was not the PMU's (fn
 * returns false) goes on to the firmware's NMI handler. Returns the
 * gate's vector (2); plat_pmi_remove() puts the firmware's back. */
u8 plat_pmi_install_nmi(plat_pmi_fn fn, void *ctx);
void plat_pmi_remove(void);
/* A periodic callback outside interrupt context: a UEFI timer event at
 * TPL_CALLBACK in the image (it may print), a POSIX timer signal on the
 * host. Multiplexing rotation and `stat -I` run from it. One at a time. */
typedef void (*plat_timer_fn)(void *ctx);
int plat_timer_start(u32 period_ms, plat_timer_fn fn, void *ctx);
void plat_timer_stop(void);

/* Runs fn(ctx) on every exit path, plat_abort() included, last registered
 * first, so the machine is left as found. The same fn and ctx again keep
 * their first place (bench opens the PMU once per run). Returns -1 when
 * full. */
int plat_on_exit(void (*fn)(void *ctx), void *ctx);
/* Drops the exit hooks whose ctx lies in [ctx, ctx + len): memory about
 * to be freed, whose owner already undid what the hooks would. */
void plat_on_exit_forget(const void *ctx, size_t len);

/* The backend behind `--pmu=hw`: the real CPU in the image; on the host,
 * the host CPU's CPUID with every MSR access refused (user space cannot
 * reach MSRs). */
struct hw_ops;
const struct hw_ops *plat_hw_ops(void);
/* Run-time address that the image's link addresses are relative to:
 * boot_loaded_image->ImageBase in the image; the load bias of the
 * executable on the host (0 unless it is position independent). Symbol
 * addresses in perfdata/symtab.h are link addresses: rel = ip - plat_image_base(). */
u64 plat_image_base(void);
/* The file with our symbols, as a recording's MMAP2 names it: "/bareperf.elf"
 * for the image (perf report --symfs build/ finds build/bareperf.elf); the
 * executable's own path on the host. */
const char *plat_image_path(void);
/* A short description of where we run, e.g. "UEFI" or "host". */
const char *plat_name(void);

/* ---- other programs' images, and firmware work to measure -------------
 * A loaded program image as a recording maps it: [base, base + size) holds
 * the file from offset pgoff on (a UEFI image: base = ImageBase, pgoff 0,
 * RVAs are the offsets), named after the file with its symbols. */
#define PLAT_IMAGE_NAME_MAX 256
struct plat_image_info {
	u64 base, size, pgoff;
	char name[PLAT_IMAGE_NAME_MAX];
};
typedef void (*plat_image_fn)(const struct plat_image_info *img, void *ctx);
/* Calls fn for every loaded image except our own (plat_image_base()): the
 * handles with EFI_LOADED_IMAGE_PROTOCOL, named by their PE/COFF debug
 * directory, else their firmware file, else their device path, else
 * "[firmware/image@0x..." (boot/image.c); on the host, the executable
 * mappings of /proc/self/maps. Returns how many, or -1. */
int plat_foreach_image(plat_image_fn fn, void *ctx);
/* What a recording names the addresses outside every image: "[firmware]"
 * in the image (the firmware's own code and data outside any PE image);
 * NULL on the host, where such addresses are the kernel's. */
const char *plat_unmapped_name(void);

/* Another program run under measurement (UEFI: LoadImage of a file on the
 * boot volume, StartImage). path uses '\' or '/'; argv[0..argc) become
 * its LoadOptions (UCS-2, the file name first, as the shell passes them).
 * The host twin cannot: NULL with err saying so. */
struct plat_app;
struct plat_app *plat_app_load(const char *path, int argc, char **argv,
			       struct plat_image_info *info, char *err, size_t errlen);
/* Runs it to its end and frees it. Returns 0 when it ran, with its exit
 * status (an EFI_STATUS) in *status and that status as text in what;
 * -1 with what saying why it could not run. */
int plat_app_run(struct plat_app *app, u64 *status, char *what, size_t whatlen);
/* Frees an app that was loaded but not run. */
void plat_app_unload(struct plat_app *app);

/* ConnectController(handle, NULL, NULL, recursive) on every handle: the
 * firmware connects every driver to every controller. Returns the handles
 * visited, or -1 with err. */
long plat_connect_all(char *err, size_t errlen);
/* Calls one boot service loops times with harmless arguments, for driver
 * authors: AllocatePages (each with its FreePages; "FreePages" is the same
 * loop), LocateHandleBuffer (all handles), ConnectController (the next
 * handle, not recursive), GetVariable (BootOrder). Returns 0, or with err
 * -1 when nothing ran (the first call failed, or the host twin cannot)
 * and -2 when a later call failed. */
#define PLAT_BOOT_SERVICES "AllocatePages, FreePages, LocateHandleBuffer, " \
	"ConnectController, GetVariable"
bool plat_boot_service_known(const char *name);
int plat_boot_service_loop(const char *name, u64 loops, char *err, size_t errlen);

/* ---- every CPU -----------------------------------------------------------
 * CPUs are numbered as UEFI MP services number them, 0 to plat_cpu_count()
 * - 1; the command runs on the BSP. The host twin has its own CPU only. */
u32 plat_cpu_self(void);
/* Runs fn(ctx) on cpu and returns when it is done: inline when cpu is
 * this CPU, else on that CPU through MP services (StartupThisAP, blocking;
 * from the BSP only). Returns 0, or -1 with *why. Code on another CPU must
 * not call firmware services: plat_alloc and plat_alloc_pages there take
 * memory from the CPU's reservation (plat_cpu_reserve), and plat_free of
 * reserved memory does nothing. */
int plat_run_on(u32 cpu, void (*fn)(void *ctx), void *ctx, const char **why);
/* Sets bytes aside for cpu's allocations (BSP only); plat_cpu_release
 * gives them back once nothing there is used any more. 0 or -1. */
int plat_cpu_reserve(u32 cpu, size_t bytes);
void plat_cpu_release(u32 cpu);
/* Starts fn(ctx) on every other CPU at once, without waiting
 * (StartupAllAPs, non-blocking); plat_aps_wait() returns when all have
 * returned. fn must not call firmware services. 0, or -1 with *why. */
int plat_aps_start(void (*fn)(void *ctx), void *ctx, const char **why);
void plat_aps_wait(void);
/* On an AP, inside plat_aps_start's fn: interrupts on for a sampling
 * window. MP services run the procedure with interrupts off; every AP
 * procedure runs on an IDT of the AP's own that holds the gates bareperf
 * installed on the BSP (PMI, #GP probe), so the window opens only where
 * those are in place. _end puts back the interrupt flag it found. */
struct plat_ap_window {
	bool interrupts_were_on;
	bool open;
};
void plat_ap_window_begin(struct plat_ap_window *w);
void plat_ap_window_end(const struct plat_ap_window *w);

/* ---- an OS loader taking over ---------------------------------------------
 * While fn is set, an application that calls ExitBootServices (an OS
 * loader) first has fn(ctx) run inside that call, with every boot service
 * still there: the command ends in it (stops sampling, writes its file).
 * Then every exit hook runs (PMU, DS area, LVT PC, IDT put back) and the
 * firmware's ExitBootServices goes on; bareperf never runs again.
 * plat_before_os(NULL, NULL) puts the firmware's entry back. */
void plat_before_os(void (*fn)(void *ctx), void *ctx);

/* Ends the program after a fatal error (a fault of the hardware seam, a
 * broken invariant): restores what the tool changed, then exits with
 * status 1. Never returns. */
__attribute__((noreturn)) void plat_abort(const char *why);

#endif
