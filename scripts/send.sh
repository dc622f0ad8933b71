#!/bin/bash
# Turn patches/ into mails for the lists: subject prefix and version,
# recipients from get_maintainer.pl; send them with git send-email, or
# (-n) only write them and let git send-email check them.
set -eu
. "$(dirname "$0")/lib.sh"

PREFIX="RFC PATCH"	# the base is not a kernel.org commit: not for merging yet

usage() {
	cat <<EOT
usage: ${0##*/} [-n] [-o DIR] [--help]

Writes the cover letter and the patches named in series as mails to DIR
(default $BUILD/mail/vN; -o: a new or empty directory, or one send.sh
made, since it is emptied first):
  Subject: [$PREFIX vN MM/NN] ..., N the newest "vN:" line of the cover
           letter's changelog (its "Changes:" paragraph);
  To:      the maintainers and supporters scripts/get_maintainer.pl names
           for any patch of the series (with its MAINTAINERS entry), and
  Cc:      the lists and reviewers it names: every mail goes to all of
           them, so that each sees the whole series.  The author is left
           out: he is the sender.
Then runs git send-email on them: with -n as --dry-run (nothing leaves
the machine; its log goes to DIR/send-email.log), else for real, asking
before each mail.  Sending needs your git identity to be the patches'
author (make export makes it so) and refuses reserved domains such as
example.org.  $PREREQ/ is not mailed: the cover letter
names it as prerequisite-patch-id.
EOT
}

dry="" out=""
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts no:h opt; do
	case $opt in
	n) dry=1 ;;
	o) out=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; die "unexpected argument: $1"; }
[ -z "$out" ] || may_clear "$out"

need_base
need_group post
cover=$TOP/patches/$(series_patches | head -n 1)
case $cover in *0000-cover-letter.patch) ;; *) die "series does not start with the cover letter" ;; esac

# The version: the highest "vN:" that starts a line of the cover letter.
ver=$(sed -n 's/^v\([0-9][0-9]*\):.*/\1/p' "$cover" | sort -n | tail -n 1)
[ -n "$ver" ] || die "the cover letter has no changelog line \"vN: ...\"; add one (git branch --edit-description $BRANCH, then make export)"
out=${out:-$BUILD/mail/v$ver}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# from PATCH: the author, as "Name <email>".
from() {
	git mailinfo "$tmp/msg" "$tmp/patch" < "$1" > "$tmp/info" || die "$1 is not a mail"
	sed -n 's/^Author: //p; s/^Email: //p' "$tmp/info" | paste -sd'\t' | sed 's/\t\(.*\)/ <\1>/' |
		grep . || die "$1 has no author"
}
author=$(from "$cover")
# A patch by someone else stays theirs (git send-email puts their From:
# in the body); one by a placeholder identity was not exported by you.
for p in $(series_patches); do
	a=$(from "$TOP/patches/$p")
	[ "$a" = "$author" ] || ! placeholder "$a" ||
		die "$p is by $a, a placeholder, not by $author, the cover letter's author; run make export"
done

if [ -z "$dry" ]; then
	me=$(author_ident)
	[ "$me" = "$author" ] || die "you are $me but the patches are by $author; run make export first"
	! placeholder "$author" || die "$author is on a reserved domain: no list would accept it"
fi

# MAINTAINERS as it is with the series applied, for get_maintainer.pl.
mkdir "$tmp/m"
git -C "$KSRC" show "$BASE_TAG:MAINTAINERS" > "$tmp/m/MAINTAINERS"
for p in $(series_patches | tail -n +2); do
	(cd "$tmp/m" && git apply --include=MAINTAINERS "$TOP/patches/$p") ||
		die "$p does not apply to MAINTAINERS of $BASE_TAG"
done

# recipients PATCH...: "to ADDRESS" and "cc ADDRESS" lines, author left out.
recipients() {
	(cd "$KSRC" && perl scripts/get_maintainer.pl --mpath "$tmp/m/MAINTAINERS" \
		--no-git --no-git-fallback --roles "$@") > "$tmp/gm" ||
		die "get_maintainer.pl failed; no mail is written"
	awk -v me="$author" '{
		role = $0; sub(/.* \(/, "", role); addr = $0; sub(/ \([^(]*\)$/, "", addr)
		if (addr == me) next
		print (role ~ /^(open list|list|moderated list|reviewer)/ ? "cc " : "to ") addr
	}' "$tmp/gm" | sort -u
}

# header TYPE FILE: the addresses of one type, comma separated.
header() { sed -n "s/^$1 //p" "$2" | paste -sd, | sed 's/,/, /g'; }

fresh_dir "$out"
patches=$(series_patches | tail -n +2 | sed "s,^,$TOP/patches/,")
# shellcheck disable=SC2086
recipients $patches > "$tmp/all"
to=$(header to "$tmp/all") cc=$(header cc "$tmp/all")
[ -n "$to" ] || die "get_maintainer.pl names no maintainer for the series"
for p in $(series_patches); do
	# Headers end at the first empty line; the new ones go just before it.
	awk -v pre="$PREFIX v$ver " -v to="$to" -v cc="$cc" '
		!done && /^Subject: \[PATCH / { sub(/^Subject: \[PATCH /, "Subject: [" pre) }
		!done && /^$/ {
			print "To: " to
			if (cc != "") print "Cc: " cc
			done = 1
		}
		{ print }' "$TOP/patches/$p" > "$out/$p"
done
info "wrote $(series_patches | wc -l) mails to $out"

# Recipients come from each mail's own To: and Cc:; stdin is closed so
# that git send-email cannot stop to ask for more.
set -- git send-email --from="$author" --no-chain-reply-to --suppress-cc=self
if [ -n "$dry" ]; then
	"$@" --confirm=never --dry-run "$out"/*.patch < /dev/null > "$out/send-email.log" 2>&1 ||
		{ cat "$out/send-email.log" >&2; die "git send-email --dry-run refused the mails"; }
	info "git send-email --dry-run accepted them: $out/send-email.log"
else
	"$@" --confirm=always "$out"/*.patch
fi
