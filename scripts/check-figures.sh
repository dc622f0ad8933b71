#!/bin/bash
# Every benchmark figure we quote is of one results file, and that file
# measured the series as it is now.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Checks that Documentation/ holds one results file of make bench
(results-DATE.tsv); that Documentation/benchmarks.md is what
scripts/bench-report.py writes from it; that each part of it measured
the series as it is now, by the stamp bench.sh recorded (series_stamp
in scripts/lib.sh: a hash of the series' kernel diff, without
Documentation/ and the kselftests); and that README.md and the cover
letter name that file and that stamp, and no patch names another
results file.  Needs the kernel tree (scripts/apply.sh).  TAP output.
When a part's stamp is not the series', run that part again:
  scripts/bench.sh -a -p PART    (then copy build/bench/results.tsv)
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

need_base
doc=$TOP/Documentation
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

set -- "$doc"/results-*.tsv
if [ "$#" != 1 ] || [ ! -f "$1" ]; then
	tap_fail "Documentation/ holds one results file (results-*.tsv)"
	echo "# found: $*"
	tap_end
	exit 1
fi
tsv=$1 name=${1##*/}
tap_ok "Documentation/ holds one results file, $name"

if python3 "$TOP/scripts/bench-report.py" -n -o "$tmp" "$tsv" > "$tmp/log" 2>&1 &&
   diff -u "$doc/benchmarks.md" "$tmp/benchmarks.md" > "$tmp/diff"; then
	tap_ok "Documentation/benchmarks.md is bench-report.py's page of $name"
else
	tap_fail "Documentation/benchmarks.md is bench-report.py's page of $name"
	cat "$tmp/log" "$tmp/diff" | head -n 40 | tap_diag
fi

stamp=$(series_stamp)
# stamps: PART STAMP for each part with figures of the series kernel; a
# part without a stamp of its own has the run's ("all"), or "none".
awk -F'\t' '
	$1 != "series" { next }
	$3 == "-" && $6 == "stamp" { s[$2] = $7; next }
	$3 != "-" { fig[$2] = 1 }
	END {
		for (p in fig)
			print p, (p in s) ? s[p] : ("all" in s) ? s["all"] : "none"
	}' "$tsv" | sort > "$tmp/stamps"
[ -s "$tmp/stamps" ] || tap_fail "$name has figures of the series kernel"
while read -r part got; do
	if [ "$got" = "$stamp" ]; then
		tap_ok "$name: part $part measured this series ($stamp)"
	else
		tap_fail "$name: part $part measured this series ($stamp)"
		echo "measured series $got; run: scripts/bench.sh -a -p $part" | tap_diag
	fi
done < "$tmp/stamps"

# names FILE WHAT: FILE names the results file and the stamp.
names() {
	if grep -q -F "$name" "$1" && grep -q -F "$stamp" "$1"; then
		tap_ok "$2 names $name and the stamp $stamp"
	else
		tap_fail "$2 names $name and the stamp $stamp"
		grep -n -o -E 'results-[0-9-]+\.tsv|stamp [0-9a-f]{12}' "$1" | tap_diag
	fi
}
names "$TOP/README.md" README.md
cover=$(series_patches | head -n 1)
names "$TOP/patches/$cover" "the cover letter ($cover)"

others=$(grep -l -o -E 'results-[0-9-]+\.tsv' "$TOP"/patches/*.patch |
	 xargs -r grep -L -F "$name" || true)
if [ -z "$others" ]; then
	tap_ok "no patch quotes a results file but $name"
else
	tap_fail "no patch quotes a results file but $name"
	echo "$others" | tap_diag
fi
tap_end
