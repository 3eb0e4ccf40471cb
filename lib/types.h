/* Fixed-width types for code shared by the UEFI image and host builds.
 * Only freestanding headers: they exist under -ffreestanding too. */
#ifndef BP_TYPES_H
#define BP_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

typedef int8_t   s8;
typedef uint8_t  u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t  s32;
typedef int64_t  s64;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(n)        (1ULL << (n))
/* Mask of bits hi..lo inclusive, as the SDM writes field ranges [hi:lo]. */
#define GENMASK(hi, lo) ((~0ULL >> (63 - (hi))) & (~0ULL << (lo)))
#define FIELD(v, hi, lo) (((u64)(v) & GENMASK(hi, lo)) >> (lo))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
/* Inlined even where the compiler would not: for a loop compiled once
 * per constant argument (a decoder, say). */
#define ALWAYS_INLINE inline __attribute__((always_inline))
/* Orders memory accesses against an interrupt handler on this CPU. */
#define compiler_barrier() __asm__ __volatile__("" ::: "memory")

#endif
