#!/bin/bash
# Boot the series kernel in the VM and run the in-VM tests; TAP output.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-k y|m] [-t SECONDS] [-p SECONDS] [--help]

Builds the tip of branch '$BRANCH' with scripts/build.sh (-k, default m;
incremental), installs its kselftest target block/kyber on the host (in
$BUILD/kselftest; the VM sees the host's root read-only), boots that
kernel with selftests/vm-run.sh
and runs selftests/smoke.sh, then run_kselftest.sh -c block/kyber on
null_blk, scsi_debug, the virtio-blk disk and the NVMe disk inside, and
once more on the virtio-blk disk as a disk that is not scratch
(selftests/noscratch.sh).  The kselftests include the lifecycle tests
that make stress runs longer on a debug kernel (requeue and timeout
injection, scsi_debug removal, unloading under load, CPU hotplug), with
a few seconds of load each.
Every result the guest prints, each kselftest's own checks included,
becomes a TAP line of this script, and the latency figures a "# lat"
line.  A VM that is hung, writing nothing to its console or output for
-p SECONDS (default 360: longer than the kselftest timeout of one test,
300 s), that does not finish in -t SECONDS in all (default 3000, about
1.7 times what the tests take on an idle machine here under TCG), or
that logs a kernel warning, and a test that does not finish, are failed
tests; the
TAP line says which limit it hit, and the last console lines tell where
it stood.  The limits tell a hang from a slow, loaded machine.
EOT
}
kyber=m limit=3000 stall=360
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts k:t:p:h opt; do
	case $opt in
	k) kyber=$OPTARG ;;
	t) limit=$OPTARG ;;
	p) stall=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; die "unexpected argument: $1"; }
case $limit in ""|*[!0-9]*) die "-t takes a number of seconds" ;; esac
case $stall in ""|*[!0-9]*) die "-p takes a number of seconds" ;; esac

need_group vm
need_base
need_clean_tree

# The kernel and the kselftests of the series tip, whatever an earlier
# step (a bisect build, make build) left checked out or built.
orig=$(git -C "$KSRC" symbolic-ref -q --short HEAD || git -C "$KSRC" rev-parse HEAD)
git -C "$KSRC" checkout -q "$BRANCH"
trap 'git -C "$KSRC" checkout -q "$orig"' EXIT
tip=$(git -C "$KSRC" log -1 --format='%h %s')
if ! "$TOP/scripts/build.sh" -k "$kyber" > "$BUILD/check-vm-build.log" 2>&1; then
	tap_fail "vm: the kernel of $BRANCH ($tip) builds"
	tail -n 20 "$BUILD/check-vm-build.log" | tap_diag
	tap_end
	exit 1
fi
release=$(cat "$BUILD/obj-$kyber/include/config/kernel.release")
echo "# the kernel of $BRANCH: $tip, $release"

ksft=$BUILD/kselftest
target=block/kyber
if [ ! -d "$KSRC/tools/testing/selftests/$target" ]; then
	tap_fail "kselftest: $target is in the kernel tree"
	ksft=""
elif ! install_kselftests "$ksft"; then
	tap_fail "kselftest: $target installs"
	tap_diag < "$ksft-install.log"
	ksft=""
fi

# A host whose KVM passes the probe but never runs the kernel: vm-run.sh
# must give up on KVM in its first seconds and boot under TCG instead.
fb=$BUILD/vm-fallback
if KYBER_VM_SIMULATE_KVM_HANG=1 KYBER_VM_KVM_FIRST=10 KYBER_VM_ACCEL=auto \
   "$TOP/selftests/vm-run.sh" -q -k "$kyber" -w "$fb" -t 300 -- uname -r > "$fb.log" 2>&1 &&
   grep -q '^vm-run.sh: accelerator: tcg (the kernel showed nothing in 10 s under KVM' "$fb.log" &&
   grep -qx "$release" "$fb/xfer/output"; then
	tap_ok "vm: a guest that hangs under KVM boots again under TCG"
