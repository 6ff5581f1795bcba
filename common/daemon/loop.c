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

struct timer {
	uint64_t id;
	int64_t when;
	int64_t period;
	ks_timer_fn fn;
	void *arg;
};

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
	struct timer *timers; /* unsorted: a daemon has a handful */
	size_t ntimers, captimers;
	uint64_t next_id;
	int sigfd;
	sigset_t sigs;
	struct sig *handlers;
	size_t nhandlers;
	struct child *kids;
	size_t nkids;
	bool reaping; /* SIGCHLD is ours */
};

int64_t ks_loop_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
	free(l->timers);
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

uint64_t ks_loop_timer(ks_loop *l, int64_t delay_ms, int64_t period_ms,
		       ks_timer_fn fn, void *arg)
{
	if (l->ntimers == l->captimers) {
		l->captimers = l->captimers ? l->captimers * 2 : 8;
		l->timers = ks_xrealloc(l->timers,
					l->captimers * sizeof(*l->timers));
	}
	uint64_t id = ++l->next_id;
	l->timers[l->ntimers++] = (struct timer){
		id, ks_loop_now_ms() + (delay_ms > 0 ? delay_ms : 0),
		period_ms, fn, arg};
	return id;
}

void ks_loop_cancel(ks_loop *l, uint64_t id)
{
	for (size_t i = 0; i < l->ntimers; i++)
		if (l->timers[i].id == id) {
			l->timers[i] = l->timers[--l->ntimers];
			return;
		}
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

/* Runs the timers that are due; a callback may add or cancel timers, so
 * each round looks the table up again. */
static int64_t run_timers(ks_loop *l)
{
	for (;;) {
		int64_t now = ks_loop_now_ms();
		size_t due = l->ntimers;
		for (size_t i = 0; i < l->ntimers; i++)
			if (l->timers[i].when <= now &&
			    (due == l->ntimers ||
			     l->timers[i].when < l->timers[due].when))
				due = i;
		if (due == l->ntimers || l->stop)
			break;
		struct timer t = l->timers[due];
		if (t.period > 0)
			l->timers[due].when = now + t.period;
		else
			l->timers[due] = l->timers[--l->ntimers];
		t.fn(t.arg);
	}
	int64_t next = -1, now = ks_loop_now_ms();
	for (size_t i = 0; i < l->ntimers; i++) {
		int64_t in = l->timers[i].when - now;
		if (in < 0)
			in = 0;
		if (next < 0 || in < next)
			next = in;
	}
	return next;
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
