//go:build linux && cgo

// The sandbox helper. It runs from an ELF constructor, before the Go
// runtime and every package's init, when the process was started as
//
//   tandem __sandbox-exec ON NET N rw… N protect… N hide… COMMAND…
//
// (see helperArgs in helper_linux.go for the fields). It starts the init
// of new user, mount and PID namespaces, which makes the protected entries
// read-only, hides the hidden ones, restricts itself with Landlock, starts
// the command (which inherits the restriction) and reaps until the command
// exits. When the init dies the kernel kills whatever is left in the
// namespace; the init dies with the helper and the helper with tandem
// (parent-death signals), so tandem's death, even by kill -9, ends them
// all.
//
// The namespaces are made here rather than by the runner: Go starts a child
// in a new user namespace by copying tandem's whole address space, while a
// plain child is a cheap vfork.
//
// Why C: starting a Go program costs the runtime's start and all of
// tandem's package inits, about three milliseconds per command on a
// two-core machine; here the process is single-threaded and does only
// what confinement needs (bench/sandbox measures it). Nothing in this file
// parses anything the model wrote: its arguments come from tandem's runner,
// and the command itself is passed to execvp untouched.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define HELPER_ARG "__sandbox-exec" // sandbox.HelperArg
#define STATUS_FD 3                 // sandbox.statusFD

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

// Landlock's ABI, written out so that old kernel headers do not matter.
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};
struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

#define LL_VERSION 1u         // LANDLOCK_CREATE_RULESET_VERSION
#define LL_RULE_PATH_BENEATH 1 // LANDLOCK_RULE_PATH_BENEATH
// Reading: execute, read file, read dir. Writing adds every file-system
// right but refer (moving or linking across directories) and ioctl on
// devices, which stay handled and so refused, as go-landlock's RWDirs does.
#define LL_READ ((1ull << 0) | (1ull << 2) | (1ull << 3))
#define LL_WRITE ((1ull << 1) | (0x1ffull << 4) | (1ull << 14))

// fail reports what went wrong on stderr and ends the helper with 126, the
// shell's "cannot execute".
static void fail(const char *what, const char *path, int err) {
	dprintf(2, "tandem sandbox: %s%s%s: %s\n", what, path ? " " : "", path ? path : "", strerror(err));
	_exit(126);
}

struct list {
	char **v;
	int n;
};

// take reads a counted list from a and returns what follows it.
static char **take(char **a, char **end, struct list *l) {
	char *rest;
	long n;
	if (a >= end)
		fail("malformed arguments", NULL, EINVAL);
	n = strtol(*a, &rest, 10);
	if (*rest != 0 || n < 0 || n > end - a - 1)
		fail("malformed arguments", *a, EINVAL);
	l->v = a + 1;
	l->n = (int)n;
	return a + 1 + n;
}

// hide covers a directory with an empty read-only tmpfs and a file with
// /dev/null; a missing or symlinked entry is left alone (a link's target
// may be anywhere, and the link itself holds nothing).
static void hide(const char *p) {
	struct stat st;
	int err;
	if (lstat(p, &st) != 0 || S_ISLNK(st.st_mode))
		return;
	if (S_ISDIR(st.st_mode))
		err = mount("tandem-hidden", p, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555");
	else
		err = mount("/dev/null", p, NULL, MS_BIND, NULL);
	if (err != 0)
		fail("hide", p, errno);
}

// protect bind-mounts p onto itself read-only. A symlink would bind its
// target, which may lie anywhere, so the target is resolved and protected
// only while it exists; a dangling link has nothing to write through.
static void protect(const char *p) {
	char real[PATH_MAX];
	struct statvfs st;
	unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY;
	if (realpath(p, real) == NULL)
		return;
	if (mount(real, real, NULL, MS_BIND | MS_REC, NULL) != 0)
		fail("protect", real, errno);
	if (statvfs(real, &st) != 0)
		fail("protect", real, errno);
	// In a user namespace the remount must keep the flags the mount was
	// locked with (nosuid, nodev, …), so they are carried over.
	if (st.f_flag & ST_NOSUID)
		flags |= MS_NOSUID;
	if (st.f_flag & ST_NODEV)
		flags |= MS_NODEV;
	if (st.f_flag & ST_NOEXEC)
		flags |= MS_NOEXEC;
	if (st.f_flag & ST_NOATIME)
		flags |= MS_NOATIME;
	if (st.f_flag & ST_NODIRATIME)
		flags |= MS_NODIRATIME;
	if (st.f_flag & ST_RELATIME)
		flags |= MS_RELATIME;
	if (mount("", real, NULL, flags, NULL) != 0)
		fail("protect", real, errno);
}

// handledFS is the file-system rights Landlock ABI abi knows, capped at
// ABI 7's: every right handled is refused unless a rule grants it.
static uint64_t handledFS(long abi) {
	if (abi >= 5)
		return (1ull << 16) - 1;
	if (abi >= 3)
		return (1ull << 15) - 1;
	if (abi >= 2)
		return (1ull << 14) - 1;
	return (1ull << 13) - 1;
}

static void grant(int ruleset, const char *path, uint64_t access, int ignoreMissing) {
	struct ll_path_beneath rule;
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		if (ignoreMissing && errno == ENOENT)
			return;
		fail("landlock: open", path, errno);
	}
	rule.allowed_access = access;
	rule.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0) != 0)
		fail("landlock: rule for", path, errno);
	close(fd);
}

