#!/bin/bash
# The series can be mailed: export stamps the user's identity and no
# other, and the dry run of send.sh gives mails a list would take.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Exports without an identity and as another author (into scratch
directories), then runs scripts/send.sh -n and checks every mail: From,
Subject "[RFC PATCH vN MM/NN]" in series order, To and Cc, the author's
Signed-off-by, the MAINTAINERS entry, and that the cover letter's
base-commit and prerequisite-patch-id resolve in $KSRC.  TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

need_base
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cover=$TOP/patches/$(series_patches | head -n 1)
n=$(($(series_patches | wc -l) - 1))

# author FILE: the From of a patch or mail, as "Name <email>".
author() {
	git mailinfo "$tmp/msg" "$tmp/patch" < "$1" |
		sed -n 's/^Author: //p; s/^Email: //p' | paste -sd'\t' | sed 's/\t\(.*\)/ <\1>/'
}
me=$(author "$cover")

# 1. No identity: a clear error, nothing written.
if err=$(env -u GIT_AUTHOR_NAME -u GIT_AUTHOR_EMAIL HOME="$tmp" XDG_CONFIG_HOME="$tmp" \
	 GIT_CONFIG_NOSYSTEM=1 "$TOP/scripts/export.sh" -o "$tmp/none" 2>&1); then
	tap_fail "export without an author identity stops"
elif grep -q 'user.name' <<<"$err" && [ ! -e "$tmp/none" ]; then
	tap_ok "export without an author identity stops with a clear error and writes nothing"
else
	tap_fail "export without an author identity stops with a clear error and writes nothing"
	echo "$err" | tap_diag
fi

# 2. Another author: he is the only From and Signed-off-by.
other="A. U. Thor <a.u.thor@example.org>"
GIT_AUTHOR_NAME=${other% <*} GIT_AUTHOR_EMAIL=a.u.thor@example.org \
	"$TOP/scripts/export.sh" -o "$tmp/other" > "$tmp/export.log" 2>&1 ||
	{ tap_fail "export.sh runs as another author"; tap_diag < "$tmp/export.log"; }
bad=""
for f in "$tmp"/other/*.patch "$tmp"/other/prerequisite/*.patch; do
	[ "$(author "$f")" = "$other" ] || bad="$bad ${f##*/}:From"
	case $f in */0000-cover-letter.patch) continue ;; esac
	[ "$(grep '^Signed-off-by: ' "$f" | sort -u)" = "Signed-off-by: $other" ] ||
		bad="$bad ${f##*/}:Signed-off-by"
done
[ -z "$bad" ] && [ -e "$f" ] &&
	tap_ok "export as another author makes him From: and the only Signed-off-by: of every patch" ||
	tap_fail "export as another author makes him From: and the only Signed-off-by: ($bad)"

# 3. The dry run.
if ! "$TOP/scripts/send.sh" -n -o "$tmp/mail" > "$tmp/send.out" 2>&1; then
	tap_fail "send.sh -n writes the mails"
	tap_diag < "$tmp/send.out"
	tap_end
	exit 1
fi
tap_ok "send.sh -n writes the mails and git send-email --dry-run accepts them"
ver=$(sed -n 's/^v\([0-9][0-9]*\):.*/\1/p' "$cover" | sort -n | tail -n 1)

i=0 from="" subj="" rcpt="" sob=""
for p in $(series_patches); do
	m=$tmp/mail/$p
	[ -f "$m" ] || { from="$from $p:missing"; continue; }
	[ "$(author "$m")" = "$me" ] || from="$from $p"
	want=$(printf '[RFC PATCH v%s %02d/%02d]' "$ver" "$i" "$n")
	got=$(sed -n '/^$/q; s/^Subject: \(\[[^]]*\]\).*/\1/p' "$m")
	[ "$got" = "$want" ] || subj="$subj $p:$got"
	hdr=$(sed '/^$/q' "$m")
	grep -q '^To: .*@' <<<"$hdr" && grep -q '^Cc: .*linux-block@vger.kernel.org' <<<"$hdr" ||
		rcpt="$rcpt $p"
	[ "$i" = 0 ] || grep -qxF "Signed-off-by: $me" "$m" || sob="$sob $p"
	i=$((i + 1))
