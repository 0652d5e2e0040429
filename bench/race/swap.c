/*
 * swap <a> <b> [seconds]
 *
 * Exchanges the two names a and b atomically with renameat2(RENAME_EXCHANGE), as fast as it can,
 * until SIGTERM or SIGINT arrives or the given number of seconds has passed (0 or none: no limit).
 * The race harness points it at a real folder inside a workspace and a link to a folder outside,
 * so a server that checks a path and then acts on it by name sometimes acts outside.
 *
 * On exit it swaps once more if needed, so both names end as they began, and prints the number of
 * exchanges on stdout. Exit status: 0, 1 for a failed exchange (its errno on stderr), 2 for usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static volatile sig_atomic_t stop_requested = 0;

static void request_stop(int signal_number) {
    (void)signal_number;
    stop_requested = 1;
}

/* The raw system call: older glibc has no renameat2 wrapper. */
static int exchange(const char *a, const char *b) {
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: swap <a> <b> [seconds]\n");
        return 2;
    }
    const char *a = argv[1];
    const char *b = argv[2];
    double seconds = argc == 4 ? strtod(argv[3], NULL) : 0;

    /* A harness that dies without cleaning up must not leave this spinning. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    double deadline = seconds > 0 ? now_seconds() + seconds : 0;
    unsigned long long swaps = 0;
    int status = 0;
    while (!stop_requested) {
        if (exchange(a, b) != 0) {
            fprintf(stderr, "swap: renameat2(%s, %s, RENAME_EXCHANGE): %s\n", a, b, strerror(errno));
            status = 1;
            break;
        }
        swaps++;
        /* Reading the clock is cheap (vDSO), but not free: look every 256 exchanges. */
        if (deadline > 0 && (swaps & 255) == 0 && now_seconds() >= deadline) break;
    }
    /* An odd count leaves the names exchanged: put them back. */
    if (swaps % 2 == 1) {
        if (exchange(a, b) == 0) swaps++;
        else {
            fprintf(stderr, "swap: could not restore %s and %s: %s\n", a, b, strerror(errno));
            status = 1;
        }
    }
    printf("%llu\n", swaps);
    return status;
}
