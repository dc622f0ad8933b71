#!/bin/bash
# The benchmark's part inside the VM (run by scripts/bench.sh through
# selftests/vm-run.sh): measures, and prints one "BENCH" line per figure.
# Its null_blk, scheduler and queue helpers are those of the series'
# kselftests (kyber_lib.sh, loaded by selftests/kselftest-lib.sh).
#
# The latency, prio and devices parts measure setups that kselftests of
# the series check; the bench judges no figure, it reports them for
# five schedulers on two kernels, with the spread of repetitions:
#  - latency: a 2-tag null_blk at 1 ms per request (2000 IOPS), the
#    saturated device of SPEC section 6 where the README's figures are,
#    one QD64 direct writer or a buffered one beside the QD1 reader, and
#    Kyber at its default targets (-K: also at 1, 2 and 5 ms).
#    latency.sh checks the same kind of experiment on purpose elsewhere:
#    2 tags at 4 ms, eight QD8 writers, read_lat_nsec 8 ms, and bounds
#    (none's p99 above 1.75 x 8 ms, Kyber's within it or a third below
#    none's, Kyber's IOPS at least 80% of none's); its slower device
#    keeps a busy host's late timers (a few ms) small beside the target
#    it asserts, which at 1 ms per request they are not.
#  - devices: "slow" and "multiqueue" are slow_device.sh's and
#    multi_queue.sh's devices and loads (those check: Kyber's IOPS at
#    least 80% of none's, its read p99 at most none's and both pools above
#    one token; the reader's best p99 within 1.5 x none's best and the
#    flood's IOPS at least 80%); "saturated" is latency.sh's loads on the
#    1 ms device, at the default targets.
#  - prio: ionice.sh's device (2 tags, 1 ms, nr_requests 64) and loads;
#    ionice.sh bounds the ratios of runs side by side.  Then
#    prio_queues.sh's device (two hardware queues sharing the driver
#    tags, default nr_requests) and loads, which it bounds: the reader's
#    IOPS beside an idle flood against alone, the idle reader's longest
#    wait against idle_aging_nsec, the total against none's.  The wake
#    batch of the scheduler tags is read, not checked.
set -eu

usage() {
	cat <<EOT
usage: ${0##*/} [-k KSELFTEST_DIR] [-r REPS] [-s SCHEDS] [-f FLOOR.KO] [-N NOPRIO.KO] [-n JOBS] [-I NIOS] [-T SECS] [-K] [-C] [--] PART

Runs inside the benchmark VM, as root; prints lines
  BENCH<tab>PART<tab>SCHEDULER<tab>PARAMETER<tab>REP<tab>METRIC<tab>VALUE
and "BENCH<tab>PART<tab>-<tab>-<tab>0<tab>NAME<tab>VALUE" for what the
figures were taken with (kernel release, fio command lines, devices).
PART is one of:
  cost     4 KiB io_uring random reads on an instant null_blk, QD 1 and
           32, a fixed number of I/Os each (-I): IOPS (meant for -icount)
  prodcost the same, reported as its own part (make bench runs it on the
           production-config kernel)
  latency  a QD1 random reader beside a write flood (direct QD64 libaio,
           then buffered psync) on a null_blk of 2 tags that completes
           each request after 1 ms: read p50/p99/p99.9, read and write
           IOPS; first the flood alone, to show the device saturated
  scaling  as cost at QD32 but time based (-T seconds after a 1 s ramp,
           meant for real time), on one hardware queue: with one fio job
           pinned to vCPU 0 ("cpus1"), then one pinned to each vCPU
           ("cpus2" for 2 vCPUs; IOPS summed)
  contention
           as scaling with a job on each vCPU, on a kernel with
           CONFIG_LOCK_STAT: /proc/lock_stat cleared before each run and
           read after it; the I/Os done, and the contentions and wait
           time summed over all lock classes and for the classes
           contended most
  prio     I/O priority classes under Kyber, on the saturated null_blk of
           latency with nr_requests 64: a QD1 reader alone; beside a QD64
           direct write flood and a QD64 direct read flood, each as
           best-effort and as idle class; a QD1 reader as best-effort and
           as real-time beside a QD8 best-effort reader.  Reader
           p50/p99/IOPS, the others' IOPS.  Then on a null_blk of 2
           hardware queues sharing 2 tags (1 ms), default nr_requests:
           a QD1 reader pinned to a CPU of queue 0 alone, and as
           best-effort, real-time and idle beside a best-effort QD32
           read flood pinned to one of queue 1, and as best-effort
           beside an idle one (under none: alone and best-effort
           beside best-effort).  Reader p50/p99/max/IOPS, flood IOPS,
           total.  Then the scheduler tags' wake batch (debugfs
           hctx0/sched_tags) at nr_requests 64 and 256, on a fresh
           Kyber and mq-deadline and after a 1 s idle-class writer.
           With -C instead: as cost at QD32 (meant for -icount), to
           set Kyber beside kyber-noprio
  devices  default settings (targets, nr_requests) on three null_blk
           classes, 10 s each after a 1 s ramp: "slow" (2 tags, 5 ms per
           request) and "saturated" (2 tags, 1 ms), a QD1 psync reader
           beside an O_DIRECT write flood of 8 libaio jobs at QD8;
           "multiqueue" (2 hardware queues of 1 tag, 1 ms), a QD16 read
           flood pinned to a CPU of queue 0 and the QD1 reader to one of
           queue 1.  Reader p50/p99/IOPS, flood IOPS, their total; Kyber's
           read and write token pools at the end.  First each flood
           alone under none, on its device and on an instant null_blk,
           to show the device saturated (needs 2 CPUs)
  slowdev  a matrix of slow devices (SLOW_POINTS): a null_blk of one
           hardware queue, slower per request than Kyber's read target,
           its tag count, request time and the write flood's request
           size, engine and queue depth varied one at a time around a
           centre (8 tags, 5 ms, 16 KiB io_uring at QD64); the devices
           part's QD1 reader beside the flood, default settings, 1 s
           ramp then 8 s.  Reader IOPS/p99, flood IOPS, their total;
           Kyber's token pools at the end
  fs       fs_commit.sh's file system load for every scheduler: ext4 on
           a null_blk of 32 tags, 5 ms and 4 KiB a request, a buffered
           1 MiB writer, and beside it for 10 s fsync_commit (the
           kselftests') and a cold read of 300 files of 16 KiB; with
           writeback throttling as the kernel sets it ("wbt-default")
           and off ("wbt-off").  Commits per second, commit p50/p99/max,
           the cold read's time, the device's writes in MB/s
  -k   the series' kselftests, installed (install_kselftests in
       scripts/lib.sh; default $HERE/../build/kselftest-bench): their
       library kyber_lib.sh makes the devices and switches schedulers
  -r   repetitions (default 3); schedulers are interleaved in each
  -s   schedulers, space separated (default: none floor mq-deadline
       kyber bfq; "floor" needs -f, "kyber-noprio" -N; prio without -C
       uses kyber)
  -f   the floor elevator module to insmod (absolute path)
  -N   the Kyber without priority support module to insmod (absolute
       path; its elevator is "kyber-noprio")
  -I   I/Os per fio job in cost and prio -C (default 20000)
  -T   seconds measured per run in scaling and contention (default 4)
  -K   latency: also Kyber with read_lat_nsec 1, 2 and 5 ms
  -C   prio: the cost of priority support, not the behaviour
EOT
}