done
[ -z "$from" ] && tap_ok "every mail is from the patches' author, $me" ||
	tap_fail "every mail is from the patches' author ($from)"
[ -z "$subj" ] && tap_ok "subjects read [RFC PATCH v$ver MM/$n] in series order" ||
	tap_fail "subjects read [RFC PATCH v$ver MM/$n] in series order ($subj)"
[ -z "$rcpt" ] && tap_ok "every mail has To: and Cc: linux-block" ||
	tap_fail "every mail has To: and Cc: linux-block ($rcpt)"
[ -z "$sob" ] && tap_ok "every patch is signed off by its author" ||
	tap_fail "every patch is signed off by its author ($sob)"
[ "$(grep -c '^Dry-OK' "$tmp/mail/send-email.log")" = $((n + 1)) ] &&
	tap_ok "git send-email --dry-run would send all $((n + 1)) mails" ||
	tap_fail "git send-email --dry-run would send all $((n + 1)) mails"

# 4. The MAINTAINERS entry names the author and the list.
entry=$(cat "$TOP"/patches/*.patch | sed -n '/^+KYBER I\/O SCHEDULER$/,/^+$/p')
grep -qxF "+M:	$me" <<<"$entry" && grep -qxF "+L:	linux-block@vger.kernel.org" <<<"$entry" &&
	tap_ok "MAINTAINERS: Kyber's M: is the author and its L: linux-block" ||
	tap_fail "MAINTAINERS: Kyber's M: is the author and its L: linux-block"

# 5. base-commit and prerequisite-patch-id resolve.
release=$(release_tag)
base=$(sed -n 's/^base-commit: //p' "$cover")
[ "$base" = "$(git -C "$KSRC" rev-parse "$release^{commit}")" ] &&
	tap_ok "base-commit is $release in $KSRC" ||
	tap_fail "base-commit ${base:-(none)} is $release in $KSRC"
pre=$(sed -n 's/^prerequisite-patch-id: //p' "$cover")
removal=$(git -C "$KSRC" show "$BASE_TAG" | git patch-id --stable | cut -d' ' -f1)
# The file in $PREREQ/ is that removal: applied to the release (in a
# scratch index) it gives the base's tree.
tree=$(export GIT_INDEX_FILE=$tmp/index
       git -C "$KSRC" read-tree "$release" &&
       git -C "$KSRC" apply --cached "$TOP/$PREREQ"/*.patch &&
       git -C "$KSRC" write-tree) || tree=""
[ -n "$pre" ] && [ "$pre" = "$removal" ] && [ "$tree" = "$(git -C "$KSRC" rev-parse "$BASE_TAG^{tree}")" ] &&
	tap_ok "prerequisite-patch-id is the removal ($BASE_TAG), and $PREREQ/ turns $release into $BASE_TAG" ||
	tap_fail "prerequisite-patch-id ${pre:-(none)} is the removal $removal, and $PREREQ/ turns $release into $BASE_TAG"

# 6. Sending for real needs the sender to be the author.
if err=$(GIT_AUTHOR_NAME=${other% <*} GIT_AUTHOR_EMAIL=a.u.thor@example.org \
	 "$TOP/scripts/send.sh" -o "$tmp/real" 2>&1 </dev/null); then
	tap_fail "send.sh refuses to send as someone other than the author"
else
	grep -q 'run make export' <<<"$err" &&
		tap_ok "send.sh refuses to send as someone other than the author" ||
		{ tap_fail "send.sh refuses to send as someone other than the author"; echo "$err" | tap_diag; }
fi
tap_end
