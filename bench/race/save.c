/*
 * save <path> <rename|inplace> <seconds> [interval-us]
 *
 * An editor saving one file over and over, as fast as a person's editor with autosave never
 * would: every interval (450 us by default) it writes the whole file again, either to a
 * temporary beside it renamed over it (rename) or into the file itself with O_TRUNC (inplace).
 * Each save's content starts with its number, "id=0000000042", so whoever reads the file knows
 * which save it was made from; an agent's edit keeps that line.
 *
 * Before each save it reads what is at the path. When that is not its own last save, it prints
 * "<last saved> <id seen>" (-1: nothing there; -2: no id). A file made from an older save than
 * the last one (seen < last) means a change replaced a save it never saw: the save was lost.
 * On exit (SIGTERM, SIGINT or the time is up) it prints "saves <count>". Exit status: 0, 1 for a
 * failed save (its errno on stderr), 2 for usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested = 0;

static void request_stop(int signal_number) {
    (void)signal_number;
    stop_requested = 1;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The save a file was made from: its id line, -1 when there is no file, -2 when it has no id. */
static long seen_id(const char *path) {
    char buffer[64];
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return -1;
    ssize_t got = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (got < 0) return -2;
    buffer[got] = 0;
    long id;
    return sscanf(buffer, "id=%ld", &id) == 1 ? id : -2;
}

static int write_all(int fd, const char *text, size_t length) {
    while (length > 0) {
        ssize_t wrote = write(fd, text, length);
        if (wrote < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        text += wrote;
        length -= (size_t)wrote;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4 || argc > 5 || (strcmp(argv[2], "rename") != 0 && strcmp(argv[2], "inplace") != 0)) {
        fprintf(stderr, "usage: save <path> <rename|inplace> <seconds> [interval-us]\n");
        return 2;
    }
    const char *path = argv[1];
    int by_rename = strcmp(argv[2], "rename") == 0;
    double seconds = atof(argv[3]);
    long interval = argc == 5 ? atol(argv[4]) : 450;
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.editor-save", path);

    /* Ends with its parent, so an interrupted run leaves no editor saving. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    signal(SIGTERM, request_stop);
    signal(SIGINT, request_stop);
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);

    long last = seen_id(path);
    long saves = 0;
    double deadline = now_seconds() + seconds;
    char content[256];
    while (!stop_requested && now_seconds() < deadline) {
        long seen = seen_id(path);
        if (saves > 0 && seen != last) printf("%ld %ld\n", last, seen);
        long id = last < 0 ? 1 : last + 1;
        int length = snprintf(content, sizeof content, "id=%010ld\nstate=editor\nThe editor's text, saved again.\n", id);
        int fd = by_rename ? open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644) : open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || write_all(fd, content, (size_t)length) != 0 || close(fd) != 0 || (by_rename && rename(temporary, path) != 0)) {
            fprintf(stderr, "save %ld of %s failed: %s\n", id, path, strerror(errno));
            return 1;
        }
        last = id;
        saves += 1;
        usleep((useconds_t)interval);
    }
    long seen = seen_id(path);
    if (seen != last) printf("%ld %ld\n", last, seen);
    printf("saves %ld\n", saves);
    return 0;
}
