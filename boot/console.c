/* Console output: the UEFI console (ConOut) and the first serial port.
 * When the firmware already mirrors ConOut to a UART (its "ConOut" variable
 * holds a UART device path node, as OVMF's does), writing COM1 directly
 * would print everything twice, so we write COM1 only when ConOut does not
 * reach a serial port. */
#include "efi.h"
#include "../lib/out.h"
#include "../lib/plat.h"

#define COM1_PORT      0x3F8
#define UART_THR       0	/* transmit holding register */
#define UART_LSR       5	/* line status register */
#define UART_LSR_THRE  0x20	/* transmit holding register empty */
#define UART_SPIN_MAX  100000	/* give up on a missing UART */

static bool serial_direct;
static bool serial_dead;

static bool device_path_has_uart(EFI_DEVICE_PATH *dp, UINTN size)
{
	u8 *p = (u8 *)dp, *end = p + size;
	while (p + 4 <= end) {
		EFI_DEVICE_PATH *node = (EFI_DEVICE_PATH *)p;
		UINTN len = DevicePathNodeLength(node);
		if (DevicePathType(node) == MESSAGING_DEVICE_PATH &&
		    DevicePathSubType(node) == MSG_UART_DP)
			return true;
		if (len < 4)
			break;
		p += len;
	}
	return false;
}

static bool conout_reaches_serial(void)
{
	UINTN size = 0;
	void *buf = LibGetVariableAndSize(L"ConOut", &EfiGlobalVariable, &size);
	if (!buf)
		return false;
	bool uart = device_path_has_uart(buf, size);
	FreePool(buf);
	return uart;
}

/* A transcript of the console, written to \bareperf\console.log on exit,
 * so results survive on the USB stick of a machine without serial. */
#define TRANSCRIPT_MAX (256 * 1024)
static char *transcript;	/* pool memory: a static array would bloat the image */
static size_t transcript_len;
static bool transcript_cut;

void console_init(void)
{
	serial_direct = !conout_reaches_serial();
	transcript = plat_alloc(TRANSCRIPT_MAX);
}

static void serial_putc(char c)
{
	for (unsigned spin = 0; !(inb(COM1_PORT + UART_LSR) & UART_LSR_THRE); spin++) {
		if (spin > UART_SPIN_MAX) {
			serial_dead = true;
			return;
		}
	}
	outb(COM1_PORT + UART_THR, (u8)c);
}

static void conout_write(const char *s, size_t len)
{
	CHAR16 buf[129];
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			buf[n++] = L'\r';
		buf[n++] = (CHAR16)(u8)s[i];
		if (n >= 127 || i + 1 == len) {
			buf[n] = 0;
			uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, buf);
			n = 0;
		}
	}
}

static void transcript_add(const char *s, size_t len)
{
	if (!transcript)
		return;
	size_t room = TRANSCRIPT_MAX - transcript_len;
	if (len > room) {
		len = room;
		transcript_cut = true;
	}
	for (size_t i = 0; i < len; i++)
		transcript[transcript_len++] = s[i];
}

void console_save_transcript(void)
{
	static const char cut[] = "[console.log cut: transcript buffer full]\n";
	/* A network boot keeps files in memory, freed at the exit: the
	 * console's log is the lab's, not a file nobody will read. */
	if (!transcript_len || plat_files_in_memory())
		return;
	if (plat_file_write("console.log", transcript, transcript_len) != 0) {
		transcript_len = 0;	/* the line below is no transcript */
		err_printf("bareperf: \\bareperf\\console.log was not saved: %s\n", plat_file_error());
		return;
	}
	if (transcript_cut)
		plat_file_append("console.log", cut, sizeof(cut) - 1);
}

void plat_console_write(const char *s, size_t len)
{
	transcript_add(s, len);
	conout_write(s, len);
	if (!serial_direct || serial_dead)
		return;
	for (size_t i = 0; i < len && !serial_dead; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

/* Straight to the UART, whether ConOut reaches it or not: a file sent
 * over the line would take minutes on a graphics console and fill the
 * transcript. Both writers run on this CPU, one after the other, so their
 * lines do not mix. */
int plat_serial_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len && !serial_dead; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
	return serial_dead ? -1 : 0;
}

const char *plat_serial_error(void)
{
	return serial_dead ? "no UART takes bytes at COM1 (I/O port 0x3F8): its transmit "
			     "register stayed full" : "";
}

void plat_error_write(const char *s, size_t len)
{
	plat_console_write(s, len);
}
