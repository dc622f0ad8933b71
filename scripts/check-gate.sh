#!/bin/bash
# The gate itself: make check must count a check that crashes or stops
# early as a failure, however few "not ok" lines it printed.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Feeds gate_run (scripts/lib.sh), which counts the results of every check
of make check, with made-up checks: one that passes, one that fails a
result, one that dies before its first line, one killed or stopping
after a result without its plan, one whose plan promises more than it
reports, one that exits non-zero after passing all it planned, and a
skipped one.  Then runs a copy of scripts/check.sh whose cocci
check crashes, and expects it to fail with that counted.  TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# gate_counts WANT COMMAND...: gate_run on COMMAND, in a subshell, must
# count WANT ("passed failed skipped").
gate_counts() {
	local want=$1 got

	shift
	got=$(GATE_PASSED=0 GATE_FAILED=0 GATE_SKIPPED=0
	      gate_run fake "$@" > "$tmp/out"
	      echo "$GATE_PASSED $GATE_FAILED $GATE_SKIPPED")
	[ "$got" = "$want" ] && return 0
	echo "counted '$got' (passed failed skipped), not '$want'; its output:"
	cat "$tmp/out"
	return 1
}

# result DESC WANT COMMAND...
result() {
	local desc=$1

	shift
	if gate_counts "$@" > "$tmp/why" 2>&1; then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		tap_diag < "$tmp/why"
	fi
}

result "a check whose results all pass counts them" "2 0 0" \
	printf 'ok 1 - a\nok 2 - b\n1..2\n'
result "a failing result counts once, although the check exits 1" "1 1 0" \
	sh -c 'printf "ok 1 - a\nnot ok 2 - b\n1..2\n"; exit 1'
result "a check that dies before its first line counts as failed" "0 1 0" \
	sh -c 'echo "check-x.sh: error: no such tool" >&2; exit 1'
result "a check killed after a result counts as failed, once" "1 1 0" \
	sh -c 'printf "ok 1 - a\n"; kill -9 $$'
result "a check that stops after a result, without its plan, counts as failed" "1 1 0" \
	printf 'ok 1 - a\n'
result "a check that plans more results than it reports counts as failed" "1 1 0" \
	printf 'ok 1 - a\n1..3\n'
result "a check that exits non-zero after all its results passed counts as failed" "1 1 0" \
	sh -c 'printf "ok 1 - a\n1..1\n"; exit 1'
result "a check skipped as a whole counts as skipped, not passed" "0 0 1" \
	printf '1..0 # SKIP nothing to check\n'
result "a crash after a failing result adds no second failure" "0 1 0" \
	sh -c 'printf "not ok 1 - a\n1..1\n"; exit 2'

# The whole gate: scripts/check.sh, copied, with a cocci check that
# crashes after one passing result.
mkdir -p "$tmp/top"
cp -r "$TOP/scripts" "$tmp/top/"
printf '#!/bin/sh\necho "ok 1 - fine so far"\nexit 3\n' > "$tmp/top/scripts/check-cocci.sh"
rc=0
KYBER_BUILD=$BUILD bash "$tmp/top/scripts/check.sh" cocci > "$tmp/check.out" 2>&1 || rc=$?
last=$(tail -n 1 "$tmp/check.out")
if [ "$rc" != 0 ] && [ "$last" = "1 passed, 1 failed" ]; then
	tap_ok "make check fails when a check crashes: exit $rc, '$last'"
else
	tap_fail "make check fails when a check crashes: exit $rc, '$last'"
	tap_diag < "$tmp/check.out"
fi
tap_end
