#include "efi.h"
#include "tick.h"
#include "../arch/msr.h"

/* IA-PC HPET specification 1.0a, section 2.3. */
#define HPET_BASE               0xFED00000ULL
#define HPET_GCAP_ID            0x000
#define   HPET_GCAP_PERIOD_SHIFT 32		/* femtoseconds per count */
#define   HPET_GCAP_NUM_TIM(v)  (((v) >> 8) & 0x1F)
#define HPET_GEN_CONF           0x010
#define   HPET_ENABLE_CNF       BIT(0)
#define   HPET_LEG_RT_CNF       BIT(1)
#define HPET_MAIN_COUNTER       0x0F0
#define HPET_TN_CONF(n)         (0x100 + 0x20 * (n))
#define HPET_TN_COMPARATOR(n)   (0x108 + 0x20 * (n))
#define   HPET_TN_INT_TYPE_LEVEL BIT(1)
#define   HPET_TN_INT_ENB_CNF   BIT(2)
#define   HPET_TN_TYPE_PERIODIC BIT(3)
#define   HPET_TN_PER_INT_CAP   BIT(4)
#define   HPET_TN_VAL_SET_CNF   BIT(6)
#define   HPET_TN_32MODE_CNF    BIT(8)
#define   HPET_TN_INT_ROUTE_SHIFT 9
#define   HPET_TN_INT_ROUTE_MASK (0x1FULL << 9)
#define   HPET_TN_FSB_EN_CNF    BIT(14)
#define   HPET_TN_ROUTE_CAP(v)  ((u32)((v) >> 32))

/* 82093AA IOAPIC: indirect registers through IOREGSEL / IOWIN. */
#define IOAPIC_BASE             0xFEC00000ULL
#define IOAPIC_REGSEL           0x00
#define IOAPIC_WIN              0x10
#define IOAPIC_VER              0x01
#define IOAPIC_REDIR_LO(pin)    (0x10 + 2 * (pin))
#define IOAPIC_REDIR_HI(pin)    (0x11 + 2 * (pin))
#define   IOAPIC_REDIR_MASKED   BIT(16)
#define   IOAPIC_REDIR_LEVEL    BIT(15)

#define TICK_TIMER 2	/* timers 0 and 1 may be in legacy use */

struct tick_saved {
	bool active;
	u64 gen_conf, tn_conf;
	u32 redir_lo, redir_hi;
	u32 pin;
};
static struct tick_saved saved;

static inline u64 hpet_read(u32 reg) { return *(volatile u64 *)(uintptr_t)(HPET_BASE + reg); }
static inline void hpet_write(u32 reg, u64 v) { *(volatile u64 *)(uintptr_t)(HPET_BASE + reg) = v; }

static u32 ioapic_read(u32 reg)
{
	*(volatile u32 *)(uintptr_t)(IOAPIC_BASE + IOAPIC_REGSEL) = reg;
	return *(volatile u32 *)(uintptr_t)(IOAPIC_BASE + IOAPIC_WIN);
}

static void ioapic_write(u32 reg, u32 v)
{
	*(volatile u32 *)(uintptr_t)(IOAPIC_BASE + IOAPIC_REGSEL) = reg;
	*(volatile u32 *)(uintptr_t)(IOAPIC_BASE + IOAPIC_WIN) = v;
}

static u32 bsp_apic_id(void)
{
	return *(volatile u32 *)(uintptr_t)(APIC_DEFAULT_BASE + APIC_ID) >> APIC_ID_SHIFT;
}

/* The highest IOAPIC input at or above 16 that the timer can use: those
 * are not shared with ISA devices. */
static int pick_pin(u64 tn_conf, u32 ioapic_pins)
{
	u32 cap = HPET_TN_ROUTE_CAP(tn_conf);
	for (int pin = (int)MIN(ioapic_pins, 32u) - 1; pin >= 16; pin--)
		if (cap & (1u << pin))
			return pin;
	return -1;
}

