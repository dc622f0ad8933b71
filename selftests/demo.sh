#!/bin/bash
# Runs inside the VM (vm-run.sh): bring up the test devices and show each
# block device with the schedulers it offers; then what Kyber is for: a
# QD1 reader beside a write flood on a saturated device, once under none
# and once under kyber, its p99 latency beside the throughput each keeps.
set -eu

echo "kernel: $(uname -r)"
modprobe null_blk nr_devices=1 queue_mode=2 2>/dev/null || echo "null_blk: not available"
modprobe scsi_debug dev_size_mb=64 2>/dev/null || echo "scsi_debug: not available"
modprobe kyber-iosched 2>/dev/null || true
udevadm settle 2>/dev/null || sleep 1

printf '%-10s %-24s %s\n' DEVICE MODEL SCHEDULERS
for q in /sys/block/*/queue/scheduler; do
	dev=${q#/sys/block/}; dev=${dev%%/*}
	case $dev in loop*|ram*) continue ;; esac
	model=$(cat "/sys/block/$dev/device/model" 2>/dev/null ||
		cat "/sys/block/$dev/device/serial" 2>/dev/null || echo "$dev")
	# shellcheck disable=SC2086	# unquoted: squeezes the model's padding
	printf '%-10s %-24s %s\n' "$dev" "$(echo $model | cut -c1-24)" "$(cat "$q")"
done
echo

# The device, flood and reader are those of make bench's "saturated"
# class (the kselftest latency.sh's, at 1 ms per request instead of 4):
# one hardware queue of 2 tags whose timer completes each request after
# 1 ms, far less than the VM submits, so the flood fills it and a reader
# under none queues behind the flood.  Default nr_requests and Kyber
# targets: no tuning.  The setup is written out here, not taken from
# kyber_lib.sh: vm-run.sh installs no kselftests (check-vm.sh does, for
# its own run), and that library is a KTAP harness that finds its
# helpers from the test's $0.
NB=kyberdemo CFS=/sys/kernel/config/nullb
DEPTH=2 NSEC=1000000 RUNTIME=10
FLOOD="--name=flood --ioengine=libaio --direct=1 --rw=randwrite --bs=4k --iodepth=8 --numjobs=8 --group_reporting"
READER="--name=reader --new_group --ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=1"

skip() { echo "reader beside a write flood: skipped, $*"; exit 0; }
command -v fio >/dev/null || skip "fio is not installed (the VM runs the host's programs)"
fio --enghelp=libaio >/dev/null 2>&1 || skip "fio has no libaio engine"
[ -d $CFS ] || skip "no null_blk configfs (CONFIG_BLK_DEV_NULL_BLK, CONFIG_CONFIGFS_FS)"

trap '[ ! -d $CFS/$NB ] || { echo 0 > $CFS/$NB/power; rmdir $CFS/$NB; }' EXIT
mkdir $CFS/$NB
for kv in queue_mode=2 submit_queues=1 poll_queues=0 hw_queue_depth=$DEPTH irqmode=2 \
	completion_nsec=$NSEC memory_backed=0 size=1024 power=1; do
	echo "${kv#*=}" > "$CFS/$NB/${kv%%=*}"
done
udevadm settle 2>/dev/null || sleep 1
[ -b /dev/$NB ] || skip "null_blk made no /dev/$NB"
grep -qw kyber /sys/block/$NB/queue/scheduler || skip "this kernel has no Kyber"

# run SCHED: fio on a fresh instance of SCHED; its terse lines (version
# 3) in SCHED.terse: field 8 read IOPS, 18 the p99 of read completion
# latency in us (the only percentile asked for), 49 write IOPS.
run() {
	echo none > /sys/block/$NB/queue/scheduler
	echo "$1" > /sys/block/$NB/queue/scheduler
	# shellcheck disable=SC2086
	timeout -k 5 $((RUNTIME * 6 + 60)) fio --filename=/dev/$NB --time_based \
		--runtime=$RUNTIME --ramp_time=1 --percentile_list=99 --output-format=terse \
		--terse-version=3 --output="/tmp/$1.terse" $FLOOD $READER
}
run none
run kyber
targets="read_lat_nsec $(cat /sys/block/$NB/queue/iosched/read_lat_nsec), write_lat_nsec $(cat /sys/block/$NB/queue/iosched/write_lat_nsec)"
echo none > /sys/block/$NB/queue/scheduler

echo "A reader beside a write flood on null_blk $NB: 1 hardware queue of $DEPTH tags,"
echo "$((NSEC / 1000)) us per request (at most $((DEPTH * 1000000000 / NSEC)) IOPS).  fio, $RUNTIME s after a 1 s ramp:"
echo "a QD1 random reader beside 8 random writers at QD8, all O_DIRECT; default"
echo "nr_requests and kyber targets ($targets)."
# The table and the closing sentence both come from the figures.
awk -F';' '
	FNR == 1 { s = FILENAME; sub(/.*\//, "", s); sub(/\.terse$/, "", s); order[++n] = s }
	$3 == "reader" { p = $18; sub(/.*=/, "", p); p99[s] = p; riops[s] = $8 }
	$3 == "flood" { wiops[s] = $49 }
	END {
		printf "%-9s %14s %12s %12s %11s\n", "scheduler", "reader p99", "reader IOPS",
			"writer IOPS", "total IOPS"
		for (i = 1; i <= n; i++) {
			s = order[i]; tot[s] = riops[s] + wiops[s]
			printf "%-9s %11.2f ms %12d %12d %11d\n", s, p99[s] / 1000, riops[s],
				wiops[s], tot[s]
		}
		if (!p99["kyber"] || !p99["none"] || !tot["none"]) {
			print "no comparison: a run reported no reads or no I/O"; exit
		}
		# Parenthesised: a ">" in printf'\''s arguments redirects.
		r = p99["none"] / p99["kyber"]; how = "lower"
		if (r < 1) { r = 1 / r; how = "higher" }
		printf("kyber'\''s reader p99 is %.1fx %s than none'\''s, at %d%% of none'\''s total IOPS.\n",
			r, how, tot["kyber"] * 100 / tot["none"] + 0.5)
	}' /tmp/none.terse /tmp/kyber.terse
