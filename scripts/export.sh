#!/bin/bash
# Write branch 'series' of the kernel tree back to patches/ and series.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-o DIR] [--help]

Runs git format-patch on $BASE_TAG..$BRANCH of $KSRC with a cover letter
(its text is the branch description: git branch --edit-description
$BRANCH) and each commit's git notes below its patch's "---", and
replaces patches/ and series with the result; the base commit, the in-tree Kyber's removal, goes to $PREREQ/ as the
series' prerequisite.  The cover letter names the kernel release as
base-commit and the removal as prerequisite-patch-id, the way b4 and the
kernel test robot read them.  With -o, writes all of it to DIR instead.

Every patch gets your Signed-off-by: (GIT_AUTHOR_NAME and
GIT_AUTHOR_EMAIL, or git config user.name and user.email; without them
it stops and writes nothing).  Other people's sign-offs and trailers
(Reviewed-by:, Tested-by:, ...) stay, and so does a person's
authorship; only a placeholder identity (an address on a reserved
domain such as example.org, like this workshop's own) is replaced by
yours, as author and as sign-off.  The branch itself is left as it is.  The output depends only
on the commits and the identity, so apply then export changes nothing.
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
ident=$(author_ident)
name=${ident% <*} email=${ident##*<} email=${email%>}
release=$(release_tag)
cd "$KSRC"
git rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null || die "no branch '$BRANCH'"
[ "$(git rev-list --count "$BASE_TAG..$BRANCH")" -gt 0 ] || die "'$BRANCH' has no commits"
git config "branch.$BRANCH.description" >/dev/null ||
	die "no cover letter text: git -C $KSRC branch --edit-description $BRANCH"

# stamp BOTTOM TOP: copies of the commits BOTTOM..TOP with $ident as
# author and signer, dates and trees kept; prints the copy of TOP.  The
# copies are unreferenced objects: the branch does not move.
stamp() {
	local parent=$1 c old date msg aname aemail
	for c in $(git rev-list --reverse "$1..$2"); do
		old=$(git log -1 --format='%an <%ae>' "$c")
		date=$(git log -1 --format=%ad --date=raw "$c")
		msg=$(git log -1 --format=%B "$c" | signed_by "$ident")
		# A person's patch stays theirs; a placeholder's becomes yours.
		aname=$name aemail=$email
		if ! placeholder "$old"; then
			aname=$(git log -1 --format=%an "$c") aemail=$(git log -1 --format=%ae "$c")
		fi
		parent=$(GIT_AUTHOR_NAME=$aname GIT_AUTHOR_EMAIL=$aemail \
			 GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
			 git commit-tree "$c^{tree}" -p "$parent" -m "$msg")
		# A commit's git notes (history for reviewers) go below the
		# patch's "---": the copy gets them too, until the end.
		if note=$(git notes show "$c" 2>/dev/null); then
			git notes add -f -m "$note" "$parent"
		fi
	done
	echo "$parent"
}
# format-patch labels notes "Notes:" only from the default ref, so the
# copies' notes go there and the ref is put back as it was afterwards.
notes_ref=refs/notes/commits
notes_was=$(git rev-parse -q --verify "$notes_ref" || true)
restore_notes() {
	if [ -n "$notes_was" ]; then
		git update-ref "$notes_ref" "$notes_was"
	else
		git update-ref -d "$notes_ref" 2>/dev/null || true
	fi
}
trap restore_notes EXIT
tip=$(stamp "$BASE_TAG" "$BRANCH")
removal=$(stamp "$release" "$BASE_TAG")

# The cover letter takes the date and sender of the last patch, and
# --zero-commit hides commit ids, so the output is reproducible.
# Blank context lines are written empty, not as one space (GNU diff's
# --suppress-blank-empty; git am and patch read both): checkpatch run
# from this repository on a tracked patch checks it as a source file,
# and would report every such line as trailing whitespace.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; restore_notes' EXIT
fp() {
	GIT_COMMITTER_DATE=$(git log -1 --format=%ad --date=raw "$tip") \
	GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
		git -c diff.suppressBlankEmpty=true format-patch -q --zero-commit \
			--no-signature --notes --base="$release" "$@"
}
# format-patch reads the cover letter from the description of the branch
# it formats, so the copies get a short-lived branch of their own.
out_branch=$BRANCH-export
git branch -f "$out_branch" "$tip"
git config "branch.$out_branch.description" "$(git config "branch.$BRANCH.description")"
trap 'rm -rf "$tmp"; restore_notes; git branch -q -D "$out_branch"; git config --remove-section "branch.$out_branch" 2>/dev/null || true' EXIT
fp --cover-letter --cover-from-description=subject -o "$tmp" "$BASE_TAG..$out_branch"
fp -o "$tmp/prerequisite" -1 "$removal"

if [ -n "$out" ]; then
	mkdir -p "$out/prerequisite"
	cp "$tmp"/*.patch "$out"/
	cp "$tmp"/prerequisite/*.patch "$out/prerequisite/"
	(cd "$tmp" && ls -- *.patch) > "$out/series"
else
	rm -f "$TOP"/patches/*.patch "$TOP/$PREREQ"/*.patch
	mkdir -p "$TOP/$PREREQ"
	cp "$tmp"/*.patch "$TOP/patches/"
	cp "$tmp"/prerequisite/*.patch "$TOP/$PREREQ/"
	(cd "$tmp" && ls -- *.patch) > "$TOP/series"
	git -C "$KSRC" tag -f "$APPLIED_TAG" "$BRANCH" >/dev/null
	info "exported $(($(wc -l < "$TOP/series") - 1)) patches to patches/ and the prerequisite to $PREREQ/"
fi
