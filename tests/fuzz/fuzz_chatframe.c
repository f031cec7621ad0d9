/*
 * fuzz_chatframe.c: chatbench's wire format (chatbench/chatframe) and the state
 * machines behind it, on both sides. Input: [mode][split][...].
 *   mode 0: a receiver's decoding, no sockets: [size u16][users][messages]
 *           [user][room] then a stream fed to chatframe_decode in chunks
 *           (fz_split). Every MSG is checked as the clients do
 *           (chat_check_msg, and the fast chatframe_msg_ok must agree with
 *           it), JOIN payloads parsed, ABORT reasons made printable.
 *           Cutting the stream must not change the frames.
 *   mode 1, 2: the real server in this process (1: epoll model, 2:
 *           threads), fed by up to 4 client connections. The rest is
 *           records [op][length][bytes]: op & 3 is the connection, op >> 2
 *           & 3: 0, 1 send length+1 bytes (length u8), 2 send length
 *           bytes (length u16), 3 half-close. Each record is read by the
 *           server before the next is sent. Everything the server sends
 *           back must be valid frames for what the connection joined as
 *           (READY, ABORT, relayed MSG of the room's size; peer reports
 *           on a control connection), and it must close every connection
 *           once the client has.
 *   mode 3: the real client (chat_client_run) against a scripted server:
 *           [shape][size-16] then per connection [len u16][bytes]: what
 *           the server sends each user (in order of connection).
 */
#include "config.h"
#include "chat.h"
#include "chatframe.h"
#include "fz.h"
#include "log.h"
#include "peerrep.h"
#include "sock.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAMES 4096

/* ---- mode 0: a receiver's decoding ---- */

struct rx {
	struct chat_run_cfg c; /* size, users, messages */
	uint16_t room, user;
	uint32_t next[256], fast[256]; /* next seq per sender: slow, fast */
	struct chatframe_expect e;
	size_t cap; /* the receiver's frame limit */
	int frames;
};

/* One whole frame at b: check it as a client would. */
static void rx_frame(struct rx *x, const uint8_t *b, const struct chat_hdr *h)
{
	char err[256], why[CHAT_REASON_MAX + 1];
	struct chat_join j;
	int ok, fast;

	if (h->len < CHAT_HDR || h->len > x->cap || h->type < CHAT_MSG ||
	    h->type > CHAT_TYPE_MAX)
		__builtin_trap(); /* the decoder let a bad frame by */
	switch (h->type) {
	case CHAT_MSG:
		ok = !chat_check_msg(&x->c, x->room, x->user, x->next, h, err,
				     sizeof(err));
		fast = h->len == x->c.size &&
		       chatframe_msg_ok(&x->e, x->fast, b);
		if (fast && !ok)
			__builtin_trap(); /* the fast check let a bad one by */
		if (ok) {
			x->next[h->sender]++;
			if (!fast) /* keep the fast path's counters in step */
				x->fast[h->sender] = x->next[h->sender];
		}
		break;
	case CHAT_JOIN:
		if (!chatframe_join_parse(h, b + CHAT_HDR, h->len - CHAT_HDR,
					  &j, err, sizeof(err)) &&
		    !(j.flags & CHAT_JOIN_CTRL) &&
		    (h->room >= j.rooms || h->sender >= j.users ||
		     j.size < CHAT_HDR || j.size > CHAT_FRAME_MAX))
			__builtin_trap();
		break;
	case CHAT_ABORT:
		chatframe_reason(b + CHAT_HDR, h->len - CHAT_HDR, why,
				 sizeof(why));
		if (strlen(why) > CHAT_REASON_MAX ||
		    strlen(why) != h->len - CHAT_HDR)
			__builtin_trap();
		break;
	default:
		if (h->len != CHAT_HDR)
			__builtin_trap();
	}
	if (strcmp(chatframe_type_name(h->type), "?") == 0)
		__builtin_trap();
}

/* Decode frames from the front of b[0..*have): consumes them. Returns
 * -1 when the bytes are not a frame. */