HERE=$(cd "$(dirname "$0")" && pwd)
reps=3 scheds="none floor mq-deadline kyber bfq" floor="" noprio="" secs=4 knob="" pcost=""
KSFT=$HERE/../build/kselftest-bench
NIOS=20000		# I/Os per fio job in cost and prio -C (-I)
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts k:r:s:f:N:I:T:KCh opt; do
	case $opt in
	k) KSFT=$OPTARG ;;
	r) reps=$OPTARG ;;
	s) scheds=$OPTARG ;;
	f) floor=$OPTARG ;;
	N) noprio=$OPTARG ;;
	T) secs=$OPTARG ;;
	I) NIOS=$OPTARG ;;
	K) knob=1 ;;
	C) pcost=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { usage >&2; echo "${0##*/}: name one part" >&2; exit 2; }
part=$1
case $part in cost|prodcost|latency|scaling|contention|prio|devices|slowdev|fs) ;;
*) echo "${0##*/}: unknown part: $part" >&2; exit 2 ;;
esac
case $reps$secs$NIOS in *[!0-9]*|"") echo "${0##*/}: -r, -T and -I take numbers" >&2; exit 2 ;; esac
[ "$NIOS" -gt 0 ] || { echo "${0##*/}: -I takes a positive number of I/Os" >&2; exit 2; }
[ "$secs" -gt 0 ] || { echo "${0##*/}: -T takes a positive number of seconds" >&2; exit 2; }

# It loads modules and sets the VM's dirty-page limits.
# shellcheck source=../selftests/vm-only.sh
. "$HERE/../selftests/vm-only.sh"

# The library's helpers (kyber_init sets them up).  cost and scaling,
# and prio -C, load null_blk themselves, with module parameters for their
# instant device, so it must not be loaded for them first; the other
# parts make their devices in configfs (kyber_require null_blk).
# shellcheck disable=SC2034 # read by kyber_lib.sh
KYBER_DESC="make bench, part $part" KYBER_REQUIRES="root fio null_blk"
# shellcheck disable=SC2034
case $part$pcost in
cost|prodcost|scaling|prio1) KYBER_REQUIRES="root fio" ;;
contention) KYBER_REQUIRES="root fio" ;;
prio) KYBER_REQUIRES="root fio null_blk debugfs" ;;
fs) KYBER_REQUIRES="root fio null_blk ext4" ;;
esac
# shellcheck source-path=SCRIPTDIR/../selftests source=kselftest-lib.sh
. "$HERE/../selftests/kselftest-lib.sh"

TMP=$(mktemp -d /tmp/bench.XXXXXX)

declare -A SAID
meta() {	# meta NAME VALUE, once
	[ -z "${SAID[$1]-}" ] || return 0
	SAID[$1]=1
	printf 'BENCH\t%s\t-\t-\t0\t%s\t%s\n' "$part" "$1" "$2"
}
fail() { echo "${0##*/}: error: $*" >&2; exit 1; }

# Each fio run leaves its JSON output in $TMP/N.json, the device samples
# of a flood in $TMP/N.samples, and a line in $TMP/runs:
#   N SCHED PARAM REP RAMP SECONDS SPEC...
# SPEC is JOB/KEY=METRIC: JOB a job name or "0" for the first (grouped)
# one, KEY read_iops, write_iops, read_p50, read_p99, read_p99.9,
# read_max (clat, ns); JOB "dev", KEY write_iops: the device's writes per
# second from the samples, in the SECONDS after RAMP after its first
# write; JOB "sum", KEY A+B: the sum of the METRICs A and B of specs
# before it (KEY A: A alone).  figures() turns them all into BENCH lines
# at the end, so that no interpreter starts between the runs;
# $TMP/extra holds BENCH lines taken otherwise (read from sysfs or
# debugfs), printed after them.
RUNS=0
run_fio() {	# run_fio SCHED PARAM REP RAMP SECONDS SPECS FIO-ARGS...
	local what="$1 $2 $3 $4 $5 $6" t0=$EPOCHREALTIME

	shift 6
	RUNS=$((RUNS + 1))
	fio "$@" --output-format=json --output="$TMP/$RUNS.json" > "$TMP/fio.log" 2>&1 ||
		{ cat "$TMP/fio.log" >&2; fail "fio failed: $what"; }
	echo "$RUNS $what" >> "$TMP/runs"
	echo "# run $RUNS: $what: $(((${EPOCHREALTIME/./} - ${t0/./}) / 1000)) ms" >&2
}

figures() {
	[ ! -s "$TMP/runs" ] || figures_fio
	[ ! -s "$TMP/extra" ] || cat "$TMP/extra"
}

