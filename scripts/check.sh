#!/bin/bash
# Every check and test of the project, in order; ends with the totals.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help] [CHECK...]

Makes the base tree when missing, then runs the checks (all by default):
  gate       a check that crashes or stops early counts as a failure
  scripts    every script answers --help and refuses a bad argument
  deps       every script installs a package before it runs its commands
  roundtrip  apply then export reproduces patches/ and series; the
             README's am.sh applies them to the release
  figures    the benchmark page, README and cover letter quote one
             results file, which measured this series
  send       the mails of scripts/send.sh -n: From, Subject, To/Cc,
             Signed-off-by, base-commit, prerequisite-patch-id
  patches    checkpatch --strict on every patch
  build      every commit builds, Kyber =y and =m, W=1, sparse
  cocci      coccicheck on the directories the series touches
  kunit      the series' KUnit suites pass under kunit.py in UML
  vm         the series kernel boots in QEMU and its devices work
and prints each result as a TAP line, then "N passed, N failed".
EOT
}
all="gate scripts deps roundtrip figures send patches build cocci kunit vm"
case "${1-}" in -h|--help) usage; exit 0 ;; esac
for c in "$@"; do
	case " $all " in *" $c "*) ;; *) usage >&2; die "unknown check: $c" ;; esac
done
[ $# -gt 0 ] || set -- $all

run() {	# run NAME COMMAND...: the check's TAP lines, counted
	local start

	start=$(date +%s)
	echo "# --- $1"
	gate_run "$@"
	echo "# $1 took $(($(date +%s) - start))s"
}

"$TOP/scripts/base-tree.sh" ||
	gate_fail 1 "base tree: scripts/base-tree.sh fails; the checks below cannot pass"
for c in "$@"; do
	case $c in
	gate)      run gate "$TOP/scripts/check-gate.sh" ;;
	scripts)   run scripts "$TOP/scripts/check-scripts.sh" ;;
	deps)      run deps "$TOP/scripts/check-deps.sh" ;;
	roundtrip) run roundtrip "$TOP/scripts/check-roundtrip.sh" ;;
	figures)   run figures "$TOP/scripts/check-figures.sh" ;;
	send)      run send "$TOP/scripts/check-send.sh" ;;
	patches)   run patches "$TOP/scripts/check-patches.sh" ;;
	build)     run build "$TOP/scripts/check-build.sh" ;;
	cocci)     run cocci "$TOP/scripts/check-cocci.sh" ;;
	kunit)     run kunit "$TOP/scripts/check-kunit.sh" ;;
	vm)        run vm "$TOP/selftests/check-vm.sh" -k m ;;
	esac
done

if [ "$GATE_SKIPPED" -gt 0 ]; then
	echo "$GATE_PASSED passed, $GATE_FAILED failed, $GATE_SKIPPED skipped"
else
	echo "$GATE_PASSED passed, $GATE_FAILED failed"
fi
[ "$GATE_FAILED" = 0 ]
