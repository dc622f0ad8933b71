#!/bin/bash
# Runs inside the VM after smoke.sh: Kyber on every test device.  Each
# check is skipped with a reason when the kernel has no Kyber.  TAP lines.
set -u
n=0 failed=0
ok()   { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { if "${@:2}" >/dev/null 2>&1; then ok "$1"; else fail "$1"; fi; }

# Memory backed, so data can be verified; every device takes discards.
modprobe null_blk nr_devices=1 queue_mode=2 memory_backed=1 discard=1 gb=1 2>/dev/null
modprobe scsi_debug dev_size_mb=64 lbpu=1 2>/dev/null
udevadm settle 2>/dev/null || sleep 1
devs=""
for d in /sys/block/*; do
	case ${d##*/} in nullb*|sd*|vd*|nvme*) devs="$devs ${d##*/}" ;; esac
done
modprobe kyber-iosched 2>/dev/null
if ! grep -qw kyber /sys/block/vda/queue/scheduler; then
	skip "kyber on every device" "this kernel has no Kyber"
	echo "1..$n"; exit 0
fi

select_kyber() { echo kyber > "/sys/block/$1/queue/scheduler" && grep -q '\[kyber\]' "/sys/block/$1/queue/scheduler"; }
for d in $devs; do check "$d: kyber can be selected" select_kyber "$d"; done

iosched=/sys/block/vda/queue/iosched
default_is() { [ "$(cat "$iosched/$1")" = "$2" ]; }
check "read_lat_nsec defaults to 2 ms" default_is read_lat_nsec 2000000
check "write_lat_nsec defaults to 10 ms" default_is write_lat_nsec 10000000
check "discard_lat_nsec defaults to 5 s" default_is discard_lat_nsec 5000000000

# A refused write fails and leaves the value as it was.
refused() {	# refused ATTR INPUT
	local before
	before=$(cat "$iosched/$1")
	# echo adds the newline a user's echo would; "" thus writes "\n".
	! echo "$2" > "$iosched/$1" 2>/dev/null && [ "$(cat "$iosched/$1")" = "$before" ]
}
for bad in abc -1 0 "" 99999999999999999999999 "1 2" 0x10; do
	check "read_lat_nsec refuses '$bad'" refused read_lat_nsec "$bad"
done
sticks() { echo 3000000 > "$iosched/read_lat_nsec" && default_is read_lat_nsec 3000000 &&
	   echo 2000000 > "$iosched/read_lat_nsec"; }
check "read_lat_nsec takes 3000000" sticks

# debugfs: the token pools and async depth of the queue, the state of
# each hardware queue.  Read while idle, so nothing may be held or queued.
dbg=/sys/kernel/debug/block/vda
async_is_3_4() { [ "$(cat $dbg/sched/async_depth)" = $(($(cat /sys/block/vda/queue/nr_requests) * 3 / 4)) ]; }
no_token_held() { local d; for d in read write discard other; do grep -qx 'busy=0' "$dbg/sched/${d}_tokens" || return 1; done; }
nothing_queued() { [ "$(awk '{ n += $2 } END { print n }' $dbg/hctx0/sched/queued)" = 0 ] &&
		   [ -e $dbg/hctx0/sched/cur_domain ] && [ -e $dbg/hctx0/sched/batching ] &&
		   [ ! -s $dbg/hctx0/sched/waiting ] && [ ! -s $dbg/hctx0/sched/rqs ]; }
dd if=/dev/vda of=/dev/null bs=4k count=256 iflag=direct 2>/dev/null
check "debugfs: async_depth is 3/4 of nr_requests" async_is_3_4
check "debugfs: no token is held when the disk is idle" no_token_held
check "debugfs: nothing is queued or waiting when the disk is idle" nothing_queued

# Tracepoints: the timer reports the latencies it decides on.
tracing=/sys/kernel/tracing
traced_latency() {
	echo 1 > $tracing/events/kyber/kyber_latency/enable || return 1
	dd if=/dev/vda of=/dev/null bs=4k count=512 iflag=direct 2>/dev/null
	sleep 0.5	# the timer runs 100 ms after a completion
	echo 0 > $tracing/events/kyber/kyber_latency/enable
	grep -q 'kyber_latency: .* read io latency p99' $tracing/trace
}
check "tracepoint kyber_latency reports read latency" traced_latency

# Data written under Kyber reads back intact, while another job discards
# a region of its own, so reads, writes and discards all go through Kyber.
verify() {	# verify DEV [TRIM-JOB-OPTIONS...]
	fio --filename="/dev/$1" --ioengine=libaio --bs=4k --iodepth=32 \
		--size=16M --output=/dev/null --direct="$direct" \
		--name=verify --rw=randrw --verify=crc32c --verify_fatal=1 \
		--do_verify=1 "${@:2}"
}
trim_job="--name=trim --rw=randtrim --offset=32M"
for d in nullb0 vda nvme0n1 sda; do
	[ -e "/dev/$d" ] || { skip "$d: fio verify under kyber" "no /dev/$d"; continue; }
	if [ "$(cat "/sys/block/$d/queue/discard_max_bytes")" = 0 ]; then
		skip "$d: discards beside the verified I/O" "no discard support"
		trim=""
	else
		trim=$trim_job
	fi
	for direct in 1 0; do
		# shellcheck disable=SC2086
		check "$d: fio randrw (direct=$direct) + trim with crc32c verification under kyber" verify "$d" $trim
	done
done

# Switching schedulers under load, then nr_requests down and back.
switch_under_load() {
	local s
	fio --name=load --filename=/dev/vda --ioengine=libaio --direct=1 --rw=randrw \
		--bs=4k --iodepth=32 --time_based --runtime=4 --output=/dev/null &
	for s in none mq-deadline kyber bfq kyber none kyber; do
		echo "$s" > /sys/block/vda/queue/scheduler || { wait; return 1; }
		sleep 0.3
	done
	for s in 4 16 64 128 256; do
		echo "$s" > /sys/block/vda/queue/nr_requests || { wait; return 1; }
	done
	wait
}
check "vda: switching schedulers and nr_requests under fio" switch_under_load
check "vda: I/O still completes afterwards" dd if=/dev/vda of=/dev/null bs=4k count=64 iflag=direct

unload() {
	local d
	for d in $devs; do echo none > "/sys/block/$d/queue/scheduler" || return 1; done
	[ ! -d /sys/module/kyber_iosched ] || modprobe -r kyber-iosched
}
check "kyber-iosched unloads after every device switched away" unload
echo "1..$n"
exit $failed
