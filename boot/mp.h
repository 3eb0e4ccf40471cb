/* EFI_MP_SERVICES_PROTOCOL (UEFI PI spec, vol. 2), which GNU-EFI lacks.
 * Only the members bareperf calls are typed; the rest keep their slots. */
#ifndef BP_BOOT_MP_H
#define BP_BOOT_MP_H
#include <efi.h>

#define EFI_MP_SERVICES_PROTOCOL_GUID \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

typedef struct _EFI_MP_SERVICES_PROTOCOL EFI_MP_SERVICES_PROTOCOL;
typedef VOID (EFIAPI *EFI_AP_PROCEDURE)(VOID *arg);

struct _EFI_MP_SERVICES_PROTOCOL {
	EFI_STATUS (EFIAPI *GetNumberOfProcessors)(EFI_MP_SERVICES_PROTOCOL *self,
						   UINTN *total, UINTN *enabled);
	VOID *GetProcessorInfo;
	EFI_STATUS (EFIAPI *StartupAllAPs)(EFI_MP_SERVICES_PROTOCOL *self,
					   EFI_AP_PROCEDURE proc, BOOLEAN single_thread,
					   EFI_EVENT wait_event, UINTN timeout_us,
					   VOID *arg, UINTN **failed);
	EFI_STATUS (EFIAPI *StartupThisAP)(EFI_MP_SERVICES_PROTOCOL *self,
					   EFI_AP_PROCEDURE proc, UINTN cpu,
					   EFI_EVENT wait_event, UINTN timeout_us,
					   VOID *arg, BOOLEAN *finished);
	VOID *SwitchBSP;
	VOID *EnableDisableAP;
	EFI_STATUS (EFIAPI *WhoAmI)(EFI_MP_SERVICES_PROTOCOL *self, UINTN *cpu);
};

/* NULL when the firmware has no MP services. */
EFI_MP_SERVICES_PROTOCOL *mp_services(void);
/* Memory for code plat_run_on runs on an AP: *from_arena says whether
 * such code runs now (then the result, possibly NULL, is the answer). */
void *mp_arena_alloc(size_t size, size_t align, bool *from_arena);
bool mp_in_arena(const void *p);
/* On leaving the image: frees the APs' interrupt tables unless an AP that
 * never came back may still run on one. */
void mp_release(void);

#endif
