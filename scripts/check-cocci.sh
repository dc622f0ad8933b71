#!/bin/bash
# coccicheck (report mode) on the directories the series touches; a
# report the base does not have fails.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Runs make coccicheck MODE=report on each C file and header changed
in $BASE_TAG..$BRANCH, at $BASE_TAG (kept for later runs) and at the tip
of $BRANCH, and fails on reports the base does not have, and when
coccicheck fails or runs no semantic patch.  TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

need_base
need_clean_tree
need_group build check
cd "$KSRC"
orig=$(git symbolic-ref -q --short HEAD || git rev-parse HEAD)
base=$(git rev-parse "$BASE_TAG")
files=$(git diff --name-only "$base" "$BRANCH" -- '*.c' '*.h')
[ -n "$files" ] || { echo "1..0 # SKIP the series changes no C file"; exit 0; }

# coccicheck runs a spatch that cannot start (one without --jobs) in
# the background and never looks at its status: try it first.
if ! out=$("${SPATCH:-spatch}" --version 2>&1) || ! grep -q '^spatch version ' <<<"$out"; then
	tap_fail "coccicheck: ${SPATCH:-spatch} --version runs"
	echo "$out" | tap_diag
	tap_end
	exit 1
fi

log=$BUILD/cocci.log
# cocci FILE OUT: the reports as "file: message", without line and column
# numbers, in OUT; fails, with the end of its log on stderr, when
# coccicheck fails or processes no semantic patch (V=1 names each).
cocci() {
	local n

	if ! make -s -C "$KSRC" coccicheck MODE=report V=1 M="$1" J="$(nproc)" > "$log" 2>&1; then
		tail -n 15 "$log" >&2
		return 1
	fi
	n=$(grep -c '^Processing .*\.cocci$' "$log" || true)
	[ "$n" -gt 0 ] || { tail -n 15 "$log" >&2; echo "no semantic patch ran" >&2; return 1; }
	echo "$n" > "$2.count"
	grep -E '^[^ ]+:[0-9]+:[0-9-]+: ' "$log" |
		sed -E 's#^([^:]*):[0-9]+:[0-9-]+:#\1:#' | sort -u > "$2"
}

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.count" "$tmp.err"; git -C "$KSRC" checkout -q "$orig"' EXIT
for d in $files; do
	key=$(echo "$d" | tr / _)
	basefile=$BUILD/cocci-base-$key-$base
	if ! git cat-file -e "$base:$d" 2>/dev/null; then
		: > "$basefile"		# a file the series adds
	elif [ ! -f "$basefile" ]; then
		git checkout -q "$base"
		if ! cocci "$d" "$basefile.tmp" 2> "$tmp.err"; then
			tap_fail "coccicheck $d runs at $BASE_TAG"
			tap_diag < "$tmp.err"
			continue
		fi
		mv "$basefile.tmp" "$basefile"
		rm -f "$basefile.tmp.count"
	fi
	git checkout -q "$BRANCH"
	if ! cocci "$d" "$tmp" 2> "$tmp.err"; then
		tap_fail "coccicheck $d runs"
		tap_diag < "$tmp.err"
		continue
	fi
	new=$(comm -23 "$tmp" "$basefile")
	if [ -z "$new" ]; then
		tap_ok "coccicheck $d ($(cat "$tmp.count") semantic patches)"
	else
		tap_fail "coccicheck $d: new reports"
		echo "$new" | tap_diag
	fi
done
tap_end
