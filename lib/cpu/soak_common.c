/*
 * soak_common.c: what the soak client (soak.c) and the soak host
 * (soak_host.c) share: where the box's soak socket and its locks live (a
 * directory no other user may enter), the counters' layout, and the
 * unix-socket helpers.
 */
#include "config.h"
#include "soak.h"
#include "soak_int.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Is dir a directory of ours that nobody else may enter (0700, not a
 * symlink)? Make it when missing. 0 or -errno with why. */
static int private_dir(const char *dir, char *why, size_t len)
{
	struct stat st;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		snprintf(why, len, "cannot make %s: %s", dir, strerror(errno));
		return -errno;
	}
	if (lstat(dir, &st)) {
		snprintf(why, len, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		snprintf(
			why, len,
			"%s is not a private directory of uid %u (owner %u, mode %03o): refusing to put the soak socket there",
			dir, (unsigned)geteuid(), (unsigned)st.st_uid,
			(unsigned)(st.st_mode & 0777));
		return -EPERM;
	}
	return 0;
}

/* Make the missing directories above dir, 0700 (like mkdir -p). */
static void make_parents(const char *dir)
{
	char buf[256];
	char *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return; /* private_dir says why */
		*p = '/';
	}
}

/* The user's state directory for the socket: $XDG_STATE_HOME/zcbench/
 * soak, else ~/.local/state/zcbench/soak. 0 or -ENOENT with why. */
static int state_dir(char *dir, size_t len, char *why, size_t wlen)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	struct passwd *pw;
	int n;

	if (!home || *home != '/') {
		pw = getpwuid(geteuid());
		home = pw && pw->pw_dir && *pw->pw_dir == '/' ? pw->pw_dir
							      : NULL;
	}
	if (x && *x == '/')
		n = snprintf(dir, len, "%s/zcbench/soak", x);
	else if (home)
		n = snprintf(dir, len, "%s/.local/state/zcbench/soak", home);
	else {
		snprintf(why, wlen, "no state directory (HOME unset)");
		return -ENOENT;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(why, wlen, "state directory path too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Is there room for dir + name in a unix socket address? */
static int fits(const char *dir, const char *name)
{
	struct sockaddr_un sa;

	return strlen(dir) + strlen(name) < sizeof(sa.sun_path);
}

/*
 * Where the box's soak host listens: $ZCB_SOAK_SOCKET (tests), else for
 * root /run/zcbench-soak.sock (one host for the box), else a private
 * directory of the user: $XDG_RUNTIME_DIR when it is one, else
 * /tmp/zcbench-UID made 0700 and checked, so no other user can bind the
 * path first or reach our host. Another user can make /tmp/zcbench-UID
 * first (it is then not ours and refused): then the user's state
 * directory, zcbench/soak in it made 0700 and checked the same way, so
 * the meter still works and every process of the user still finds the
 * one host. "" with why filled when there is none.
 */
const char *soak_socket_where(char *why, size_t len)
{
	static char buf[256];
	const char *e = getenv("ZCB_SOAK_SOCKET"), *x;
	char dir[200], tmpwhy[300], statewhy[300];

	why[0] = '\0';
	if (e && *e && strlen(e) < 200)
		return e;
	if (geteuid() == 0 && !access("/run", W_OK))
		return SOAK_SOCKET;
	x = getenv("XDG_RUNTIME_DIR");
	if (x && *x && fits(x, "/zcbench-soak.sock") &&
	    !private_dir(x, why, len)) {
		snprintf(buf, sizeof(buf), "%s/zcbench-soak.sock", x);
		return buf;
	}
	snprintf(dir, sizeof(dir), "/tmp/zcbench-%u", (unsigned)geteuid());
	if (!private_dir(dir, tmpwhy, sizeof(tmpwhy))) {
		snprintf(buf, sizeof(buf), "%s/soak.sock", dir);
		return buf;
	}
	if (!state_dir(dir, sizeof(dir), statewhy, sizeof(statewhy))) {
		if (!fits(dir, "/soak.sock"))
			snprintf(statewhy, sizeof(statewhy),
				 "%s: too long a path for a unix socket", dir);
		else {
			make_parents(dir);
			if (!private_dir(dir, statewhy, sizeof(statewhy))) {
				snprintf(buf, sizeof(buf), "%s/soak.sock", dir);
				return buf;
			}
		}
	}
	snprintf(why, len, "%s; and %s", tmpwhy, statewhy);
	return "";
}

const char *soak_socket_path(void)
{
	char why[300];

	return soak_socket_where(why, sizeof(why));
}

void soak_side_path(char *buf, size_t len, const char *suffix)
{
	snprintf(buf, len, "%s.%s", soak_socket_path(), suffix);
}

size_t soak_map_size(int ncpu)
{
	size_t n = SOAK_HDR + (size_t)ncpu * sizeof(struct shm_slot);

	return (n + 4095) & ~(size_t)4095;
}

struct shm_slot *soak_slots(void *map)
{
	return (struct shm_slot *)((char *)map + SOAK_HDR);
}

int soak_unix_connect(const char *path)
{
	struct sockaddr_un sa;
	int fd, e;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

/* The uid of the process at the other end of a unix socket, or -1. */
int soak_peer_uid(int fd)
{
	struct ucred cr;
	socklen_t n = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &n) || n != sizeof(cr))
		return -1;
	return (int)cr.uid;
}
