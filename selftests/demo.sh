#!/bin/bash
# Runs inside the VM (vm-run.sh): bring up the test devices and show each
# block device with the schedulers it offers; then what Kyber is for: a
# QD1 reader beside a write flood on a saturated device, once under none
# and once under kyber, its p99 latency beside the throughput each keeps.
# The device, fio and scheduler helpers are the series' kselftests' own
# (kyber_lib.sh, through selftests/kselftest-lib.sh).
set -eu

usage() {
	cat <<EOT
usage: ${0##*/} [-k KSELFTEST_DIR] [--help]

Runs in the VM (scripts/demo.sh boots it), as root: lists the block
devices and their schedulers, then a QD1 reader beside a write flood on
a saturated null_blk under none and under kyber, default settings.
  -k   the series' kselftests, installed (install_kselftests in
       scripts/lib.sh; default $HERE/../build/kselftest-demo), whose
       library kyber_lib.sh makes the device and runs fio
EOT
}

HERE=$(cd "$(dirname "$0")" && pwd)
KSFT=$HERE/../build/kselftest-demo
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-k) [ $# -ge 2 ] || { echo "${0##*/}: -k needs a directory" >&2; exit 2; }
	    KSFT=$2; shift 2 ;;
	*) usage >&2; echo "${0##*/}: unknown argument: $1" >&2; exit 2 ;;
	esac
done

# shellcheck source=vm-only.sh
. "$HERE/vm-only.sh"
# shellcheck disable=SC2034 # read by kyber_lib.sh
KYBER_DESC="make demo: none and kyber, a reader beside a write flood" KYBER_REQUIRES=root
# shellcheck source-path=SCRIPTDIR source=kselftest-lib.sh
. "$HERE/kselftest-lib.sh"

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
# class (the kselftest latency.sh's loads, at 1 ms per request instead
# of 4 and with Kyber's default targets): one hardware queue of 2 tags
# whose timer completes each request after 1 ms, far less than the VM
# submits, so the flood fills it and a reader under none queues behind
# the flood.  Default nr_requests and Kyber targets: no tuning.
NB=kyberdemo DEPTH=2 NSEC=1000000 RUNTIME=10
FLOOD=(--name=flood --ioengine=libaio --direct=1 --rw=randwrite --bs=4k --iodepth=8
	--numjobs=8 --group_reporting)
READER=(--name=reader --new_group --ioengine=psync --direct=1 --rw=randread --bs=4k
	--iodepth=1)

skip() { echo "reader beside a write flood: skipped, $*"; exit 0; }
# can CHECK...: a requirement check of kyber_lib.sh (kyber_require,
# kyber_need_kyber), which ends a kselftest with "1..0 # SKIP WHY": here
# the comparison is skipped, saying why.
can() {
	local why

	why=$( ("$@") 2>&1 ) && return 0
	skip "${why##*SKIP }"
}
can kyber_require fio null_blk
kyber_make_nullb $NB queue_mode=2 submit_queues=1 poll_queues=0 hw_queue_depth=$DEPTH \
	irqmode=2 completion_nsec=$NSEC memory_backed=0 size=1024 >&2 ||
	skip "null_blk could not make /dev/$NB"
can kyber_need_kyber $NB

# run SCHED: fio on a fresh instance of SCHED; the reader's p99 (us) and
# IOPS, the flood's IOPS, in P99, RIOPS and WIOPS by scheduler.
declare -A P99 RIOPS WIOPS
run() {
	if ! kyber_set_sched $NB none >&2 || ! kyber_set_sched $NB "$1" >&2; then
		echo "$NB: cannot select $1" >&2
		exit 1
	fi
	kyber_fio /dev/$NB $RUNTIME --ramp_time=1 "${FLOOD[@]}" "${READER[@]}" >&2 ||
		{ echo "fio under $1 failed or did not finish" >&2; exit 1; }
	P99[$1]=$(kyber_fio_field reader 19) RIOPS[$1]=$(kyber_fio_field reader 8)
	WIOPS[$1]=$(kyber_fio_field flood 49)
}
run none
run kyber
targets="read_lat_nsec $(< /sys/block/$NB/queue/iosched/read_lat_nsec), write_lat_nsec $(< /sys/block/$NB/queue/iosched/write_lat_nsec)"
kyber_set_sched $NB none >&2 || true

echo "A reader beside a write flood on null_blk $NB: 1 hardware queue of $DEPTH tags,"
echo "$((NSEC / 1000)) us per request (at most $((DEPTH * 1000000000 / NSEC)) IOPS).  fio, $RUNTIME s after a 1 s ramp:"
echo "a QD1 random reader beside 8 random writers at QD8, all O_DIRECT; default"
echo "nr_requests and kyber targets ($targets)."
# The table and the closing sentence both come from the figures.
for s in none kyber; do
	echo "$s ${P99[$s]} ${RIOPS[$s]} ${WIOPS[$s]}"
done | awk '
	{ s = $1; order[++n] = s; p99[s] = $2; riops[s] = $3; wiops[s] = $4 }
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
	}'