static int rx_decode(struct rx *x, uint8_t *b, size_t *have, int check)
{
	struct chat_hdr h;
	char err[256];
	size_t off = 0;
	int r = 0;

	while (x->frames < MAX_FRAMES &&
	       (r = chatframe_decode(b + off, *have - off, x->cap, &h, err,
				     sizeof(err))) == 1) {
		if (check)
			rx_frame(x, b + off, &h);
		off += h.len;
		x->frames++;
	}
	memmove(b, b + off, *have - off);
	*have -= off;
	return r < 0 ? -1 : 0;
}

static void rx_init(struct rx *x, struct fz_in *in)
{
	uint32_t size = fz_u16(in);

	memset(x, 0, sizeof(*x));
	x->c.size = size < CHAT_HDR ? CHAT_HDR : size;
	x->c.users = 2 + fz_u8(in) % 255;
	x->c.messages = 1 + fz_u8(in);
	x->user = (uint16_t)(fz_u8(in) % x->c.users);
	x->room = fz_u8(in);
	x->c.rooms = x->room + 1u;
	/* as the clients size their buffer */
	x->cap = x->c.size > CHAT_HDR + CHAT_REASON_MAX
			 ? x->c.size
			 : CHAT_HDR + CHAT_REASON_MAX;
	chatframe_expect_init(&x->e, x->c.size, x->room, x->user, x->c.users,
			      x->c.messages);
}

static void receiver(const uint8_t *data, size_t size, uint8_t split)
{
	struct fz_in in = {data, size};
	struct rx cut, whole;
	struct fz_split sp;
	size_t have, k;
	uint8_t *buf;
	int bad = 0, wbad;

	rx_init(&cut, &in);
	whole = cut;
	buf = malloc(in.n + 1);
	/* in one piece */
	memcpy(buf, in.p, in.n);
	have = in.n;
	wbad = rx_decode(&whole, buf, &have, 0);
	/* in chunks, checking every frame */
	have = 0;
	fz_split_init(&sp, split);
	while (in.n && !bad && cut.frames < MAX_FRAMES) {
		k = fz_split_next(&sp, in.n);
		memcpy(buf + have, in.p, k);
		have += k;
		in.p += k;
		in.n -= k;
		bad = rx_decode(&cut, buf, &have, 1);
	}
	free(buf);
	if (cut.frames < MAX_FRAMES && whole.frames < MAX_FRAMES &&
	    (cut.frames != whole.frames || bad != wbad))
		__builtin_trap(); /* cutting the stream changed the frames */
}

/* ---- modes 1, 2: the real server ---- */

#define NCONN	4
#define RX_KEEP 65536

struct sconn {
	int fd;			     /* ours, -1 before the first record */
	int sfd;		     /* the server's end (in this process) */
	uint64_t sent;		     /* bytes written */
	uint8_t join[CHAT_JOIN_LEN]; /* the first bytes sent */
	size_t joinlen;
	uint8_t *rx; /* what the server sent (first RX_KEEP bytes) */
	size_t rxlen;
	int eof;
	int deaf; /* the server stopped reading it */
};

static struct chat_server *server(int model)
{
	static struct chat_server *srv[2];
	struct chat_server_cfg cfg = {.bind = "127.0.0.1",
				      .model =
					      model ? CHAT_THREADS : CHAT_EPOLL,
				      .idle_timeout_s = 60,
				      .stall_after = -1,
				      .quiet = 1};
	char err[256];

	if (!srv[model]) {
		srv[model] = chat_server_start(&cfg, err, sizeof(err));
		if (!srv[model]) {
			fprintf(stderr, "fuzz_chatframe: %s\n", err);
			abort();
		}
	}
	return srv[model];
}

static void drain(struct sconn *k)
{
	uint8_t junk[16384];
	ssize_t r;
	int i;

	for (i = 0; i < NCONN; i++) {
		if (k[i].fd < 0 || k[i].eof)
			continue;
		while ((r = recv(k[i].fd, junk, sizeof(junk), MSG_DONTWAIT)) >
		       0) {
			size_t keep = (size_t)r;

			if (keep > RX_KEEP - k[i].rxlen)
				keep = RX_KEEP - k[i].rxlen;
			memcpy(k[i].rx + k[i].rxlen, junk, keep);
			k[i].rxlen += keep;
		}
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
			k[i].eof = 1;
	}
}

