/* Synthetic PEBS records for tests and the drain benchmark. */
#include "pebs_synth.h"
#include "lib/str.h"

static void put(void *base, u32 off, u64 v)
{
	bp_memcpy((u8 *)base + off, &v, sizeof(v));
}

/* Fixed formats: flags, ip, then ax bx cx dx si di bp sp r8..r15. */
static const u8 fixed_regs[] = {
	PEBS_REG_AX, PEBS_REG_BX, PEBS_REG_CX, PEBS_REG_DX, PEBS_REG_SI,
	PEBS_REG_DI, PEBS_REG_BP, PEBS_REG_SP,
};
/* Adaptive GPR group: flags, ip, ax cx dx bx sp bp si di r8..r15. */
static const u8 adaptive_regs[] = {
	PEBS_REG_AX, PEBS_REG_CX, PEBS_REG_DX, PEBS_REG_BX, PEBS_REG_SP,
	PEBS_REG_BP, PEBS_REG_SI, PEBS_REG_DI,
};

static void put_regs(void *base, const u8 *order, const struct synth_rec *r)
{
	put(base, 0, r->regs[PEBS_REG_FLAGS]);
	put(base, 8, r->ip);
	for (unsigned i = 0; i < 8; i++)
		put(base, 16 + 8 * i, r->regs[order[i]]);
	for (unsigned i = 0; i < 8; i++)
		put(base, 80 + 8 * i, r->regs[PEBS_REG_R8 + i]);
}

u32 synth_write(const struct pebs_layout *l, void *dst, const struct synth_rec *r)
{
	bp_memset(dst, 0, l->record_size);
	if (!l->adaptive) {
		put_regs(dst, fixed_regs, r);
		if (l->format >= 1) {
			put(dst, 144, r->applicable);
			put(dst, 152, r->addr);
			put(dst, 160, r->dse);
			put(dst, 168, r->latency);
		}
		if (l->format >= 2)
			put(dst, 176, r->eventing_ip);
		if (l->format >= 3)
			put(dst, 192, r->tsc);
		return l->record_size;
	}
	u64 size = r->stated_size ? r->stated_size : l->record_size;
	put(dst, 0, (size << 48) | (l->data_cfg & GENMASK(47, 0)));
	put(dst, 8, r->eventing_ip);
	put(dst, 16, r->applicable);
	put(dst, 24, r->tsc);
	if (l->meminfo_off) {
		put(dst, l->meminfo_off + 0, r->addr);
		put(dst, l->meminfo_off + 8, r->dse);
		put(dst, l->meminfo_off + 16, r->latency);
	}
	if (l->gpr_off)
		put_regs((u8 *)dst + l->gpr_off, adaptive_regs, r);
	return l->record_size;
}
