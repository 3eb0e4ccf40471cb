/* A network boot's command line: the file bareperf/cmdline beside the
 * image on the server it came from. After a PXE boot, read over TFTP with
 * the firmware's PXE base code (UEFI spec, EFI_PXE_BASE_CODE_PROTOCOL.
 * Mtftp()) on the device the image was loaded from, the server and the
 * image's path those of the DHCP answer the firmware booted with (its
 * siaddr and file fields, or a proxy DHCP offer's). After a UEFI HTTP
 * boot, fetched by HTTP from beside the URI the boot device's path ends
 * with (UEFI spec, "URI Device Path"). */
#include "efi.h"
#include "../lib/fmt.h"
#include "../lib/out.h"
#include "../lib/str.h"
#include "../lib/url.h"

#define CMDLINE_NAME "bareperf/cmdline"

/* The DHCP packet that named the boot file: the ACK's, else a proxy's. */
static const EFI_PXE_BASE_CODE_DHCPV4_PACKET *boot_packet(const EFI_PXE_BASE_CODE_MODE *m)
{
	const EFI_PXE_BASE_CODE_DHCPV4_PACKET *ack = &m->DhcpAck.Dhcpv4;
	if (m->DhcpAckReceived && ack->BootpBootFile[0])
		return ack;
	if (m->ProxyOfferReceived && m->ProxyOffer.Dhcpv4.BootpBootFile[0])
		return &m->ProxyOffer.Dhcpv4;
	return NULL;
}

/* "dir/of/the/image.efi" -> "dir/of/the/bareperf/cmdline". */
static void cmdline_path(const u8 *boot_file, char *out, size_t cap)
{
	size_t dir = 0;
	for (size_t i = 0; i < 128 && boot_file[i]; i++)
		if (boot_file[i] == '/')
			dir = i + 1;
	bp_snprintf(out, cap, "%.*s%s", (int)dir, (const char *)boot_file, CMDLINE_NAME);
}

/* The URI node of the device the image was loaded from, into out. */
static bool boot_uri(char *out, size_t cap)
{
	EFI_DEVICE_PATH *dp = boot_loaded_image ? DevicePathFromHandle(boot_loaded_image->DeviceHandle)
						: NULL;
	for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
		if (DevicePathType(dp) != MESSAGING_DEVICE_PATH || DevicePathSubType(dp) != MSG_URI_DP)
			continue;
		size_t len = DevicePathNodeLength(dp) - sizeof(EFI_DEVICE_PATH);
		if (len == 0 || len >= cap)
			return false;
		bp_memcpy(out, ((URI_DEVICE_PATH *)dp)->Uri, len);
		out[len] = 0;
		return true;
	}
	return false;
}

static long http_boot_cmdline(u8 *buf, size_t cap, char *where, size_t where_cap, bool *too_long)
{
	char uri[URL_MAX], why[192];
	if (!boot_uri(uri, sizeof(uri)))
		return -1;
	size_t dir = 0;
	for (size_t i = 0; uri[i]; i++)
		if (uri[i] == '/')
			dir = i + 1;
	bp_snprintf(where, where_cap, "%.*s%s", (int)dir, uri, CMDLINE_NAME);
	long n = net_http_get(where, buf, cap, why, sizeof(why));
	if (n < 0)
		err_printf("bareperf: no command line from %s: %s\n", where, why);
	*too_long = n == (long)cap;
	return n;
}

long net_boot_cmdline(u8 *buf, size_t cap, char *where, size_t where_cap, bool *too_long)
{
	long n = http_boot_cmdline(buf, cap, where, where_cap, too_long);
	if (n >= 0)
		return n;
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;
	*too_long = false;
	if (!boot_loaded_image ||
	    uefi_call_wrapper(BS->HandleProtocol, 3, boot_loaded_image->DeviceHandle,
			      &PxeBaseCodeProtocol, (void **)&pxe) != EFI_SUCCESS ||
	    !pxe->Mode || !pxe->Mode->Started || pxe->Mode->UsingIpv6)
		return -1;
	const EFI_PXE_BASE_CODE_DHCPV4_PACKET *p = boot_packet(pxe->Mode);
	if (!p)
		return -1;
	char name[160];
	EFI_IP_ADDRESS server = { 0 };
	bp_memcpy(server.v4.Addr, p->BootpSiAddr, 4);
	cmdline_path(p->BootpBootFile, name, sizeof(name));
	bp_snprintf(where, where_cap, "tftp://%u.%u.%u.%u/%s", p->BootpSiAddr[0],
		    p->BootpSiAddr[1], p->BootpSiAddr[2], p->BootpSiAddr[3], name);
	UINT64 size = cap;
	EFI_STATUS st = uefi_call_wrapper(pxe->Mtftp, 10, pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE,
					  buf, FALSE, &size, NULL, &server, (UINT8 *)name, NULL,
					  FALSE);
	if (st == EFI_BUFFER_TOO_SMALL) {
		*too_long = true;
		return (long)cap;
	}
	return st == EFI_SUCCESS ? (long)size : -1;
}
