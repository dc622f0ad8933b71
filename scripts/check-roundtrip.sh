#!/bin/bash
# The series applies to the base, and exporting it again gives back
# exactly patches/ and series: nothing was hand-edited.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Runs scripts/apply.sh, then scripts/export.sh into a scratch directory,
and compares the result with patches/, $PREREQ/ and series; then
applies the prerequisite and the series with scripts/am.sh to a
worktree of the release the base starts from, as the README tells users
with a tree of their own.  TAP output.
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

# Export as the patches' author: the round trip must not depend on who
# runs it (export.sh stamps its caller's identity).
git mailinfo "$tmp/msg" "$tmp/patch" < "$TOP/patches/$(series_patches | head -n 1)" > "$tmp/info"
GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$tmp/info") \
GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$tmp/info") \
	"$TOP/scripts/export.sh" -o "$tmp/out" 2>&1 | tap_diag
rm "$tmp/msg" "$tmp/patch" "$tmp/info"
mkdir -p "$tmp/want/prerequisite"
cp "$TOP/series" "$tmp/want/series"
cp "$TOP/$PREREQ"/*.patch "$tmp/want/prerequisite/"
for p in $(series_patches); do cp "$TOP/patches/$p" "$tmp/want/"; done
extra=$(cd "$TOP/patches" && ls -- *.patch | grep -vxF -f "$TOP/series" || true)
if d=$(cd "$tmp" && diff -ru want out 2>&1) && [ -z "$extra" ]; then
	tap_ok "export after apply reproduces patches/, $PREREQ/ and series"
else
	tap_fail "export after apply reproduces patches/, $PREREQ/ and series"
	{ echo "$d" | head -n 40; [ -z "$extra" ] || echo "in patches/ but not in series: $extra"; } | tap_diag
fi

# What the README tells a user with a tree of his own: am.sh on Linux
# 6.12.N as imported from the tarball gives the tree apply.sh gives.
release=$(release_tag)
git -C "$KSRC" worktree prune
if ! out=$(git -C "$KSRC" worktree add -q --detach "$tmp/tree" "$release" 2>&1); then
	tap_fail "am.sh applies $PREREQ/ and the series to $release"
	echo "$out" | tap_diag
elif out=$(GIT_COMMITTER_NAME=check GIT_COMMITTER_EMAIL=check@localhost \
	   "$TOP/scripts/am.sh" "$tmp/tree" 2>&1) &&
     [ "$(git -C "$tmp/tree" rev-parse "HEAD^{tree}")" = "$(git -C "$KSRC" rev-parse "$APPLIED_TAG^{tree}")" ]; then
	tap_ok "am.sh applies $PREREQ/ and the series to $release, as apply.sh does to $BASE_TAG"
else
	tap_fail "am.sh applies $PREREQ/ and the series to $release, as apply.sh does to $BASE_TAG"
	echo "$out" | tap_diag
fi
rm -rf "$tmp/tree"
git -C "$KSRC" worktree prune
tap_end
