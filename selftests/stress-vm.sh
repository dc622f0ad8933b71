#!/bin/bash
# Runs inside the debug VM (scripts/stress.sh): Kyber's lifecycle stress
# scenarios.  Each one is bounded in time and in iterations, verifies the
# data it writes, checks afterwards that I/O still completes and that
# nothing is left in flight or holds a token, and looks at what the
# kernel logged while it ran.  One TAP line per scenario.
set -u

SCENARIOS="switch nr_requests one_tag requeue timeout scsi_remove unload hotplug"

usage() {
	cat <<EOT
usage: ${0##*/} [-s SCENARIO,...] [-t SECONDS] [-o DIR] [--help]

Runs in the VM, as root, on a kernel with Kyber as a module: the stress
scenarios of make stress, each printing one TAP line with the iterations
it did, its time and what failed.  Scenarios (all by default, in this
order): $SCENARIOS.
  -s   run only these scenarios (comma-separated)
  -t   seconds of load per scenario (default: each scenario's own, 60
       to 120); the iteration caps stay
  -o   keep fio output, dmesg excerpts and queue dumps in DIR
       (default /tmp/stress)
A scenario fails when a check of its own fails, when I/O does not
complete in time (the later scenarios are then not run), or when the
kernel logs a warning, BUG, KASAN, lockdep, hung-task, soft-lockup or
RCU stall report while it runs.
EOT
}

want="" load_time="" LOG=/tmp/stress
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-s) [ $# -ge 2 ] || { echo "${0##*/}: -s needs a list" >&2; exit 2; }
	    want=${2//,/ }; shift 2 ;;
	-t) case ${2-} in ""|*[!0-9]*|0) echo "${0##*/}: -t takes seconds" >&2; exit 2 ;; esac
	    load_time=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || { echo "${0##*/}: -o needs a directory" >&2; exit 2; }
	    LOG=$2; shift 2 ;;
	*) usage >&2; echo "${0##*/}: unknown argument: $1" >&2; exit 2 ;;
	esac
done
for s in $want; do
	case " $SCENARIOS " in *" $s "*) ;; *)
		echo "${0##*/}: unknown scenario: $s" >&2; exit 2 ;;
	esac
