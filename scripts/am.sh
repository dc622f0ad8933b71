#!/bin/bash
# Apply the series with git am to a kernel tree of your own.
set -eu
# The committer is whoever runs this: keep the caller's identity, not the
# workshop's fixed one that lib.sh sets for reproducible ids.
committer=${GIT_COMMITTER_NAME-}/${GIT_COMMITTER_EMAIL-}
. "$(dirname "$0")/lib.sh"
unset GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
[ "$committer" = / ] || export GIT_COMMITTER_NAME="${committer%/*}" GIT_COMMITTER_EMAIL="${committer##*/}"

usage() {
	cat <<EOT
usage: ${0##*/} TREE
       ${0##*/} --help

Applies the series to the branch checked out in the git work tree TREE,
a Linux 6.12.y tree (Debian's linux-source-6.12 imported into git, or
kernel.org's stable tree at v6.12.N).  When TREE still has the in-tree
Kyber, $PREREQ/ goes first; then the patches that series
names after the cover letter.  Commits get your git identity as
committer.  TREE must be clean; when a patch does not apply, git am is
aborted and TREE is left as it was.
EOT
}
case "${1-}" in
-h|--help) usage; exit 0 ;;
"") usage >&2; die "no TREE given" ;;
-*) usage >&2; die "unknown option: $1" ;;
esac
[ $# = 1 ] || { usage >&2; die "one TREE only"; }
tree=$1

git -C "$tree" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
	die "$tree is not a git work tree with a commit"
[ -f "$tree/block/blk-mq.c" ] || die "$tree is not a Linux tree"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; commit or stash them first"

set --
if [ -f "$tree/block/kyber-iosched.c" ]; then
	set -- "$TOP/$PREREQ"/*.patch
	[ -f "$1" ] || die "no patch in $PREREQ/"
fi
for p in $(series_patches | tail -n +2); do
	set -- "$@" "$TOP/patches/$p"
done

head=$(git -C "$tree" rev-parse HEAD)
git -C "$tree" am -q "$@" || {
	git -C "$tree" am --abort
	die "the series does not apply to $tree ($(git -C "$tree" log -1 --format=%s "$head"))"
}
info "applied $# patches to $tree: $(git -C "$tree" log -1 --format='%h %s')"