// restrict applies Landlock to this (single-threaded) process: read and
// execute everywhere, write only under rw, no signals to and no
// abstract-socket connections with processes outside the sandbox (ABI 6),
// and no TCP connect or bind when netDeny.
static void restrict_self(long abi, struct list rw, int netDeny) {
	struct ll_ruleset_attr attr = {0};
	int fd, i;
	attr.handled_access_fs = handledFS(abi);
	if (netDeny) {
		if (abi < 4) {
			dprintf(2, "tandem sandbox: network deny needs Landlock ABI 4 (Linux 6.7); this kernel has %ld\n", abi);
			_exit(126);
		}
		attr.handled_access_net = 3; // bind and connect TCP, with no rule granting either
	}
	if (abi >= 6)
		attr.scoped = 3; // abstract unix sockets and signals
	fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
	if (fd < 0)
		fail("landlock ruleset", NULL, errno);
	grant(fd, "/", LL_READ & attr.handled_access_fs, 0);
	for (i = 0; i < rw.n; i++)
		grant(fd, rw.v[i], (LL_READ | LL_WRITE) & attr.handled_access_fs, 1);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		fail("no_new_privs", NULL, errno);
	if (syscall(SYS_landlock_restrict_self, fd, 0) != 0)
		fail("landlock", NULL, errno);
	close(fd);
}

static void ignore(int sig) { (void)sig; }

