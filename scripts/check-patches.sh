#!/bin/bash
# checkpatch --strict, with the options in checkpatch.conf, on every patch.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help] [PATCH...]

Runs the base tree's scripts/checkpatch.pl with the options in
checkpatch.conf on each patch named in series (or on the PATCHes given).
A patch passes with no error, warning or check.  TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; -*) usage >&2; die "unknown option: $1" ;; esac

need_base
need_group check
opts=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/checkpatch.conf")
grep -q -- '--codespellfile=' <<<"$opts" && {
	f=$(sed -n 's/^--codespellfile=//p' <<<"$opts")
	[ -f "$f" ] || die "codespell dictionary $f is missing (package codespell)"
}

if [ $# = 0 ]; then
	set --
	for p in $(series_patches); do
		case $p in *0000-cover-letter.patch) ;; *) set -- "$@" "$TOP/patches/$p" ;; esac
	done
fi
[ $# -gt 0 ] || { echo "1..0 # SKIP the series has no patches"; exit 0; }

# checkpatch's SPDX check runs python3 and needs Debian's ply and git
# modules, which another python3 earlier in PATH (pyenv) does not have.
export PATH=/usr/bin:$PATH
for p in "$@"; do
	[ -f "$p" ] || { tap_fail "checkpatch ${p##*/}: no such file"; continue; }
	p=$(realpath "$p")	# checkpatch runs from two directories
	# Twice: from the kernel tree, where checkpatch reads the file as a
	# patch, and from this repository, as a reviewer runs it, where it
	# reads a file that git tracks as source (export.sh writes blank
	# context lines empty so that this does not flag them).
	# shellcheck disable=SC2086
	if out=$(cd "$KSRC" && scripts/checkpatch.pl $opts --terse "$p" 2>&1) &&
	   out=$out$'\n'$(cd "$TOP" && "$KSRC/scripts/checkpatch.pl" $opts --terse \
		"$(realpath --relative-to="$TOP" "$p")" 2>&1) &&
	   ! grep -E -q '(ERROR|WARNING|CHECK):' <<<"$out"; then
		tap_ok "checkpatch ${p##*/}"
	else
		tap_fail "checkpatch ${p##*/}"
		grep -E '(ERROR|WARNING|CHECK):' <<<"$out" | tap_diag
	fi
done
tap_end
