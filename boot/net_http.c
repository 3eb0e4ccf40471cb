/* plat_http_put in the image: a PUT through the firmware's HTTP stack
 * (UEFI spec, "EFI HTTP Protocols"): find a NIC whose driver stack offers
 * EFI_HTTP_SERVICE_BINDING_PROTOCOL (connecting the NICs' drivers when
 * none does yet), give it an IPv4 address by DHCP when it has none
 * (EFI_IP4_CONFIG2_PROTOCOL, whose policy is put back afterwards), then one
 * child of the service sends the request and waits for the answer. Each
 * step that fails is named in why. */
#include "efi.h"
#include "efi_http.h"
#include "../lib/fmt.h"
#include "../lib/plat.h"
#include "../lib/str.h"
#include "../lib/url.h"

#define HTTP_TIMEOUT_MS  30000	/* to connect, send and be answered */
#define DHCP_TIMEOUT_MS  15000
#define POLL_STALL_US    1000

static EFI_GUID http_sb_guid = EFI_HTTP_SERVICE_BINDING_PROTOCOL_GUID;
static EFI_GUID http_guid = EFI_HTTP_PROTOCOL_GUID;
static EFI_GUID ip4_config2_guid = EFI_IP4_CONFIG2_PROTOCOL_GUID;

/* A status of the network protocols by its name in the spec. */
static const char *net_status(EFI_STATUS st)
{
	static char other[32];
	static const struct { EFI_STATUS st; const char *name; } names[] = {
		{ EFI_TIMEOUT, "EFI_TIMEOUT" },
		{ EFI_NO_MAPPING, "EFI_NO_MAPPING (no IPv4 address)" },
		{ EFI_DEVICE_ERROR, "EFI_DEVICE_ERROR" },
		{ EFI_ABORTED, "EFI_ABORTED" },
		{ EFI_NOT_FOUND, "EFI_NOT_FOUND (no route to the host, or no DNS)" },
		{ EFI_ACCESS_DENIED, "EFI_ACCESS_DENIED" },
		{ EFI_NO_RESPONSE, "EFI_NO_RESPONSE" },
		{ EFI_OUT_OF_RESOURCES, "EFI_OUT_OF_RESOURCES" },
		{ EFI_UNSUPPORTED, "EFI_UNSUPPORTED" },
		{ EFI_INVALID_PARAMETER, "EFI_INVALID_PARAMETER" },
		{ EFI_HTTP_ERROR, "EFI_HTTP_ERROR" },
		{ EFI_CONNECTION_FIN, "EFI_CONNECTION_FIN (the server closed the connection)" },
		{ EFI_CONNECTION_RESET, "EFI_CONNECTION_RESET (refused, or reset by the server)" },
		{ EFI_CONNECTION_REFUSED, "EFI_CONNECTION_REFUSED (nothing listens there)" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].st == st)
			return names[i].name;
	bp_snprintf(other, sizeof(other), "EFI_STATUS 0x%llx", (unsigned long long)st);
	return other;
}

/* ---- the NIC and its address ------------------------------------------ */

static EFI_HANDLE first_handle(EFI_GUID *guid, UINTN *count)
{
	EFI_HANDLE *handles = NULL, h = NULL;
	*count = 0;
	if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, guid, NULL, count,
			      &handles) != EFI_SUCCESS)
		return NULL;
	if (*count)
		h = handles[0];
	FreePool(handles);
	return h;
}

/* A firmware that booted from a disk may not have started its network
 * drivers: connecting each NIC (EFI_SIMPLE_NETWORK_PROTOCOL) recursively
 * builds the stack up to HTTP, as a network boot would have. */
static UINTN connect_nics(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &SimpleNetworkProtocol,
			      NULL, &count, &handles) != EFI_SUCCESS)
		return 0;
	for (UINTN i = 0; i < count; i++)
		uefi_call_wrapper(BS->ConnectController, 4, handles[i], NULL, NULL, TRUE);
	FreePool(handles);
	return count;
}

