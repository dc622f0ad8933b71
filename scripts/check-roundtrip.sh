#!/bin/bash
# The series applies to the base, and exporting it again gives back
# exactly patches/ and series: nothing was hand-edited.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Runs scripts/apply.sh, then scripts/export.sh into a scratch directory,
and compares the result with patches/ and series.  TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

need_base
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if out=$("$TOP/scripts/apply.sh" 2>&1); then
	tap_ok "series applies to $BASE_TAG"
else
	tap_fail "series applies to $BASE_TAG"
	echo "$out" | tap_diag
	tap_end
	exit 1
fi

"$TOP/scripts/export.sh" -o "$tmp" 2>&1 | tap_diag
mkdir -p "$tmp/want"
cp "$TOP/series" "$tmp/want/series"
for p in $(series_patches); do cp "$TOP/patches/$p" "$tmp/want/"; done
extra=$(cd "$TOP/patches" && ls -- *.patch | grep -vxF -f "$TOP/series" || true)
if d=$(cd "$tmp" && diff -ru want . -x want 2>&1) && [ -z "$extra" ]; then
	tap_ok "export after apply reproduces patches/ and series"
else
	tap_fail "export after apply reproduces patches/ and series"
	{ echo "$d" | head -n 40; [ -z "$extra" ] || echo "in patches/ but not in series: $extra"; } | tap_diag
fi
tap_end
