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
Documentation/, the kselftests and the KUnit suites); and that README.md and the cover
letter name that file and that stamp, that every decimal figure they
quote (README's "Why a new Kyber", the cover letter from "Measured in
QEMU" to "Size:") is on the page, and that no patch names another
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

# on_page FILE FROM TO WHAT: each decimal figure of FILE between the
# lines FROM and TO is on the page, to the digits quoted (0.61 matches
# 0.610).  Coarse: it cannot tell a figure quoted for the wrong row, but
# a figure of another run is mostly on the page nowhere.
on_page() {
	local missing

	if missing=$(python3 - "$doc/benchmarks.md" "$@" <<'EOT'
import re, sys
page, text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
i = text.index(sys.argv[3])
block = text[i:text.index(sys.argv[4], i)]
num = re.compile(r"(?<![\d.])\d+\.\d+")
have = [m.group(0) for m in num.finditer(page)]
def found(r):
    d = len(r.split(".")[1])
    return any(len(p.split(".")[1]) >= d and round(float(p), d) == float(r) for p in have)
print(" ".join(m.group(0) for m in num.finditer(block) if not found(m.group(0))))
EOT
	) && [ -z "$missing" ]; then
		tap_ok "every figure $4 quotes is on the page"
	else
		tap_fail "every figure $4 quotes is on the page"
		echo "not on Documentation/benchmarks.md: ${missing:-(the section was not found)}" | tap_diag
	fi
}
on_page "$TOP/README.md" "## Why a new Kyber" "## What it needs" "README.md's \"Why a new Kyber\""
on_page "$TOP/patches/$cover" "Measured in QEMU" "Size:" "the cover letter's measurements"

others=$(grep -l -o -E 'results-[0-9-]+\.tsv' "$TOP"/patches/*.patch |
	 xargs -r grep -L -F "$name" || true)
if [ -z "$others" ]; then
	tap_ok "no patch quotes a results file but $name"
else
	tap_fail "no patch quotes a results file but $name"
	echo "$others" | tap_diag
fi
tap_end
