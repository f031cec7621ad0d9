#!/usr/bin/env bash
# nfsbench-sweep: scripts/nfs-sweep's checks. It mounts with the kernel
# NFS client, which this machine lacks; what can be tested here is its
# argument checking, the mount/run/umount plan (--dry-run), and that it
# refuses, naming why, without mount.nfs or without the kernel client.
source "$ZCB_SRCDIR/tests/integration/lib.sh"
SW="$ZCB_SRCDIR/scripts/nfs-sweep"
T=$ZCB_TEST_TMP

bad() { # bad PATTERN ARGS...: exit 2 with a message matching PATTERN
	local pat=$1 rc
	shift
	bash "$SW" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || zcb_fail "nfs-sweep $*: exit $rc, not 2"
	grep -qE -- "$pat" "$T/err" || zcb_fail "nfs-sweep $*: '$(cat "$T/err")' lacks /$pat/"
}
bad "--server" --mnt /x
bad "HOST:/EXPORT" --server nocolon --mnt /x
bad "--mnt" --server h:/e
bad "--sizes" --server h:/e --mnt /x --sizes 512
bad "--sizes" --server h:/e --mnt /x --sizes 4k
bad "--proto" --server h:/e --mnt /x --proto sctp
bad "does not run over udp" --server h:/e --mnt /x --vers 4 --proto udp
bad "--op" --server h:/e --mnt /x --op append
bad "unknown option" --server h:/e --mnt /x --bogus
bash "$SW" --help | grep -q -- "--dry-run" || zcb_fail "--help"
zcb_ok "argument checks"

# the plan: one mount, run, umount per version x transport x size
bash "$SW" --server srv:/export --mnt /mnt/x --sizes 1024,8192,16384 \
	--proto udp,tcp --vers 3 --repeat 2 --label L --dry-run >"$T/plan" ||
	zcb_fail "dry run"
[ "$(grep -c '^mount -t nfs -o vers=3,proto=' "$T/plan")" = 6 ] || zcb_fail "6 mounts expected"
[ "$(grep -c '^umount /mnt/x$' "$T/plan")" = 6 ] || zcb_fail "6 umounts expected"
grep -q '^mount -t nfs -o vers=3,proto=udp,rsize=8192,wsize=8192,hard srv:/export /mnt/x$' "$T/plan" ||
	zcb_fail "mount options"
grep -q '^nfsbench -r -s 1m -R 2 -c --rsize 16384 --wsize 16384 --label L -o OUT/nfs-v3-tcp-16384.json /mnt/x/nfsbench.dat$' "$T/plan" ||
	zcb_fail "nfsbench command: $(grep nfsbench "$T/plan" | tail -1)"
# every mount is followed by its umount before the next mount
awk '/^mount/ { if (m) exit 1; m = 1 } /^umount/ { m = 0 } END { exit m }' "$T/plan" ||
	zcb_fail "a mount without its umount"
zcb_ok "dry run: 6 mount/run/umount steps"

# refusals before any mount
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/bin"
	for c in id grep modprobe mountpoint dirname uname mktemp sed rpcinfo showmount; do
		p=$(command -v "$c") && ln -sf "$p" "$T/bin/"
	done
	PATH="$T/bin" /bin/bash "$SW" --server 127.0.0.1:/export --mnt "$T" >"$T/out" 2>"$T/err"
	rc=$?
	{ [ $rc = 1 ] && grep -q "mount.nfs not found" "$T/err"; } ||
		zcb_fail "without mount.nfs: exit $rc, $(cat "$T/err")"
	zcb_ok "refuses without mount.nfs"
	if command -v mount.nfs >/dev/null && ! grep -qw nfs /proc/filesystems &&
		! modprobe -n -q nfs 2>/dev/null; then
		bash "$SW" --server 127.0.0.1:/export --mnt "$T" >"$T/out" 2>"$T/err"
		rc=$?
		{ [ $rc = 1 ] && grep -q "no NFS client" "$T/err"; } ||
			zcb_fail "without the kernel client: exit $rc, $(cat "$T/err")"
		zcb_ok "refuses without the kernel NFS client"
	fi
fi
