#!/bin/bash
# The series' KUnit suites, run with kunit.py in UML on the kernel tree.
set -eu
. "$(dirname "$0")/lib.sh"

KUNITCONFIG=$TOP/kunit/all.kunitconfig
UMLBUILD=$BUILD/uml-kunit

usage() {
	cat <<EOT
usage: ${0##*/} [--help] [FILTER]

Runs the KUnit suites of ${KUNITCONFIG#"$TOP"/} with
tools/testing/kunit/kunit.py in UML, on the kernel tree in $KSRC
as it is checked out (check.sh leaves the applied series there).  The
build directory, ${UMLBUILD#"$TOP"/}, is kept between runs.  Prints one
TAP line per test case, as suite.case, then the number of cases.
FILTER is kunit.py's glob, e.g. 'sbitmap' or
'kyber_iosched.kyber_parse_lat*'; all suites by default.  KUNIT_JOBS
sets make's jobs (default: the number of CPUs).
EOT
}
filter=
case $# in
0) ;;
1) case $1 in
   -h|--help) usage; exit 0 ;;
   -*|"") usage >&2; die "unknown option: $1" ;;
   *) filter=$1 ;;
   esac ;;
*) usage >&2; die "too many arguments" ;;
esac

need_group build
[ -f "$KSRC/tools/testing/kunit/kunit.py" ] ||
	die "no kernel tree with kunit.py in $KSRC; run scripts/base-tree.sh first"
[ -f "$KUNITCONFIG" ] || die "$KUNITCONFIG is missing"

# Every suite the kunitconfig names must exist in the tree: a patch that
# lost one is a failure, not a reason to skip.
missing=""
while read -r sym; do
	grep -rqx --include='Kconfig*' "config $sym" "$KSRC" || missing="$missing $sym"
done < <(sed -n 's/^CONFIG_\([A-Z0-9_]*_KUNIT_TEST\)=y$/\1/p' "$KUNITCONFIG")
if [ -n "$missing" ]; then
	tap_fail "kunit: $KSRC has the suites of ${KUNITCONFIG#"$TOP"/} (missing:$missing)"
	tap_end
	exit
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$UMLBUILD"

# kunit.py's own output goes to a log, shown only when it fails, so that
# nothing in it can be taken for a TAP line.
start=$(date +%s)
if (cd "$KSRC" && python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$KUNITCONFIG" --build_dir="$UMLBUILD" \
	--jobs="${KUNIT_JOBS:-$(nproc)}" --make_options "CC=ccache gcc" \
	--json="$tmp/results.json" ${filter:+"$filter"}) >"$tmp/kunit.log" 2>&1; then
	rc=0
else
	rc=$?
fi
info "kunit.py took $(($(date +%s) - start))s"

# One "STATUS suite.case" line per test case; parameterised cases are
# reported as a whole, under their own name.
results() {
	python3 - "$1" <<'EOT'
import json, sys

def walk(group, prefix):
    for case in group.get("test_cases", []):
        print(case["status"], prefix + case["name"])
    for sub in group.get("sub_groups", []):
        if prefix:
            st = "PASS" if all(c["status"] in ("PASS", "SKIP")
                               for c in sub.get("test_cases", [])) else "FAIL"
            print(st, prefix + sub["name"])
        else:
            walk(sub, sub["name"] + ".")

walk(json.load(open(sys.argv[1])), "")
EOT
}

n=0
if [ -s "$tmp/results.json" ]; then
	while read -r status name; do
		n=$((n + 1))
		case $status in
		PASS) tap_ok "kunit $name" ;;
		SKIP) tap_skip "kunit $name" "skipped by the test" ;;
		*) tap_fail "kunit $name ($status)" ;;
		esac
	done < <(results "$tmp/results.json")
fi
echo "# $n KUnit test cases"

if [ "$n" = 0 ] || [ "$rc" != 0 ]; then
	[ "$n" != 0 ] || tap_fail "kunit.py builds and runs the suites"
	info "kunit.py exited with $rc; the end of its output:"
	tail -n 40 "$tmp/kunit.log" | tap_diag
	[ "$TAP_FAILED" != 0 ] || tap_fail "kunit.py exits with 0 (it returned $rc)"
fi
tap_end
