/* lib/plat.h's interrupt services for the host twin: SIGALRM from
 * ITIMER_REAL is the tick, with the interrupted RIP/RSP/RBP taken from the
 * signal's ucontext; the PMI is a plain call made while the tick (or the
 * code that raised it) is the interrupted context. */
#define _GNU_SOURCE
#include "../lib/plat.h"
#include "../sim/drive.h"	/* plat_raise_pmi, which the drive asks of the platform */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>

#define HOST_PMI_VECTOR 0xF0

static plat_irq_fn tick_fn;
static plat_pmi_fn pmi_fn;
static void *tick_ctx, *pmi_ctx;
static struct plat_irq_frame current_frame;
static volatile sig_atomic_t in_tick;
static struct sigaction old_action;
static bool tick_running;

/* Stops a signal source and gives the signal its old action back. A
 * signal already raised but not yet delivered (blocked meanwhile, or
 * queued, as valgrind delivers late) would otherwise meet the default
 * action, which ends the process: it is blocked, taken out, and only then
 * is the old action restored. */
static void quiesce(int sig, void (*stop)(void), const struct sigaction *old)
{
	sigset_t one, mask;
	struct timespec now = { 0, 0 };
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_BLOCK, &one, &mask);
	stop();
	while (sigtimedwait(&one, NULL, &now) == sig)
		;
	sigaction(sig, old, NULL);
	sigprocmask(SIG_SETMASK, &mask, NULL);
}

static void on_usr2(int sig, siginfo_t *si, void *uc);

static void on_alarm(int sig, siginfo_t *si, void *uc_void)
{
	ucontext_t *uc = uc_void;
	/* Delivered on top of the timer signal, before its handler ran: the
	 * time belongs to what that signal interrupted, which on_usr2
	 * settles first thing. */
	if ((u64)uc->uc_mcontext.gregs[REG_RIP] == (u64)(uintptr_t)on_usr2 && sig == SIGALRM)
		return;
	/* A tick that interrupts a tick (SIGALRM inside on_usr2's settling,
	 * which blocks only SIGUSR2) lands on the model's own work, which
	 * the drive leaves uncounted. Taken, it overwrote the frame and
	 * cleared in_tick under the outer tick: that tick's PMIs then named
	 * plat_raise_pmi's caller, and under a busy host 1-5 % of soak's
	 * samples landed in the drive's deliver() and clock_gettime. */
	if (in_tick)
		return;
	current_frame.ip = (u64)uc->uc_mcontext.gregs[REG_RIP];
	current_frame.sp = (u64)uc->uc_mcontext.gregs[REG_RSP];
	current_frame.bp = (u64)uc->uc_mcontext.gregs[REG_RBP];
	in_tick = 1;
	if (tick_fn)
		tick_fn(&current_frame, tick_ctx);
	in_tick = 0;
}

int plat_tick_start(u32 period_us, plat_irq_fn fn, void *ctx, const char **why)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_alarm;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	tick_fn = fn;
	tick_ctx = ctx;
	if (sigaction(SIGALRM, &sa, &old_action)) {
		*why = "sigaction(SIGALRM) failed";
		return -1;
	}
	struct itimerval it = { { 0, period_us }, { 0, period_us } };
	if (setitimer(ITIMER_REAL, &it, NULL)) {
		*why = "setitimer(ITIMER_REAL) failed";
		sigaction(SIGALRM, &old_action, NULL);
		return -1;
	}
	tick_running = true;
	return 0;
}

static void tick_timer_off(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
}

void plat_tick_stop(void)
{
	if (!tick_running)
		return;
	quiesce(SIGALRM, tick_timer_off, &old_action);
	tick_fn = NULL;
	tick_running = false;
}

u8 plat_pmi_install(plat_pmi_fn fn, void *ctx)
{
	pmi_fn = fn;
	pmi_ctx = ctx;
	return HOST_PMI_VECTOR;
}

/* The host twin has no NMIs (its PMU is the emulated one, whose PMIs are
 * raised in software): record refuses --pmi=nmi there before this. */
u8 plat_pmi_install_nmi(plat_pmi_fn fn, void *ctx)
{
	(void)fn;
	(void)ctx;
	return 0;
}

void plat_pmi_remove(void)
{
	pmi_fn = NULL;
}

void plat_raise_pmi(void)
{
	struct plat_irq_frame here;
	const struct plat_irq_frame *f = &current_frame;
	if (!in_tick) {	/* raised by the main flow itself: it is the context */
		here.ip = (u64)(uintptr_t)__builtin_return_address(0);
		here.sp = (u64)(uintptr_t)__builtin_frame_address(0);
		here.bp = here.sp;
		f = &here;
	}
	if (pmi_fn)
		(void)pmi_fn(f, pmi_ctx);
}

/* The timer callback: a POSIX timer raising SIGUSR2. */
static timer_t host_timer;
static bool timer_running;
static plat_timer_fn timer_fn;
static void *timer_ctx;
static struct sigaction old_usr2;

/* The time since the last tick ran at the instruction this signal
 * interrupted: it is settled there first, as a tick landing there would
 * have, or the next tick charges it to this handler's first instruction
 * (under a busy host both signals come together after each wait for the
 * CPU: 22-53 % of samples landed here; on_alarm leaves a tick that found
 * this handler not yet begun to this settling). */
static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	if (tick_fn && !in_tick)
		on_alarm(sig, si, uc);
	if (timer_fn)
		timer_fn(timer_ctx);
}

int plat_timer_start(u32 period_ms, plat_timer_fn fn, void *ctx)
{
	struct sigaction sa;
	struct sigevent sev;
	if (timer_running)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr2;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	/* The tick interrupts this callback, as the HPET's interrupt
	 * interrupts a TPL_CALLBACK notification in the image: time spent
	 * here runs the emulated PMU as the callback left GLOBAL_CTRL. */
	sigemptyset(&sa.sa_mask);
	timer_fn = fn;
	timer_ctx = ctx;
	if (sigaction(SIGUSR2, &sa, &old_usr2))
		return -1;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR2;
	if (timer_create(CLOCK_MONOTONIC, &sev, &host_timer)) {
		sigaction(SIGUSR2, &old_usr2, NULL);
		return -1;
	}
	struct itimerspec its = {
		{ period_ms / 1000, (long)(period_ms % 1000) * 1000000L },
		{ period_ms / 1000, (long)(period_ms % 1000) * 1000000L },
	};
	timer_settime(host_timer, 0, &its, NULL);
	timer_running = true;
	return 0;
}

static void callback_timer_off(void)
{
	timer_delete(host_timer);
}

void plat_timer_stop(void)
{
	if (!timer_running)
		return;
	quiesce(SIGUSR2, callback_timer_off, &old_usr2);
	timer_fn = NULL;
	timer_running = false;
}
