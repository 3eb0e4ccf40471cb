/* Common includes for the cmocka unit tests. */
#ifndef BP_TEST_H
#define BP_TEST_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

/* How often needle occurs in hay (overlaps counted). */
static inline int count_substr(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}
#endif