figures_fio() {
	python3 - "$TMP" "$part" <<'EOT'
import json, os, sys

tmp, part = sys.argv[1], sys.argv[2]

def dev_rate(path, ramp, secs):
    rows = [tuple(map(float, l.split())) for l in open(path)]
    moved = next(i for i in range(1, len(rows)) if rows[i][1] > rows[0][1])
    start = (rows[moved - 1][0] + rows[moved][0]) / 2 + ramp
    def at(t):	# writes done at time t, linear between samples
        for (t0, w0), (t1, w1) in zip(rows, rows[1:]):
            if t0 <= t <= t1:
                return w0 + (w1 - w0) * (t - t0) / (t1 - t0)
        # Past the last sample, taken 0.5 s after fio ended: only a
        # sampler starved for longer gets here; count what it saw.
        return rows[-1][1]
    return (at(start + secs) - at(start)) / secs

for line in open(os.path.join(tmp, "runs")):
    n, sched, param, rep, ramp, secs, *specs = line.split()
    with open(os.path.join(tmp, n + ".json")) as f:
        text = f.read()
    # fio may print notes before the JSON document.
    jobs = json.loads(text[text.index("{"):])["jobs"]
    vals = {}
    for spec in specs:
        src, metric = spec.split("=")
        name, key = src.split("/")
        if name == "sum":	# sum/A+B: of the metrics A and B above
            v = sum(vals[m] for m in key.split("+"))
        elif name == "dev":
            v = dev_rate(os.path.join(tmp, n + ".samples"), float(ramp), float(secs))
        else:
            job = jobs[0] if name == "0" else next(j for j in jobs if j["jobname"] == name)
            if job.get("error"):
                sys.exit("run %s: fio job %s: error %d" % (n, name, job["error"]))
            rw, what = key.split("_", 1)
            if what == "iops":
                v = job[rw]["iops"]
            elif what == "ios":
                v = job[rw]["total_ios"]
            elif what == "max":
                v = job[rw]["clat_ns"]["max"]
            else:
                v = job[rw]["clat_ns"]["percentile"]["%.6f" % float(what[1:])]
        vals[metric] = v
        v = "%d" % v if isinstance(v, int) else "%.1f" % v
        print("BENCH\t%s\t%s\t%s\t%s\t%s\t%s" % (part, sched, param, rep, metric, v))
EOT
}

use_sched() {	# use_sched DEV SCHED: kyber_set_sched, or fail
	kyber_set_sched "$1" "$2" >&2 || fail "$1: cannot select $2"
}

# fresh DEV SCHED: a new instance of SCHED on DEV (default settings).
fresh() {
	use_sched "$1" none
	[ "$2" = none ] || use_sched "$1" "$2"
}

nullb() {	# nullb NAME ATTR=VALUE...: kyber_make_nullb, or fail
	kyber_make_nullb "$@" >&2 || fail "cannot make the null_blk $1"
}

load_scheds() {	# load_scheds DEV: make every scheduler of $scheds available
	local s

	for s in $scheds; do
		case $s in
		none|mq-deadline|bfq) ;;
		floor) [ -n "$floor" ] || fail "floor needs -f FLOOR.KO"
			grep -q '^floor_iosched ' /proc/modules || insmod "$floor" ||
				fail "cannot insmod $floor" ;;
		kyber-noprio) [ -n "$noprio" ] || fail "kyber-noprio needs -N NOPRIO.KO"
			grep -q '^kyber_noprio ' /proc/modules || insmod "$noprio" ||
				fail "cannot insmod $noprio" ;;
		kyber) modprobe kyber-iosched 2> /dev/null || true ;;
		*) modprobe "$s-iosched" 2> /dev/null || true ;;
		esac
		grep -qw -- "$s" "/sys/block/$1/queue/scheduler" || fail "$1 does not offer $s"
	done
}

meta uname "$(uname -r)"
case $part in
prio) meta "vcpus${pcost:+-cost}" "$(nproc)" ;;
*) meta vcpus "$(nproc)" ;;
esac
# What the guest chose of the mitigations the kernel has: retpolines turn
# every indirect call, the elevator's hooks included, into a thunk.
[ ! -r /sys/devices/system/cpu/vulnerabilities/spectre_v2 ] ||
	meta mitigations "spectre_v2: $(cat /sys/devices/system/cpu/vulnerabilities/spectre_v2)"

# ---- cost, scaling and contention: an instant null_blk ------------------

# instant: one instant null_blk with one hardware queue, every scheduler
# of $scheds available.
instant() {
	modprobe null_blk nr_devices=1 queue_mode=2 irqmode=0 memory_backed=0 \
		gb=4 submit_queues=1 poll_queues=0 || fail "cannot load null_blk"
	meta "null_blk${pcost:+-cost}" "nr_devices=1 queue_mode=2 irqmode=0 memory_backed=0 gb=4 submit_queues=1 poll_queues=0"
	load_scheds nullb0
}

READS="--name=c --filename=/dev/nullb0 --ioengine=io_uring --direct=1 --rw=randread --bs=4k --size=1g"

cost() {
	local rep s qd
	local -a args

	instant
	for rep in $(seq "$reps"); do
		for s in $scheds; do
			use_sched nullb0 "$s"
			for qd in "$@"; do
				# shellcheck disable=SC2206
				args=($READS --iodepth="$qd" "--number_ios=$NIOS")
				meta "fio-qd$qd" "fio ${args[*]}"
				run_fio "$s" "qd$qd" "$rep" 0 0 0/read_iops=iops "${args[@]}"
			done
		done
	done
}

# submitters N RAMP: fio's arguments for N QD32 jobs, one pinned to each
# of vCPUs 0..N-1, time based, their IOPS summed.
submitters() {
	echo "$READS --iodepth=32 --numjobs=$1 --cpus_allowed=0-$(($1 - 1))" \
		"--cpus_allowed_policy=split --group_reporting --time_based" \
		"--ramp_time=$2 --runtime=$secs"
}

scaling() {
	local rep s n
	local -a args

	instant
	for rep in $(seq "$reps"); do
		for s in $scheds; do
			use_sched nullb0 "$s"
			for n in 1 "$(nproc)"; do
				# shellcheck disable=SC2207
				args=($(submitters "$n" 1))
				meta "fio-cpus$n" "fio ${args[*]}"
				run_fio "$s" "cpus$n" "$rep" 1 "$secs" 0/read_iops=iops "${args[@]}"
			done
		done
	done
}

