#!/bin/bash
# Break Kyber on purpose, one recorded way at a time, and check that the
# test meant to notice does.
set -eu
. "$(dirname "$0")/lib.sh"

MUTATIONS=$TOP/scripts/mutations
KSFT=$BUILD/kselftest-mut
VMDIR=$BUILD/vm-mut

usage() {
	cat <<EOT
usage: ${0##*/} [--help] [--list] [NAME...]

Each file NAME.diff in ${MUTATIONS#"$TOP"/} breaks block/kyber-iosched.c
in one way, said on its first line, and names on its second the test
that must catch it: "# catcher: kunit SUITE.CASE" (run in UML by
check-kunit.sh) or "# catcher: kselftest SCRIPT.sh" (the Kyber module
built by build.sh -k m, the script run in the VM by vm-run.sh, files in
${VMDIR#"$TOP"/}).  For each mutation (all by default), this applies it to
the kernel tree in $KSRC, runs its catcher, and takes it out again;
then it rebuilds the module of the series as it is.

Prints "ok N - NAME: caught by CATCHER" when that test fails, "not ok"
when it passes (the mutation survived), when the mutation no longer
applies or the mutated kernel does not build; ends with
"N passed, N failed".  The tree's block/kyber-iosched.c must have no
uncommitted change.  A kunit mutation takes under a minute, a kselftest
one 1-3 minutes (TCG).
  --list  print each mutation, its catcher and what it breaks
EOT
}

list=""
case ${1-} in
-h|--help) usage; exit 0 ;;
--list) list=1; shift ;;
-*) usage >&2; die "unknown option: $1" ;;
esac

names=()
if [ $# = 0 ]; then
	for m in "$MUTATIONS"/*.diff; do
		names+=("$(basename "$m" .diff)")
	done
else
	for m in "$@"; do
		[ -f "$MUTATIONS/$m.diff" ] || die "no mutation $m (see --list)"
		names+=("$m")
	done
fi

catcher() { sed -n '2s/^# catcher: //p' "$MUTATIONS/$1.diff"; }
what() { sed -n '1s/^# //p' "$MUTATIONS/$1.diff"; }

if [ -n "$list" ]; then
	for m in "${names[@]}"; do
		printf '%s\t%s\n\t%s\n' "$m" "$(catcher "$m")" "$(what "$m")"
	done
	exit 0
fi

# What check-kunit.sh, build.sh and vm-run.sh would install anyway,
# and rsync for the kselftests' install.
need_group build vm
[ -d "$KSRC/.git" ] || die "no kernel tree in $KSRC; run make apply first"
git -C "$KSRC" diff --quiet -- block/kyber-iosched.c ||
	die "$KSRC/block/kyber-iosched.c has uncommitted changes"

applied=""
restore() {
	[ -z "$applied" ] || git -C "$KSRC" apply -R "$MUTATIONS/$applied.diff" ||
		info "could not take $applied out of $KSRC: check block/kyber-iosched.c"
	applied=""
}

log=$(mktemp)
trap 'restore; rm -f "$log"' EXIT

# caught_by_kunit CASE: 0 when check-kunit.sh reports CASE failing, 1
# when passing, 2 when not at all (the kernel did not build).
caught_by_kunit() {
	"$TOP/scripts/check-kunit.sh" "$1" > "$log" 2>&1 || true
	grep -q "^not ok [0-9]* - kunit $1\( \|$\)" "$log" && return 0
	grep -q "^ok [0-9]* - kunit $1\( \|$\)" "$log" && return 1
	return 2
}

# caught_by_kselftest SCRIPT: the same for SCRIPT, run in the VM on the
# mutated module.
caught_by_kselftest() {
	local out=$VMDIR/xfer/output

	"$TOP/scripts/build.sh" -k m > "$log" 2>&1 || return 2
	if [ -z "$installed" ]; then
		install_kselftests "$KSFT" || die "kselftests do not install: see $KSFT-install.log"
		installed=1
	fi
	"$TOP/selftests/vm-run.sh" -q -k m -w "$VMDIR" -t 900 -- \
		"$KSFT/run_kselftest.sh" -t "block/kyber:$1" > "$log" 2>&1 || true
	[ ! -f "$out" ] || cp "$out" "$log"
	grep -q "^not ok [0-9]* selftests: block/kyber: $1" "$log" && return 0
	grep -q "^ok [0-9]* selftests: block/kyber: $1" "$log" && return 1
	return 2
}

TAP_N=0 TAP_FAILED=0 built="" installed=""
for m in "${names[@]}"; do
	read -r kind test extra <<< "$(catcher "$m")" || true
	if [ -z "${test-}" ] || [ -n "${extra-}" ]; then
		tap_fail "$m: no '# catcher: kunit|kselftest NAME' line"
		continue
	fi
	set -- "$kind" "$test"
	if ! git -C "$KSRC" apply "$MUTATIONS/$m.diff" 2> "$log"; then
		tap_fail "$m: does not apply to $KSRC" && tap_diag < "$log"
		continue
	fi
	applied=$m
	rc=0
	case $1 in
	kunit) caught_by_kunit "$2" || rc=$? ;;
	kselftest) built=1; caught_by_kselftest "$2" || rc=$? ;;
	*) rc=3 ;;
	esac
	restore
	case $rc in
	0) tap_ok "$m: caught by $1 $2"; grep "not ok" "$log" | head -5 | tap_diag ;;
	1) tap_fail "$m: survived $1 $2"; tail -20 "$log" | tap_diag ;;
	2) tap_fail "$m: $1 $2 did not run (build or VM failure)"; tail -20 "$log" | tap_diag ;;
	*) tap_fail "$m: unknown catcher kind '$1'" ;;
	esac
done

# Leave the module of the series as it is, not the last mutation's.
if [ -n "$built" ] && ! "$TOP/scripts/build.sh" -k m > "$log" 2>&1; then
	tap_fail "the module of the series builds again after the mutations"
fi
passed=$((TAP_N - TAP_FAILED))
tap_end || true
echo "$passed passed, $TAP_FAILED failed"
[ "$TAP_FAILED" = 0 ]
