#!/bin/bash
# make stress: build the debug kernel, run the block/kyber lifecycle
# kselftests in it with a long load, and say which passed.  TAP output,
# then "N passed, N failed".
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-K] [-s TEST,...] [-t SECONDS] [-T SECONDS] [-B] [-o OBJDIR] [-w DIR] [--help]

Builds the debug VM kernel (scripts/build.sh -d: KASAN, lockdep,
atomic-sleep, list and object debugging, hung-task and soft-lockup
detection, null_blk fault injection; Kyber =m) in OBJDIR (default
$BUILD/obj-debug), installs the kernel tree's block/kyber kselftests in
$BUILD/kselftest-stress, boots the kernel with selftests/vm-run.sh on 2
vCPUs with the VM's files in DIR (default $BUILD/vm-stress), and runs
selftests/stress-vm.sh inside: the kselftests of Kyber's lifecycle
(scheduler switching, nr_requests changes, one tag, two hardware queues
sharing tokens, requeue and timeout injection, scsi_debug removal,
module unload and reload, CPU hotplug), each with minutes of load
instead of the kselftest run's seconds (KYBER_LOAD_SECONDS), verified
data and every step bounded in time.  Prints each test as a TAP line
while the VM runs, then whether the whole dmesg is clean, then "N
passed, N failed".  Each test's KTAP output and dmesg stay in
DIR/xfer/stress.
  -s   only these tests (see selftests/stress-vm.sh --help)
  -t   seconds of load per test (default 60)
  -T   time limit of the VM (default 2400 s)
  -B   do not build; boot the kernel in OBJDIR as it is
  -K   the KCSAN variant instead (build.sh -d -K: KCSAN for KASAN) in
       $BUILD/obj-kcsan, VM files in $BUILD/vm-kcsan; data races KCSAN
       reports in code without a kyber_ function in its stacks are
       listed, not counted (selftests/kcsan-filter.awk)
EOT
}

scen="" load="" limit=2400 build=1 obj="" vmdir="" kcsan=""
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts Ks:t:T:Bo:w:h opt; do
	case $opt in
	K) kcsan=1 ;;
	s) scen=$OPTARG ;;
	t) load=$OPTARG ;;
	T) limit=$OPTARG ;;
	B) build="" ;;
	o) obj=$OPTARG ;;
	w) vmdir=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; die "unexpected argument: $1"; }
case $limit in ""|*[!0-9]*) die "-T takes a number of seconds" ;; esac
case $load in *[!0-9]*) die "-t takes a number of seconds" ;; esac
if [ -n "$kcsan" ]; then
	obj=${obj:-$BUILD/obj-kcsan} vmdir=${vmdir:-$BUILD/vm-kcsan} variant="-d -K"
else
	obj=${obj:-$BUILD/obj-debug} vmdir=${vmdir:-$BUILD/vm-stress} variant="-d"
fi
obj=$(realpath -m "$obj")
vmdir=$(realpath -m "$vmdir")
case $vmdir in "$BUILD/vm-last") die "-w: the stress VM needs a directory of its own" ;; esac

# kcsan_only: on the KCSAN kernel, all vm-run.sh found in the dmesg are
# data races outside Kyber (selftests/splat.sh's reports, those races
# aside).
kcsan_only() {
	local kept=$vmdir/xfer/dmesg.kcsan-filtered

	[ -n "$kcsan" ] || return 1
	# A dmesg that cannot be read excuses nothing.
	awk -f "$TOP/selftests/kcsan-filter.awk" "$vmdir/xfer/dmesg" > "$kept" || return 1
	bash "$TOP/selftests/splat.sh" "$kept" > /dev/null
}

start=$(date +%s)
passed=0 failed=0
ok()   { passed=$((passed + 1)); tap_ok "$@"; }
fail() { failed=$((failed + 1)); tap_fail "$@"; }
finish() {
	echo "1..$TAP_N"
	echo "# stress took $(($(date +%s) - start)) s"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ] && exit 0
	exit 1
}

