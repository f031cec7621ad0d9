#!/usr/bin/env bash
# make.sh DIR: writes the paired-run documents of this directory into DIR
# (report-paired.sh checks that they are what is committed here). One
# document per seed layout's tool; in each, a case whose soak runs ran
# far from the unmetered rate (outside 0.95-1.05) beside one within it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/data/report/mkpaired.sh
source "$here/../mkpaired.sh"
out=${1:?usage: make.sh DIR}

# seed 000: 9P reads at 4096 bytes, copy path slowed to 0.32x; the
# 65536-byte direct path to 0.40x; writes all within the band
mkpaired "$out/p9.json" p9bench 6.18-paired '[
 {"params": {"op": "read", "iosize": 4096, "total_bytes": 4194304, "path": "copy"},
  "ratios": [0.31, 0.33, 0.32], "base": {"throughput_MBps": 71.2, "ops_per_s": 17400},
  "soak": {"cpu_local_pct": 38.5, "cpu_local_soak_pct": 38.5}},
 {"params": {"op": "read", "iosize": 4096, "total_bytes": 4194304, "path": "direct"},
  "ratios": [0.99, 1.0, 0.98], "base": {"throughput_MBps": 75.9, "ops_per_s": 18500},
  "soak": {"cpu_local_pct": 35.1, "cpu_local_soak_pct": 35.1}},
 {"params": {"op": "read", "iosize": 65536, "total_bytes": 67108864, "path": "copy"},
  "ratios": [0.98, 1.01, 0.99], "base": {"throughput_MBps": 812.5, "ops_per_s": 12400},
  "soak": {"cpu_local_pct": 61.0, "cpu_local_soak_pct": 61.0}},
 {"params": {"op": "read", "iosize": 65536, "total_bytes": 67108864, "path": "direct"},
  "ratios": [0.42, 0.38, 0.4], "base": {"throughput_MBps": 901.1, "ops_per_s": 13750},
  "soak": {"cpu_local_pct": 52.3, "cpu_local_soak_pct": 52.3}},
 {"params": {"op": "write", "iosize": 4096, "total_bytes": 4194304, "path": "copy"},
  "ratios": [0.97, 1.02, 1.0], "base": {"throughput_MBps": 60.4, "ops_per_s": 14750},
  "soak": {"cpu_local_pct": 40.0, "cpu_local_soak_pct": 40.0}},
 {"params": {"op": "write", "iosize": 4096, "total_bytes": 4194304, "path": "direct"},
  "ratios": [1.03, 0.99, 1.01], "base": {"throughput_MBps": 63.0, "ops_per_s": 15380},
  "soak": {"cpu_local_pct": 37.7, "cpu_local_soak_pct": 37.7}}]'

# seed 001: NFS by rsize/wsize, client and server CPU; 4096 slowed
mkpaired "$out/nfs-rsize.json" nfsbench 6.18-paired '[
 {"params": {"op": "read", "rsize": 4096, "wsize": 4096, "iosize": 4096, "proto": "tcp", "clients": 1},
  "ratios": [0.5, 0.55, 0.52], "base": {"throughput_MBps": 95.2},
  "soak": {"cpu_local_pct": 44.0, "cpu_remote_pct": 51.5}},
 {"params": {"op": "read", "rsize": 32768, "wsize": 32768, "iosize": 32768, "proto": "tcp", "clients": 1},
  "ratios": [1.0, 0.99, 1.01], "base": {"throughput_MBps": 410.7},
  "soak": {"cpu_local_pct": 30.2, "cpu_remote_pct": 35.9}}]'

# seed 002: many clients against one server; 8 clients slowed
mkpaired "$out/nfs-clients.json" nfsbench 6.18-paired '[
 {"params": {"op": "read", "rsize": 32768, "wsize": 32768, "proto": "tcp", "clients": 1},
  "ratios": [1.02, 1.03, 1.01], "base": {"throughput_MBps": 120.3},
  "soak": {"cpu_remote_pct": 41.0}},
 {"params": {"op": "read", "rsize": 32768, "wsize": 32768, "proto": "tcp", "clients": 8},
  "ratios": [0.7, 0.72, 0.69], "base": {"throughput_MBps": 130.8},
  "soak": {"cpu_remote_pct": 88.4}}]'

