#!/bin/bash
# Write branch 'series' of the kernel tree back to patches/ and series.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-o DIR] [--help]

Runs git format-patch on $BASE_TAG..$BRANCH of $KSRC with a cover letter
(its text is the branch description: git branch --edit-description
$BRANCH) and the base recorded, and replaces patches/ and series with the
result.  With -o, writes the patches and a series file to DIR instead.
The output depends only on the commits, so apply then export changes
nothing.
EOT
}

out=""
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts o:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; die "unexpected argument: $1"; }

need_base
cd "$KSRC"
git rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null || die "no branch '$BRANCH'"
[ "$(git rev-list --count "$BASE_TAG..$BRANCH")" -gt 0 ] || die "'$BRANCH' has no commits"
git config "branch.$BRANCH.description" >/dev/null ||
	die "no cover letter text: git -C $KSRC branch --edit-description $BRANCH"

# The cover letter takes the date and sender of the last patch, and
# --zero-commit hides commit ids, so the output is reproducible.
# Blank context lines are written empty, not as one space (GNU diff's
# --suppress-blank-empty; git am and patch read both): checkpatch run
# from this repository on a tracked patch checks it as a source file,
# and would report every such line as trailing whitespace.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GIT_COMMITTER_DATE=$(git log -1 --format=%ad --date=raw "$BRANCH") \
GIT_COMMITTER_NAME=$(git log -1 --format=%an "$BRANCH") \
GIT_COMMITTER_EMAIL=$(git log -1 --format=%ae "$BRANCH") \
	git -c diff.suppressBlankEmpty=true format-patch -q --zero-commit --no-signature --cover-letter \
		--cover-from-description=subject --base="$BASE_TAG" \
		-o "$tmp" "$BASE_TAG..$BRANCH"

if [ -n "$out" ]; then
	mkdir -p "$out"
	cp "$tmp"/*.patch "$out"/
	(cd "$tmp" && ls -- *.patch) > "$out/series"
else
	rm -f "$TOP"/patches/*.patch
	mkdir -p "$TOP/patches"
	cp "$tmp"/*.patch "$TOP/patches/"
	(cd "$tmp" && ls -- *.patch) > "$TOP/series"
	git -C "$KSRC" tag -f "$APPLIED_TAG" "$BRANCH" >/dev/null
	info "exported $(($(wc -l < "$TOP/series") - 1)) patches to patches/"
fi
