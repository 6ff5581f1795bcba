/* loop.c: the event loop (ks_loop.h). */
#include "ks_loop.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ks_mem.h"

struct watch {
	int fd;
	ks_fd_fn fn;
	void *arg;
	bool live;
};

/* A timer lives in a slot of l->slots (reused once it is done) and is
 * due in the heap l->heap, ordered by when, then by seq (the order the
 * timers were set in); its id is its slot and the slot's generation, so
 * that cancelling is a direct look-up and an old id finds nothing. */
struct timer {
	int64_t when;
	int64_t period;
	uint64_t seq;
	ks_timer_fn fn;
	void *arg;
	uint32_t gen;
	uint32_t pos; /* in the heap; NOT_DUE when free */
};

#define NOT_DUE UINT32_MAX

struct sig {
	int signo;
	ks_signal_fn fn;
	void *arg;
};

struct child {
	pid_t pid;
	ks_child_fn fn;
	void *arg;
};

struct ks_loop {
	int ep;
	bool stop;
	/* Watches are indexed by fd: daemons have few descriptors, and the
	 * epoll data carries the fd so a stale event finds no live watch. */
	struct watch *watches;
	size_t nwatches;
	/* the schedd keeps one per claim: thousands */
	struct timer *slots;
	uint32_t nslots;
	uint32_t *free_slots;
	uint32_t nfree;
	uint32_t *heap; /* slot numbers */
	uint32_t nheap;
	uint64_t seq;
	int sigfd;
	sigset_t sigs;
	struct sig *handlers;
	size_t nhandlers;
	struct child *kids;
	size_t nkids;
	bool reaping; /* SIGCHLD is ours */
};

ks_loop *ks_loop_new(void)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return NULL;
	ks_loop *l = ks_xcalloc(1, sizeof(*l));
	l->ep = ep;
	l->sigfd = -1;
	sigemptyset(&l->sigs);
	return l;
}

void ks_loop_free(ks_loop *l)
{
	if (!l)
		return;
	close(l->ep);
	if (l->sigfd >= 0)
		close(l->sigfd);
	free(l->watches);
	free(l->slots);
	free(l->free_slots);
	free(l->heap);
	free(l->handlers);
	free(l->kids);
	free(l);
}

static uint32_t ep_events(unsigned ev)
{
	return (ev & KS_EV_IN ? EPOLLIN : 0u) | (ev & KS_EV_OUT ? EPOLLOUT : 0u);
}

int ks_loop_watch(ks_loop *l, int fd, unsigned events, ks_fd_fn fn, void *arg)
{
	if (fd < 0)
		return -1;
	if ((size_t)fd >= l->nwatches) {
		size_t n = (size_t)fd + 64;
		l->watches = ks_xrealloc(l->watches, n * sizeof(*l->watches));
		memset(l->watches + l->nwatches, 0,
		       (n - l->nwatches) * sizeof(*l->watches));
		l->nwatches = n;
	}
	struct epoll_event e = {.events = ep_events(events), .data.fd = fd};
	if (epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &e) != 0)
		return -1;
	l->watches[fd] = (struct watch){fd, fn, arg, true};
	return 0;
}

int ks_loop_rewatch(ks_loop *l, int fd, unsigned events)
{
	struct epoll_event e = {.events = ep_events(events), .data.fd = fd};
	return epoll_ctl(l->ep, EPOLL_CTL_MOD, fd, &e);
}

void ks_loop_unwatch(ks_loop *l, int fd)
{
	if (fd < 0 || (size_t)fd >= l->nwatches || !l->watches[fd].live)
		return;
	epoll_ctl(l->ep, EPOLL_CTL_DEL, fd, NULL);
	l->watches[fd].live = false;
}

static bool earlier(const ks_loop *l, uint32_t a, uint32_t b)
{
	const struct timer *x = &l->slots[a], *y = &l->slots[b];
	return x->when < y->when || (x->when == y->when && x->seq < y->seq);
}

