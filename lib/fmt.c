#include "fmt.h"
#include "str.h"

struct sink {
	char *buf;
	size_t size;
	size_t len;	/* length of the full output so far */
};

static void put(struct sink *s, char c)
{
	if (s->len + 1 < s->size)
		s->buf[s->len] = c;
	s->len++;
}

static void pad(struct sink *s, char c, int n)
{
	while (n-- > 0)
		put(s, c);
}

struct spec {
	bool left, zero, plus, space;
	int width, prec;	/* prec < 0: not given */
};

static void put_field(struct sink *s, const struct spec *sp, const char *prefix,
		      const char *body, int body_len)
{
	int plen = (int)bp_strlen(prefix);
	int zeros = 0;
	if (sp->prec > body_len)
		zeros = sp->prec - body_len;
	int total = plen + zeros + body_len;
	int fill = sp->width > total ? sp->width - total : 0;

	if (!sp->left && !(sp->zero && sp->prec < 0))
		pad(s, ' ', fill);
	for (int i = 0; i < plen; i++)
		put(s, prefix[i]);
	if (!sp->left && sp->zero && sp->prec < 0)
		pad(s, '0', fill);
	pad(s, '0', zeros);
	for (int i = 0; i < body_len; i++)
		put(s, body[i]);
	if (sp->left)
		pad(s, ' ', fill);
}

static int utoa(char *out, u64 v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

static void put_int(struct sink *s, struct spec *sp, u64 mag, bool neg,
		    unsigned base, bool upper, const char *alt)
{
	char body[24];
	int n = utoa(body, mag, base, upper);
	const char *sign = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
	char prefix[4];
	bp_strlcpy(prefix, sign, sizeof(prefix));
	if (alt)
		bp_strlcpy(prefix, alt, sizeof(prefix));
	if (sp->prec == 0 && mag == 0)
		n = 0;
	put_field(s, sp, prefix, body, n);
}

static void put_float(struct sink *s, struct spec *sp, double v)
{
	char body[48];
	int prec = sp->prec < 0 ? 6 : MIN(sp->prec, 9);
	bool neg = v < 0;
	if (neg)
		v = -v;
	u64 scale = 1;
	for (int i = 0; i < prec; i++)
		scale *= 10;
	if (v > 1e18) {		/* beyond u64: print as a large integer form */
		put_field(s, sp, neg ? "-" : "", "inf", 3);
		return;
	}
	u64 ip = (u64)v;
	double frac = v - (double)ip;
	u64 fp = (u64)(frac * (double)scale + 0.5);
	if (fp >= scale) {
		ip++;
		fp -= scale;
	}
	int n = utoa(body, ip, 10, false);
	if (prec) {
		body[n++] = '.';
		char f[24];
		int fn = utoa(f, fp, 10, false);
		for (int i = fn; i < prec; i++)
			body[n++] = '0';
		for (int i = 0; i < fn; i++)
			body[n++] = f[i];
	}
	struct spec fs = *sp;
	fs.prec = -1;
	put_field(s, &fs, neg ? "-" : sp->plus ? "+" : "", body, n);
}

static int parse_number(const char **p)
{
	int v = 0;
	while (bp_isdigit(**p))
		v = v * 10 + (*(*p)++ - '0');
	return v;
}

int bp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { buf, size, 0 };

	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put(&s, *p);
			continue;
		}
		p++;
		struct spec sp = { .prec = -1 };
		bool alt = false;
		for (;; p++) {
			if (*p == '-') sp.left = true;
			else if (*p == '0') sp.zero = true;
			else if (*p == '+') sp.plus = true;
			else if (*p == ' ') sp.space = true;
			else if (*p == '#') alt = true;
			else break;
		}
		if (*p == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0)
				sp.left = true, sp.width = -sp.width;
			p++;
		} else {
			sp.width = parse_number(&p);
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				sp.prec = va_arg(ap, int);
				p++;
			} else {
				sp.prec = parse_number(&p);
			}
		}
		int lng = 0;	/* 0 int, 1 long, 2 long long, -1 short, -2 char */
		for (;; p++) {
			if (*p == 'l') lng++;
			else if (*p == 'z') lng = 1;
			else if (*p == 'h') lng--;
			else break;
		}
		u64 mag;
		s64 sv;
		switch (*p) {
		case 'd':
		case 'i':
			if (lng >= 2) sv = va_arg(ap, long long);
			else if (lng == 1) sv = va_arg(ap, long);
			else sv = va_arg(ap, int);
			if (lng == -1) sv = (short)sv;
			if (lng <= -2) sv = (signed char)sv;
			mag = sv < 0 ? (u64)0 - (u64)sv : (u64)sv;
			put_int(&s, &sp, mag, sv < 0, 10, false, NULL);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng >= 2) mag = va_arg(ap, unsigned long long);
			else if (lng == 1) mag = va_arg(ap, unsigned long);
			else mag = va_arg(ap, unsigned int);
			if (lng == -1) mag = (u16)mag;
			if (lng <= -2) mag = (u8)mag;
			put_int(&s, &sp, mag, false,
				*p == 'u' ? 10 : *p == 'o' ? 8 : 16, *p == 'X',
				alt && mag && (*p == 'x' || *p == 'X') ?
				(*p == 'x' ? "0x" : "0X") : NULL);
			break;
		case 'p':
			put_int(&s, &sp, (u64)(uintptr_t)va_arg(ap, void *), false,
				16, false, "0x");
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			sp.prec = -1;
			put_field(&s, &sp, "", &c, 1);
			break;
		}
		case 's': {
			const char *str = va_arg(ap, const char *);
			if (!str)
				str = "(null)";
			int n = (int)bp_strlen(str);
			if (sp.prec >= 0 && sp.prec < n)
				n = sp.prec;
			struct spec ss = sp;
			ss.prec = -1;
			ss.zero = false;
			put_field(&s, &ss, "", str, n);
			break;
		}
		case 'f':
			put_float(&s, &sp, va_arg(ap, double));
			break;
		case '%':
			put(&s, '%');
			break;
		case 0:
			p--;
			break;
		default:
			put(&s, '%');
			put(&s, *p);
		}
	}
	if (size)
		buf[s.len < size ? s.len : size - 1] = 0;
	return (int)s.len;
}

int bp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = bp_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

char *fmt_thousands(u64 v, char *buf, size_t size)
{
	char digits[32];
	int n = bp_snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	size_t o = 0;
	for (int i = 0; i < n && o + 1 < size; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 2 < size)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	if (size)
		buf[o < size ? o : size - 1] = 0;
	return buf;
}
