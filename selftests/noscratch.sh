#!/bin/bash
# Runs inside the VM: the block/kyber kselftests on a disk the user names
# but does not declare scratch (KYBER_TEST_SCRATCH unset), as on a real
# machine.  Every test must pass or skip, the disk's data, scheduler and
# nr_requests must come through unchanged, and the tests that write must
# say they skipped it.  TAP.
set -u

usage() {
	cat <<EOT
usage: ${0##*/} KSELFTEST_DIR DISK
       ${0##*/} --help

Runs KSELFTEST_DIR/run_kselftest.sh -c block/kyber with
KYBER_TEST_DEVS=/dev/DISK and no KYBER_TEST_SCRATCH, and checks that
DISK's contents (md5sum), scheduler and nr_requests are as before.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; esac
[ $# = 2 ] || { usage >&2; exit 2; }
# shellcheck source=vm-only.sh
. "$(dirname "$0")/vm-only.sh"
ksft=$1 disk=$2 q=/sys/block/$2/queue
[ -x "$ksft/run_kselftest.sh" ] || { echo "$ksft/run_kselftest.sh: missing" >&2; exit 2; }
[ -d "$q" ] || { echo "$disk: no such disk" >&2; exit 2; }

n=0 failed=0
check() {	# check DESCRIPTION COMMAND...
	n=$((n + 1))
	if "${@:2}" >/dev/null 2>&1; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}
sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler"; }

# A state the tests would not leave by accident.
echo mq-deadline > "$q/scheduler"
echo 32 > "$q/nr_requests"
before=$(md5sum < "/dev/$disk")
log=$(mktemp)
# Each test's result as it comes, behind a prefix that no TAP reader
# takes for a result: the whole run writes nothing else for minutes,
# and vm-run.sh takes a silent VM for a hung one.  Read from the pipe,
# line by line, not by following the log file: tail -f, which polls in
# the VM (no inotify), printed nothing for minutes.
KYBER_TEST_DEVS=/dev/$disk "$ksft/run_kselftest.sh" -c block/kyber 2>&1 |
	while IFS= read -r line; do
		printf '%s\n' "$line" >> "$log"
		case $line in
		"ok "*" selftests: "*|"not ok "*" selftests: "*) echo "noscratch: $line" ;;
		esac
	done
rc=${PIPESTATUS[0]}
out=$(< "$log")
rm -f "$log"
after=$(md5sum < "/dev/$disk")

# The runner exits 0 whatever its tests did: count their results.
tests=$("$ksft/run_kselftest.sh" -l | grep -c '^block/kyber:')
passed=$(grep -c '^ok [0-9]* selftests: block/kyber: ' <<<"$out")
failed_tests=$(grep -c '^not ok [0-9]* selftests: block/kyber: ' <<<"$out")
check "not scratch: the runner finishes on /dev/$disk" test "$rc" = 0
check "not scratch: all $tests kselftests pass or skip on /dev/$disk ($passed do, $failed_tests fail)" \
	test "$tests" -gt 0 -a "$passed" = "$tests" -a "$failed_tests" = 0
check "not scratch: the tests that write skip /dev/$disk" \
	grep -q "SKIP /dev/$disk is not scratch" <<<"$out"
check "not scratch: /dev/$disk's data is unchanged" test "$before" = "$after"
check "not scratch: $disk gets its scheduler back" test "$(sched)" = mq-deadline
check "not scratch: $disk gets its nr_requests back" test "$(< "$q/nr_requests")" = 32
# Not "# ": check-vm.sh would read the runner's lines as results.
[ "$failed" = 0 ] || printf '# > %s\n' "${out//$'\n'/$'\n'# > }"
echo "1..$n"
exit $failed