static EFI_HANDLE find_http_nic(char *why, size_t cap)
{
	UINTN count;
	EFI_HANDLE nic = first_handle(&http_sb_guid, &count);
	if (nic)
		return nic;
	UINTN nics = connect_nics();
	if ((nic = first_handle(&http_sb_guid, &count)) != NULL)
		return nic;
	if (!nics)
		bp_snprintf(why, cap, "no network device (no EFI_SIMPLE_NETWORK_PROTOCOL)");
	else
		bp_snprintf(why, cap, "%u network device%s, but the firmware has no HTTP stack on "
			    "them (no EFI_HTTP_SERVICE_BINDING_PROTOCOL)", (unsigned)nics,
			    nics > 1 ? "s" : "");
	return NULL;
}

static bool has_address(EFI_IP4_CONFIG2_PROTOCOL *cfg)
{
	static u8 buf[sizeof(EFI_IP4_CONFIG2_INTERFACE_INFO) + 32 * 16];
	EFI_IP4_CONFIG2_INTERFACE_INFO *info = (void *)buf;
	UINTN size = sizeof(buf);
	if (uefi_call_wrapper(cfg->GetData, 4, cfg, Ip4Config2DataTypeInterfaceInfo, &size,
			      info) != EFI_SUCCESS)
		return false;
	const u8 *a = info->StationAddress.Addr;
	return a[0] | a[1] | a[2] | a[3];
}

static u64 ms_since(u64 start)
{
	u64 hz = plat_ticks_per_second();
	return hz ? (plat_ticks() - start) * 1000 / hz : 0;
}

/* The NIC's address, by DHCP when it has none; *policy_was gets the
 * policy to put back (Ip4Config2PolicyMax: nothing to put back). */
static int ensure_address(EFI_HANDLE nic, EFI_IP4_CONFIG2_POLICY *policy_was, char *why,
			  size_t cap)
{
	EFI_IP4_CONFIG2_PROTOCOL *cfg;
	EFI_IP4_CONFIG2_POLICY policy = Ip4Config2PolicyDhcp;
	UINTN size = sizeof(*policy_was);
	*policy_was = Ip4Config2PolicyMax;
	if (uefi_call_wrapper(BS->HandleProtocol, 3, nic, &ip4_config2_guid, (void **)&cfg) !=
	    EFI_SUCCESS) {
		bp_snprintf(why, cap, "the network device has no EFI_IP4_CONFIG2_PROTOCOL");
		return -1;
	}
	if (has_address(cfg))
		return 0;
	if (uefi_call_wrapper(cfg->GetData, 4, cfg, Ip4Config2DataTypePolicy, &size, policy_was) ==
		    EFI_SUCCESS && *policy_was != Ip4Config2PolicyDhcp)
		uefi_call_wrapper(cfg->SetData, 4, cfg, Ip4Config2DataTypePolicy, sizeof(policy),
				  &policy);
	else
		*policy_was = Ip4Config2PolicyMax;
	u64 start = plat_ticks();
	while (!has_address(cfg) && ms_since(start) < DHCP_TIMEOUT_MS)
		uefi_call_wrapper(BS->Stall, 1, 100000);
	if (has_address(cfg))
		return 0;
	bp_snprintf(why, cap, "no IPv4 address: DHCP gave none in %u s", DHCP_TIMEOUT_MS / 1000);
	return -1;
}

static void put_back_policy(EFI_HANDLE nic, EFI_IP4_CONFIG2_POLICY policy)
{
	EFI_IP4_CONFIG2_PROTOCOL *cfg;
	if (policy != Ip4Config2PolicyMax &&
	    uefi_call_wrapper(BS->HandleProtocol, 3, nic, &ip4_config2_guid, (void **)&cfg) ==
		    EFI_SUCCESS)
		uefi_call_wrapper(cfg->SetData, 4, cfg, Ip4Config2DataTypePolicy, sizeof(policy),
				  &policy);
}

/* ---- one exchange -------------------------------------------------------- */

static VOID EFIAPI token_done(EFI_EVENT ev, VOID *ctx)
{
	(void)ev;
	*(volatile BOOLEAN *)ctx = TRUE;
}