static int conn_open(struct sconn *k, int port)
{
	struct timespec ts = {0, 100000};
	char err[256];
	int i;

	k->fd = sock_connect("127.0.0.1", port, SOCK_STREAM, 2000, err,
			     sizeof(err));
	if (k->fd < 0)
		return -1;
	sock_set_nodelay(k->fd, 1);
	for (i = 0; i < 20000 && (k->sfd = fz_other_end(k->fd)) < 0; i++)
		nanosleep(&ts, NULL); /* until the server accepted it */
	return 0;
}

/* What the server sent on one connection, checked against what it
 * joined as. */
static void check_replies(const struct sconn *k)
{
	struct chat_hdr jh, h;
	struct chat_join j;
	char err[256];
	size_t off = 0, used;
	json_t *rep;
	int member = 0, ctrl = 0, r;

	if (k->joinlen == CHAT_JOIN_LEN &&
	    chatframe_decode(k->join, CHAT_JOIN_LEN, CHAT_JOIN_LEN, &jh, err,
			     sizeof(err)) == 1 &&
	    !chatframe_join_parse(&jh, k->join + CHAT_HDR,
				  CHAT_JOIN_LEN - CHAT_HDR, &j, err,
				  sizeof(err))) {
		ctrl = !!(j.flags & CHAT_JOIN_CTRL);
		member = !ctrl;
	}
	if (ctrl) { /* peer reports, whole ones */
		while (off < k->rxlen &&
		       (r = peerrep_decode(k->rx + off, k->rxlen - off, &used,
					   &rep, err, sizeof(err))) == 1) {
			if (!json_is_array(json_object_get(rep, "cpu")))
				__builtin_trap();
			json_decref(rep);
			off += used;
		}
		if (off < k->rxlen && k->rxlen < RX_KEEP && r < 0)
			__builtin_trap(); /* the server sent a bad report */
		return;
	}
	if (!member) {
		if (k->rxlen)
			__builtin_trap(); /* replies to a stranger */
		return;
	}
	while (off < k->rxlen &&
	       (r = chatframe_decode(k->rx + off, k->rxlen - off,
				     CHAT_FRAME_MAX, &h, err, sizeof(err))) ==
		       1) {
		if (h.room != jh.room)
			__builtin_trap();
		if (h.type == CHAT_MSG &&
		    (h.len != j.size || h.sender >= j.users ||
		     h.sender == jh.sender || h.seq >= j.messages))
			__builtin_trap(); /* relayed what it should refuse */
		if (h.type == CHAT_READY && h.sender != jh.sender)
			__builtin_trap();
		if (h.type != CHAT_MSG && h.type != CHAT_READY &&
		    h.type != CHAT_ABORT)
			__builtin_trap();
		off += h.len;
	}
	if (off < k->rxlen && r < 0)
		__builtin_trap(); /* a frame the server should never send */
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void serve(const uint8_t *data, size_t size, int model)
{
	struct chat_server *s = server(model);
	struct fz_in in = {data, size};
	struct sconn k[NCONN];
	double end;
	int i, open;

	for (i = 0; i < NCONN; i++) {
		memset(&k[i], 0, sizeof(k[i]));
		k[i].fd = k[i].sfd = -1;
		k[i].rx = malloc(RX_KEEP);
	}
	while (in.n) {
		uint8_t op = fz_u8(&in);
		struct sconn *c = &k[op & 3];
		size_t len, n, w;

		if (c->fd < 0 && conn_open(c, chat_server_port(s)))
			break;
		if ((op >> 2 & 3) == 3) {
			shutdown(c->fd, SHUT_WR);
			continue;
		}
		len = (op >> 2 & 3) == 2 ? fz_u16(&in) : fz_u8(&in) + 1u;
		n = len < in.n ? len : in.n;
		if (c->joinlen < CHAT_JOIN_LEN) {
			w = CHAT_JOIN_LEN - c->joinlen < n
				    ? CHAT_JOIN_LEN - c->joinlen
				    : n;
			memcpy(c->join + c->joinlen, in.p, w);
			c->joinlen += w;
		}
		if (send(c->fd, in.p, n, MSG_NOSIGNAL) > 0)
			c->sent += n;
		in.p += n;
		in.n -= n;
		/* until the server read it (it may wait for us to read) */
		for (i = 0; !c->deaf && fz_wait_read(c->fd, c->sfd, c->sent, 5);
		     i++) {
			drain(k);
			if (i == 20)
				c->deaf = 1; /* it stopped reading: no more
					      * waiting for it */
		}
	}
	/* the client hangs up; the server must close every connection */
	for (i = 0; i < NCONN; i++)
		if (k[i].fd >= 0)
			shutdown(k[i].fd, SHUT_WR);
	end = now_s() + 10;
	do {
		struct pollfd pf[NCONN];

		drain(k);
		for (i = open = 0; i < NCONN; i++) {
			pf[i].fd = k[i].fd >= 0 && !k[i].eof ? k[i].fd : -1;
			pf[i].events = POLLIN;
			open += pf[i].fd >= 0;
		}
		if (open)
			poll(pf, NCONN, 10);
	} while (open && now_s() < end);
	if (open) {
		fprintf(stderr,
			"fuzz_chatframe: the %s server kept a connection open 10 s after the client hung up\n",
			model ? "threads" : "epoll");
		abort();
	}
	for (i = 0; i < NCONN; i++) {
		check_replies(&k[i]);
		if (k[i].fd >= 0)
			close(k[i].fd);
		free(k[i].rx);
	}
	/* until the server has let go of every connection (its threads
	 * free what they hold after the hang-up we saw): else the input's
	 * leak check races them */
	end = now_s() + 10;
	while (chat_server_conns(s) > 0 && now_s() < end)
		poll(NULL, 0, 1);
	if (chat_server_conns(s) > 0) {
		fprintf(stderr,
			"fuzz_chatframe: the %s server still held %d connections 10 s after they closed\n",
			model ? "threads" : "epoll", chat_server_conns(s));
		abort();
	}
}

/* ---- mode 3: the real client against a scripted server ---- */

static void client(const uint8_t *data, size_t size, uint8_t split)
{
	struct fz_in in = {data, size};
	uint8_t shape = fz_u8(&in), sz = fz_u8(&in);
	struct chat_run_cfg c = {.host = "127.0.0.1",
				 .rooms = 1 + (shape & 1),
				 .users = 2 + (shape >> 1 & 1),
				 .messages = 1 + (shape >> 2 & 3),
				 .size = CHAT_HDR + (uint32_t)sz,
				 .model = shape >> 4 & 1 ? CHAT_EPOLL
							 : CHAT_THREADS,
				 .nodelay = shape >> 5 & 1,
				 .timeout_s = 5,
				 .drop_after = -1,
				 .token = 0x7a6362656e6368ull};
	const uint8_t *script[FZ_PEER_MAX];
	size_t len[FZ_PEER_MAX];
	struct chat_run_result res;
	struct fz_peer p;
	int n = (int)(c.rooms * c.users), i, r;

	for (i = 0; i < n; i++) {
		size_t l = fz_u16(&in);

		script[i] = in.p;
		len[i] = l < in.n ? l : in.n;
		in.p += len[i];
		in.n -= len[i];
	}
	if (fz_peer_tcp(&p, n, script, len, split, &c.port))
		return;
	r = chat_client_run(&c, &res);
	fz_peer_end(&p);
	if (res.received > res.expected ||
	    strnlen(res.err, sizeof(res.err)) == sizeof(res.err) ||
	    (r == 0 && (res.err[0] || res.received != res.expected)) ||
	    (r != 0 && !res.err[0]))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;
	uint8_t mode, split;

	if (!once) {
		once = 1;
		log_level = LOG_QUIET; /* the servers' notes about clients */
	}
	if (size < 2 || size > 65536)
		return 0;
	mode = data[0] & 3;
	split = data[1];
	data += 2;
	size -= 2;
	if (mode == 0)
		receiver(data, size, split);
	else if (mode == 3)
		client(data, size, split);
	else
		serve(data, size, mode - 1);
	return 0;
}