static void undo_tick(void *ctx) { tick_stop(); }

int tick_start(u32 period_us, isr_handler h, void *ctx, const char **why)
{
	u64 cap = hpet_read(HPET_GCAP_ID);
	u32 fs_per_count = (u32)(cap >> HPET_GCAP_PERIOD_SHIFT);

	if (cap == 0 || cap == ~0ULL || fs_per_count == 0 || fs_per_count > 100000000) {
		*why = "no HPET at 0xFED00000";
		return -1;
	}
	if (HPET_GCAP_NUM_TIM(cap) < TICK_TIMER) {
		*why = "the HPET has fewer than 3 timers";
		return -1;
	}
	u64 tn = hpet_read(HPET_TN_CONF(TICK_TIMER));
	u32 pins = ((ioapic_read(IOAPIC_VER) >> 16) & 0xFF) + 1;
	int pin = pick_pin(tn, pins);
	if (!(tn & HPET_TN_PER_INT_CAP) || pin < 0) {
		*why = "HPET timer 2 cannot interrupt periodically through the IOAPIC";
		return -1;
	}
	if (!saved.active) {
		saved = (struct tick_saved){
			.active = true,
			.gen_conf = hpet_read(HPET_GEN_CONF),
			.tn_conf = tn,
			.redir_lo = ioapic_read(IOAPIC_REDIR_LO(pin)),
			.redir_hi = ioapic_read(IOAPIC_REDIR_HI(pin)),
			.pin = (u32)pin,
		};
		boot_on_exit(undo_tick, NULL);
	}
	isr_install_tick(h, ctx);

	u64 counts = (u64)period_us * 1000000000ULL / fs_per_count;
	/* Edge-triggered, fixed delivery to the BSP, active high. */
	ioapic_write(IOAPIC_REDIR_HI(pin), bsp_apic_id() << 24);
	ioapic_write(IOAPIC_REDIR_LO(pin), ISR_TICK_VECTOR);

	hpet_write(HPET_GEN_CONF, saved.gen_conf & ~(HPET_ENABLE_CNF | HPET_LEG_RT_CNF));
	u64 conf = (tn & ~(HPET_TN_INT_ROUTE_MASK | HPET_TN_INT_TYPE_LEVEL |
			    HPET_TN_32MODE_CNF | HPET_TN_FSB_EN_CNF)) |
		   ((u64)pin << HPET_TN_INT_ROUTE_SHIFT) | HPET_TN_INT_ENB_CNF |
		   HPET_TN_TYPE_PERIODIC | HPET_TN_VAL_SET_CNF;
	hpet_write(HPET_TN_CONF(TICK_TIMER), conf);
	/* Periodic mode: the first write with VAL_SET sets the comparator,
	 * the second the period (HPET spec 2.3.9.2.2). */
	u64 now = hpet_read(HPET_MAIN_COUNTER);
	hpet_write(HPET_TN_COMPARATOR(TICK_TIMER), now + counts);
	hpet_write(HPET_TN_COMPARATOR(TICK_TIMER), counts);
	hpet_write(HPET_GEN_CONF, (saved.gen_conf & ~HPET_LEG_RT_CNF) | HPET_ENABLE_CNF);
	return 0;
}

void tick_stop(void)
{
	if (!saved.active)
		return;
	hpet_write(HPET_TN_CONF(TICK_TIMER), saved.tn_conf & ~HPET_TN_INT_ENB_CNF);
	hpet_write(HPET_GEN_CONF, saved.gen_conf);
	hpet_write(HPET_TN_CONF(TICK_TIMER), saved.tn_conf);
	ioapic_write(IOAPIC_REDIR_LO(saved.pin), saved.redir_lo | IOAPIC_REDIR_MASKED);
	ioapic_write(IOAPIC_REDIR_HI(saved.pin), saved.redir_hi);
	ioapic_write(IOAPIC_REDIR_LO(saved.pin), saved.redir_lo);
	isr_remove_tick();
	saved.active = false;
}
