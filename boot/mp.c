#include "efi.h"
#include "mp.h"

EFI_MP_SERVICES_PROTOCOL *mp_services(void)
{
	static EFI_GUID guid = EFI_MP_SERVICES_PROTOCOL_GUID;
	static EFI_MP_SERVICES_PROTOCOL *mp;
	static bool looked;
	if (!looked) {
		looked = true;
		if (uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (void **)&mp) != EFI_SUCCESS)
			mp = NULL;
	}
	return mp;
}