/* Runs the token's operation to its end; EFI_TIMEOUT when it does not end. */
static EFI_STATUS complete(EFI_HTTP_PROTOCOL *http, EFI_HTTP_TOKEN *token, bool response)
{
	volatile BOOLEAN done = FALSE;
	EFI_STATUS st = uefi_call_wrapper(BS->CreateEvent, 5, EVT_NOTIFY_SIGNAL, TPL_CALLBACK,
					  token_done, (VOID *)&done, &token->Event);
	if (st != EFI_SUCCESS)
		return st;
	st = response ? uefi_call_wrapper(http->Response, 2, http, token)
		      : uefi_call_wrapper(http->Request, 2, http, token);
	u64 start = plat_ticks();
	while (st == EFI_SUCCESS && !done && ms_since(start) < HTTP_TIMEOUT_MS) {
		uefi_call_wrapper(http->Poll, 1, http);
		uefi_call_wrapper(BS->Stall, 1, POLL_STALL_US);
	}
	if (st == EFI_SUCCESS && !done) {
		uefi_call_wrapper(http->Cancel, 2, http, token);
		st = EFI_TIMEOUT;
	} else if (st == EFI_SUCCESS) {
		st = token->Status;
	}
	uefi_call_wrapper(BS->CloseEvent, 1, token->Event);
	return st;
}

/* EFI_HTTP_STATUS_CODE, in the spec's order, as numbers. */
static const u16 http_status_numbers[] = {
	0, 100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 307,
	400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416,
	417, 500, 501, 502, 503, 504, 505,
};

static void free_headers(EFI_HTTP_MESSAGE *m)
{
	for (UINTN i = 0; m->Headers && i < m->HeaderCount; i++) {
		FreePool(m->Headers[i].FieldName);
		FreePool(m->Headers[i].FieldValue);
	}
	if (m->Headers)
		FreePool(m->Headers);
}

/* What one exchange sends and what it keeps of the answer. */
struct http_call {
	EFI_HTTP_METHOD method;
	const void *body;	/* PUT: the request's body */
	size_t len;
	u8 *answer;		/* GET: the answer's body, up to cap bytes */
	size_t cap, got;
};

/* A header's value in the answer, or NULL. */
static const char *header_value(const EFI_HTTP_MESSAGE *m, const char *name)
{
	for (UINTN i = 0; m->Headers && i < m->HeaderCount; i++)
		if (bp_strcasecmp((const char *)m->Headers[i].FieldName, name) == 0)
			return (const char *)m->Headers[i].FieldValue;
	return NULL;
}

/* The answer's body after its head: more Response() calls, each with no
 * Data, until Content-Length bytes came or the buffer is full. */
static EFI_STATUS read_body(EFI_HTTP_PROTOCOL *http, struct http_call *c, u64 want)
{
	while (c->got < want && c->got < c->cap) {
		EFI_HTTP_MESSAGE more = { .BodyLength = c->cap - c->got, .Body = c->answer + c->got };
		EFI_HTTP_TOKEN token = { .Message = &more };
		EFI_STATUS st = complete(http, &token, true);
		if (st != EFI_SUCCESS)
			return st;
		if (!more.BodyLength)
			break;
		c->got += more.BodyLength;
	}
	return EFI_SUCCESS;
}

