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
with a tree of their own.  Last, exports a small made-up series with a
co-author and a reviewer, and checks that their trailers and authorship
survive while a placeholder identity's are replaced.  TAP output.
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
	"$TOP/scripts/export.sh" -o "$tmp/out" > "$tmp/export.log" 2>&1 ||
	{ tap_fail "export.sh runs"; tap_diag < "$tmp/export.log"; }
rm "$tmp/export.log"
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

# Other people's trailers: a tree of three files stands in for the kernel.
fake=$tmp/fake/linux jane="Jane Roe <jane@kernel.org>" me="Pat Doe <pat@doe.name>"
seed="Seed maintainers <m@users.noreply.seed.example>"
git init -q "$fake"
commit() {	# commit AUTHOR MESSAGE
	echo "${2%%$'\n'*}" >> "$fake/file"
	git -C "$fake" add file
	git -C "$fake" -c user.name=x -c user.email=x@x commit -q --author="$1" -m "$2"
}
commit "$seed" "Linux 6.12.1" && git -C "$fake" tag v6.12.1
commit "$seed" "block: remove Kyber" && git -C "$fake" tag "$BASE_TAG"
git -C "$fake" checkout -q -b "$BRANCH"
commit "$jane" "lib: one

Signed-off-by: $jane
Reviewed-by: Rev Iewer <rev@iewer.org>
Signed-off-by: $seed"
commit "$seed" "block: two

Signed-off-by: $seed"
git -C "$fake" config "branch.$BRANCH.description" "cover"
if KYBER_BUILD=$tmp/fake GIT_AUTHOR_NAME=${me% <*} GIT_AUTHOR_EMAIL=pat@doe.name \
   "$TOP/scripts/export.sh" -o "$tmp/fake/out" > "$tmp/fake/log" 2>&1 &&
   grep -q "^From: $jane" "$tmp/fake/out/0001-"* &&
   [ "$(grep -E -e '-by: ' "$tmp/fake/out/0001-"*)" = "Signed-off-by: $jane
Reviewed-by: Rev Iewer <rev@iewer.org>
Signed-off-by: $me" ] &&
   grep -q "^From: $me" "$tmp/fake/out/0002-"* &&
   [ "$(grep -E -e '-by: ' "$tmp/fake/out/0002-"*)" = "Signed-off-by: $me" ]; then
	tap_ok "export keeps a co-author's authorship, sign-off and reviewer, replaces a placeholder's"
else
	tap_fail "export keeps a co-author's authorship, sign-off and reviewer, replaces a placeholder's"
	cat "$tmp/fake/log" "$tmp/fake/out"/000[12]-* 2>/dev/null | tap_diag
fi
tap_end
