/* UEFI protocols gnu-efi does not define, as the UEFI specification
 * (2.5 and later) names them: EFI_HTTP_PROTOCOL and its service binding
 * ("EFI HTTP Protocols"), and EFI_IP4_CONFIG2_PROTOCOL ("EFI IPv4
 * Configuration II Protocol"), with the status codes they return. Only
 * boot/net_http.c includes this. */
#ifndef BP_BOOT_EFI_HTTP_H
#define BP_BOOT_EFI_HTTP_H
#include "efi.h"

#define EFI_HTTP_SERVICE_BINDING_PROTOCOL_GUID \
	{ 0xbdc8e6af, 0xd9bc, 0x4379, { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } }
#define EFI_HTTP_PROTOCOL_GUID \
	{ 0x7a59b29b, 0x910b, 0x4171, { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } }
#define EFI_IP4_CONFIG2_PROTOCOL_GUID \
	{ 0x5b446ed1, 0xe30b, 0x4faa, { 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80 } }

/* Appendix D, status codes of the network protocols. */
#define EFI_HTTP_ERROR          EFIERR(35)
#define EFI_CONNECTION_FIN      EFIERR(104)
#define EFI_CONNECTION_RESET    EFIERR(105)
#define EFI_CONNECTION_REFUSED  EFIERR(106)

typedef enum { HttpVersion10, HttpVersion11, HttpVersionUnsupported } EFI_HTTP_VERSION;
typedef enum {
	HttpMethodGet, HttpMethodPost, HttpMethodPatch, HttpMethodOptions, HttpMethodConnect,
	HttpMethodHead, HttpMethodPut, HttpMethodDelete, HttpMethodTrace, HttpMethodMax
} EFI_HTTP_METHOD;
/* EFI_HTTP_STATUS_CODE: an enumeration, not the number; net_http.c maps
 * it back (http_status_numbers[]). */
typedef UINT32 EFI_HTTP_STATUS_CODE;

typedef struct {
	BOOLEAN UseDefaultAddress;
	EFI_IPv4_ADDRESS LocalAddress;
	EFI_IPv4_ADDRESS LocalSubnet;
	UINT16 LocalPort;
} EFI_HTTPv4_ACCESS_POINT;

typedef struct {
	EFI_HTTP_VERSION HttpVersion;
	UINT32 TimeOutMillisec;
	BOOLEAN LocalAddressIsIPv6;
	union {
		EFI_HTTPv4_ACCESS_POINT *IPv4Node;
		void *IPv6Node;
	} AccessPoint;
} EFI_HTTP_CONFIG_DATA;

typedef struct {
	EFI_HTTP_METHOD Method;
	CHAR16 *Url;
} EFI_HTTP_REQUEST_DATA;

typedef struct {
	EFI_HTTP_STATUS_CODE StatusCode;
} EFI_HTTP_RESPONSE_DATA;

typedef struct {
	CHAR8 *FieldName;
	CHAR8 *FieldValue;
} EFI_HTTP_HEADER;

typedef struct {
	union {
		EFI_HTTP_REQUEST_DATA *Request;
		EFI_HTTP_RESPONSE_DATA *Response;
	} Data;
	UINTN HeaderCount;
	EFI_HTTP_HEADER *Headers;
	UINTN BodyLength;
	VOID *Body;
} EFI_HTTP_MESSAGE;

typedef struct {
	EFI_EVENT Event;
	EFI_STATUS Status;
	EFI_HTTP_MESSAGE *Message;
} EFI_HTTP_TOKEN;

typedef struct _EFI_HTTP_PROTOCOL EFI_HTTP_PROTOCOL;
struct _EFI_HTTP_PROTOCOL {
	EFI_STATUS (EFIAPI *GetModeData)(EFI_HTTP_PROTOCOL *This, EFI_HTTP_CONFIG_DATA *Data);
	EFI_STATUS (EFIAPI *Configure)(EFI_HTTP_PROTOCOL *This, EFI_HTTP_CONFIG_DATA *Data);
	EFI_STATUS (EFIAPI *Request)(EFI_HTTP_PROTOCOL *This, EFI_HTTP_TOKEN *Token);
	EFI_STATUS (EFIAPI *Cancel)(EFI_HTTP_PROTOCOL *This, EFI_HTTP_TOKEN *Token);
	EFI_STATUS (EFIAPI *Response)(EFI_HTTP_PROTOCOL *This, EFI_HTTP_TOKEN *Token);
	EFI_STATUS (EFIAPI *Poll)(EFI_HTTP_PROTOCOL *This);
};

typedef enum {
	Ip4Config2DataTypeInterfaceInfo,
	Ip4Config2DataTypePolicy,
	Ip4Config2DataTypeManualAddress,
	Ip4Config2DataTypeGateway,
	Ip4Config2DataTypeDnsServer,
	Ip4Config2DataTypeMaximum
} EFI_IP4_CONFIG2_DATA_TYPE;

typedef enum { Ip4Config2PolicyStatic, Ip4Config2PolicyDhcp, Ip4Config2PolicyMax } EFI_IP4_CONFIG2_POLICY;

typedef struct {
	CHAR16 Name[32];
	UINT8 IfType;
	UINT32 HwAddressSize;
	EFI_MAC_ADDRESS HwAddress;
	EFI_IPv4_ADDRESS StationAddress;
	EFI_IPv4_ADDRESS SubnetMask;
	UINT32 RouteTableSize;
	void *RouteTable;
} EFI_IP4_CONFIG2_INTERFACE_INFO;

typedef struct _EFI_IP4_CONFIG2_PROTOCOL EFI_IP4_CONFIG2_PROTOCOL;
struct _EFI_IP4_CONFIG2_PROTOCOL {
	EFI_STATUS (EFIAPI *SetData)(EFI_IP4_CONFIG2_PROTOCOL *This,
				     EFI_IP4_CONFIG2_DATA_TYPE DataType, UINTN DataSize, VOID *Data);
	EFI_STATUS (EFIAPI *GetData)(EFI_IP4_CONFIG2_PROTOCOL *This,
				     EFI_IP4_CONFIG2_DATA_TYPE DataType, UINTN *DataSize, VOID *Data);
	EFI_STATUS (EFIAPI *RegisterDataNotify)(EFI_IP4_CONFIG2_PROTOCOL *This,
						EFI_IP4_CONFIG2_DATA_TYPE DataType, EFI_EVENT Event);
	EFI_STATUS (EFIAPI *UnregisterDataNotify)(EFI_IP4_CONFIG2_PROTOCOL *This,
						  EFI_IP4_CONFIG2_DATA_TYPE DataType, EFI_EVENT Event);
};

#endif
