// The attacker's probe: run inside exactly the sandbox the server runs in, it tries every route out
// and prints one JSON line per route: {"route": ..., "open": true|false, "detail": ...}. A route is
// open when the call that would use it succeeded. Nothing here is the server's code.
//
// Usage: probe <victim pid> <outside folder> <outside secret file> <refusal log> <home> [secret env names...]
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *route, int open, const char *detail) {
  printf("{\"route\":\"%s\",\"open\":%s,\"detail\":\"", route, open ? "true" : "false");
  for (const char *c = detail; *c; c++) {
    if (*c == '"' || *c == '\\') putchar('\\');
    if ((unsigned char)*c >= 0x20) putchar(*c);
  }
  printf("\"}\n");
  fflush(stdout);
}

// A call's outcome: "ok" or the errno's name.
static const char *outcome(long result) { return result >= 0 ? "succeeded" : strerrorname_np(errno) ? strerrorname_np(errno) : "error"; }

static void call(const char *route, long result) { report(route, result >= 0, outcome(result)); }

static int read_file(const char *path, char *out, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, out, size - 1);
  close(fd);
  if (n < 0) return -1;
  out[n] = 0;
  return (int)n;
}

static void try_read(const char *route, const char *path) {
  char buffer[4096];
  int n = read_file(path, buffer, sizeof buffer);
  report(route, n >= 0, n >= 0 ? "read" : strerrorname_np(errno));
}

static void try_create(const char *route, const char *folder) {
  char path[4096];
  snprintf(path, sizeof path, "%s/probe-%d.txt", folder, getpid());
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    close(fd);
    unlink(path);
  }
  call(route, fd);
}