// outlast catches the signals the runner sends to the process group, so
// that the helper and the init wait for the command's own end and report
// it. Caught, not ignored: an ignored disposition would pass to the
// command.
static void outlast(void) {
	struct sigaction sa;
	int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
	unsigned i;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ignore;
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

// waitFor waits for pid, reaping any other child on the way, and returns
// its wait status.
static int waitFor(pid_t pid) {
	for (;;) {
		int ws;
		pid_t got = waitpid(-1, &ws, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			_exit(126);
		}
		if (got == pid)
			return ws;
	}
}

// initProcess runs argv as the namespace's only direct child, reaps every
// orphan that lands on it, and exits with the child's status once the
// child is gone, after writing the number of the signal that ended it, if
// one did, to STATUS_FD (an exit status alone cannot say it).
static void initProcess(char **argv) {
	pid_t child;
	int ws;
	child = fork();
	if (child < 0)
		fail("fork", NULL, errno);
	if (child == 0) {
		execvp(argv[0], argv);
		fail("exec", argv[0], errno);
	}
	ws = waitFor(child);
	if (WIFSIGNALED(ws)) {
		dprintf(STATUS_FD, "%d", WTERMSIG(ws));
		_exit(128 + WTERMSIG(ws));
	}
	_exit(WEXITSTATUS(ws));
}

// writeMap writes one line of a child's user namespace setup
// (/proc/PID/uid_map, setgroups, gid_map), reporting whether it could.
static int writeMap(pid_t pid, const char *file, const char *text) {
	char path[64];
	int fd, ok;
	size_t n = strlen(text);
	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = write(fd, text, n) == (ssize_t)n;
	close(fd);
	return ok;
}

// mapIDs maps the helper's uid and gid to themselves in pid's user
// namespace. The helper writes them from outside, as the namespace's
// owner: a process inside may not write its own where the system denies
// capabilities in unprivileged namespaces (Ubuntu's AppArmor policy).
static int mapIDs(pid_t pid) {
	char uid[32], gid[32];
	snprintf(uid, sizeof uid, "%u %u 1\n", (unsigned)geteuid(), (unsigned)geteuid());
	snprintf(gid, sizeof gid, "%u %u 1\n", (unsigned)getegid(), (unsigned)getegid());
	return writeMap(pid, "uid_map", uid) && writeMap(pid, "setgroups", "deny") && writeMap(pid, "gid_map", gid);
}

struct confinement {
	int on, netDeny;
	struct list rw, prot, hid;
};

// confine makes the protected entries read-only, hides the hidden ones and
// restricts the process with Landlock, unless the mode is off or the
// kernel has no Landlock.
static void confine(struct confinement c) {
	int i;
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_VERSION);
	if (!c.on || abi < 1)
		return;
	if (c.prot.n > 0 || c.hid.n > 0) {
		// Private, so the mounts vanish with the namespace.
		if (mount("", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
			fail("private mounts", NULL, errno);
		for (i = 0; i < c.hid.n; i++)
			hide(c.hid.v[i]);
		for (i = 0; i < c.prot.n; i++)
			protect(c.prot.v[i]);
	}
	restrict_self(abi, c.rw, c.netDeny);
}

// plain runs the command as the helper itself: what is left where the
// kernel refuses unprivileged namespaces. Landlock needs no namespace, so
// writes stay confined to the granted paths; but without a mount namespace
// the protected entries inside them cannot be made read-only, and the
// command stays in the runner's process group, which a setsid daemon can
// escape.
static void plain(struct confinement c, char **argv) {
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_VERSION);
	close(STATUS_FD);
	if (c.on && abi >= 1)
		restrict_self(abi, c.rw, c.netDeny);
	execvp(argv[0], argv);
	fail("exec", argv[0], errno);
}

static void helper(int argc, char **argv) {
	char **a = argv + 2, **end = argv + argc, go;
	struct confinement c;
	int ready[2], ws;
	pid_t init;
	if (end - a < 2)
		fail("malformed arguments", NULL, EINVAL);
	c.on = strcmp(a[0], "on") == 0;
	c.netDeny = strcmp(a[1], "deny") == 0;
	a = take(a + 2, end, &c.rw);
	a = take(a, end, &c.prot);
	a = take(a, end, &c.hid);
	if (a >= end)
		fail("malformed arguments: no command", NULL, EINVAL);
	// The status descriptor is not for the command: a daemon holding it
	// would keep the runner's read waiting.
	fcntl(STATUS_FD, F_SETFD, FD_CLOEXEC);
	if (pipe2(ready, O_CLOEXEC) != 0)
		fail("pipe", NULL, errno);
	outlast();
	// The init, in new user, mount and PID namespaces. This process is
	// small and single-threaded (Go has not started), so copying it is
	// cheap, unlike the Go runner. The user namespace is there even for
	// root: the command keeps its uid but holds capabilities only inside
	// it, so root's CAP_SYS_PTRACE cannot read tandem's non-dumpable
	// /proc/<pid>/environ or memory.
	init = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, NULL);
	if (init < 0) {
		if (errno == EPERM || errno == EINVAL || errno == ENOSPC || errno == EUSERS)
			plain(c, a);
		fail("namespaces", NULL, errno);
	}
	if (init == 0) {
		close(ready[1]);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
			_exit(126);
		// One byte once the helper has mapped the ids; end of file if it
		// gave up or died (before the death signal was set, say).
		if (read(ready[0], &go, 1) != 1)
			_exit(126);
		close(ready[0]);
		confine(c);
		initProcess(a);
	}
	close(ready[0]);
	if (!mapIDs(init)) {
		kill(init, SIGKILL);
		waitFor(init);
		plain(c, a);
	}
	if (write(ready[1], "g", 1) != 1)
		fail("start", NULL, errno);
	ws = waitFor(init);
	if (WIFSIGNALED(ws))
		_exit(128 + WTERMSIG(ws));
	_exit(WEXITSTATUS(ws));
}

#if defined(__GLIBC__) && !defined(TANDEM_CMDLINE_ARGS) // the define tests the other path on glibc
// glibc passes argc and argv to constructors, in static and dynamic
// executables alike.
__attribute__((constructor)) static void tandemSandboxHelper(int argc, char **argv) {
	if (argc >= 2 && argv != NULL && strcmp(argv[1], HELPER_ARG) == 0)
		helper(argc, argv);
}
#else
// Other C libraries (musl) pass constructors nothing, so the arguments are
// read back from /proc/self/cmdline: NUL-terminated, in order.
__attribute__((constructor)) static void tandemSandboxHelper(void) {
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap + 1);
	for (ssize_t n; buf != NULL; len += (size_t)n) {
		if (len == cap) {
			char *grown = realloc(buf, 2 * cap + 1);
			if (grown == NULL) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n <= 0)
			break;
	}
	close(fd);
	if (buf == NULL)
		return;
	buf[len] = '\0';
	const char *first = memchr(buf, '\0', len) ? buf + strlen(buf) + 1 : NULL;
	if (first == NULL || first >= buf + len || strcmp(first, HELPER_ARG) != 0) {
		free(buf);
		return;
	}
	int argc = 0;
	for (size_t i = 0; i < len; i++)
		argc += buf[i] == '\0';
	char **argv = calloc((size_t)argc + 1, sizeof *argv);
	if (argv == NULL)
		fail("arguments", NULL, ENOMEM);
	for (int i = 0, off = 0; i < argc; i++) {
		argv[i] = buf + off;
		off += (int)strlen(buf + off) + 1;
	}
	helper(argc, argv);
}
#endif