# lock_stat SCHED PARAM REP: BENCH lines from /proc/lock_stat, for
# $TMP/extra: contentions and wait time (us) summed over all lock
# classes, and of each class that was contended.  A class line
# is "NAME: con-bounces contentions waittime-min waittime-max
# waittime-total ..." (Documentation/locking/lockstat.rst); the lines of
# call sites below it have no colon after the name.
lock_stat() {
	awk -v pre="BENCH	$part	$1	$2	$3	" '
		/^ *[^ ]/ && match($0, /: +[0-9]/) {
			name = substr($0, 1, RSTART - 1)
			sub(/^ +/, "", name)
			split(substr($0, RSTART + 1), f, " ")
			con += f[2]; wait += f[5]
			if (f[2] > 0) {
				printf "%scon:%s\t%d\n", pre, name, f[2]
				printf "%swait_us:%s\t%.2f\n", pre, name, f[5]
			}
		}
		END {
			printf "%slock_con\t%d\n", pre, con
			printf "%slock_wait_us\t%.2f\n", pre, wait
		}' /proc/lock_stat >> "$TMP/extra"
}

contention() {
	local rep s n
	local -a args

	n=$(nproc)
	[ -w /proc/lock_stat ] || fail "no /proc/lock_stat (CONFIG_LOCK_STAT)"
	[ "$(cat /proc/sys/kernel/lock_stat)" = 1 ] || fail "lock statistics are off (kernel.lock_stat)"
	instant
	for rep in $(seq "$reps"); do
		for s in $scheds; do
			use_sched nullb0 "$s"
			# shellcheck disable=SC2207
			# No ramp: the statistics count every I/O of the run.
			args=($(submitters "$n" 0))
			meta "fio-cpus$n" "fio ${args[*]}"
			echo 0 > /proc/lock_stat
			run_fio "$s" "cpus$n" "$rep" 0 "$secs" "0/read_iops=iops 0/read_ios=ios" "${args[@]}"
			lock_stat "$s" "cpus$n" "$rep"
		done
	done
	# Lockdep stops counting at its first report: say whether it did.
	meta debug_locks "$(awk '$1 == "debug_locks:" { print $2 }' /proc/lockdep_stats)"
}

# ---- latency: reader beside a write flood on a saturated null_blk ------

DEPTH=2 NSEC=1000000 RAMP=1 RUNTIME=6
WRITERS_direct="--name=writer --ioengine=libaio --direct=1 --rw=randwrite --bs=4k --iodepth=64"
WRITERS_buffered="--name=writer --ioengine=psync --direct=0 --rw=randwrite --bs=4k"
READER="--name=reader --ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=1"

# sample DEV FILE: every 0.2 s, "TIME WRITES-COMPLETED" of DEV to FILE,
# with shell builtins only, until killed.
sample() {
	local line tick

	mkfifo "$TMP/tick"
	exec {tick}<> "$TMP/tick"
	while :; do
		read -r line < "/sys/block/$1/stat"
		# shellcheck disable=SC2086
		set -- "$1" $line
		printf '%s %s\n' "$EPOCHREALTIME" "$6"
		read -r -t 0.2 -u "$tick" _ || true
	done > "$2"
}

# flood DEV SCHED PARAM REP SECONDS JOBS...: run fio with JOBS on DEV for
# SECONDS after the ramp, and print its figures.  dev_write_iops is what
# reached the device in the measured seconds (from its stat file; the
# first write starts the ramp): for a buffered flood, what the writer
# really gets.
flood() {
	local dev=$1 s=$2 param=$3 rep=$4 secs=$5 specs k pid
	local -a args

	shift 5
	# shellcheck disable=SC2206
	args=(--filename="/dev/$dev" --time_based --runtime="$secs" --ramp_time=$RAMP
	      --percentile_list=50:99:99.9 $*)
	meta "fio-$param" "fio ${args[*]}"
	sync
	rm -f "$TMP/tick"
	sample "$dev" "$TMP/$((RUNS + 1)).samples" &
	pid=$!
	specs="writer/write_iops=write_iops dev/write_iops=dev_write_iops"
	case " $* " in *" --name=reader "*)
		for k in iops p50 p99 p99.9; do
			specs="$specs reader/read_$k=read_$k"
		done ;;
	esac
	run_fio "$s" "$param" "$rep" $RAMP "$secs" "$specs" "${args[@]}"
	# One more sample after fio is done, so that the samples cover the
	# measured window even if the sampler was starved near its end.
	sleep 0.5
	kill "$pid"
	wait "$pid" 2> /dev/null || true
}

latency() {
	local rep s flood lat

	nullb benchlat queue_mode=2 submit_queues=1 poll_queues=0 size=1024 \
		memory_backed=0 irqmode=2 completion_nsec=$NSEC hw_queue_depth=$DEPTH
	nullb benchfast queue_mode=2 submit_queues=1 poll_queues=0 size=1024 \
		memory_backed=0 irqmode=0
	meta null_blk "configfs: queue_mode=2 submit_queues=1 poll_queues=0 size=1024 memory_backed=0 irqmode=2 completion_nsec=$NSEC hw_queue_depth=$DEPTH"
	meta capacity-iops $((DEPTH * 1000000000 / NSEC))
	# A buffered flood must not leave seconds of dirty pages for the
	# next run: the dirty limit is a few seconds of the device's rate.
	echo $((8 << 20)) > /proc/sys/vm/dirty_bytes
	echo $((4 << 20)) > /proc/sys/vm/dirty_background_bytes
	meta vm-dirty "dirty_bytes=8M dirty_background_bytes=4M"
	load_scheds benchlat
	use_sched benchfast none
	for rep in $(seq "$reps"); do
		# The flood alone: what the VM submits to an instant device,
		# and what the slow one completes (its capacity if saturated).
		use_sched benchlat none
		# shellcheck disable=SC2086
		flood benchfast none alone-fast-direct "$rep" 3 $WRITERS_direct
		# shellcheck disable=SC2086
		flood benchlat none alone-direct "$rep" 3 $WRITERS_direct
		# shellcheck disable=SC2086
		flood benchlat none alone-buffered "$rep" 3 $WRITERS_buffered
		for flood in direct buffered; do
			for s in $scheds; do
				fresh benchlat "$s"
				[ "$s" != kyber ] || meta kyber-read_lat_nsec \
					"$(cat /sys/block/benchlat/queue/iosched/read_lat_nsec)"
				eval "w=\$WRITERS_$flood"
				# shellcheck disable=SC2086,SC2154
				flood benchlat "$s" "$flood" "$rep" $RUNTIME $w $READER
			done
		done
		[ -n "$knob" ] || continue
		for lat in 1 2 5; do
			fresh benchlat kyber
			echo $((lat * 1000000)) > /sys/block/benchlat/queue/iosched/read_lat_nsec ||
				fail "cannot set read_lat_nsec"
			# shellcheck disable=SC2086
			flood benchlat kyber "direct-target${lat}ms" "$rep" $RUNTIME \
				$WRITERS_direct $READER
		done
	done
	use_sched benchlat none
}

