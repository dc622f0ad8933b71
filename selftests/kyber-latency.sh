#!/bin/bash
# Runs inside the VM: read latency beside an O_DIRECT write flood on a
# saturated null_blk, under each scheduler given (default: none kyber).
# TAP lines; a "# lat" line per scheduler with the numbers.
set -u

usage() {
	cat <<EOT
usage: ${0##*/} [-d DEPTH] [-c NSEC] [-r SECONDS] [SCHEDULER...]

Makes a null_blk through configfs that completes each request after
NSEC ns (default 1000000) with DEPTH tags (default 2): a device of
DEPTH/NSEC requests per second.  Checks that the VM can submit several
times that (to an instant null_blk) and that a write flood alone keeps
the device busy, so that requests really queue for tags; then for each
scheduler runs a QD1 4 KiB random reader beside a QD64 O_DIRECT random
writer for SECONDS (default 6) and prints read p50/p99 and write IOPS.
With Kyber, read p99 must stay within 1.75x read_lat_nsec; with none it
must not (so the setup tells them apart).  Root, in a test VM.
EOT
}

depth=2 nsec=1000000 runtime=6 factor=175
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts d:c:r:h opt; do
	case $opt in
	d) depth=$OPTARG ;;
	c) nsec=$OPTARG ;;
	r) runtime=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $depth$nsec$runtime in
*[!0-9]*|"") echo "${0##*/}: -d, -c and -r take numbers" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- none kyber

n=0 failed=0
ok()   { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
finish() { echo "1..$n"; exit $failed; }

cfs=/sys/kernel/config/nullb
modprobe null_blk nr_devices=0 2>/dev/null
[ -d $cfs ] || { skip "latency under a write flood" "no null_blk configfs"; finish; }
cleanup() { local d; for d in $cfs/kyber-lat $cfs/kyber-fast; do
	[ -d $d ] || continue; echo 0 > $d/power; rmdir $d; done; }
trap cleanup EXIT
cleanup
nullb() {	# nullb NAME ATTR=VALUE...: a powered null_blk, /dev/NAME
	local kv
	mkdir "$cfs/$1" || return 1
	for kv in queue_mode=2 submit_queues=1 size=1024 memory_backed=0 "${@:2}" power=1; do
		echo "${kv#*=}" > "$cfs/$1/${kv%%=*}" || return 1
	done
	udevadm settle 2>/dev/null
	[ -b "/dev/$1" ]	# null_blk names it after the directory
}
# irqmode 2: completions come from a timer after completion_nsec.
nullb kyber-lat irqmode=2 completion_nsec="$nsec" hw_queue_depth="$depth" ||
	{ fail "make the saturated null_blk in configfs"; finish; }
# Completes at once: it shows what the VM can submit.
nullb kyber-fast irqmode=0 ||
	{ fail "make the instant null_blk in configfs"; finish; }
dev=/dev/kyber-lat
q=/sys/block/kyber-lat/queue

# fio JSON -> one number: fio_get JOB FIELD, FIELD a python expression
# on the job's dict j.
fio_get() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
j = [x for x in d["jobs"] if x["jobname"] == sys.argv[2]][0]
print(int(eval(sys.argv[3])))' "$out" "$1" "$2"
}
writer="--name=writer --ioengine=libaio --direct=1 --rw=randwrite --bs=4k --iodepth=64"
reader="--name=reader --ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=1"
out=/tmp/kyber-lat.json

flood_iops() {	# flood_iops DEV: IOPS of the write flood alone, under none
	echo none > "/sys/block/${1#/dev/}/queue/scheduler"
	# shellcheck disable=SC2086
	fio --filename="$1" --time_based --runtime=3 --output-format=json \
		--output=$out $writer
	fio_get writer 'j["write"]["iops"]'
}
capacity=$((depth * 1000000000 / nsec))
vm_iops=$(flood_iops /dev/kyber-fast)
iops=$(flood_iops "$dev")
echo "# write flood alone: $iops IOPS, device capacity $capacity, the VM submits $vm_iops"
if [ "$vm_iops" -ge $((3 * capacity)) ] && [ "$iops" -ge $((capacity * 6 / 10)) ]; then
	ok "the write flood saturates the device ($iops of $capacity IOPS; VM: $vm_iops)"
else
	fail "the write flood saturates the device ($iops of $capacity IOPS; VM: $vm_iops)"
fi

for s in "$@"; do
	if ! echo "$s" > $q/scheduler 2>/dev/null; then
		skip "$s: read p99 beside a write flood" "no scheduler $s"
		continue
	fi
	# The first second lets Kyber tune itself; it is not measured.
	# shellcheck disable=SC2086
	fio --filename="$dev" --time_based --runtime="$runtime" --ramp_time=1 \
		--output-format=json --output=$out $writer $reader
	p50=$(fio_get reader 'j["read"]["clat_ns"]["percentile"]["50.000000"]')
	p99=$(fio_get reader 'j["read"]["clat_ns"]["percentile"]["99.000000"]')
	riops=$(fio_get reader 'j["read"]["iops"]')
	wiops=$(fio_get writer 'j["write"]["iops"]')
	echo "# lat $s: read p50 $((p50 / 1000)) us, p99 $((p99 / 1000)) us, read $riops IOPS, write $wiops IOPS"
	case $s in
	kyber)
		target=$(cat $q/iosched/read_lat_nsec)
		if [ "$p99" -le $((target * factor / 100)) ]; then
			ok "kyber: read p99 $((p99 / 1000)) us is within 1.75x read_lat_nsec"
		else
			fail "kyber: read p99 $((p99 / 1000)) us is within 1.75x read_lat_nsec"
		fi ;;
	none)
		# Kyber's default read target, for comparison.
		if [ "$p99" -gt $((2000000 * factor / 100)) ]; then
			ok "none: read p99 $((p99 / 1000)) us is above 1.75x 2 ms (the setup separates schedulers)"
		else
			fail "none: read p99 $((p99 / 1000)) us is above 1.75x 2 ms (the setup separates schedulers)"
		fi ;;
	esac
done
echo none > $q/scheduler
finish
