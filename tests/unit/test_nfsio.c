/*
 * test_nfsio.c: the URL and mountinfo helpers, the posix
 * engine end to end (write, read back, verify, short files, mismatches),
 * and the libnfs engine's refusals that need no server.
 */
#include "config.h"
#include "nfsio.h"
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char mountinfo[] =
	"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"30 22 0:40 / /mnt/nfs rw,relatime shared:7 - nfs srv:/export rw,vers=3,rsize=8192,wsize=4096,namlen=255,hard,proto=udp,timeo=11\n"
	"31 30 0:41 / /mnt/nfs/deep\\040dir rw - nfs4 srv:/e2 rw,vers=4.2,rsize=1048576,wsize=1048576,proto=tcp\n"
	"32 22 0:42 / /tmp rw - tmpfs tmpfs rw\n"
	"garbage line\n";

static void test_urls(void)
{
	char out[256];

	T_CHECK(nfsio_is_url("nfs://h/e/f"));
	T_CHECK(!nfsio_is_url("/mnt/nfs/f"));
	T_CHECK(!nfsio_is_url(NULL));
	T_CHECK(nfsio_url_version("nfs://h/e/f") == 3);
	T_CHECK(nfsio_url_version("nfs://h/e/f?version=4&nfsport=2049") == 4);
	T_CHECK(nfsio_url_version("nfs://h/e/f?nfsport=2049&version=3") == 3);
	T_CHECK(nfsio_url_version("nfs://h/e/f?version=41") == -EINVAL);
	T_CHECK(nfsio_url_version("nfs://h/e/f?version=2") == -EINVAL);
	T_CHECK(nfsio_url_suffix("nfs://h/e/f?version=4", ".3", out,
				 sizeof(out)) == 0);
	T_STREQ(out, "nfs://h/e/f.3?version=4");
	T_CHECK(nfsio_url_suffix("/mnt/x/f", ".0", out, sizeof(out)) == 0);
	T_STREQ(out, "/mnt/x/f.0");
	T_CHECK(nfsio_url_suffix("nfs://h/e/f", ".10", out, 8) ==
		-ENAMETOOLONG);
}

static void test_mountinfo(void)
{
	struct nfsio_mount m;

	T_CHECK(nfsio_mount_parse(mountinfo, "/mnt/nfs/a/file", &m) == 0);
	T_STREQ(m.fstype, "nfs");
	T_STREQ(m.source, "srv:/export");
	T_STREQ(m.mnt, "/mnt/nfs");
	T_CHECK(m.rsize == 8192 && m.wsize == 4096);
	T_STREQ(m.vers, "3");
	T_STREQ(m.proto, "udp");
	/* the longest mount point wins, escapes decoded */
	T_CHECK(nfsio_mount_parse(mountinfo, "/mnt/nfs/deep dir/f", &m) == 0);
	T_STREQ(m.fstype, "nfs4");
	T_STREQ(m.mnt, "/mnt/nfs/deep dir");
	T_CHECK(m.rsize == 1048576);
	T_STREQ(m.vers, "4.2");
	T_STREQ(m.proto, "tcp");
	/* a prefix that is not a path component does not match */
	T_CHECK(nfsio_mount_parse(mountinfo, "/mnt/nfsx/f", &m) == 0);
	T_STREQ(m.mnt, "/");
	T_STREQ(m.fstype, "ext4");
	T_CHECK(nfsio_mount_parse(mountinfo, "/tmp", &m) == 0);
	T_STREQ(m.fstype, "tmpfs");
	T_CHECK(m.rsize == 0 && !m.vers[0]);
	T_CHECK(nfsio_mount_parse("", "/x", &m) == -ENOENT);
	/* the live system knows where / is */
	T_CHECK(nfsio_mount_of(NULL, "/", &m) == 0 && m.fstype[0]);
}

static int run(struct nfsio_opts *o, struct nfsio_stats *st, char *err,
	       size_t len)
{
	struct nfsio *io;
	int r;

	r = nfsio_open(o, &io, err, len);
	if (r)
		return r;
	r = nfsio_run(io, st, err, len);
	nfsio_close(io);
	return r;
}