# ---- prio: I/O priority classes under Kyber ----------------------------

# Beside the QD1 reader: a QD64 direct flood, or a QD8 best-effort reader.
FLOOD="--name=flood --ioengine=libaio --direct=1 --bs=4k --iodepth=64"
CROWD="--name=crowd --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=8"
PRIO_NR=64		# nr_requests: requests wait in Kyber, not for a tag

prio() {
	local rep s param class specs load
	local -a args

	nullb benchprio queue_mode=2 submit_queues=1 poll_queues=0 size=1024 \
		memory_backed=0 irqmode=2 completion_nsec=$NSEC hw_queue_depth=$DEPTH
	meta null_blk "configfs: queue_mode=2 submit_queues=1 poll_queues=0 size=1024 memory_backed=0 irqmode=2 completion_nsec=$NSEC hw_queue_depth=$DEPTH"
	meta capacity-iops $((DEPTH * 1000000000 / NSEC))
	load_scheds benchprio
	for rep in $(seq "$reps"); do
		for s in $scheds; do
			for param in alone wflood-be wflood-idle rflood-be rflood-idle crowd-be crowd-rt; do
				# A fresh instance each time, with room for requests.
				fresh benchprio "$s"
				echo $PRIO_NR > /sys/block/benchprio/queue/nr_requests ||
					fail "cannot set nr_requests"
				[ "$(cat /sys/block/benchprio/queue/nr_requests)" = $PRIO_NR ] ||
					fail "nr_requests $PRIO_NR did not take"
				meta "$s-nr_requests" "$PRIO_NR, idle_depth $(cat \
					"/sys/kernel/debug/block/benchprio/sched/idle_depth" 2> /dev/null || echo n/a)"
				case $param in
				*-be) class=2 ;; *-idle) class=3 ;; *-rt) class=1 ;;
				esac
				specs="reader/read_iops=read_iops reader/read_p50=read_p50 reader/read_p99=read_p99"
				# The flood has the class and the reader is best-effort,
				# or the reader has it beside a best-effort crowd.
				case $param in
				alone) load=$READER ;;
				wflood-*) load="$FLOOD --rw=randwrite --prioclass=$class $READER"
					specs="$specs flood/write_iops=flood_iops" ;;
				rflood-*) load="$FLOOD --rw=randread --prioclass=$class $READER"
					specs="$specs flood/read_iops=flood_iops" ;;
				crowd-*) load="$CROWD $READER --prioclass=$class"
					specs="$specs crowd/read_iops=crowd_iops" ;;
				esac
				# shellcheck disable=SC2206
				args=(--filename=/dev/benchprio --time_based --runtime=$RUNTIME
				      --ramp_time=$RAMP --percentile_list=50:99 $load)
				meta "fio-$param" "fio ${args[*]}"
				run_fio "$s" "$param" "$rep" $RAMP $RUNTIME "$specs" "${args[@]}"
			done
		done
		prio_queues "$rep"
		wake_batch "$rep"
	done
	use_sched benchprio none
}

# Two hardware queues that share the driver tags (prio_queues.sh's device
# and loads), at the default nr_requests: the synchronous reader pinned
# to a CPU of the first queue, alone and beside a read flood pinned to
# one of the second.  The reader's class, then the flood's, in each
# PARAM; none runs the best-effort ones, for the baseline.
PQ_NULLB="queue_mode=2 submit_queues=2 poll_queues=0 size=1024 memory_backed=0 irqmode=2 completion_nsec=$NSEC hw_queue_depth=$DEPTH shared_tag_bitmap=1"
PQ_FLOOD="--name=flood --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=32"
PQ_CPUS=""

pq_runs() {	# pq_runs SCHED: its PARAMs
	case $1 in
	none) echo 2q-alone 2q-be-by-be ;;
	*) echo 2q-alone 2q-be-by-be 2q-rt-by-be 2q-idle-by-be 2q-be-by-idle ;;
	esac
}

pq_class() {	# pq_class rt|be|idle: fio's --prioclass
	case $1 in rt) echo 1 ;; idle) echo 3 ;; *) echo 2 ;; esac
}