static void try_link(const char *route, const char *path) {
  char target[4096];
  ssize_t n = readlink(path, target, sizeof target - 1);
  report(route, n >= 0, n >= 0 ? "followed" : strerrorname_np(errno));
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: probe <victim pid> <outside folder> <outside secret> <refusal log> <home> [env names...]\n");
    return 2;
  }
  // As the server does, say on the launcher's channel (descriptor 4) that the program inside runs.
  if (write(4, "R", 1) != 1) return 3;
  pid_t victim = atoi(argv[1]);
  const char *outside = argv[2], *secret = argv[3], *log = argv[4], *home = argv[5];
  char path[4096];
  long r;

  // Terminal injection (CVE-2017-5226): type into whatever terminal stdio or /dev/tty is.
  int injected = 0;
  const char *typed = "touch /tmp/PWNED\n";
  for (int fd = 0; fd <= 2; fd++)
    for (const char *c = typed; *c; c++) injected |= ioctl(fd, TIOCSTI, c) == 0;
  int tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (tty >= 0)
    for (const char *c = typed; *c; c++) injected |= ioctl(tty, TIOCSTI, c) == 0;
  report("ioctl TIOCSTI on stdio and /dev/tty", injected, injected ? "typed" : strerrorname_np(errno));
  char linux_subcode = 11;
  call("ioctl TIOCLINUX", ioctl(0, TIOCLINUX, &linux_subcode));
  report("open /dev/tty (a controlling terminal)", tty >= 0, tty >= 0 ? "opened" : strerrorname_np(errno));
  int ptys = 0;
  DIR *pts = opendir("/dev/pts");
  if (pts) {
    for (struct dirent *e; (e = readdir(pts));) ptys += e->d_name[0] >= '0' && e->d_name[0] <= '9';
    closedir(pts);
  }
  snprintf(path, sizeof path, "%d host terminals in /dev/pts", ptys);
  report("see the user's terminals", ptys > 0, path);

  // Other processes.
  int outsiders = 0;
  DIR *proc = opendir("/proc");
  if (proc) {
    for (struct dirent *e; (e = readdir(proc));) outsiders += atoi(e->d_name) > getpid();
    closedir(proc);
  }
  snprintf(path, sizeof path, "%d processes outside", outsiders);
  report("see processes outside in /proc", outsiders > 0, path);
  const char *views[] = {"cmdline", "environ", "status", "mountinfo", "mem"};
  for (int i = 0; i < 5; i++) {
    char route[128];
    snprintf(path, sizeof path, "/proc/%d/%s", victim, views[i]);
    snprintf(route, sizeof route, "read another process's /proc/<pid>/%s", views[i]);
    try_read(route, path);
  }
  snprintf(path, sizeof path, "/proc/%d/root", victim);
  try_link("follow another process's /proc/<pid>/root", path);
  snprintf(path, sizeof path, "/proc/%d/cwd", victim);
  try_link("follow another process's /proc/<pid>/cwd", path);
  snprintf(path, sizeof path, "/proc/%d/fd/0", victim);
  try_link("follow another process's /proc/<pid>/fd", path);
  snprintf(path, sizeof path, "/proc/1/root%s", secret);
  try_read("read outside through /proc/1/root", path);
  call("kill another process (signal 0)", kill(victim, 0));
  call("SIGKILL another process", kill(victim, SIGKILL));
  call("ptrace attach another process", ptrace(PTRACE_ATTACH, victim, 0, 0));
  call("ptrace attach the sandbox's pid 1", ptrace(PTRACE_ATTACH, 1, 0, 0));
  char byte;
  struct iovec local = {&byte, 1}, remote = {(void *)0x400000, 1};
  call("process_vm_readv", process_vm_readv(1, &local, 1, &remote, 1, 0));
  r = syscall(SYS_pidfd_open, 1, 0);
  call("pidfd_open", r);
  call("pidfd_getfd", syscall(SYS_pidfd_getfd, r >= 0 ? r : 0, 0, 0));

  // Secrets.
  call("keyctl read the session keyring", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0));
  call("add_key", syscall(SYS_add_key, "user", "probe", "x", 1, -3));
  call("request_key", syscall(SYS_request_key, "user", "probe", NULL, 0));
  char keys[4096];
  int listed = read_file("/proc/keys", keys, sizeof keys);
  report("list keys in /proc/keys", listed > 0, listed > 0 ? "listed" : listed == 0 ? "empty" : strerrorname_np(errno));
  int leaked = 0;
  char names[1024] = "";
  for (int i = 6; i < argc; i++)
    if (getenv(argv[i])) {
      leaked = 1;
      strncat(names, argv[i], sizeof names - strlen(names) - 2);
      strcat(names, " ");
    }
  report("environment secrets", leaked, leaked ? names : "none");

  // Inherited descriptors: anything above stdio that reaches outside.
  int reached = 0;
  char through[512] = "";
  for (int fd = 3; fd < 1024; fd++) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    int file = openat(fd, "secret.txt", O_RDONLY | O_CLOEXEC);
    int made = mkdirat(fd, "probe-was-here", 0700);
    if (file >= 0 || made == 0) {
      reached = 1;
      snprintf(through + strlen(through), sizeof through - strlen(through), "fd %d ", fd);
    }
    if (file >= 0) close(file);
    if (made == 0) unlinkat(fd, "probe-was-here", AT_REMOVEDIR);
  }
  report("an inherited descriptor on an outside folder", reached, reached ? through : "none");

  // Namespaces, mounts, the kernel.
  call("unshare a user namespace", unshare(CLONE_NEWUSER));
  call("unshare a mount namespace", unshare(CLONE_NEWNS));
  call("unshare a network namespace", unshare(CLONE_NEWNET));
  r = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
  if (r == 0) _exit(0);
  if (r > 0) waitpid(r, NULL, 0);
  call("clone a new user namespace", r);
  struct clone_args args = {.flags = CLONE_NEWUSER, .exit_signal = SIGCHLD};
  r = syscall(SYS_clone3, &args, sizeof args);
  if (r == 0) _exit(0);
  if (r > 0) waitpid(r, NULL, 0);
  call("clone3 a new user namespace", r);
  r = fork();
  if (r == 0) _exit(0);
  if (r > 0) waitpid(r, NULL, 0);
  call("fork a process", r);
  int userns = open("/proc/1/ns/user", O_RDONLY | O_CLOEXEC);
  call("setns", userns >= 0 ? setns(userns, 0) : -1);
  call("mount a tmpfs", mount("none", "/tmp", "tmpfs", 0, NULL));
  call("umount /proc", umount2("/proc", MNT_DETACH));
  call("fsopen", syscall(SYS_fsopen, "tmpfs", 0));
  call("open_tree", syscall(SYS_open_tree, AT_FDCWD, "/", 1 /* OPEN_TREE_CLONE */));
  call("chroot", chroot("/tmp"));
  call("io_uring_setup", syscall(SYS_io_uring_setup, 1, (char[120]){0}));
  call("bpf", syscall(SYS_bpf, 0 /* BPF_MAP_CREATE */, (char[128]){0}, 128));
  call("perf_event_open", syscall(SYS_perf_event_open, (char[128]){0}, 0, -1, -1, 0));
  call("userfaultfd", syscall(SYS_userfaultfd, 0));
  call("open_by_handle_at", syscall(SYS_open_by_handle_at, AT_FDCWD, (char[136]){8}, O_RDONLY));
  int families[] = {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK, AF_PACKET};
  const char *family_names[] = {"AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK", "AF_PACKET"};
  for (int i = 0; i < 5; i++) {
    char route[64];
    snprintf(route, sizeof route, "socket %s", family_names[i]);
    int s = socket(families[i], families[i] == AF_NETLINK || families[i] == AF_PACKET ? SOCK_RAW : SOCK_STREAM, 0);
    call(route, s);
    if (s >= 0) close(s);
  }

  // The filesystem.
  try_read("read an outside file", secret);
  try_create("write in an outside folder", outside);
  try_create("write in /tmp", "/tmp");
  try_create("write in /dev/shm", "/dev/shm");
  try_create("write in /dev", "/dev");
  try_create("write in /", "/");
  try_create("write in the home folder", home);
  struct stat st;
  call("see the refusal log", stat(log, &st));
  snprintf(path, sizeof path, "%s.1", log);
  call("see the rotated refusal log", stat(path, &st));

  // Privilege.
  char status[8192];
  read_file("/proc/self/status", status, sizeof status);
  const char *sets[] = {"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"};
  int held = 0;
  for (int i = 0; i < 5; i++) {
    char *at = strstr(status, sets[i]);
    if (at && strspn(at + strlen(sets[i]) + 2, "0") < 16) held = 1;
  }
  report("hold capabilities", held, held ? "some set is not empty" : "all sets empty");
  char *seccomp = strstr(status, "Seccomp:");
  int filtered = seccomp && atoi(seccomp + 8) == 2;
  report("run without a seccomp filter", !filtered, filtered ? "filter mode" : "no filter");
  return 0;
}
