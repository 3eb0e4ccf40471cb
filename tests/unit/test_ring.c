/* lib/ring: the PMI-to-main-flow sample ring. */
#define _GNU_SOURCE
#include "test.h"
#include <signal.h>
#include <sys/time.h>
#include "lib/ring.h"
#include "lib/str.h"

static struct bp_sample sample_with_ip(u64 ip)
{
	struct bp_sample s = { 0 };
	s.ip = ip;
	s.period = ip * 10;
	return s;
}

/* Push and pop carry every field that counts (the header, callchain_len
 * return addresses, raw_words raw words) and nothing after them: the
 * copy is bounded by the lengths, even out-of-range ones. */
static void test_ring_copies_what_counts(void **state)
{
	(void)state;
	struct bp_sample slots[4], in, out;
	struct sample_ring r;
	assert_true(ring_init(&r, slots, 4));
	memset(&in, 0, sizeof(in));
	in.ip = 0x401000;
	in.addr = 0x7f00;
	in.data_src = 0x1234;
	in.flags = BP_SAMPLE_RAW | BP_SAMPLE_CALLCHAIN;
	in.callchain_len = 3;
	in.raw_words = 2;
	for (int i = 0; i < BP_MAX_CALLCHAIN; i++)
		in.callchain[i] = 0x1000 + (u64)i;
	for (int i = 0; i < BP_SAMPLE_RAW_MAX; i++)
		in.raw[i] = 0x2000 + (u64)i;
	assert_true(ring_push(&r, &in));
	memset(&out, 0xAB, sizeof(out));
	assert_true(ring_pop(&r, &out));
	assert_memory_equal(&out, &in, offsetof(struct bp_sample, callchain));
	assert_memory_equal(out.callchain, in.callchain, 3 * sizeof(u64));
	assert_memory_equal(out.raw, in.raw, 2 * sizeof(u64));
	assert_int_equal(out.callchain[3], 0xABABABABABABABABull);	/* not copied */
	assert_int_equal(out.raw[2], 0xABABABABABABABABull);
	in.callchain_len = 1000;	/* a corrupt length copies the array, no more */
	in.raw_words = 1000;
	assert_true(ring_push(&r, &in));
	assert_true(ring_pop(&r, &out));
	assert_memory_equal(out.callchain, in.callchain, sizeof(in.callchain));
	assert_memory_equal(out.raw, in.raw, sizeof(in.raw));
}

/* bp_memcpy: words where both sides are aligned, bytes elsewhere, every
 * length and offset the same bytes as memcpy. */
static void test_memcpy_alignments(void **state)
{
	(void)state;
	u64 src_words[8], dst_words[8], want_words[8];
	u8 *src = (u8 *)src_words, *dst = (u8 *)dst_words, *want = (u8 *)want_words;
	for (int i = 0; i < 64; i++)
		src[i] = (u8)(i * 7 + 1);
	for (int so = 0; so < 8; so++)
		for (int d_o = 0; d_o < 8; d_o++)
			for (int n = 0; n <= 40; n++) {
				memset(dst, 0, 64);
				memset(want, 0, 64);
				memcpy(want + d_o, src + so, (size_t)n);
				assert_ptr_equal(bp_memcpy(dst + d_o, src + so, (size_t)n), dst + d_o);
				assert_memory_equal(dst, want, 64);
			}
}

static void test_ring_rejects_bad_capacity(void **state)
{
	struct sample_ring r;
	struct bp_sample slots[6];
	assert_false(ring_init(&r, slots, 0));
	assert_false(ring_init(&r, slots, 6));
	assert_false(ring_init(&r, NULL, 4));
	assert_true(ring_init(&r, slots, 4));
	assert_false(ring_alloc(&r, 3));
}