prio_queues() {
	local rep=$1 s param rc fc specs cpu0 cpu1
	local -a args

	if [ -z "$PQ_CPUS" ]; then
		[ "$(nproc)" -ge 2 ] || fail "the two-queue runs need 2 CPUs, have $(nproc)"
		# shellcheck disable=SC2086
		nullb benchprio2q $PQ_NULLB
		meta null_blk-2q "configfs: $PQ_NULLB"
		modprobe kyber-iosched 2> /dev/null || true
		grep -qw kyber /sys/block/benchprio2q/queue/scheduler ||
			fail "benchprio2q does not offer kyber"
		cpu0=$(kyber_queue_cpu benchprio2q 0) cpu1=$(kyber_queue_cpu benchprio2q 1)
		if [ -z "$cpu0" ] || [ -z "$cpu1" ]; then
			fail "benchprio2q: no CPU maps to hardware queue 0 or 1"
		fi
		PQ_CPUS="$cpu0 $cpu1"
		meta 2q-cpus "reader on CPU $cpu0 (hardware queue 0), flood on CPU $cpu1 (hardware queue 1)"
	fi
	read -r cpu0 cpu1 <<< "$PQ_CPUS"
	for s in kyber none; do
		for param in $(pq_runs "$s"); do
			# A fresh instance each time, with the default nr_requests.
			fresh benchprio2q "$s"
			meta "2q-$s-nr_requests" "$(cat /sys/block/benchprio2q/queue/nr_requests)"
			specs="reader/read_iops=read_iops reader/read_p50=read_p50"
			specs="$specs reader/read_p99=read_p99 reader/read_max=read_max"
			rc=${param#2q-} rc=${rc%%-*} fc=${param##*-}
			# shellcheck disable=SC2206
			args=(--filename=/dev/benchprio2q --time_based --runtime=$RUNTIME
			      --ramp_time=$RAMP --percentile_list=50:99
			      $READER --prioclass="$(pq_class "$rc")" --cpus_allowed="$cpu0")
			if [ "$param" = 2q-alone ]; then
				specs="$specs sum/read_iops=total_iops"
			else
				# shellcheck disable=SC2206
				args+=($PQ_FLOOD --prioclass="$(pq_class "$fc")" --cpus_allowed="$cpu1")
				specs="$specs flood/read_iops=flood_iops sum/read_iops+flood_iops=total_iops"
			fi
			meta "fio-$param" "fio ${args[*]}"
			run_fio "$s" "$param" "$rep" $RAMP $RUNTIME "$specs" "${args[@]}"
		done
	done
	use_sched benchprio2q none
}

# The wake batch of the scheduler tags (debugfs hctx0/sched_tags, the
# unreserved bitmap's first lines) on the prio device, for each
# nr_requests of WAKE_NRS: on a fresh instance before any idle-class
# I/O, then after an idle-class task took tags.  Kyber, and mq-deadline
# beside it where the kernel has it.
WAKE_NRS="64 256"
WAKE_IDLE="--name=idle --ioengine=psync --direct=1 --rw=randwrite --bs=4k --prioclass=3"

wake_tags() {	# wake_tags SCHED PARAM REP: the figures of sched_tags
	local f=$KYBER_DBG/benchprio/hctx0/sched_tags k v

	for k in depth min_shallow_depth wake_batch; do
		v=$(kyber_key "$f" "$k") || fail "no $k in $f"
		printf 'BENCH\t%s\t%s\t%s\t%s\t%s\t%s\n' "$part" "$1" "$2" "$3" \
			"tags_$k" "$v" >> "$TMP/extra"
	done
}

wake_batch() {
	local rep=$1 s nr n

	modprobe mq-deadline-iosched 2> /dev/null || true
	for s in kyber mq-deadline; do
		grep -qw -- "$s" /sys/block/benchprio/queue/scheduler || {
			meta "wake-$s" "not offered by this kernel"; continue; }
		for nr in $WAKE_NRS; do
			fresh benchprio "$s"
			kyber_set_nr benchprio "$nr" >&2 || fail "cannot set nr_requests $nr"
			[ "$(cat /sys/block/benchprio/queue/nr_requests)" = "$nr" ] ||
				fail "nr_requests $nr did not take"
			wake_tags "$s" "nr$nr-fresh" "$rep"
			# shellcheck disable=SC2086
			kyber_fio /dev/benchprio 1 $WAKE_IDLE >&2 || fail "the idle-class writer failed"
			meta fio-wake-idle "fio --filename=/dev/benchprio --time_based --runtime=1 $WAKE_IDLE"
			n=$(kyber_fio_field idle 49)
			[ "${n:-0}" -gt 0 ] || fail "the idle-class writer wrote nothing"
			printf 'BENCH\t%s\t%s\t%s\t%s\t%s\t%s\n' "$part" "$s" "nr$nr-idle" "$rep" \
				idle_write_iops "$n" >> "$TMP/extra"
			wake_tags "$s" "nr$nr-idle" "$rep"
		done
	done
}

# ---- devices: default settings on three device classes ----------------

# Each class's null_blk (configfs, beside queue_mode=2 poll_queues=0
# size=1024 memory_backed=0 irqmode=2).  On slow and saturated a QD1
# reader runs beside the write flood; on multiqueue beside the read
# flood, the flood pinned to a CPU of hardware queue 0, the reader to one
# of queue 1.  Default settings: no sysfs tuning.
CLASSES="slow multiqueue saturated"
# shellcheck disable=SC2034	# read through eval
NULLB_slow="submit_queues=1 hw_queue_depth=2 completion_nsec=5000000"
# shellcheck disable=SC2034
NULLB_multiqueue="submit_queues=2 hw_queue_depth=1 completion_nsec=1000000"
# shellcheck disable=SC2034
NULLB_saturated="submit_queues=1 hw_queue_depth=2 completion_nsec=1000000"
DRUNTIME=10 DCHECK=3
WFLOOD="--name=flood --ioengine=libaio --direct=1 --rw=randwrite --bs=4k --iodepth=8 --numjobs=8 --group_reporting"
RFLOOD="--name=flood --ioengine=libaio --direct=1 --rw=randread --bs=4k --iodepth=16"
DREADER="--name=reader --new_group --ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=1"

attr() {	# attr NAME ATTR=VALUE...: VALUE of ATTR NAME
	local name=$1 kv

	shift
	for kv in "$@"; do
		[ "${kv%%=*}" != "$name" ] || { echo "${kv#*=}"; return 0; }
	done
	return 1
}

# pools DEV SCHED CLASS REP: Kyber's read and write token pool sizes
# ("depth=" of debugfs sched/{read,write}_tokens) and, where the series'
# "tuning" file tells it, whether the read target is out of reach.
pools() {
	local dev=$1 s=$2 c=$3 rep=$4 d v line dbg=$KYBER_DBG/$1/sched

	[ "$s" = kyber ] || return 0
	for d in read write; do
		[ -r "$dbg/${d}_tokens" ] || continue
		v=$(kyber_pool "$dev" "$d" depth) || continue
		printf 'BENCH\t%s\t%s\t%s\t%s\t%s\t%s\n' "$part" "$s" "$c" "$rep" \
			"${d}_tokens" "$v" >> "$TMP/extra"
	done
	[ -r "$dbg/tuning" ] || return 0
	while read -r line; do
		case $line in
		"read "*" out-of-reach") v=1 ;; "read "*) v=0 ;; *) continue ;;
		esac
		printf 'BENCH\t%s\t%s\t%s\t%s\t%s\t%s\n' "$part" "$s" "$c" "$rep" \
			read_out_of_reach "$v" >> "$TMP/extra"
	done < "$dbg/tuning"
}