static void heap_put(ks_loop *l, uint32_t at, uint32_t slot)
{
	l->heap[at] = slot;
	l->slots[slot].pos = at;
}

static void sift_up(ks_loop *l, uint32_t at)
{
	uint32_t slot = l->heap[at];
	while (at > 0) {
		uint32_t up = (at - 1) / 2;
		if (!earlier(l, slot, l->heap[up]))
			break;
		heap_put(l, at, l->heap[up]);
		at = up;
	}
	heap_put(l, at, slot);
}

static void sift_down(ks_loop *l, uint32_t at)
{
	uint32_t slot = l->heap[at];
	for (;;) {
		uint32_t kid = 2 * at + 1;
		if (kid >= l->nheap)
			break;
		if (kid + 1 < l->nheap && earlier(l, l->heap[kid + 1],
						  l->heap[kid]))
			kid++;
		if (!earlier(l, l->heap[kid], slot))
			break;
		heap_put(l, at, l->heap[kid]);
		at = kid;
	}
	heap_put(l, at, slot);
}

/* Takes the timer in slot out of the heap and frees its slot. */
static void timer_drop(ks_loop *l, uint32_t slot)
{
	uint32_t at = l->slots[slot].pos;
	l->slots[slot].pos = NOT_DUE;
	l->slots[slot].gen++;
	l->free_slots[l->nfree++] = slot;
	uint32_t last = l->heap[--l->nheap];
	if (at == l->nheap)
		return;
	heap_put(l, at, last);
	sift_down(l, at);
	sift_up(l, l->slots[last].pos);
}

uint64_t ks_loop_timer(ks_loop *l, int64_t delay_ms, int64_t period_ms,
		       ks_timer_fn fn, void *arg)
{
	if (!l->nfree) {
		uint32_t n = l->nslots ? l->nslots * 2 : 16;
		l->slots = ks_xrealloc(l->slots, n * sizeof(*l->slots));
		l->free_slots = ks_xrealloc(l->free_slots,
					    n * sizeof(*l->free_slots));
		l->heap = ks_xrealloc(l->heap, n * sizeof(*l->heap));
		for (uint32_t i = n; i > l->nslots; i--) {
			l->slots[i - 1] = (struct timer){.pos = NOT_DUE};
			l->free_slots[l->nfree++] = i - 1;
		}
		l->nslots = n;
	}
	uint32_t slot = l->free_slots[--l->nfree];
	struct timer *t = &l->slots[slot];
	t->when = ks_clock_ms() + (delay_ms > 0 ? delay_ms : 0);
	t->period = period_ms;
	t->seq = ++l->seq;
	t->fn = fn;
	t->arg = arg;
	l->heap[l->nheap] = slot;
	t->pos = l->nheap++;
	sift_up(l, t->pos);
	/* never 0: the generation counts from 1 in ids */
	return ((uint64_t)t->gen + 1) << 32 | slot;
}

void ks_loop_cancel(ks_loop *l, uint64_t id)
{
	uint32_t slot = (uint32_t)id, gen = (uint32_t)(id >> 32);
	if (id == 0 || slot >= l->nslots || l->slots[slot].pos == NOT_DUE ||
	    l->slots[slot].gen + 1 != gen)
		return;
	timer_drop(l, slot);
}

static void on_signalfd(void *arg, int fd, unsigned events)
{
	ks_loop *l = arg;
	(void)events;
	struct signalfd_siginfo si;
	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		for (size_t i = 0; i < l->nhandlers; i++)
			if (l->handlers[i].signo == (int)si.ssi_signo)
				l->handlers[i].fn(l->handlers[i].arg,
						  (int)si.ssi_signo);
}

