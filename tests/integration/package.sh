#!/usr/bin/env bash
# package.sh: the Debian package end to end. It builds the package with
# `dpkg-buildpackage -us -uc` from the distribution's files (make
# distdir: so debian/ must be in it), runs lintian (errors and warnings
# fail), then installs it with `dpkg -i` into a scratch root: a
# copy-on-write overlay of this box's / in a mount namespace of its own,
# chrooted. There dpkg, the package's maintainer scripts, its
# dependencies and the installed paths are the real ones, and this box
# is never changed: the overlay's upper layer is a tmpfs that goes with
# the namespace. In the scratch root, with an empty environment (no
# build tree on PATH, no ZCB_*):
#   - the user zcbench and /var/lib/zcbench exist, the timer is not
#     enabled, `zcb paths` names only installed paths
#   - systemd-analyze verify: the service and timer, and the service
#     with the full-suite drop-in
#   - cyclesoak --selftest --quick from /usr/bin
#   - the service's own ExecStart line (read from the unit), run as the
#     zcbench user with a one-part suite (ZCB_NIGHTLY_ARGS, as
#     /etc/default/zcbench would set it): a complete run under
#     /var/lib/zcbench/nightly made by the installed tools; run again,
#     --once-per-kernel skips it
# then `dpkg --purge zcbench`, and the upper layer must hold nothing but
# dpkg's own records, the system user (Debian keeps system users) and
# man's page cache: every file the package or its use made is gone.
# Skips (77) without root, dpkg-buildpackage's tools (debhelper,
# lintian: scripts/setup-deps installs them) or overlay mounts, and in a
# sanitizer build (the package is the same from any build tree).
set -u