static void test_ring_fifo_order(void **state)
{
	struct sample_ring r;
	struct bp_sample slots[8], out;
	assert_true(ring_init(&r, slots, 8));
	assert_false(ring_pop(&r, &out));
	for (u64 i = 1; i <= 5; i++) {
		struct bp_sample s = sample_with_ip(i);
		assert_true(ring_push(&r, &s));
	}
	assert_int_equal(ring_count(&r), 5);
	for (u64 i = 1; i <= 5; i++) {
		assert_true(ring_pop(&r, &out));
		assert_int_equal(out.ip, i);
		assert_int_equal(out.period, i * 10);
	}
	assert_false(ring_pop(&r, &out));
	assert_int_equal(ring_dropped(&r), 0);
}

/* The writer's merge (record -a) looks at each CPU's oldest sample
 * before it takes one, and at the newest one's TSC the producer published,
 * which stays when the consumer has emptied the ring. */
static void test_ring_peek_and_newest(void **state)
{
	struct sample_ring r;
	struct bp_sample slots[4], out;
	assert_true(ring_init(&r, slots, 4));
	assert_null(ring_peek(&r));
	assert_int_equal(r.newest_tsc, 0);
	for (u64 i = 1; i <= 3; i++) {
		struct bp_sample s = sample_with_ip(i);
		s.tsc = 1000 + i;
		assert_true(ring_push(&r, &s));
	}
	assert_int_equal(r.newest_tsc, 1003);
	assert_int_equal(ring_peek(&r)->ip, 1);
	assert_int_equal(ring_count(&r), 3);	/* peeking takes nothing */
	assert_true(ring_pop(&r, &out));
	assert_int_equal(ring_peek(&r)->ip, 2);
	assert_true(ring_pop(&r, &out));
	assert_true(ring_pop(&r, &out));
	assert_null(ring_peek(&r));
	assert_int_equal(r.newest_tsc, 1003);
	/* a run committed at once publishes its last sample's TSC */
	u32 n;
	struct bp_sample *run = ring_reserve_run(&r, &n);
	assert_non_null(run);
	assert_true(n >= 1);
	run[0] = sample_with_ip(9);
	run[0].tsc = 2000;
	ring_commit_run(&r, 1);
	assert_int_equal(r.newest_tsc, 2000);
	assert_int_equal(ring_peek(&r)->tsc, 2000);
}

/* A full ring refuses the NEW sample and counts it; the old ones survive. */
static void test_ring_full_drops_new(void **state)
{
	struct sample_ring r;
	struct bp_sample out;
	assert_true(ring_alloc(&r, 4));
	for (u64 i = 1; i <= 7; i++) {
		struct bp_sample s = sample_with_ip(i);
		bool ok = ring_push(&r, &s);
		assert_int_equal(ok, i <= 4);
	}
	assert_int_equal(ring_count(&r), 4);
	assert_int_equal(ring_dropped(&r), 3);
	assert_int_equal(ring_pushed(&r), 4);
	assert_null(ring_reserve(&r));
	assert_int_equal(ring_dropped(&r), 4);
	for (u64 i = 1; i <= 4; i++) {
		assert_true(ring_pop(&r, &out));
		assert_int_equal(out.ip, i);	/* nothing was overwritten */
	}
	/* room again after consuming */
	struct bp_sample s = sample_with_ip(99);
	assert_true(ring_push(&r, &s));
	assert_true(ring_pop(&r, &out));
	assert_int_equal(out.ip, 99);
	ring_free(&r);
}

/* The indexes run freely past 2^32 without losing the fill level. */
static void test_ring_index_wrap(void **state)
{
	struct sample_ring r;
	struct bp_sample slots[4], out;
	assert_true(ring_init(&r, slots, 4));
	r.head = r.tail = 0xFFFFFFFEu;
	for (u64 i = 1; i <= 4; i++) {
		struct bp_sample s = sample_with_ip(i);
		assert_true(ring_push(&r, &s));
	}
	assert_int_equal(ring_count(&r), 4);
	struct bp_sample s = sample_with_ip(5);
	assert_false(ring_push(&r, &s));
	for (u64 i = 1; i <= 4; i++) {
		assert_true(ring_pop(&r, &out));
		assert_int_equal(out.ip, i);
	}
	assert_int_equal(ring_count(&r), 0);
}

/* A run of slots stops at the end of the array and at the fill level;
 * a full ring gives none and counts the drop; only the filled part of a
 * run is published, in order. */