static void test_posix(const char *dir)
{
	const struct pattern pat = nfsio_pattern(0);
	struct nfsio_opts o = {0};
	struct nfsio_stats st;
	char path[512], copy[512], err[512];
	unsigned char buf[4096];
	struct stat sb;
	int fd;

	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(copy, sizeof(copy), "%s/copy", dir);
	/* write 100000 bytes in 4 KiB requests: the last one is short */
	o.target = path;
	o.op = NFSIO_WRITE;
	o.reqsize = 4096;
	o.qd = 1;
	o.size = 100000;
	T_CHECK(run(&o, &st, err, sizeof(err)) == 0);
	T_CHECK(st.bytes == 100000 && st.ops == 25);
	T_CHECK(stat(path, &sb) == 0 && sb.st_size == 100000);
	fd = open(path, O_RDONLY);
	T_ASSERT(fd >= 0);
	T_CHECK(pread(fd, buf, 4096, 50000) == 4096);
	close(fd);
	T_CHECK(pattern_check(&pat, buf, 50000, 4096) == -1);

	/* read it back at another size, verified against the pattern */
	o.op = NFSIO_READ;
	o.reqsize = 3000;
	o.size = 0;
	o.verify = NFSIO_VERIFY_PATTERN;
	T_CHECK(run(&o, &st, err, sizeof(err)) == 0);
	T_CHECK(st.bytes == 100000 && st.verified == 100000);
	T_CHECK(st.ops == 34 && st.file_size == 100000);
	/* --bytes limits a read */
	o.size = 5000;
	T_CHECK(run(&o, &st, err, sizeof(err)) == 0);
	T_CHECK(st.bytes == 5000 && st.ops == 2);
	o.size = 0;

	/* a wrong seed is a mismatch at offset 0, named */
	o.seed = 99;
	T_CHECK(run(&o, &st, err, sizeof(err)) == -EILSEQ);
	T_CHECK(strstr(err, "offset 0") != NULL);
	o.seed = 0;

	/* against a local copy: equal, then one byte changed */
	fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	T_ASSERT(fd >= 0);
	for (unsigned off = 0; off < 100000; off += 4096) {
		unsigned n = 100000 - off < 4096 ? 100000 - off : 4096;

		pattern_fill(&pat, buf, off, n);
		T_CHECK(write(fd, buf, n) == (ssize_t)n);
	}
	o.verify = NFSIO_VERIFY_FILE;
	o.verify_file = copy;
	T_CHECK(run(&o, &st, err, sizeof(err)) == 0);
	T_CHECK(st.verified == 100000);
	T_CHECK(pwrite(fd, "X", 1, 77777) == 1);
	close(fd);
	T_CHECK(run(&o, &st, err, sizeof(err)) == -EILSEQ);
	T_CHECK(strstr(err, "77777") != NULL);
	/* a missing copy is named */
	o.verify_file = "/nonexistent/copy";
	T_CHECK(run(&o, &st, err, sizeof(err)) == -ENOENT);
	T_CHECK(strstr(err, "/nonexistent/copy") != NULL);
	o.verify = NFSIO_VERIFY_NONE;

	/* a missing file is named */
	o.target = "/nonexistent/file";
	T_CHECK(run(&o, &st, err, sizeof(err)) == -ENOENT);
	T_CHECK(strstr(err, "/nonexistent/file") != NULL);
	/* O_DIRECT wants sector multiples */
	o.target = path;
	o.direct = 1;
	o.reqsize = 1000;
	T_CHECK(run(&o, &st, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "512") != NULL);
	/* bad options */
	o.direct = 0;
	o.qd = 0;
	T_CHECK(run(&o, &st, err, sizeof(err)) == -EINVAL);
	unlink(path);
	unlink(copy);
}

static void test_libnfs(void)
{
	struct nfsio_opts o = {0};
	struct nfsio_stats st;
	char err[512];

	o.op = NFSIO_READ;
	o.reqsize = 4096;
	o.qd = 1;
	o.timeout_ms = 2000;
	o.target = "nfs://127.0.0.1";
	if (!nfsio_have_libnfs()) {
		T_CHECK(run(&o, &st, err, sizeof(err)) == -ENOTSUP);
		T_CHECK(strstr(err, "libnfs") != NULL);
		return;
	}
	T_CHECK(nfsio_libnfs_api()[0] == 'v');
	/* no path and file: a bad URL, named */
	T_CHECK(run(&o, &st, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "bad URL") != NULL);
	/* nobody listens on port 1: a mount error, quickly */
	o.target = "nfs://127.0.0.1/export/f?version=4&nfsport=1";
	T_CHECK(run(&o, &st, err, sizeof(err)) < 0);
	T_CHECK(strstr(err, "mount 127.0.0.1:/export") != NULL);
}

int main(void)
{
	char dir[] = "/tmp/test_nfsio.XXXXXX";

	T_ASSERT(mkdtemp(dir));
	test_urls();
	test_mountinfo();
	test_posix(dir);
	test_libnfs();
	rmdir(dir);
	return t_done();
}
