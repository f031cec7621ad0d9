/* sock.h: TCP/UDP/unix sockets with timeouts, and whole reads and writes. */
#ifndef ZCB_SOCK_H
#define ZCB_SOCK_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

/*
 * Listen on host:port (host NULL = 127.0.0.1; "*" or "::" = any). type is
 * SOCK_STREAM or SOCK_DGRAM. port 0 picks one; *bound gets the port.
 * Returns fd or -errno with err filled.
 */
int sock_listen(const char *host, int port, int type, int backlog,
		int *bound, char *err, size_t len);
/* Connect with a timeout (ms, 0 = none). Returns fd or -errno. */
int sock_connect(const char *host, int port, int type, int timeout_ms,
		 char *err, size_t len);
/* Listen / connect on a unix stream socket path ("@name" = abstract). */
int sock_listen_unix(const char *path, char *err, size_t len);
int sock_connect_unix(const char *path, char *err, size_t len);
/* Split "host:port" or "[v6]:port"; port defaults to def. 0 or -EINVAL. */
int sock_split_hostport(const char *s, char *host, size_t hlen, int *port,
			int def);

int sock_set_nonblock(int fd, int on);
int sock_set_bufs(int fd, int sndbuf, int rcvbuf); /* 0 = leave */
int sock_set_nodelay(int fd, int on);
/* Set TCP congestion control; -errno (e.g. ENOENT: not available). */
int sock_set_cc(int fd, const char *cc);
/* Is cc among net.ipv4.tcp_available_congestion_control? */
int sock_cc_available(const char *cc);
int sock_set_timeout(int fd, int ms); /* SO_RCVTIMEO and SO_SNDTIMEO */

/*
 * Read or write exactly len bytes, waiting at most timeout_ms for each
 * step of progress (0 = forever). Returns len, a short count at EOF (read),
 * or -errno (-ETIMEDOUT when the peer went quiet).
 */
ssize_t sock_read_full(int fd, void *buf, size_t len, int timeout_ms);
ssize_t sock_write_full(int fd, const void *buf, size_t len, int timeout_ms);
/* Wait for fd readable (POLLIN) or writable; 1 ready, 0 timeout, -errno. */
int sock_wait(int fd, int events, int timeout_ms);

/* Peer address as "1.2.3.4:5678" for log lines. */
const char *sock_peer_name(int fd, char *buf, size_t len);

#endif
