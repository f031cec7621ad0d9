/* units.h: sizes, rates and durations as people type and read them. */
#ifndef ZCB_UNITS_H
#define ZCB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a size: a decimal number with an optional suffix.
 *   k K Ki KiB   1024        kB KB   1000   (and likewise m/M, g/G, t/T)
 *   b B (or none) bytes
 * Binary suffixes are the default (what `-l 32k` means to ttcp users); an
 * explicit "B" after a plain k/m/g/t letter (kB, MB) asks for 1000s.
 * Returns 0, or -EINVAL (not a size) or -ERANGE (overflows 64 bits).
 */
int units_parse_size(const char *s, uint64_t *out);

/* A duration: "10" or "10s", "250ms", "100us", "5ns", "2m", "1h". */
int units_parse_duration(const char *s, double *seconds);

/* A non-negative integer in [min, max]; 0 or -EINVAL / -ERANGE. */
int units_parse_long(const char *s, long min, long max, long *out);

/*
 * ttcp's -f format letters: k m g = kilo/mega/giga bits, K M G = bytes,
 * in the 1024 forms ttcp used; 'a' (auto, bytes) picks K, M or G.
 * Lower-case "d" prefixed forms ("dk" ...) would be 1000s: not in ttcp,
 * so we offer them as K1000 via units_rate_decimal below.
 */
int units_rate_valid(char fmt);
/* Convert bytes over seconds to a value in the unit; *label gets e.g. "KB". */
double units_rate(double bytes, double seconds, char fmt, const char **label);

/*
 * A rate as iperf3's -b and tc take it: a number with an optional k, m,
 * g or t (1000s, as network rates are), then nothing, "bit", "bit/s",
 * "bps" or "b" for bits per second ("1G", "500m", "100mbit", "2.5Gbit/s"),
 * or "B/s" or "Bps" for bytes per second ("125MB/s"). Into *bits_per_s;
 * 0, or -EINVAL (not a rate, or 0) or -ERANGE.
 */
int units_parse_rate(const char *s, double *bits_per_s);
/* A rate in bits per second as "1Gbit/s", "500Mbit/s", "2.5Gbit/s",
 * "64kbit/s" (1000s, at most 3 significant digits); returns buf. */
const char *units_fmt_rate(double bits_per_s, char *buf, size_t len);

/* Format bytes as "1.5 GiB" style into buf (binary); returns buf. */
const char *units_fmt_bytes(double bytes, char *buf, size_t len);
/* Decimal form "1.5 GB", "32MB" without space when compact. */
const char *units_fmt_bytes_si(double bytes, char *buf, size_t len,
			       int compact);

/*
 * Seed 000's units, shared by p9bench and zcbreport so one run prints the
 * same figure in both: a rate as "22.4 kb/s", "711 kb/s", "1.4 mb/s"
 * (kb = 1000 bytes, mb = 10^6 bytes, as dd printed them; gb/s from 1000
 * mb/s), and a total as "1MB", "19.5KB", "4GB" (binary: 1 byte x 1M ops is
 * the seed's "1MB"). Non-finite values print "-". Return buf.
 */
const char *units_fmt_seed_rate(double bytes_per_s, char *buf, size_t len);
const char *units_fmt_seed_total(double bytes, char *buf, size_t len);

/*
 * Copy s (NULL: "") into buf[len], cut if it must be, but never inside a
 * UTF-8 sequence: a string cut inside one is no JSON string, and would
 * vanish from a document that is written out again.
 */
void units_copy_text(char *buf, size_t len, const char *s);

#endif
