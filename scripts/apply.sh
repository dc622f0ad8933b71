#!/bin/bash
# Put the series (patches/ in the order of the series file) on a fresh
# branch on top of the base tree.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-f] [--help]

Resets branch '$BRANCH' of $KSRC to tag '$BASE_TAG' and applies the
patches named in series with git am.  The cover letter's subject and text
become the branch description, and a patch's notes below its "---" the
commit's git notes, from which export.sh writes them back.
Refuses to drop commits made on '$BRANCH' since the last apply unless -f.
EOT
}

force=""
case "${1-}" in
-f) force=1 ;;
-h|--help) usage; exit 0 ;;
"") ;;
*) usage >&2; die "unknown argument: $1" ;;
esac

need_base
need_clean_tree
cd "$KSRC"

# Commits on the branch that the last apply did not put there are work
# that has not been exported yet.
if [ -z "$force" ] && git rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null &&
   [ "$(git rev-parse "$BRANCH")" != "$(git rev-parse "$BASE_TAG")" ]; then
	applied=$(git rev-parse -q --verify "refs/tags/$APPLIED_TAG" || true)
	[ "$(git rev-parse "$BRANCH")" = "$applied" ] ||
		die "branch '$BRANCH' has commits not from the last apply; export them or use -f"
fi

git checkout -q -B "$BRANCH" "$BASE_TAG"
# A commit's notes follow it through git rebase and git commit --amend.
git config notes.rewriteRef refs/notes/commits
n=0
for p in $(series_patches); do
	case $p in
	*0000-cover-letter.patch)
		# Subject and text of the cover, without git's shortlog and stat.
		tmp=$(mktemp -d)
		git mailinfo "$tmp/msg" "$tmp/patch" < "$TOP/patches/$p" > "$tmp/info"
		subject=$(sed -n 's/^Subject: //p' "$tmp/info")
		body=$(awk '/^[^ ].* \([0-9]+\):$/ {exit} {print}' "$tmp/msg")
		git config "branch.$BRANCH.description" "$subject

$body"
		rm -rf "$tmp"
		continue ;;
	esac
	[ -f "$TOP/patches/$p" ] || die "series names $p, which is not in patches/"
	git am -q --committer-date-is-author-date "$TOP/patches/$p" ||
		{ git am --abort; die "$p does not apply"; }
	# The notes below the patch's "---" (history for reviewers, which
	# git am drops) go back into git notes, which export.sh writes out.
	notes=$(awk 'n == 0 && /^---$/ { n = 1; next }
		     n == 1 && /^Notes:$/ { n = 2; next }
		     n == 1 && /^$/ { next }
		     n == 2 && /^    / { print substr($0, 5); next }
		     n >= 1 { exit }' "$TOP/patches/$p")
	[ -z "$notes" ] || git notes add -f -m "$notes" HEAD
	n=$((n + 1))
done
git tag -f "$APPLIED_TAG" >/dev/null
info "applied $n patches on $BASE_TAG: branch '$BRANCH' at $(git log -1 --format=%h)"
