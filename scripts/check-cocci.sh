#!/bin/bash
# coccicheck (report mode) on the directories the series touches; a
# report the base does not have fails.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Runs make coccicheck MODE=report on each directory with C files changed
in $BASE_TAG..$BRANCH, at $BASE_TAG (kept for later runs) and at the tip
of $BRANCH, and fails on reports the base does not have.  TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

need_base
need_clean_tree
need_group build check
cd "$KSRC"
orig=$(git symbolic-ref -q --short HEAD || git rev-parse HEAD)
trap 'git -C "$KSRC" checkout -q "$orig"' EXIT
base=$(git rev-parse "$BASE_TAG")
dirs=$(git diff --name-only "$base" "$BRANCH" -- '*.c' '*.h' | xargs -r -n1 dirname | sort -u)
[ -n "$dirs" ] || { echo "1..0 # SKIP the series changes no C file"; exit 0; }

# Reports as "file: message", without line and column numbers.
cocci() {	# cocci DIR
	make -s -C "$KSRC" coccicheck MODE=report M="$1" J="$(nproc)" 2>/dev/null |
		grep -E '^[^ ]+:[0-9]+:[0-9-]+: ' |
		sed -E 's#^([^:]*):[0-9]+:[0-9-]+:#\1:#' | sort -u
}

for d in $dirs; do
	key=$(echo "$d" | tr / _)
	basefile=$BUILD/cocci-base-$key-$base
	if [ ! -f "$basefile" ]; then
		git checkout -q "$base"
		cocci "$d" > "$basefile.tmp" && mv "$basefile.tmp" "$basefile"
	fi
	git checkout -q "$BRANCH"
	new=$(cocci "$d" | comm -23 - "$basefile")
	if [ -z "$new" ]; then
		tap_ok "coccicheck $d"
	else
		tap_fail "coccicheck $d: new reports"
		echo "$new" | tap_diag
	fi
done
tap_end