int ks_loop_signal(ks_loop *l, int signo, ks_signal_fn fn, void *arg)
{
	sigaddset(&l->sigs, signo);
	if (sigprocmask(SIG_BLOCK, &l->sigs, NULL) != 0)
		return -1;
	int fd = signalfd(l->sigfd, &l->sigs, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (l->sigfd < 0) {
		l->sigfd = fd;
		if (ks_loop_watch(l, fd, KS_EV_IN, on_signalfd, l))
			return -1;
	}
	l->handlers = ks_xrealloc(l->handlers,
				  (l->nhandlers + 1) * sizeof(*l->handlers));
	l->handlers[l->nhandlers++] = (struct sig){signo, fn, arg};
	return 0;
}

/* Reaps every child that has ended; each watched one is forgotten before
 * its callback runs, so the callback may watch a new child. */
static void on_sigchld(void *arg, int signo)
{
	ks_loop *l = arg;
	(void)signo;
	for (size_t i = 0; i < l->nkids;) {
		int status;
		pid_t r = waitpid(l->kids[i].pid, &status, WNOHANG);
		if (r != l->kids[i].pid) {
			i++;
			continue;
		}
		struct child k = l->kids[i];
		l->kids[i] = l->kids[--l->nkids];
		k.fn(k.arg, k.pid, status);
		i = 0; /* the callback may have changed the table */
	}
}

static void recheck_children(void *arg)
{
	on_sigchld(arg, SIGCHLD);
}

int ks_loop_child(ks_loop *l, pid_t pid, ks_child_fn fn, void *arg)
{
	if (!l->reaping) {
		if (ks_loop_signal(l, SIGCHLD, on_sigchld, l))
			return -1;
		l->reaping = true;
	}
	l->kids = ks_xrealloc(l->kids, (l->nkids + 1) * sizeof(*l->kids));
	l->kids[l->nkids++] = (struct child){pid, fn, arg};
	/* it may have ended before it was watched (its SIGCHLD already
	 * read): look soon, from the loop, so that fn never runs before
	 * the caller has finished setting up what fn ends */
	ks_loop_timer(l, 0, 0, recheck_children, l);
	return 0;
}

void ks_loop_forget_child(ks_loop *l, pid_t pid)
{
	for (size_t i = 0; i < l->nkids; i++)
		if (l->kids[i].pid == pid) {
			l->kids[i] = l->kids[--l->nkids];
			return;
		}
}

void ks_loop_stop(ks_loop *l)
{
	l->stop = true;
}

/* Runs the timers that are due, earliest first; a callback may add or
 * cancel timers (its own too).  Returns the milliseconds until the next
 * one, or -1 for none. */
static int64_t run_timers(ks_loop *l)
{
	int64_t now = ks_clock_ms();
	while (l->nheap && !l->stop) {
		uint32_t slot = l->heap[0];
		struct timer *t = &l->slots[slot];
		if (t->when > now) {
			now = ks_clock_ms();
			if (t->when > now)
				break;
		}
		ks_timer_fn fn = t->fn;
		void *arg = t->arg;
		if (t->period > 0) {
			t->when = now + t->period;
			t->seq = ++l->seq;
			sift_down(l, 0);
		} else {
			timer_drop(l, slot);
		}
		fn(arg);
	}
	if (!l->nheap)
		return -1;
	int64_t in = l->slots[l->heap[0]].when - ks_clock_ms();
	return in < 0 ? 0 : in;
}

void ks_loop_run(ks_loop *l)
{
	l->stop = false;
	struct epoll_event ev[64];
	while (!l->stop) {
		int64_t wait = run_timers(l);
		if (l->stop)
			break;
		int n = epoll_wait(l->ep, ev, 64,
				   wait < 0 || wait > 60000 ? 60000 : (int)wait);
		if (n < 0 && errno != EINTR)
			break;
		for (int i = 0; i < n && !l->stop; i++) {
			int fd = ev[i].data.fd;
			if ((size_t)fd >= l->nwatches || !l->watches[fd].live)
				continue;
			unsigned got = (ev[i].events & EPOLLIN ? KS_EV_IN : 0u) |
				       (ev[i].events & EPOLLOUT ? KS_EV_OUT : 0u) |
				       (ev[i].events & (EPOLLERR | EPOLLHUP)
						? KS_EV_ERR : 0u);
			struct watch w = l->watches[fd];
			w.fn(w.arg, fd, got);
		}
	}
}
