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
#endif