need_group vm
if [ -n "$build" ]; then
	t=$(date +%s)
	# shellcheck disable=SC2086
	if "$TOP/scripts/build.sh" $variant -o "$obj" > "$BUILD/stress-build.log" 2>&1; then
		ok "debug kernel builds in ${obj#"$TOP"/} ($(($(date +%s) - t)) s)"
	else
		fail "debug kernel builds in ${obj#"$TOP"/}"
		grep -E -m 20 'error|Error' "$BUILD/stress-build.log" | tap_diag
		tail -n 5 "$BUILD/stress-build.log" | tap_diag
		finish
	fi
fi
[ -f "$obj/arch/x86/boot/bzImage" ] || { fail "a debug kernel in $obj"; finish; }

ksft=$BUILD/kselftest-stress
args=(-k "$ksft" -o /mnt/xfer/stress)
[ -z "$scen" ] || args+=(-s "$scen")
[ -z "$load" ] || args+=(-t "$load")
# The tests it runs, which also checks the names before the VM boots.
want=$(bash "$TOP/selftests/stress-vm.sh" -l "${args[@]}") || die "bad -s or -t"
if ! install_kselftests "$ksft"; then
	fail "kselftest: block/kyber installs"
	tap_diag < "$ksft-install.log"
	finish
fi
log=$BUILD/stress-vm-run.log
out=$vmdir/xfer/output
t=$(date +%s)
rm -f "$out"
"$TOP/selftests/vm-run.sh" -q -o "$obj" -w "$vmdir" -c 2 -t "$limit" -- \
	bash "$TOP/selftests/stress-vm.sh" "${args[@]}" > "$log" 2>&1 &
vm=$!

# The guest's TAP lines as they come: "ok N - TEST: ...", with
# "# " diagnostics after a failure.
done_list=""
while IFS= read -r line; do
	case $line in
	"ok "*" - "*) line=${line#ok * - }
		ok "stress: $line"; done_list="$done_list ${line%%:*}" ;;
	"not ok "*" - "*) line=${line#not ok * - }
		fail "stress: $line"; done_list="$done_list ${line%%:*}" ;;
	"# "*|"Bail out!"*) echo "$line" ;;
	esac
done < <(sleep 2; tail -n +1 -F --pid="$vm" "$out" 2> /dev/null)
rc=0
wait "$vm" || rc=$?

if [ -n "$kcsan" ] && ! grep -q ' - KCSAN is on$' "$out"; then
	fail "stress: KCSAN is on in the guest (no /sys/kernel/debug/kcsan there)"
fi
for s in $want; do
	case " $done_list " in *" $s "*) ;; *)
		fail "stress: $s did not finish (the VM ended or was stopped first)" ;;
	esac
done
if [ "$rc" = 124 ]; then
	fail "vm: finished within ${limit} s"
	tap_diag < "$log"
elif grep -q 'the kernel reported a problem' "$log" && ! kcsan_only; then
	fail "vm: the whole dmesg shows no kernel warning, BUG, KASAN, lockdep, hung task or stall"
	tap_diag < "$log"
elif [ "$rc" != 0 ] && [ ! -f "$vmdir/xfer/status" ]; then
	fail "vm: boots the debug kernel and runs the tests (exit $rc)"
	tap_diag < "$log"
	tail -n 20 "$vmdir/console.log" 2> /dev/null | tap_diag
else
	aside=""
	[ -z "$kcsan" ] || aside=", KCSAN reports outside Kyber aside"
	ok "vm: the whole dmesg shows no kernel warning, BUG, KASAN, lockdep, hung task or stall$aside ($(($(date +%s) - t)) s in the VM)"
fi
echo "# logs: ${vmdir#"$TOP"/}/xfer/stress, ${vmdir#"$TOP"/}/console.log"
finish
