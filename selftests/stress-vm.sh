#!/bin/bash
# Runs inside the debug VM (scripts/stress.sh): the block/kyber kselftests
# of Kyber's lifecycle, each with minutes of load instead of seconds
# (KYBER_LOAD_SECONDS), and after each a look at what the kernel logged
# while it ran.  One TAP line per test.  The tests themselves (their
# devices, loads, time limits and checks) are the kselftests'; the
# patterns of a kernel problem are selftests/splat.sh's.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)

TESTS="switch_sched nr_requests one_tag two_queues requeue timeout scsi_remove unload hotplug"
# The names of make stress's scenarios before they became kselftests.
declare -A OLD=([switch]=switch_sched)

usage() {
	cat <<EOT
usage: ${0##*/} [-k KSELFTEST_DIR] [-s TEST,...] [-t SECONDS] [-o DIR] [-l] [--help]

Runs in the VM, as root, on a kernel with Kyber as a module: the
block/kyber kselftests of make stress, installed in KSELFTEST_DIR (-k,
default $HERE/../build/kselftest-stress), one after the other with
KYBER_LOAD_SECONDS (-t) of load each, on null_blk and the VM's
virtio-blk disk (KYBER_TEST_DEVS="null_blk /dev/vda", scratch; the tests
make their own scsi_debug, null_blk and CPU hotplug devices where they
need them).  Tests (all by default, in this order):
  $TESTS
("switch" is switch_sched).  Each prints one TAP line with its time;
a test that fails one of its checks, skips (make stress's kernel has all
they need), or after which the kernel log since its start shows a
warning, BUG, KASAN, lockdep, hung-task, soft-lockup or RCU stall report
(selftests/splat.sh) fails.  On a KCSAN kernel the data races reported
with no kyber_ function in their stacks are listed, not counted
(kcsan-filter.awk), and KCSAN's counters are printed after each test.
Once a test leaves I/O stuck, the tests after it fail at once (the
kselftests' own stuck marker).
  -k   the installed kselftests (make -C tools/testing/selftests
       TARGETS=block/kyber install)
  -s   run only these tests (comma-separated)
  -t   seconds of load per test (default 60)
  -o   keep each test's KTAP output (TEST.ktap) and its kernel log
       (TEST.dmesg) in DIR (default /tmp/stress)
  -l   list the tests that would run, one a line, and exit
EOT
}

ksft=$HERE/../build/kselftest-stress want="" load=60 LOG=/tmp/stress list=""
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	-k) [ $# -ge 2 ] || { echo "${0##*/}: -k needs a directory" >&2; exit 2; }
	    ksft=$2; shift 2 ;;
	-s) [ $# -ge 2 ] || { echo "${0##*/}: -s needs a list" >&2; exit 2; }
	    want=${2//,/ }; shift 2 ;;
	-t) case ${2-} in ""|*[!0-9]*|0*) echo "${0##*/}: -t takes seconds" >&2; exit 2 ;; esac
	    load=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || { echo "${0##*/}: -o needs a directory" >&2; exit 2; }
	    LOG=$2; shift 2 ;;
	-l) list=1; shift ;;
	*) usage >&2; echo "${0##*/}: unknown argument: $1" >&2; exit 2 ;;
	esac
done
run=""
for s in ${want:-$TESTS}; do
	s=${OLD[$s]:-$s}
	case " $TESTS " in *" $s "*) ;; *)
		echo "${0##*/}: unknown test: $s" >&2; exit 2 ;;
	esac
	run="$run $s"
done
if [ -n "$list" ]; then
	# shellcheck disable=SC2086 # a word a line
	printf '%s\n' $run
	exit 0
fi
# The tests make and remove disks, unload modules and take CPUs offline.
# shellcheck source=vm-only.sh
. "$(dirname "$0")/vm-only.sh"
[ "$(id -u)" = 0 ] || { echo "${0##*/}: must run as root" >&2; exit 2; }
dir=$ksft/block/kyber
[ -f "$dir/kyber_lib.sh" ] || { echo "Bail out! no block/kyber kselftests in $ksft"; exit 1; }
mkdir -p "$LOG" || exit 2
TMP=$(mktemp -d /tmp/stress.XXXXXX) || exit 2
trap 'rm -rf "$TMP"' EXIT

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

# kernel_log TEST: what the kernel logged since TEST began, in
# LOG/TEST.dmesg; on a KCSAN kernel without the races outside Kyber,
# which go to the diagnostics.  Prints the file to look at.
kernel_log() {
	local src=$LOG/$1.dmesg

	dmesg > "$TMP/dmesg"
	if grep -q "stress: $1: begin$" "$TMP/dmesg"; then
		sed -n "/stress: $1: begin\$/,\$p" "$TMP/dmesg" > "$src"
	else
		cp "$TMP/dmesg" "$src"	# the mark went out of the ring
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
	echo "$src"
}

# run_test TEST: the kselftest with the long load; its failed checks and
# the kernel's reports are the diagnostics.
run_test() {
	local t=$1 start=$SECONDS rc=0 out=$LOG/$1.ktap log why="" summary

	: > "$TMP/diag"
	echo "stress: $t: begin" > /dev/kmsg
	KYBER_LOAD_SECONDS=$load KYBER_TEST_DEVS="null_blk /dev/vda" KYBER_TEST_SCRATCH=1 \
		bash "$dir/$t.sh" > "$out" 2>&1 < /dev/null || rc=$?
	echo "stress: $t: end" > /dev/kmsg
	case $rc in
	0) ;;
	4) why="skipped: $(sed -n 's/^1\.\.0 # SKIP //p' "$out")" ;;
	*) why="exit $rc" ;;
	esac
	# The checks that failed, with what they printed, and the figures.
	awk '/^Bail out!|^# (lat|[a-z0-9]+: [0-9]+ |[0-9]+ )/ { print; next }
	     /^# / { d = d $0 "\n"; next }
	     /^not ok / { printf "%s%s\n", d, $0 }
	     /^(ok|not ok) / { d = "" }' "$out" |
		sed 's/^# //' | head -n 80 >> "$TMP/diag"
	log=$(kernel_log "$t")
	if ! bash "$HERE/splat.sh" "$log" > "$TMP/splat"; then
		why="${why:+$why; }the kernel reported a problem (see $LOG/$t.dmesg)"
		cat "$TMP/splat" >> "$TMP/diag"
	fi
	summary=$(sed -n 's/^# Totals: //p' "$out")
	if [ -z "$why" ]; then
		tap ok "$t: ${load} s of load, $((SECONDS - start)) s: ${summary:-no totals}"
	else
		tap not-ok "$t: ${load} s of load, $((SECONDS - start)) s: $why"
	fi
}

modprobe kyber-iosched > /dev/null 2>&1
# A KCSAN kernel with KCSAN off (CONFIG_KCSAN_EARLY_ENABLE unset, as
# allnoconfig leaves it) would pass without watching anything.
if [ -e /sys/kernel/debug/kcsan ]; then
	: > "$TMP/diag"
	if grep -q '^enabled: 1$' /sys/kernel/debug/kcsan; then
		tap ok "KCSAN is on"
	else
		sed -n 1p /sys/kernel/debug/kcsan > "$TMP/diag"
		tap not-ok "KCSAN is on"
	fi
fi
for t in $run; do
	run_test "$t"
done
echo "1..$N"
[ "$NFAILED" = 0 ]