devices() {
	local c dev attrs rep s fl rd cpu0 cpu1 fkind specs nsec depth
	local -a fast args

	[ "$(nproc)" -ge 2 ] || fail "devices needs 2 CPUs, has $(nproc)"
	nullb benchfast queue_mode=2 submit_queues=1 poll_queues=0 size=1024 \
		memory_backed=0 irqmode=0
	for c in $CLASSES; do
		eval "attrs=\$NULLB_$c"
		# shellcheck disable=SC2086,SC2154
		nullb "bench$c" queue_mode=2 poll_queues=0 size=1024 memory_backed=0 \
			irqmode=2 $attrs
		meta "null_blk-$c" "configfs: queue_mode=2 poll_queues=0 size=1024 memory_backed=0 irqmode=2 $attrs"
		# shellcheck disable=SC2086
		nsec=$(attr completion_nsec $attrs) depth=$(attr hw_queue_depth $attrs)
		meta "$c-request_nsec" "$nsec"
		# What one hardware queue completes, at most: the flood's.
		meta "$c-capacity-iops" $((depth * 1000000000 / nsec))
		load_scheds "bench$c"
	done
	use_sched benchfast none
	cpu0=$(kyber_queue_cpu benchmultiqueue 0) cpu1=$(kyber_queue_cpu benchmultiqueue 1)
	if [ -z "$cpu0" ] || [ -z "$cpu1" ]; then
		fail "benchmultiqueue: no CPU maps to hardware queue 0 or 1"
	fi
	meta multiqueue-cpus "flood on CPU $cpu0 (hardware queue 0), reader on CPU $cpu1 (hardware queue 1)"
	for rep in $(seq "$reps"); do
		# What the VM submits to an instant device, each flood alone.
		for fkind in write read; do
			if [ $fkind = write ]; then
				# shellcheck disable=SC2206
				fast=($WFLOOD) specs="flood/write_iops=flood_iops"
			else
				# shellcheck disable=SC2206
				fast=($RFLOOD --cpus_allowed="$cpu0") specs="flood/read_iops=flood_iops"
			fi
			args=(--filename=/dev/benchfast --time_based --runtime="$DCHECK"
			      --ramp_time="$RAMP" "${fast[@]}")
			meta "fio-fast-$fkind-alone" "fio ${args[*]}"
			run_fio none "fast-$fkind-alone" "$rep" $RAMP $DCHECK "$specs" "${args[@]}"
		done
		for c in $CLASSES; do
			dev=bench$c
			if [ "$c" = multiqueue ]; then
				fl="$RFLOOD --cpus_allowed=$cpu0" rd="$DREADER --cpus_allowed=$cpu1"
				specs="flood/read_iops=flood_iops"
			else
				fl=$WFLOOD rd=$DREADER specs="flood/write_iops=flood_iops"
			fi
			# The flood alone: what the device completes of it.
			use_sched "$dev" none
			# shellcheck disable=SC2206
			args=(--filename="/dev/$dev" --time_based --runtime=$DCHECK
			      --ramp_time=$RAMP $fl)
			meta "fio-$c-alone" "fio ${args[*]}"
			run_fio none "$c-alone" "$rep" $RAMP $DCHECK "$specs" "${args[@]}"
			specs="$specs reader/read_iops=read_iops reader/read_p50=read_p50"
			specs="$specs reader/read_p99=read_p99 sum/read_iops+flood_iops=total_iops"
			for s in $scheds; do
				# A fresh instance: default targets and nr_requests.
				fresh "$dev" "$s"
				[ "$s" != kyber ] || meta "$c-kyber" \
					"read_lat_nsec $(cat "/sys/block/$dev/queue/iosched/read_lat_nsec"), write_lat_nsec $(cat "/sys/block/$dev/queue/iosched/write_lat_nsec"), nr_requests $(cat "/sys/block/$dev/queue/nr_requests")"
				# shellcheck disable=SC2206
				args=(--filename="/dev/$dev" --time_based --runtime=$DRUNTIME
				      --ramp_time=$RAMP --percentile_list=50:99 $fl $rd)
				meta "fio-$c" "fio ${args[*]}"
				run_fio "$s" "$c" "$rep" $RAMP $DRUNTIME "$specs" "${args[@]}"
				pools "$dev" "$s" "$c" "$rep"
			done
			use_sched "$dev" none
		done
	done
}

# ---- slowdev: slow devices of several shapes ----------------------------

# Points of a matrix of slow devices, each "NAME TAGS NSEC BS ENGINE QD
# JOBS": a null_blk of one hardware queue of TAGS tags that completes each
# request after NSEC ns, and an O_DIRECT random write flood of JOBS jobs
# of ENGINE at QD, BS a write.  The first is the centre; each other point
# changes one of its factors.  Every device is slower per request than
# Kyber's default read target (2 ms), so the read target is out of reach
# at any depth.  Beside the flood the QD1 reader of devices.
SLOW_POINTS="centre 8 5000000 16k io_uring 64 1
tags2 2 5000000 16k io_uring 64 1
tags4 4 5000000 16k io_uring 64 1
tags32 32 5000000 16k io_uring 64 1
bs4k 8 5000000 4k io_uring 64 1
bs128k 8 5000000 128k io_uring 64 1
psync 8 5000000 16k psync 1 16
libaio 8 5000000 16k libaio 64 1
qd8 8 5000000 16k io_uring 8 1
lat2.5ms 8 2500000 16k io_uring 64 1
lat20ms 8 20000000 16k io_uring 64 1"
SRUNTIME=8

slowdev() {
	local name tags nsec bs engine qd jobs dev rep s specs
	local -a args

	while read -r name tags nsec bs engine qd jobs; do
		dev=bslow-$name
		nullb "$dev" queue_mode=2 submit_queues=1 poll_queues=0 size=1024 \
			memory_backed=0 irqmode=2 completion_nsec="$nsec" hw_queue_depth="$tags"
		load_scheds "$dev"
		meta "slowdev-$name" "tags=$tags nsec=$nsec bs=$bs engine=$engine iodepth=$qd numjobs=$jobs"
	done <<< "$SLOW_POINTS"
	meta null_blk-slowdev "configfs: queue_mode=2 submit_queues=1 poll_queues=0 size=1024 memory_backed=0 irqmode=2 completion_nsec=NSEC hw_queue_depth=TAGS"
	specs="flood/write_iops=flood_iops reader/read_iops=read_iops"
	specs="$specs reader/read_p99=read_p99 sum/read_iops+flood_iops=total_iops"
	for rep in $(seq "$reps"); do
		while read -r name tags nsec bs engine qd jobs; do
			dev=bslow-$name
			for s in $scheds; do
				fresh "$dev" "$s"
				# shellcheck disable=SC2206
				args=(--filename="/dev/$dev" --time_based --runtime="$SRUNTIME"
				      --ramp_time=1 --percentile_list=50:99 --name=flood
				      --ioengine="$engine" --direct=1 --rw=randwrite --bs="$bs"
				      --iodepth="$qd" --numjobs="$jobs" --group_reporting $DREADER)
				meta "fio-slowdev-$name" "fio ${args[*]}"
				run_fio "$s" "$name" "$rep" 1 $SRUNTIME "$specs" "${args[@]}"
				pools "$dev" "$s" "$name" "$rep"
			done
			use_sched "$dev" none
		done <<< "$SLOW_POINTS"
	done
}