static void test_ring_reserve_run(void **state)
{
	struct sample_ring r;
	struct bp_sample slots[8], out;
	u32 n;
	assert_true(ring_init(&r, slots, 8));
	r.head = r.tail = 5;
	struct bp_sample *run = ring_reserve_run(&r, &n);
	assert_ptr_equal(run, &slots[5]);
	assert_int_equal(n, 3);			/* up to the end of the array */
	for (u32 i = 0; i < 2; i++)
		run[i] = sample_with_ip(10 + i);
	ring_commit_run(&r, 2);
	assert_int_equal(ring_count(&r), 2);
	assert_int_equal(ring_pushed(&r), 2);
	run = ring_reserve_run(&r, &n);
	assert_ptr_equal(run, &slots[7]);
	assert_int_equal(n, 1);
	run[0] = sample_with_ip(12);
	ring_commit_run(&r, 1);
	run = ring_reserve_run(&r, &n);
	assert_ptr_equal(run, &slots[0]);	/* wrapped */
	assert_int_equal(n, 5);			/* up to the fill level */
	for (u32 i = 0; i < 5; i++)
		run[i] = sample_with_ip(13 + i);
	ring_commit_run(&r, 5);
	assert_null(ring_reserve_run(&r, &n));
	assert_int_equal(n, 0);
	assert_int_equal(ring_dropped(&r), 1);
	for (u64 i = 10; i < 18; i++) {
		assert_true(ring_pop(&r, &out));
		assert_int_equal(out.ip, i);
	}
	assert_false(ring_pop(&r, &out));
}

/* The real use: a producer in an asynchronous interrupt (here a signal
 * handler standing in for the PMI) and the interrupted main flow
 * consuming. Every sample is either read once, in order, or counted as
 * dropped. */
static struct sample_ring irq_ring;
static volatile u64 irq_next_ip = 1;
static volatile sig_atomic_t irq_stop;

static void irq_producer(int sig)
{
	for (int burst = 0; burst < 5 && !irq_stop; burst++) {
		struct bp_sample *slot = ring_reserve(&irq_ring);
		u64 ip = irq_next_ip++;
		if (!slot)
			continue;
		bp_memset(slot, 0, sizeof(*slot));
		slot->ip = ip;
		ring_commit(&irq_ring);
	}
}

static void test_ring_interrupt_producer(void **state)
{
	assert_true(ring_alloc(&irq_ring, 64));
	struct sigaction sa = { 0 };
	sa.sa_handler = irq_producer;
	assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	struct itimerval it = { { 0, 50 }, { 0, 50 } };
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);

	u64 last = 0, read = 0;
	struct bp_sample out;
	struct timeval start, now;
	gettimeofday(&start, NULL);
	do {
		while (ring_pop(&irq_ring, &out)) {
			assert_true(out.ip > last);	/* in order, never twice */
			last = out.ip;
			read++;
		}
		gettimeofday(&now, NULL);
	} while ((now.tv_sec - start.tv_sec) * 1000000 + (now.tv_usec - start.tv_usec) < 300000);
	irq_stop = 1;
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	while (ring_pop(&irq_ring, &out)) {
		assert_true(out.ip > last);
		last = out.ip;
		read++;
	}
	u64 produced = irq_next_ip - 1;
	assert_true(produced > 0);
	/* accounting: every produced sample was read or counted as dropped */
	assert_int_equal(read + ring_dropped(&irq_ring), produced);
	assert_int_equal(ring_pushed(&irq_ring), read);
	ring_free(&irq_ring);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_rejects_bad_capacity),
		cmocka_unit_test(test_ring_copies_what_counts),
		cmocka_unit_test(test_memcpy_alignments),
		cmocka_unit_test(test_ring_fifo_order),
		cmocka_unit_test(test_ring_peek_and_newest),
		cmocka_unit_test(test_ring_full_drops_new),
		cmocka_unit_test(test_ring_index_wrap),
		cmocka_unit_test(test_ring_reserve_run),
		cmocka_unit_test(test_ring_interrupt_producer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