else
	tap_fail "vm: a guest that hangs under KVM boots again under TCG"
	tap_diag < "$fb.log"
fi

# The VM's disks are scratch; the kselftests also make a null_blk and a
# scsi_debug disk of their own.
job="bash '$TOP/selftests/smoke.sh' '$release'; a=\$?"
if [ -n "$ksft" ]; then
	job="$job; KYBER_TEST_DEVS='null_blk scsi_debug /dev/vda /dev/nvme0n1'"
	job="$job KYBER_TEST_SCRATCH=1 '$ksft/run_kselftest.sh' -c $target"
	job="$job; bash '$TOP/selftests/noscratch.sh' '$ksft' vda || a=1"
fi
rc=0
"$TOP/selftests/vm-run.sh" -q -k "$kyber" -t "$limit" -p "$stall" -- bash -c "$job; exit \$a" \
	> "$BUILD/vm-run.log" 2>&1 || rc=$?

# The guest's output: smoke.sh's TAP lines ("ok N - ..."), then the
# runner's, one per test ("ok N selftests: block/kyber: T.sh"), with the
# test's own KTAP output before it, behind "# ".
out=$BUILD/vm-last/xfer/output
test="" skip_why="" diag=""
if [ -f "$out" ]; then
	while IFS= read -r line; do
		case $line in
		"ok "*" - "*"# SKIP "*) line=${line#ok * - }
			tap_skip "vm: ${line%% # SKIP *}" "${line#* # SKIP }" ;;
		"ok "*" - "*) tap_ok "vm: ${line#ok * - }" ;;
		"not ok "*" - "*) tap_fail "vm: ${line#not ok * - }" ;;
		"# selftests: $target: "*)
			test=${line#"# selftests: $target: "} skip_why="" diag="" ;;
		"# ok "*"# SKIP "*) line=${line#"# ok "}; line=${line#* }
			tap_skip "vm: ${test%.sh}: ${line%% # SKIP *}" "${line#* # SKIP }"
			diag="" ;;
		"# ok "*) line=${line#"# ok "}
			tap_ok "vm: ${test%.sh}: ${line#* }"
			diag="" ;;
		"# not ok "*) line=${line#"# not ok "}
			tap_fail "vm: ${test%.sh}: ${line#* }"
			[ -z "$diag" ] || printf '%s' "$diag"
			diag="" ;;
		"# 1..0 # SKIP "*) skip_why=${line#"# 1..0 # SKIP "} ;;
		"# Bail out!"*) tap_fail "vm: ${test%.sh}: ${line#"# "}" ;;
		"# # lat "*|"# # write flood "*) echo "${line#"# "}" ;;
		"# # "*) diag="$diag${line#"# "}"$'\n' ;;
		"ok "*"selftests: $target: "*"# SKIP"*)
			tap_skip "vm: $target/$test" "${skip_why:-skipped}"; test="" ;;
		"ok "*"selftests: $target: "*) tap_ok "vm: $target/$test"; test="" ;;
		"not ok "*"selftests: $target: "*)
			tap_fail "vm: $target/$test (${line##*# })"; test="" ;;
		esac
	done < "$out"
fi
[ -z "$test" ] || tap_fail "vm: $target/$test did not finish"
if [ "$rc" = 0 ]; then
	tap_ok "vm: boots, runs the tests and logs no kernel warning"
else
	case $rc in
	123) why="hung: no progress for $stall s" ;;
	124) why="timed out: not finished in $limit s" ;;
	*) why="exit $rc" ;;
	esac
	tap_fail "vm: boots, runs the tests and logs no kernel warning ($why)"
	tap_diag < "$BUILD/vm-run.log"
	tail -n 20 "$BUILD/vm-last/console.log" 2>/dev/null | tap_diag
fi
tap_end