# seed 001 (ttcp-sf) and copy against zero-copy: write slowed to 0.60x
mkpaired "$out/ttcp.json" ttcp-sf 6.18-paired '[
 {"params": {"method": "write", "size": 65536, "role": "transmit", "proto": "tcp"},
  "ratios": [0.6, 0.62, 0.58], "base": {"throughput_MBps": 1850.0},
  "soak": {"cpu_local_pct": 55.5, "cpu_local_soak_pct": 55.5, "sd_local_us_per_kb": 0.61,
	   "cpu_remote_pct": 60.1, "cpu_remote_soak_pct": 60.1, "sd_remote_us_per_kb": 0.66},
  "procstat": {"cpu_local_procstat_pct": 50.2, "cpu_remote_procstat_pct": 54.0}},
 {"params": {"method": "sendfile", "size": 65536, "role": "transmit", "proto": "tcp"},
  "ratios": [1.01, 0.99, 1.0], "base": {"throughput_MBps": 2210.0},
  "soak": {"cpu_local_pct": 31.5, "cpu_local_soak_pct": 31.5, "sd_local_us_per_kb": 0.29,
	   "cpu_remote_pct": 58.7, "cpu_remote_soak_pct": 58.7, "sd_remote_us_per_kb": 0.54},
  "procstat": {"cpu_local_procstat_pct": 29.9, "cpu_remote_procstat_pct": 55.1}}]'

# seed 004: chat rooms, 10 rooms slowed to 0.25x
mkpaired "$out/chat.json" chatbench 6.18-paired '[
 {"params": {"rooms": 10, "users": 20, "messages": 100},
  "ratios": [0.25, 0.26, 0.24], "base": {"msgs_per_s": 201000.5, "real_s": 2.1,
	"system_s": 3.3, "user_s": 0.4, "time_cpu_pct": 180.5},
  "soak": {"cpu_local_pct": 92.0}},
 {"params": {"rooms": 20, "users": 20, "messages": 100},
  "ratios": [0.97, 0.98, 0.99], "base": {"msgs_per_s": 198000.25, "real_s": 4.2,
	"system_s": 6.5, "user_s": 0.8, "time_cpu_pct": 175.25},
  "soak": {"cpu_local_pct": 90.5}}]'

# seed 000, a sweep on a VM where request/response runs faster with
# soakers: every read cell's soak runs reached 1.36x-1.53x (one footnote
# tells them all); the writes go both ways (a footnote per cell)
sweep='['
for s in 512:1.36 1024:1.41 2048:1.45 4096:1.5 8192:1.53; do
	for p in copy direct; do
		r=${s#*:}
		sweep+="{\"params\": {\"op\": \"read\", \"iosize\": ${s%%:*}, \"total_bytes\": $((${s%%:*} * 1000)), \"path\": \"$p\"},
		  \"ratios\": [$r, $r, $r], \"base\": {\"throughput_MBps\": $((${s%%:*} / 50 + 10)).5, \"ops_per_s\": 17000},
		  \"soak\": {\"cpu_local_pct\": 60.5, \"cpu_local_soak_pct\": 60.5}},"
	done
done
for s in 512:0.7 1024:1.3 2048:0.8 4096:1.2; do
	sweep+="{\"params\": {\"op\": \"write\", \"iosize\": ${s%%:*}, \"total_bytes\": $((${s%%:*} * 1000)), \"path\": \"copy\"},
	  \"ratios\": [${s#*:}, ${s#*:}], \"base\": {\"throughput_MBps\": 40.25, \"ops_per_s\": 15000},
	  \"soak\": {\"cpu_local_pct\": 50.0, \"cpu_local_soak_pct\": 50.0}},"
done
mkpaired "$out/p9-sweep.json" p9bench 6.18-paired "${sweep%,}]"