# ---- inside the scratch root (chrooted, empty environment) ----
in_root() { # in_root NIGHTLY-ARGS
	local nargs=$1 unit=/lib/systemd/system/zcbench-nightly.service
	local cmd words=() argv=() extra=() w log user run t d docs=()
	fail() { echo "FAIL: $*"; exit 1; }
	ok() { echo "ok - $*"; }
	export XDG_STATE_HOME=/tmp/state # root's runs leave nothing in /root
	rm -f /var/lib/man-db/auto-update # no man-db index rebuilds here
	dpkg -i /tmp/zcbench.deb >/tmp/dpkg-i.log 2>&1 ||
		fail "dpkg -i: $(tail -5 /tmp/dpkg-i.log)"
	[ "$(dpkg-query -W -f='${Status}' zcbench)" = "install ok installed" ] ||
		fail "dpkg -i: not installed"
	getent passwd zcbench >/dev/null || fail "no user zcbench"
	[ "$(stat -c %U /var/lib/zcbench)" = zcbench ] || fail "/var/lib/zcbench is not zcbench's"
	[ -e /etc/systemd/system/timers.target.wants/zcbench-nightly.timer ] &&
		fail "the timer was enabled by the package"
	if command -v systemctl >/dev/null; then
		[ "$(systemctl is-enabled zcbench-nightly.timer 2>&1)" = disabled ] ||
			fail "systemctl is-enabled: $(systemctl is-enabled zcbench-nightly.timer 2>&1)"
	fi
	ok "dpkg -i: installed, user zcbench and /var/lib/zcbench made, timer not enabled"

	[ "$(command -v zcb)" = /usr/bin/zcb ] || fail "zcb is not /usr/bin/zcb: $(command -v zcb)"
	zcb paths >/tmp/paths 2>&1 || fail "zcb paths: $(cat /tmp/paths)"
	{ grep -q '^libexec  */usr/libexec/zcbench$' /tmp/paths &&
		grep -q '^parts  */usr/share/zcbench/main.d$' /tmp/paths &&
		grep -q '^seeds  */usr/share/zcbench/seeds$' /tmp/paths; } ||
		fail "zcb paths: $(cat /tmp/paths)"
	for t in cyclesoak ttcp-sf zcs zcc chatbench p9bench nfsbench zcbreport; do
		grep -q "^$t  */usr/bin/$t\$" /tmp/paths || fail "zcb paths: $t is not /usr/bin/$t: $(cat /tmp/paths)"
	done
	[ "$(find /usr/share/zcbench/seeds -name '*.json' | wc -l)" -ge 11 ] || fail "seeds missing"
	zcb help >/dev/null || fail "zcb help"
	ok "zcb on PATH; the scripts, parts, seeds and tools at their installed paths"

	if command -v systemd-analyze >/dev/null; then
		log=$(systemd-analyze verify "$unit" "${unit%.service}.timer" 2>&1) ||
			fail "systemd-analyze verify: $log"
		[ -z "$log" ] || fail "systemd-analyze verify: $log"
		mkdir -p /etc/systemd/system/zcbench-nightly.service.d
		cp /usr/share/zcbench/systemd/full-suite.conf /etc/systemd/system/zcbench-nightly.service.d/
		log=$(systemd-analyze verify zcbench-nightly.service 2>&1) ||
			fail "systemd-analyze verify (full-suite drop-in): $log"
		[ -z "$log" ] || fail "systemd-analyze verify (full-suite drop-in): $log"
		rm -r /etc/systemd/system/zcbench-nightly.service.d
		ok "systemd-analyze verify: service, timer, and the service with full-suite.conf"
	else
		echo "(no systemd-analyze: the units are not verified)"
	fi

	cyclesoak --selftest --quick --duration 1 >/tmp/selftest.log 2>&1 ||
		fail "cyclesoak --selftest --quick: $(tail -5 /tmp/selftest.log)"
	grep -q 'cyclesoak selftest:' /tmp/selftest.log || fail "selftest: $(cat /tmp/selftest.log)"
	ok "cyclesoak --selftest --quick (/usr/bin/cyclesoak) ran"

	# the service's command, as systemd runs it: words split on white
	# space, $ZCB_NIGHTLY_ARGS split into words, as the service's user
	cmd=$(sed -n 's/^ExecStart=//p' "$unit")
	read -ra words <<<"$cmd"
	for w in "${words[@]}"; do
		# shellcheck disable=SC2016 # the unit's text, not expanded here
		if [ "$w" = '$ZCB_NIGHTLY_ARGS' ]; then
			read -ra extra <<<"$nargs"
			argv+=("${extra[@]}")
		else
			argv+=("$w")
		fi
	done
	[ "${argv[0]}" = /usr/bin/zcb ] || fail "ExecStart is not /usr/bin/zcb: $cmd"
	user=$(sed -n 's/^User=//p' "$unit")
	[ "$user" = zcbench ] || fail "the service's user is $user"
	echo "running: ${argv[*]} (as $user)"
	runuser -u "$user" -- env HOME=/var/lib/zcbench XDG_STATE_HOME=/var/lib/zcbench/state \
		timeout 300 "${argv[@]}" >/tmp/nightly.log 2>&1 ||
		fail "the service's command: exit $?: $(tail -15 /tmp/nightly.log)"
	cat /tmp/nightly.log
	run=/var/lib/zcbench/nightly/$(uname -r)/latest
	[ -s "$run/summary.txt" ] || fail "no summary in $run"
	[ "$(stat -c %U "$run/summary.txt")" = "$user" ] || fail "the run is not $user's"
	mapfile -t docs < <(find "$run/" -name '*.json' -not -path '*/plots/*')
	[ ${#docs[@]} -gt 0 ] || fail "no result documents in $run"
	for d in "${docs[@]}"; do
		case "$(jq -r '.command[0]' "$d")" in
		/usr/bin/*) ;;
		*) fail "$d was made by $(jq -r '.command[0]' "$d"), not an installed tool" ;;
		esac
	done
	ok "the service's command as $user: a complete run, ${#docs[@]} documents from /usr/bin's tools"
	runuser -u "$user" -- env HOME=/var/lib/zcbench XDG_STATE_HOME=/var/lib/zcbench/state \
		timeout 60 "${argv[@]}" >/tmp/nightly2.log 2>&1 ||
		fail "second run: exit $?: $(cat /tmp/nightly2.log)"
	grep -q 'nothing to do' /tmp/nightly2.log || fail "second run on this kernel not skipped: $(cat /tmp/nightly2.log)"
	ok "run again on the same kernel: skipped (--once-per-kernel)"

	dpkg --purge zcbench >/tmp/dpkg-purge.log 2>&1 || fail "dpkg --purge: $(cat /tmp/dpkg-purge.log)"
	dpkg-query -W -f='${Status}' zcbench 2>/dev/null | grep -q installed && fail "still installed"
	for f in /usr/bin/zcb /usr/bin/cyclesoak /usr/libexec/zcbench /usr/share/zcbench \
		/var/lib/zcbench /lib/systemd/system/zcbench-nightly.service; do
		[ ! -e "$f" ] || fail "$f is left after purge"
	done
	ok "dpkg --purge: removed"
}

# ---- in a mount namespace of its own: the scratch root around / ----
in_ns() { # in_ns DIR DEB NIGHTLY-ARGS
	local d=$1 deb=$2 root=$1/ov/root up=$1/ov/up left
	if ! { mkdir -p "$d/ov" && mount -t tmpfs zcb-pkg "$d/ov" &&
		mkdir "$up" "$d/ov/work" "$root" &&
		mount -t overlay zcb-pkg -o "lowerdir=/,upperdir=$up,workdir=$d/ov/work" "$root"; }; then
		echo "SKIP: no overlay mount of / here"
		exit 77
	fi
	if ! { mount --rbind /dev "$root/dev" && mount -t proc proc "$root/proc" &&
		mount --rbind /sys "$root/sys" && mount -t tmpfs tmp "$root/tmp" &&
		mount -t tmpfs run "$root/run"; }; then
		echo "FAIL: mounts in the scratch root"
		exit 1
	fi
	cp "$deb" "$root/tmp/zcbench.deb" || exit 1
	cp "$0" "$root/tmp/package.sh" || exit 1
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LANG=C.UTF-8 /bin/bash /tmp/package.sh in-root "$3" || exit 1
	# what is left in the upper layer: dpkg's records, the system user,
	# man's page cache, and the one file this test removed; nothing else
	left=$(cd "$up" && find . -mindepth 1 \( -type f -o -type l -o -type c \) -printf '%P\n' |
		grep -Ev '^(var/lib/dpkg/|var/log/dpkg\.log$|var/cache/man/|etc/(passwd|group|shadow|gshadow)-?$|etc/\.pwd\.lock$|var/lib/man-db/auto-update$)' |
		sort)
	[ -z "$left" ] || { echo "FAIL: left behind after purge: $left"; exit 1; }
	grep -q '^zcbench:' "$up/etc/passwd" &&
		echo "ok - nothing left behind but dpkg's records and the system user zcbench (kept, as Debian keeps system users)"
}

case "${1:-}" in
in-root) in_root "$2"; exit $? ;;
in-ns) in_ns "$2" "$3" "$4"; exit $? ;;
esac

source "$ZCB_SRCDIR/tests/integration/lib.sh"
# the package build runs make check (unit tests): never this test again
[ -z "${ZCB_IN_PACKAGE_BUILD:-}" ] || zcb_skip "inside the package build of package.sh"
zcb_need_root
# the package is built with Debian's flags from the sources, whatever this
# build's: once per suite run is enough (scripts/test's gcc pass)
if grep -q '^SAN_CFLAGS = .*-fsanitize' "$ZCB_BUILDDIR/Makefile" 2>/dev/null; then
	zcb_skip "a sanitizer build: the package does not depend on it (the plain build's run builds it)"
fi
for c in dpkg-buildpackage dh lintian fakeroot unshare chroot; do
	zcb_need_cmd "$c" "apt-get install debhelper lintian fakeroot, or scripts/setup-deps"
done
if dpkg-query -W -f='${Status}' zcbench 2>/dev/null | grep -q 'ok installed'; then
	zcb_skip "zcbench is installed on this box: the scratch root would start from it"
fi
T=$ZCB_TEST_TMP
start=$SECONDS

# the source as it is distributed (make distdir), debian/ included
mkdir -p "$T/src"
make -s -C "$ZCB_BUILDDIR" distdir distdir="$T/src/zcbench" >"$T/distdir.log" 2>&1 ||
	zcb_fail "make distdir: $(tail -5 "$T/distdir.log")"
[ -x "$T/src/zcbench/debian/rules" ] || zcb_fail "debian/ is not in the distribution"
# without this make check's variables: MAKEFLAGS carries TESTS and
# TEST_LOGS, which would override the package's own make check
(cd "$T/src/zcbench" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	-u TESTS -u TEST_LOGS ZCB_IN_PACKAGE_BUILD=1 DEB_BUILD_OPTIONS=parallel=2 \
	timeout 900 nice -n 10 dpkg-buildpackage -us -uc) >"$T/build.log" 2>&1 ||
	zcb_fail "dpkg-buildpackage -us -uc: $(grep -E '^(FAIL|ERROR): |check failed' "$T/build.log" | head -10)
$(tail -20 "$T/build.log")"
debs=("$T/src"/zcbench_*_*.deb)
deb=${debs[0]}
[ -f "$deb" ] || zcb_fail "no .deb: $(ls "$T/src")"
zcb_ok "dpkg-buildpackage -us -uc: $(basename "$deb") ($((SECONDS - start)) s)"
dpkg-deb -f "$deb" Depends Recommends

rc=0
timeout 300 lintian -I --fail-on error,warning "$T/src"/zcbench_*.changes >"$T/lintian.log" 2>&1 || rc=$?
cat "$T/lintian.log"
[ $rc = 0 ] || zcb_fail "lintian: exit $rc"
zcb_ok "lintian: no errors or warnings ($((SECONDS - start)) s)"

# one part, the one that runs as an unprivileged user end to end and
# fastest: chatbench (chat-regression, the tool, zcbreport compare)
# in a session of its own, so a signal to this test stops all of it
setsid timeout 400 unshare -m --propagation private bash "$0" in-ns "$T" "$deb" \
	"--suite chatbench --repeat 1" &
ns=$!
zcb_on_exit "kill -TERM -- -$ns"
rc=0
wait "$ns" || rc=$?
[ $rc = 77 ] && zcb_skip "no overlay mount of / here (the scratch root)"
[ $rc = 0 ] || zcb_fail "in the scratch root (exit $rc)"
zcb_ok "package built, checked, installed, used and purged in $((SECONDS - start)) s"