# ---- fs: fsync'd commits beside a buffered writer on ext4 ---------------

# fs_commit.sh's device and loads, for every scheduler: ext4 on a null_blk
# of 32 tags at 5 ms a request and at most 4 KiB a request, a buffered
# writer keeping writeback busy, and beside it fsync_commit and a cold
# read of FS_FILES files of 16 KiB; with writeback throttling as the
# kernel sets it, then off.
FS_NULLB="queue_mode=2 submit_queues=1 hw_queue_depth=32 irqmode=2 completion_nsec=5000000 max_sectors=8 memory_backed=1 size=512"
FS_SECS=10 FS_FILES=300
FS_WRITER="--name=writer --rw=write --bs=1M --size=320M --ioengine=psync --time_based --runtime=$((FS_SECS + 4))"

fs_tree() {	# fs_tree MNT: the files the cold read reads
	local i

	mkdir "$1/tree" || return 1
	for i in $(seq $FS_FILES); do
		head -c 16384 /dev/urandom > "$1/tree/$i" || return 1
	done
	sync
}

fs_cold_read() {	# fs_cold_read MNT FILE: the read's nanoseconds into FILE
	local t0=$EPOCHREALTIME

	cat "$1"/tree/* > /dev/null || return 1
	echo $(((${EPOCHREALTIME/./} - ${t0/./}) * 1000)) > "$2"
}

fs_written() {	# fs_written DEV: sectors the disk has written
	awk '{ print $7 }' "/sys/block/$1/stat"
}

# fs_round DEV MNT SCHED PARAM REP: one run; BENCH lines into $TMP/extra.
fs_round() {
	local dev=$1 mnt=$2 s=$3 param=$4 rep=$5 writer reader w0 w1 t0 t1 ns

	kyber_run 120 sync > /dev/null || fail "sync did not end"
	echo 3 > /proc/sys/vm/drop_caches
	# shellcheck disable=SC2086
	kyber_start fio --directory="$mnt" $FS_WRITER
	writer=$KYBER_LOAD
	kyber_sleep 2
	w0=$(fs_written "$dev") t0=$EPOCHREALTIME
	kyber_start fs_cold_read "$mnt" "$TMP/read_ns"
	reader=$KYBER_LOAD
	kyber_run $((FS_SECS * 10 + 60)) "$KSFT/block/kyber/fsync_commit" "$mnt" $FS_SECS \
		> "$TMP/commit" || fail "$s: fsync_commit failed: $(cat "$TMP/commit")"
	w1=$(fs_written "$dev") t1=$EPOCHREALTIME
	kyber_end "$reader" 120 > "$TMP/end" || fail "$s: the cold read failed: $(cat "$TMP/end")"
	kyber_end "$writer" 120 > "$TMP/end" || fail "$s: the writer failed: $(cat "$TMP/end")"
	ns=$(((${t1/./} - ${t0/./}) * 1000))
	# commits N p50_us X p99_us Y max_us Z
	# shellcheck disable=SC2046
	set -- $(< "$TMP/commit")
	[ "${1-}" = commits ] || fail "fsync_commit printed: $*"
	awk -v pre="BENCH	$part	$s	$param	$rep	" -v n="$2" -v p50="$4" -v p99="$6" \
	    -v max="$8" -v ns="$ns" -v read="$(< "$TMP/read_ns")" -v sectors=$((w1 - w0)) '
		BEGIN {
			printf "%scommits_s\t%.2f\n", pre, n * 1e9 / ns
			printf "%scommit_p50\t%.0f\n", pre, p50 * 1000
			printf "%scommit_p99\t%.0f\n", pre, p99 * 1000
			printf "%scommit_max\t%.0f\n", pre, max * 1000
			printf "%sread_ns\t%.0f\n", pre, read
			printf "%swrite_mbs\t%.2f\n", pre, sectors * 512 * 1000 / ns
		}' >> "$TMP/extra"
	rm -f "$mnt"/writer.*
}

fs() {
	local dev=benchfs mnt=$KYBER_TMP/mnt wbt rep s lat

	[ -x "$KSFT/block/kyber/fsync_commit" ] ||
		fail "no $KSFT/block/kyber/fsync_commit (make -C the kselftests' block/kyber)"
	# shellcheck disable=SC2086
	nullb $dev $FS_NULLB
	meta null_blk-fs "configfs: $FS_NULLB"
	meta fio-fs-writer "fio --directory=MNT $FS_WRITER"
	meta fs-commit "fsync_commit MNT $FS_SECS (rollback-journal commits: journal written, fsync, database page written, fsync, journal deleted), beside cat of $FS_FILES files of 16 KiB after drop_caches"
	load_scheds $dev
	lat=/sys/block/$dev/queue/wbt_lat_usec
	[ -w "$lat" ] || fail "no $lat (CONFIG_BLK_WBT_MQ)"
	mkfs.ext4 -q -F /dev/$dev > /dev/null || fail "cannot make ext4 on $dev"
	mkdir -p "$mnt" && mount /dev/$dev "$mnt" || fail "cannot mount $dev"
	# shellcheck disable=SC2034 # kyber_cleanup unmounts it
	KYBER_MOUNTED=$mnt
	fs_tree "$mnt" || fail "cannot write the files of the cold read"
	for wbt in default off; do
		for rep in $(seq "$reps"); do
			for s in $scheds; do
				fresh $dev "$s"
				[ $wbt = default ] || echo 0 > "$lat"
				meta "fs-$wbt-$s" "wbt_lat_usec $(cat "$lat"), nr_requests $(cat /sys/block/$dev/queue/nr_requests)"
				fs_round $dev "$mnt" "$s" "wbt-$wbt" "$rep"
			done
		done
	done
}

case $part in
cost|prodcost) cost 1 32 ;;
scaling) scaling ;;
contention) contention ;;
latency) latency ;;
prio) if [ -n "$pcost" ]; then cost 32; else prio; fi ;;
devices) devices ;;
slowdev) slowdev ;;
fs) fs ;;
esac
figures
rm -rf "$TMP"