static int exchange(EFI_HTTP_PROTOCOL *http, const struct url *u, const char *url_text,
		    struct http_call *c, char *why, size_t cap)
{
	static CHAR16 url16[URL_MAX];
	char host[URL_HOST_MAX + 8], length[24];
	size_t n = 0;
	for (; url_text[n] && n + 1 < URL_MAX; n++)
		url16[n] = (CHAR16)(u8)url_text[n];
	url16[n] = 0;
	bp_snprintf(host, sizeof(host), "%s:%u", u->host, u->port);
	bp_snprintf(length, sizeof(length), "%llu", (unsigned long long)c->len);
	EFI_HTTP_HEADER headers[] = {
		{ (CHAR8 *)"Host", (CHAR8 *)host },
		{ (CHAR8 *)"User-Agent", (CHAR8 *)"bareperf" },
		{ (CHAR8 *)"Content-Type", (CHAR8 *)"application/octet-stream" },
		{ (CHAR8 *)"Content-Length", (CHAR8 *)length },
	};
	bool put = c->method == HttpMethodPut;
	EFI_HTTP_REQUEST_DATA request = { c->method, url16 };
	EFI_HTTP_MESSAGE msg = { .Data.Request = &request, .HeaderCount = put ? 4 : 2,
				 .Headers = headers, .BodyLength = put ? c->len : 0,
				 .Body = put ? (VOID *)c->body : NULL };
	EFI_HTTP_TOKEN token = { .Message = &msg };
	EFI_STATUS st = complete(http, &token, false);
	if (st != EFI_SUCCESS) {
		bp_snprintf(why, cap, "sending to %s: %s", host, net_status(st));
		return -1;
	}
	EFI_HTTP_RESPONSE_DATA response = { 0 };
	EFI_HTTP_MESSAGE answer = { .Data.Response = &response, .BodyLength = c->cap,
				    .Body = c->answer };
	token = (EFI_HTTP_TOKEN){ .Message = &answer };
	st = complete(http, &token, true);
	c->got = st == EFI_SUCCESS && c->answer ? answer.BodyLength : 0;
	const char *content_length = header_value(&answer, "Content-Length");
	u64 want = 0;
	for (const char *p = content_length; p && *p >= '0' && *p <= '9'; p++)
		want = want * 10 + (u64)(*p - '0');
	free_headers(&answer);
	if (st != EFI_SUCCESS && st != EFI_HTTP_ERROR) {
		bp_snprintf(why, cap, "%s gave no HTTP answer: %s", host, net_status(st));
		return -1;
	}
	u32 code = response.StatusCode < ARRAY_SIZE(http_status_numbers) ?
			   http_status_numbers[response.StatusCode] : 0;
	if (code < 200 || code > 299) {
		bp_snprintf(why, cap, code ? "the server answered %u" : "the server's answer has a "
			    "status the firmware does not know (%u)", code ? code : response.StatusCode);
		return -1;
	}
	if (c->answer && (st = read_body(http, c, want)) != EFI_SUCCESS) {
		bp_snprintf(why, cap, "reading the answer from %s: %s", host, net_status(st));
		return -1;
	}
	return 0;
}

/* One exchange with the server of u, on the first NIC with an HTTP stack. */
static int http_call(const struct url *u, const char *url_text, struct http_call *c,
		     char *why, size_t cap)
{
	EFI_IP4_CONFIG2_POLICY policy_was;
	EFI_SERVICE_BINDING *sb;
	EFI_HTTP_PROTOCOL *http;
	EFI_HANDLE child = NULL;
	EFI_HANDLE nic = find_http_nic(why, cap);
	if (!nic)
		return -1;
	if (ensure_address(nic, &policy_was, why, cap)) {
		put_back_policy(nic, policy_was);
		return -1;
	}
	int rc = -1;
	EFI_STATUS st = uefi_call_wrapper(BS->HandleProtocol, 3, nic, &http_sb_guid, (void **)&sb);
	if (st == EFI_SUCCESS)
		st = uefi_call_wrapper(sb->CreateChild, 2, sb, &child);
	if (st == EFI_SUCCESS)
		st = uefi_call_wrapper(BS->HandleProtocol, 3, child, &http_guid, (void **)&http);
	EFI_HTTPv4_ACCESS_POINT ap = { .UseDefaultAddress = TRUE };
	EFI_HTTP_CONFIG_DATA config = { HttpVersion11, HTTP_TIMEOUT_MS, FALSE, { &ap } };
	if (st == EFI_SUCCESS && (st = uefi_call_wrapper(http->Configure, 2, http, &config)) ==
					 EFI_SUCCESS) {
		rc = exchange(http, u, url_text, c, why, cap);
		uefi_call_wrapper(http->Configure, 2, http, NULL);
	} else {
		bp_snprintf(why, cap, "the firmware's HTTP stack would not start: %s", net_status(st));
	}
	if (child)
		uefi_call_wrapper(sb->DestroyChild, 2, sb, child);
	put_back_policy(nic, policy_was);
	return rc;
}

int plat_http_put(const struct url *u, const char *url_text, const void *data, size_t len,
		  char *why, size_t cap)
{
	struct http_call c = { .method = HttpMethodPut, .body = data, .len = len };
	return http_call(u, url_text, &c, why, cap);
}

long net_http_get(const char *url_text, void *buf, size_t cap, char *why, size_t why_cap)
{
	struct url u;
	if (url_parse(url_text, &u, why, why_cap))
		return -1;
	struct http_call c = { .method = HttpMethodGet, .answer = buf, .cap = cap };
	return http_call(&u, url_text, &c, why, why_cap) ? -1 : (long)c.got;
}
