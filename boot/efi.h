/* Shared state of the UEFI side of the image: the firmware tables and the
 * handles the other boot/ files need. Only boot/ includes this. */
#ifndef BP_BOOT_EFI_H
#define BP_BOOT_EFI_H
#include <efi.h>
#include <efilib.h>
#include "../lib/types.h"

extern EFI_HANDLE boot_image;
extern EFI_LOADED_IMAGE *boot_loaded_image;

/* console.c */
void console_init(void);
void console_save_transcript(void);
/* esp.c: closes any open file handles */
void esp_init(void);
/* esp.c: frees the files kept in memory (a boot device without a file
 * system), once nothing will read them. */
void esp_release_memory(void);
/* exit.c: LIFO undo actions that run on every exit path (normal, error,
 * abort), so the machine is left as we found it. */
typedef void (*undo_fn)(void *ctx);
int boot_on_exit(undo_fn fn, void *ctx);
void boot_on_exit_forget(const void *ctx, size_t len);
void boot_run_undo(void);
/* Before an OS loader's ExitBootServices: what boot_exit does but the
 * exit itself (undo stack, APs' tables, console transcript). */
void boot_hand_over(void);
__attribute__((noreturn)) void boot_exit(int status);
void boot_set_qemu_exit(bool on);
void boot_set_then(unsigned action);	/* enum cli_then */
/* net_boot.c: after a network boot (PXE, or UEFI HTTP boot), the file
 * bareperf/cmdline beside the image on its server, into buf; returns its
 * bytes, or -1 when the boot was none or the file is not there. where
 * gets its URL; *too_long says it did not fit in cap. */
long net_boot_cmdline(u8 *buf, size_t cap, char *where, size_t where_cap, bool *too_long);
/* net_http.c: an HTTP GET of url into buf; the bytes received, or -1 with
 * why naming the step that failed. */
long net_http_get(const char *url, void *buf, size_t cap, char *why, size_t why_cap);
/* cmdline.c: argv from LoadOptions or \bareperf\cmdline */
int boot_cmdline(int max, char **argv);

static inline void outb(u16 port, u8 v)  { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline u8 inb(u16 port)
{
	u8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

#endif