done
# It makes and removes disks, unloads modules and takes CPUs offline:
# only in the test VM (vm-init.sh names it), unless told otherwise.
[ "$(uname -n)" = kyber-vm ] || [ "${STRESS_ANYWHERE-}" = 1 ] ||
	{ echo "${0##*/}: runs in the test VM only (STRESS_ANYWHERE=1: here)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "${0##*/}: must run as root" >&2; exit 2; }
[ -n "$want" ] || want=$SCENARIOS

HERE=$(cd "$(dirname "$0")" && pwd)
DOMAINS="read write discard other"
CFS=/sys/kernel/config/nullb
DBG=/sys/kernel/debug/block
SDEBUG=/sys/bus/pseudo/drivers/scsi_debug
# What vm-run.sh counts as a kernel problem, and a few reports it would
# see only through their first line.
SPLAT='WARNING:|BUG:|Oops|general protection|Call Trace|INFO: task .* blocked|possible (recursive|circular) locking|lockdep|KASAN|UBSAN|rcu.*stall|soft lockup|hard LOCKUP|list_(add|del) corruption|ODEBUG|DEBUG_LOCKS_WARN_ON|INFO: trying to register non-static key|Kernel panic'
# ... but not the boot banner of a kernel with PROVE_RCU.
BENIGN='RCU lockdep checking is enabled'

mkdir -p "$LOG" || exit 2
TMP=$(mktemp -d /tmp/stress.XXXXXX) || exit 2
mkfifo "$TMP/nap"
exec {NAP_FD}<> "$TMP/nap"
NULLBS=""		# null_blk devices made here
LONG=3600		# fio runtime of loads that fio_wait stops
# Time limit of one switch, nr_requests write, module load or unload,
# removal or CPU hotplug step.  On the debug kernel under TCG, with the
# load running and the host busy, a switch takes up to half a minute and
# a module load more (modprobe over 9p); a request that never completes
# takes forever, and the hung-task detector reports a task blocked for
# 30 s anyway.
OPLIMIT=180
declare -A FIO=()	# tag -> pid of a background fio

# nap SECONDS: sleep without starting a program (that costs CPU the I/O
# needs in a slow emulated machine).
nap() { read -r -t "$1" -u "$NAP_FD" _ || true; }

msg() { printf '%s\n' "$*" >> "$TMP/diag"; }
# fail WHY: the scenario fails (also when called in a background job).
fail() { msg "$*"; : > "$TMP/failed"; }
failed() { [ -e "$TMP/failed" ]; }
# Once I/O did not complete in time, nothing can be trusted to finish:
# the later scenarios are not run.  $TMP/stuck says where it happened.
stuck_now() { [ -e "$TMP/stuck" ]; }

# wait_pid PID SECONDS: the job's status, or 124 when it did not end in
# time (it is then left alone: a process in D state cannot be killed).
wait_pid() {
	local pid=$1 end=$((SECONDS + $2))

	while kill -0 "$pid" 2> /dev/null; do
		[ "$SECONDS" -lt "$end" ] || return 124
		nap 0.2
	done
	wait "$pid"
}

# stuck WHAT: I/O did not complete; remember it and dump the queues.
stuck() {
	stuck_now || echo "$SCENARIO: $*" > "$TMP/stuck"
	fail "STUCK: $*; the queues:"
	dump_all >> "$TMP/diag" 2>&1
	echo w > /proc/sysrq-trigger 2> /dev/null
}

# limited SECONDS COMMAND...: COMMAND with no file descriptor but 0 to 2
# open (so that a stuck one holds no pipe of ours), its output shown
# after; 124 and a dump when it does not finish in time.
limited() {
	local limit=$1 pid rc=0 log=$TMP/limited.$BASHPID t0

	shift
	! stuck_now || { echo "not run: I/O is stuck"; return 124; }
	t0=${EPOCHREALTIME/./}
	( exec {NAP_FD}>&-; "$@" ) > "$log" 2>&1 < /dev/null &
	pid=$!
	wait_pid "$pid" "$limit" || rc=$?
	cat "$log"
	rm -f "$log"
	trace "$(((${EPOCHREALTIME/./} - t0) / 1000))" "$* -> $rc"
	if [ "$rc" = 124 ]; then
		stuck "'$*' did not finish in ${limit}s"
		disown "$pid" 2> /dev/null
	fi
	return "$rc"
}

put() { echo "$1" > "$2"; }		# put VALUE FILE

# trace MS WHAT: in LOG/SCENARIO.trace, what took how long and when
# (seconds since the scenario began), for who wonders where time went.
trace() {
	printf '%4ds %6d ms  %s\n' $((SECONDS - T0)) "$1" "$2" >> "$LOG/$SCENARIO.trace"
}

# --- devices -------------------------------------------------------------

sched() {	# sched DISK: the scheduler in use
	local line

	read -r line < "/sys/block/$1/queue/scheduler" || return 1
	line=${line#*[}
	echo "${line%%]*}"
}

scheds() {	# scheds DISK: all it offers
	local line

	read -r line < "/sys/block/$1/queue/scheduler" || return 1
	line=${line//[}
	echo "${line//]}"
}

# set_sched DISK SCHED: switch under a time limit, check it took.
set_sched() {
	limited $OPLIMIT put "$2" "/sys/block/$1/queue/scheduler" > /dev/null || return 1
	[ "$(sched "$1")" = "$2" ]
}

key() {		# key FILE KEY: value of a KEY=VALUE line
	local k v

	while IFS='=' read -r k v; do
		[ "$k" != "$2" ] || { echo "$v"; return 0; }
	done < "$1"
	return 1
}

pool() { key "$DBG/$1/sched/${2}_tokens" "$3"; }	# pool DISK DOMAIN FIELD

size_mb() { echo $(($(< "/sys/class/block/$1/size") / 2048)); }

has_discard() { [ "$(< "/sys/block/$1/queue/discard_max_bytes")" != 0 ]; }

completed() {	# completed DISK: reads + writes done
	local r w

	read -r r _ _ _ w _ < "/sys/block/$1/stat"
	echo $((r + w))
}

progress() { [ "$(completed "$1")" -ge "$2" ]; }	# progress DISK N

poll() {	# poll SECONDS COMMAND...: until it succeeds
	local end=$((SECONDS + $1))

	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		nap 0.2
	done
}

# moving DISK: requests keep completing on DISK (30 s to show it).
moving() {
	local n t0=${EPOCHREALTIME/./}

	n=$(completed "$1")
	if poll 30 progress "$1" $((n + 16)); then
		trace "$(((${EPOCHREALTIME/./} - t0) / 1000))" "I/O moves on $1"
		return 0
	fi
	fail "$1: no request completed in 30 s under $(sched "$1"):"
	dump_disk "$1" >> "$TMP/diag"
	return 1
}

# make_nullb NAME ATTR=VALUE...: a null_blk disk /dev/NAME from configfs.
make_nullb() {
	local name=$1 kv

	shift
	[ ! -d "$CFS/$name" ] || remove_nullb "$name" || return 1
	mkdir "$CFS/$name" || return 1
	NULLBS="$NULLBS $name"
	for kv in "$@" power=1; do
		echo "${kv#*=}" > "$CFS/$name/${kv%%=*}" ||
			{ fail "null_blk $name: cannot set $kv"; return 1; }
	done
	poll 10 test -b "/dev/$name" || { fail "null_blk: no /dev/$name"; return 1; }
}

remove_nullb() {
	[ -d "$CFS/$1" ] || return 0
	if [ "$(< "$CFS/$1/power")" = 1 ]; then
		limited $OPLIMIT put 0 "$CFS/$1/power" || return 1
	fi
	rmdir "$CFS/$1"
	NULLBS=${NULLBS/ $1/}
}

# The null_blk most scenarios use: memory-backed (so data can be
# verified), two hardware queues of 32 tags, completions from a timer
# after 50 us so that requests stay in flight and tokens run out.
stress_nullb() {
	make_nullb "$1" queue_mode=2 submit_queues=2 poll_queues=0 \
		hw_queue_depth=32 memory_backed=1 discard=1 size=256 \
		irqmode=2 completion_nsec=50000 "${@:2}"
}

# --- state checks --------------------------------------------------------

dump_disk() {
	local disk=$1 d h f

	[ -e "/sys/block/$disk" ] || return 0
	echo "$disk: scheduler $(sched "$disk"), inflight $(< "/sys/block/$disk/inflight")"
	if [ -f "$DBG/$disk/sched/read_tokens" ]; then
		for d in $DOMAINS; do
			echo "$disk: ${d}_tokens depth=$(pool "$disk" "$d" depth)" \
			     "busy=$(pool "$disk" "$d" busy)"
		done
		echo "$disk: async_depth $(< "$DBG/$disk/sched/async_depth")"
		[ ! -f "$DBG/$disk/sched/idle_busy" ] ||
			echo "$disk: idle_depth $(< "$DBG/$disk/sched/idle_depth")," \
			     "idle_busy: $(tr '\n' ' ' < "$DBG/$disk/sched/idle_busy")"
	fi
	for h in "$DBG/$disk"/hctx*; do
		[ -d "$h" ] || continue
		echo "$disk: ${h##*/}: dispatch list $(wc -l < "$h/dispatch")," \
		     "busy $(wc -l < "$h/busy")"
		[ -d "$h/sched" ] || continue
		for f in queued waiting cur_domain batching; do
			[ -f "$h/sched/$f" ] &&
				echo "$disk: ${h##*/}: $f: $(tr '\n' ' ' < "$h/sched/$f")"
		done
	done
}

dump_all() {
	local b

	for b in /sys/block/*; do
		case ${b##*/} in loop*|ram*) continue ;; esac
		dump_disk "${b##*/}"
	done
}

# quiet_disk DISK: nothing in flight, nothing on a dispatch list, and
# under Kyber no token held and nothing queued or waiting.
quiet_disk() {
	local disk=$1 d n h line r w

	read -r r w < "/sys/block/$disk/inflight"
	[ "$r" = 0 ] && [ "$w" = 0 ] || return 1
	for h in "$DBG/$disk"/hctx*; do
		[ -d "$h" ] || continue
		! read -r line < "$h/dispatch" || return 1
		! read -r line < "$h/busy" || return 1
	done
	[ "$(sched "$disk")" = kyber ] || return 0
	for d in $DOMAINS; do
		[ "$(pool "$disk" "$d" busy)" = 0 ] || return 1
	done
	# Idle-class slots (when Kyber has them): "DOMAIN BUSY/SHARE".
	if [ -f "$DBG/$disk/sched/idle_busy" ]; then
		while read -r d n; do
			[ "${n%/*}" = 0 ] || return 1
		done < "$DBG/$disk/sched/idle_busy"
	fi
	for h in "$DBG/$disk"/hctx*/sched; do
		while read -r d n; do
			[ "$n" = 0 ] || return 1
		done < "$h/queued"
		! read -r line < "$h/waiting" || return 1
	done
}

# async_follows DISK: Kyber's async_depth is 3/4 of the unreserved
# scheduler tags of every hardware queue (nr_requests), at least 1, and
# its idle_depth (where it has one) 1/8, at least 1.
async_follows() {
	local nr async idle="" h depth reserved want

	read -r nr < "/sys/block/$1/queue/nr_requests"
	read -r async < "$DBG/$1/sched/async_depth"
	[ ! -f "$DBG/$1/sched/idle_depth" ] || read -r idle < "$DBG/$1/sched/idle_depth"
	for h in "$DBG/$1"/hctx*; do
		depth=$(key "$h/sched_tags" depth)
		reserved=$(key "$h/sched_tags" nr_reserved_tags)
		if [ $((depth + reserved)) != "$nr" ]; then
			echo "${h##*/}: $depth + $reserved scheduler tags, nr_requests $nr"
			return 1
		fi
		want=$((depth * 3 / 4))
		[ "$want" -ge 1 ] || want=1
		if [ "$async" != "$want" ]; then
			echo "async_depth $async, want $want (nr_requests $nr)"
			return 1
		fi
		want=$((depth / 8))
		[ "$want" -ge 1 ] || want=1
		if [ -n "$idle" ] && [ "$idle" != "$want" ]; then
			echo "idle_depth $idle, want $want (nr_requests $nr)"
			return 1
		fi
	done
}

# rw_some DISK: 32 direct 4 KiB reads, and 8 writes in the last eighth,
# which fio_start leaves alone.
rw_some() {
	dd if="/dev/$1" of=/dev/null bs=4k count=32 iflag=direct status=none &&
		dd if=/dev/zero of="/dev/$1" bs=4k count=8 oflag=direct conv=notrunc \
			seek=$(($(size_mb "$1") * 7 * 256 / 8)) status=none
}

# settle DISK...: after a scenario, each disk back on Kyber, reads and
# writes complete, and 10 s later at most nothing is in flight or holds
# a token.
settle() {
	local disk

	for disk in "$@"; do
		! stuck_now || return 1
		[ -e "/sys/block/$disk" ] || { fail "$disk: gone"; continue; }
		if [ "$(sched "$disk")" != kyber ] && ! set_sched "$disk" kyber; then
			fail "$disk: cannot go back to kyber"
			continue
		fi
		limited $OPLIMIT rw_some "$disk" > "$TMP/rw" ||
			{ fail "$disk: I/O after the scenario: $(< "$TMP/rw")"; continue; }
		if ! poll 10 quiet_disk "$disk"; then
			fail "$disk: requests in flight or tokens held 10 s after the I/O completed:"
			dump_disk "$disk" >> "$TMP/diag"
		fi
	done
}

# --- fio -----------------------------------------------------------------

# fio_start TAG DEV SECONDS [FIO-ARG...]: verifying load on DEV in the
# background, for at most SECONDS (fio_stop ends it earlier).  Regions of
# the disk, a unit U each: random 4 KiB writes, sequential 4 KiB writes
# (merged by the scheduler) with an fsync every 64, random 8-128 KiB
# writes, random synchronous writes in the idle I/O class, each read
# back and verified (crc32c) every few dozen blocks; random reads over two
# units in the real-time class, and a random trim over one when the
# device discards.
fio_start() {
	local tag=$1 dev=$2 secs=$3 disk u jobs

	shift 3
	disk=${dev#/dev/}
	u=$(($(size_mb "$disk") / 8))
	[ "$u" -le 16 ] || u=16
	jobs=(--name=vrand --rw=randwrite --bs=4k --offset=0 --iodepth=8
		--verify=crc32c --verify_backlog=64
	      --name=vseq --rw=write --bs=4k "--offset=${u}M" --iodepth=16
		--verify=crc32c --verify_backlog=128 --fsync=64
	      --name=vbig --rw=randwrite --bsrange=8k-128k "--offset=$((2 * u))M"
		--iodepth=4 --verify=crc32c --verify_backlog=16
	      --name=vsync --ioengine=psync --rw=randwrite --bs=4k
		"--offset=$((3 * u))M" --verify=crc32c --verify_backlog=32
		--prioclass=3
	      --name=rd --rw=randread --bs=4k "--offset=$((4 * u))M"
		"--size=$((2 * u))M" --iodepth=8 --prioclass=1)
	if has_discard "$disk"; then
		jobs+=(--name=trim --rw=randtrim --bs=64k "--offset=$((6 * u))M" --iodepth=4)
	fi
	fio_run "$tag" --filename="$dev" --ioengine=libaio --direct=1 \
		--size="${u}M" --loops=1000000 --runtime="$secs" --verify_fatal=1 \
		"$@" "${jobs[@]}"
}

# fio_run TAG FIO-ARG...: fio in the background, output in LOG/TAG.fio.
# It runs niced: the guest's CPUs are what limits its I/O, and the
# switches, removals and hotplug steps it is the load for must not wait
# behind it.
fio_run() {
	local tag=$1 out=$LOG/$SCENARIO.$1.fio

	shift
	( exec {NAP_FD}>&-; exec fio --nice=10 --output="$out" "$@" ) > "$out.err" 2>&1 < /dev/null &
	FIO[$tag]=$!
}


# fio_end TAG SECONDS [expect-errors]: let it run SECONDS more, then stop
# it (SIGINT); it must end within 120 s of that and, unless errors are
# expected, report none.
fio_end() {
	local tag=$1 pid=${FIO[$1]} rc=0 out=$LOG/$SCENARIO.$1.fio

	unset "FIO[$tag]"
	wait_pid "$pid" "$2" || rc=$?
	if [ "$rc" = 124 ]; then
		kill -INT "$pid" 2> /dev/null
		rc=0
		wait_pid "$pid" 120 || rc=$?
	fi
	if [ "$rc" = 124 ]; then
		stuck "fio $tag did not end within 120 s of SIGINT"
		return 1
	fi
	[ "${3-}" != expect-errors ] || return 0
	# 128: fio stopped by our SIGINT; 130: the SIGINT came before fio
	# set up its handler (a scenario that failed at once).
	if [ "$rc" != 0 ] && [ "$rc" != 128 ] && [ "$rc" != 130 ]; then
		fail "fio $tag: exit $rc"
	elif grep -Eq 'err= *[1-9]|verify: |fio: (io_u error|pid=.*error)' "$out" "$out.err"; then
		fail "fio $tag: errors:"
	else
		return 0
	fi
	grep -E -m 10 'err= *[1-9]|verify|error' "$out" "$out.err" >> "$TMP/diag"
	return 1
}

fio_wait() { fio_end "$1" 0 "${2-}"; }	# fio_wait TAG [expect-errors]

fio_stop_all() {
	local t

	for t in "${!FIO[@]}"; do
		fio_wait "$t" expect-errors
	done
}

# --- scenarios -----------------------------------------------------------

# Each sets ITERS (the count) and WHAT (what was counted), calls fail
# for what went wrong, and leaves its devices settled or removed.

dur() { echo "${load_time:-$1}"; }

# switch_loop DISK END MAX: switch DISK through all its schedulers, each
# round in a random order, until END (in $SECONDS) or MAX switches; a
# round without I/O completing fails.  Prints the count.
switch_loop() {
	local disk=$1 end=$2 max=$3 n=0 s

	while [ "$SECONDS" -lt "$end" ] && [ "$n" -lt "$max" ]; do
		for s in $(scheds "$disk" | tr ' ' '\n' | shuf); do
			[ "$SECONDS" -lt "$end" ] || break
			[ "$s" != "$(sched "$disk")" ] || continue
			set_sched "$disk" "$s" ||
				{ echo "$n"; fail "$disk: switch to $s failed"; return 1; }
			n=$((n + 1))
		done
		moving "$disk" || break
	done
	echo "$n"
}

sc_switch() {
	local nb=stsw secs end d n pids=""

	stress_nullb $nb || return
	secs=$(dur 120)
	WHAT="scheduler switches (all schedulers, random order) on $nb and vda under verifying fio"
	for d in $nb vda; do
		set_sched "$d" kyber || fail "$d: kyber cannot be selected"
		fio_start "$d" "/dev/$d" $LONG
	done
	end=$((SECONDS + secs))
	# One switcher per disk, at once: two queues change elevator together.
	for d in $nb vda; do
		switch_loop "$d" "$end" 2000 > "$TMP/switches.$d" &
		pids="$pids $!"
	done
	for d in $pids; do
		wait_pid "$d" $((secs + 300)) || stuck "a switcher did not finish"
	done
	for d in $nb vda; do
		read -r n < "$TMP/switches.$d" 2> /dev/null || n=0
		ITERS=$((ITERS + n))
		stuck_now || fio_wait "$d"
	done
	settle $nb vda
	remove_nullb $nb
}

NR_VALUES="4 5 6 7 8 12 16 31 32 64 100 128 256 1000 2048"

# set_nr DISK N: nr_requests N sticks and async_depth follows.
set_nr() {
	local got

	limited $OPLIMIT put "$2" "/sys/block/$1/queue/nr_requests" > /dev/null ||
		{ fail "$1: nr_requests $2 refused"; return 1; }
	got=$(< "/sys/block/$1/queue/nr_requests")
	[ "$got" = "$2" ] || { fail "$1: wrote nr_requests $2, it is $got"; return 1; }
	async_follows "$1" > "$TMP/async" ||
		{ fail "$1: nr_requests $2: $(< "$TMP/async")"; return 1; }
}

sc_nr_requests() {
	local nb=stnr secs end d v orig

	stress_nullb $nb || return
	secs=$(dur 90)
	WHAT="nr_requests changes (down to 4 and back up to 2048; async and idle depth follow) on $nb and vda under verifying fio"
	orig=$(< /sys/block/vda/queue/nr_requests)
	for d in $nb vda; do
		set_sched "$d" kyber || fail "$d: kyber cannot be selected"
		fio_start "$d" "/dev/$d" $LONG
	done
	end=$((SECONDS + secs))
	while [ "$SECONDS" -lt "$end" ] && [ "$ITERS" -lt 1000 ] && ! failed; do
		# Every other value is the smallest, the others at random.
		for v in $(shuf -e $NR_VALUES | head -n 4); do
			[ "$SECONDS" -lt "$end" ] || break
			for d in $nb vda; do
				{ set_nr "$d" 4 && set_nr "$d" "$v"; } || break 3
				ITERS=$((ITERS + 2))
			done
		done
		for d in $nb vda; do
			moving "$d" || break 2
		done
	done
	for d in $nb vda; do
		stuck_now || fio_wait "$d"
	done
	set_nr vda "$orig"
	settle $nb vda
	remove_nullb $nb
}

sc_one_tag() {
	local nb=st1tag secs round_secs end nr qd rounds=6

	# One hardware queue with one tag, completing after 20 us: every
	# token pool holds one token.
	make_nullb $nb queue_mode=2 submit_queues=1 poll_queues=0 hw_queue_depth=1 \
		memory_backed=1 discard=1 size=128 irqmode=2 completion_nsec=20000 || return
	secs=$(dur 120)
	round_secs=$((secs / rounds))
	[ "$round_secs" -ge 5 ] || round_secs=5
	WHAT="rounds of 16 verifying submitters, idle and real-time class among them, on one tag and 4 or 64 scheduler tags"
	set_sched $nb kyber || fail "$nb: kyber cannot be selected"
	for d in $DOMAINS; do
		[ "$(pool $nb "$d" depth)" = 1 ] ||
			fail "$nb: ${d}_tokens holds $(pool $nb "$d" depth) tokens on one tag"
	done
	end=$((SECONDS + secs))
	while [ "$SECONDS" -lt "$end" ] && [ "$ITERS" -lt $rounds ] && ! failed; do
		# Queue depth 1 and the fewest scheduler tags, then deeper.
		case $((ITERS % 2)) in
		0) nr=4 qd=1 ;;
		*) nr=64 qd=8 ;;
		esac
		set_nr $nb $nr || break
		# 12 writers on 4 MiB each, 3 readers, a trimmer; a quarter of
		# the writers in the idle class, one in the real-time class.
		fio_run one --filename=/dev/$nb --ioengine=libaio --direct=1 \
			--runtime=$round_secs --loops=1000000 --verify_fatal=1 \
			--iodepth=$qd --bs=4k \
			--name=w --rw=randwrite --size=4M --offset_increment=4M \
			--numjobs=8 --verify=crc32c --verify_backlog=16 \
			--name=widle --rw=randwrite --size=4M --offset=32M \
			--offset_increment=4M --numjobs=3 --prioclass=3 \
			--verify=crc32c --verify_backlog=16 \
			--name=wrt --rw=randwrite --size=4M --offset=44M --prioclass=1 \
			--verify=crc32c --verify_backlog=16 \
			--name=r --rw=randread --size=32M --offset=48M --numjobs=3 \
			--name=trim --rw=randtrim --bs=64k --size=16M --offset=96M
		fio_end one $((round_secs + 120)) || break
		poll 10 quiet_disk $nb ||
			{ fail "$nb: not idle after round $((ITERS + 1)):"; dump_disk $nb >> "$TMP/diag"; break; }
		ITERS=$((ITERS + 1))
	done
	settle $nb
	remove_nullb $nb
}

# fault NULLB KIND ATTR=VALUE...: null_blk's fault injection (configfs).
fault() {
	local nb=$1 kind=$2 kv

	shift 2
	for kv in "$@"; do
		echo "${kv#*=}" > "$CFS/$nb/${kind}_inject/${kv%%=*}" ||
			{ fail "$nb: cannot set ${kind}_inject/$kv"; return 1; }
	done
}

sc_requeue() {
	local nb=stfi secs left many=1000000

	stress_nullb $nb || return
	[ -d "$CFS/$nb/requeue_inject" ] ||
		{ fail "no null_blk fault injection (CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION)"; return; }
	secs=$(dur 60)
	WHAT="requests requeued by null_blk (BLK_STS_RESOURCE and blk_mq_requeue_request) under verifying fio"
	set_sched $nb kyber || fail "$nb: kyber cannot be selected"
	# One request in ten goes back, alternately through the busy status
	# and through the driver's requeue.
	fault $nb requeue verbose=0 interval=1 probability=10 times=$many || return
	fio_start main /dev/$nb "$secs"
	fio_end main $((secs + 120))
	fault $nb requeue probability=0
	left=$(< "$CFS/$nb/requeue_inject/times")
	ITERS=$((many - left))
	[ "$ITERS" -gt 0 ] || fail "$nb: no request was requeued"
	settle $nb
	remove_nullb $nb
}

md5_region() {	# md5_region DEV: md5sum of the first 16 MiB
	dd if="$1" bs=1M count=16 iflag=direct status=none | md5sum
}

sc_timeout() {
	local nb=stto secs n=20 left before after ended end

	stress_nullb $nb || return
	[ -d "$CFS/$nb/timeout_inject" ] ||
		{ fail "no null_blk fault injection (CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION)"; return; }
	secs=$(dur 60)
	WHAT="requests timed out by null_blk (never completed by the device, ended by the 5 s block-layer timeout)"
	set_sched $nb kyber || fail "$nb: kyber cannot be selected"
	# Random data in the first 16 MiB, read (not written) while requests
	# time out: it must be unchanged afterwards.
	limited 120 dd if=/dev/urandom of=/dev/$nb bs=1M count=16 oflag=direct status=none ||
		{ fail "$nb: cannot write the reference data"; return; }
	before=$(limited 120 md5_region /dev/$nb)
	# n requests in a row are lost by the device with probability 3%.
	fault $nb timeout verbose=0 interval=1 probability=3 times=$n || return
	fio_run main --filename=/dev/$nb --ioengine=libaio --direct=1 \
		--runtime="$secs" --loops=1000000 --continue_on_error=all --bs=4k \
		--name=r --rw=randread --size=16M --iodepth=8 --numjobs=2 \
		--name=w --rw=randwrite --offset=32M --size=8M --iodepth=8 \
		--name=wseq --rw=write --offset=40M --size=8M --iodepth=8
	end=$((SECONDS + secs))
	while [ "$SECONDS" -lt "$end" ] && [ "$(< "$CFS/$nb/timeout_inject/times")" != 0 ]; do
		nap 1
	done
	fio_wait main expect-errors
	fault $nb timeout probability=0
	left=$(< "$CFS/$nb/timeout_inject/times")
	ITERS=$((n - left))
	[ "$ITERS" -gt 0 ] || fail "$nb: no request timed out"
	stuck_now && return
	# Every lost request was ended by the timeout handler.
	ended=$(dmesg | sed -n "/stress: $SCENARIO: begin\$/,\$p" | grep -c 'null_blk: rq .* timed out')
	[ "$ended" = "$ITERS" ] ||
		fail "$nb: $ITERS requests lost by the device, $ended ended by the timeout handler"
	after=$(limited 120 md5_region /dev/$nb)
	[ "$before" = "$after" ] || fail "$nb: data read while requests timed out changed"
	# What was written under timeouts is written again, and verified.
	fio_run verify --filename=/dev/$nb --ioengine=libaio --direct=1 --bs=64k \
		--verify=crc32c --verify_fatal=1 --iodepth=8 \
		--name=w --rw=randwrite --offset=32M --size=16M
	fio_end verify 300
	settle $nb
	remove_nullb $nb
}

# sdebug_host N: the Nth scsi_debug host (1 or 2), as "hostN".  The
# second is always the one added last: adapter0 sorts before the others.
sdebug_host() {
	local h n=0

	for h in $SDEBUG/adapter*/host*; do
		[ -d "$h" ] || continue
		n=$((n + 1))
		[ "$n" != "$1" ] || { echo "${h##*/}"; return 0; }
	done
	return 1
}

sdebug_disk() {	# sdebug_disk N: the disk of the Nth scsi_debug host
	local h b

	h=$(sdebug_host "$1") || return 1
	for b in $SDEBUG/adapter*/"$h"/target*/*/block/*; do
		[ -b "/dev/${b##*/}" ] && { echo "${b##*/}"; return 0; }
	done
	return 1
}

sc_scsi_remove() {
	local secs end keep victim host how

	limited $OPLIMIT modprobe scsi_debug add_host=2 per_host_store=1 dev_size_mb=64 \
		lbpu=1 max_queue=16 > /dev/null || { fail "cannot load scsi_debug"; return; }
	poll 20 sdebug_disk 2 > /dev/null || { fail "scsi_debug: no second disk"; return; }
	keep=$(sdebug_disk 1)
	secs=$(dur 120)
	WHAT="scsi_debug disks removed under fio (delete and host removal, alternately) beside a verifying disk"
	set_sched "$keep" kyber || fail "$keep: kyber cannot be selected"
	fio_start keep "/dev/$keep" $LONG
	end=$((SECONDS + secs))
	while [ "$SECONDS" -lt "$end" ] && [ "$ITERS" -lt 16 ] && ! failed; do
		victim=$(sdebug_disk 2) || { fail "scsi_debug: the second disk is gone"; break; }
		host=$(sdebug_host 2)
		set_sched "$victim" kyber || { fail "$victim: kyber cannot be selected"; break; }
		fio_start victim "/dev/$victim" $LONG
		moving "$victim" || break
		nap $((RANDOM % 3))
		# Remove it under load: the SCSI device alone, or its host.
		if [ $((ITERS % 2)) = 0 ]; then
			how="delete"
			limited $OPLIMIT put 1 "/sys/block/$victim/device/delete" > /dev/null ||
				{ fail "$victim: delete failed"; break; }
		else
			how="host removal"
			limited $OPLIMIT put -1 $SDEBUG/add_host > /dev/null ||
				{ fail "scsi_debug: host removal failed"; break; }
		fi
		[ ! -e "/sys/block/$victim" ] || poll 10 test ! -e "/sys/block/$victim" ||
			{ fail "$victim: still there after $how"; break; }
		# Its fio ends with errors; it must end.
		fio_wait victim expect-errors || break
		if [ "$how" = delete ]; then
			limited $OPLIMIT put "- - -" "/sys/class/scsi_host/$host/scan" > /dev/null
		else
			limited $OPLIMIT put 1 $SDEBUG/add_host > /dev/null
		fi
		poll 20 sdebug_disk 2 > /dev/null ||
			{ fail "scsi_debug: no disk back after $how"; break; }
		ITERS=$((ITERS + 1))
	done
	stuck_now || fio_wait keep
	victim=$(sdebug_disk 2) || victim=""
	settle "$keep" $victim
	stuck_now ||
		limited $OPLIMIT modprobe -r scsi_debug > /dev/null || fail "scsi_debug does not unload"
}

# toggle_loop DISK STOPFILE: kyber <-> another scheduler, fast, until
# STOPFILE exists; a switch may fail while the module is going away.
# Prints switches done and refused.
toggle_loop() {
	local disk=$1 ok=0 no=0 s

	while [ ! -e "$2" ] && ! stuck_now; do
		for s in kyber "$(scheds "$disk" | tr ' ' '\n' | grep -vx kyber | shuf -n 1)"; do
			if limited $OPLIMIT put "$s" "/sys/block/$disk/queue/scheduler" > /dev/null 2>&1; then
				ok=$((ok + 1))
			else
				no=$((no + 1))
			fi
		done
	done
	echo "$ok $no"
}

sc_unload() {
	local nb=stul secs end race d stop=$TMP/stop pids sw=0 refused=0 ok no
	local chaos=0 cycles=0 others="" q

	[ -e /sys/module/kyber_iosched/refcnt ] || modprobe kyber-iosched 2> /dev/null
	[ -e /sys/module/kyber_iosched/refcnt ] ||
		{ fail "kyber-iosched is not a module here"; return; }
	# Other disks must not pin the module: off Kyber for the while.
	for q in /sys/block/*/queue/scheduler; do
		q=${q#/sys/block/}
		q=${q%%/*}
		[ "$q" != vda ] && [ "$(sched "$q")" = kyber ] || continue
		set_sched "$q" none || { fail "$q: cannot leave kyber"; return; }
		others="$others $q"
	done
	stress_nullb $nb || return
	secs=$(dur 120)
	WHAT="kyber-iosched unloads (each followed by a load), while the disks switch to and from Kyber under verifying fio"
	for d in $nb vda; do
		set_sched "$d" kyber || fail "$d: kyber cannot be selected"
		fio_start "$d" "/dev/$d" $LONG
	done
	end=$((SECONDS + secs))
	while [ "$SECONDS" -lt "$end" ] && [ "$ITERS" -lt 200 ] && ! failed; do
		# For 20 s, both disks toggle while modprobe -r is tried over and
		# over: it wins whenever neither disk uses Kyber just then, and the
		# next switch to Kyber loads it again.
		rm -f "$stop"
		pids=""
		for d in $nb vda; do
			toggle_loop "$d" "$stop" > "$TMP/toggle.$d" &
			pids="$pids $!"
		done
		race=$((SECONDS + 20))
		while [ "$SECONDS" -lt "$race" ]; do
			! modprobe -r kyber-iosched 2> /dev/null || chaos=$((chaos + 1))
			nap 0.3
		done
		touch "$stop"
		for d in $pids; do
			wait_pid "$d" 180 || { stuck "a scheduler switch did not finish"; break 2; }
		done
		for d in $nb vda; do
			read -r ok no < "$TMP/toggle.$d"
			sw=$((sw + ok)) refused=$((refused + no))
		done
		# Then for sure: off both disks, unloaded, back by selection.
		for d in $nb vda; do
			set_sched "$d" none || { fail "$d: cannot switch to none"; break 2; }
		done
		limited $OPLIMIT modprobe -r kyber-iosched > /dev/null ||
			{ fail "kyber-iosched does not unload when no queue uses it"; break; }
		[ ! -e /sys/module/kyber_iosched ] ||
			{ fail "kyber-iosched still loaded after modprobe -r"; break; }
		for d in $nb vda; do
			set_sched "$d" kyber ||
				{ fail "$d: selecting kyber does not load it again"; break 2; }
		done
		for d in $nb vda; do
			moving "$d" || break 2
		done
		cycles=$((cycles + 1))
		ITERS=$((chaos + cycles))
	done
	ITERS=$((chaos + cycles))
	WHAT="$WHAT: $chaos racing $sw switches ($refused refused), $cycles with both disks off Kyber, then selecting it"
	for d in $nb vda; do
		stuck_now || fio_wait "$d"
	done
	settle $nb vda $others
	remove_nullb $nb
}

cpu_online() { limited $OPLIMIT put "$2" "/sys/devices/system/cpu/cpu$1/online" > /dev/null; }

sc_hotplug() {
	local nb=sthp secs end d disks cpu=/sys/devices/system/cpu/cpu1/online

	[ -w $cpu ] || { fail "no second CPU to take offline (the VM needs -c 2)"; return; }
	stress_nullb $nb || return
	disks="$nb vda nvme0n1"
	secs=$(dur 120)
	WHAT="CPU 1 offline and online again under verifying fio on $disks"
	for d in $disks; do
		set_sched "$d" kyber || fail "$d: kyber cannot be selected"
		fio_start "$d" "/dev/$d" $LONG
	done
	end=$((SECONDS + secs))
	while [ "$SECONDS" -lt "$end" ] && [ "$ITERS" -lt 100 ] && ! failed; do
		cpu_online 1 0 || { fail "CPU 1 does not go offline"; break; }
		for d in $disks; do
			moving "$d" || break 2
		done
		nap $((RANDOM % 3))
		cpu_online 1 1 || { fail "CPU 1 does not come back online"; break; }
		for d in $disks; do
			moving "$d" || break 2
		done
		ITERS=$((ITERS + 1))
	done
	[ "$(< $cpu)" = 1 ] || stuck_now || cpu_online 1 1 || fail "CPU 1 stays offline"
	for d in $disks; do
		stuck_now || fio_wait "$d"
	done
	settle $disks
	remove_nullb $nb
}

# --- the run -------------------------------------------------------------

N=0 NFAILED=0
tap() {		# tap ok|not-ok TEXT: a result, then the diagnostics
	N=$((N + 1))
	case $1 in
	ok) echo "ok $N - $2" ;;
	*) echo "not ok $N - $2"; NFAILED=$((NFAILED + 1)) ;;
	esac
	[ ! -s "$TMP/diag" ] || sed 's/^/# /' "$TMP/diag"
	: > "$TMP/diag"
}

# splats SCENARIO: what the kernel reported since the scenario began.
# On a KCSAN kernel the data races it reports in code that has no
# kyber_ function in its stacks are listed, not counted.
splats() {
	local src=$LOG/$1.dmesg

	dmesg > "$TMP/dmesg"
	if grep -q "stress: $1: begin$" "$TMP/dmesg"; then
		sed -n "/stress: $1: begin\$/,\$p" "$TMP/dmesg" > "$LOG/$1.dmesg"
	else
		cp "$TMP/dmesg" "$LOG/$1.dmesg"	# the mark went out of the ring
	fi
	if [ -e /sys/kernel/debug/kcsan ]; then
		: > "$TMP/kcsan"
		awk -v other="$TMP/kcsan" -f "$HERE/kcsan-filter.awk" "$src" > "$TMP/dmesg.kyber"
		src=$TMP/dmesg.kyber
		sed 's/^\[[^]]*\] //; s/^BUG: KCSAN: /KCSAN, not counted (no kyber_ function): /' \
			"$TMP/kcsan" | sort -u >> "$TMP/diag"
		# Proof that KCSAN watched: its counters since boot.
		awk 'BEGIN { sep = "KCSAN since boot: " }
			/^(setup_watchpoints|data_races|races_unknown_origin):/ {
				printf "%s%s %s", sep, $1, $2; sep = ", " }
			END { print "" }' /sys/kernel/debug/kcsan >> "$TMP/diag"
	fi
	grep -v "$BENIGN" "$src" | grep -E -A 30 "$SPLAT" | head -n 60 > "$TMP/splat"
	[ ! -s "$TMP/splat" ]
}

run_scenario() {
	local start

	SCENARIO=$1 ITERS=0 WHAT=""
	: > "$TMP/diag"
	rm -f "$TMP/failed"
	if stuck_now; then
		tap not-ok "$1: not run, I/O got stuck in $(< "$TMP/stuck")"
		return
	fi
	echo "stress: $1: begin" > /dev/kmsg
	start=$SECONDS T0=$SECONDS
	"sc_$1"
	fio_stop_all
	echo "stress: $1: end" > /dev/kmsg
	if ! splats "$1"; then
		fail "the kernel reported a problem (see $LOG/$1.dmesg):"
		cat "$TMP/splat" >> "$TMP/diag"
	fi
	if ! failed; then
		tap ok "$1: $ITERS iterations in $((SECONDS - start)) s: $WHAT"
	else
		tap not-ok "$1: $ITERS iterations in $((SECONDS - start)) s: $WHAT"
	fi
}

cleanup() {
	local nb

	fio_stop_all > /dev/null 2>&1
	! stuck_now || return
	for nb in $NULLBS; do
		remove_nullb "$nb" > /dev/null 2>&1
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

modprobe null_blk nr_devices=0 > /dev/null 2>&1
[ -d $CFS ] || { echo "Bail out! no null_blk configfs"; exit 1; }
modprobe kyber-iosched > /dev/null 2>&1
# A KCSAN kernel with KCSAN off (CONFIG_KCSAN_EARLY_ENABLE unset, as
# allnoconfig leaves it) would pass without watching anything.
if [ -e /sys/kernel/debug/kcsan ]; then
	if grep -q '^enabled: 1$' /sys/kernel/debug/kcsan; then
		tap ok "KCSAN is on"
	else
		sed -n 1p /sys/kernel/debug/kcsan > "$TMP/diag"
		tap not-ok "KCSAN is on"
	fi
fi
for s in $want; do
	run_scenario "$s"
done
echo "1..$N"
[ "$NFAILED" = 0 ]
