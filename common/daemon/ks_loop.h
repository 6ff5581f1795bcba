/*
 * ks_loop.h: a daemon's single-threaded event loop: file descriptors
 * (epoll), timers and signals (signalfd).  Everything a daemon does runs
 * from its loop's callbacks, one at a time.
 */
#ifndef KS_LOOP_H
#define KS_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ks_clock.h" /* timers count on ks_clock_ms() */

typedef struct ks_loop ks_loop;

enum { KS_EV_IN = 1, KS_EV_OUT = 2, KS_EV_ERR = 4 };

typedef void (*ks_fd_fn)(void *arg, int fd, unsigned events);
typedef void (*ks_timer_fn)(void *arg);
typedef void (*ks_signal_fn)(void *arg, int signo);
/* status as waitpid() gives it */
typedef void (*ks_child_fn)(void *arg, pid_t pid, int status);

/* A new loop; free with ks_loop_free().  NULL if epoll is unavailable. */
ks_loop *ks_loop_new(void);
void ks_loop_free(ks_loop *loop);

/* Watches fd for events (KS_EV_IN | KS_EV_OUT); fn gets what happened
 * (KS_EV_ERR for errors and hang-ups).  Returns 0 or -1 (errno set). */
int ks_loop_watch(ks_loop *loop, int fd, unsigned events, ks_fd_fn fn,
		  void *arg);
int ks_loop_rewatch(ks_loop *loop, int fd, unsigned events);
/* Stops watching fd (before the caller closes it). */
void ks_loop_unwatch(ks_loop *loop, int fd);

/* Calls fn after delay_ms, then every period_ms if period_ms > 0.
 * Returns the timer's id (never 0), for ks_loop_cancel(). */
uint64_t ks_loop_timer(ks_loop *loop, int64_t delay_ms, int64_t period_ms,
		       ks_timer_fn fn, void *arg);
/* Cancels a timer (id 0 or an unknown id: nothing happens). */
void ks_loop_cancel(ks_loop *loop, uint64_t id);

/* Delivers signo through the loop instead of asynchronously (blocks it
 * in the process).  Returns 0 or -1. */
int ks_loop_signal(ks_loop *loop, int signo, ks_signal_fn fn, void *arg);

/* Calls fn once child pid has ended, with its wait status, and reaps it;
 * always from the loop, never from within this call (a child may end
 * before its parent has finished setting up what fn ends).
 * Any part of a daemon may watch its own children this way; children
 * nobody watches are not reaped here.  Returns 0 or -1. */
int ks_loop_child(ks_loop *loop, pid_t pid, ks_child_fn fn, void *arg);
/* Stops watching pid (fn is not called). */
void ks_loop_forget_child(ks_loop *loop, pid_t pid);

/* Runs until ks_loop_stop(). */
void ks_loop_run(ks_loop *loop);
void ks_loop_stop(ks_loop *loop);

#endif
