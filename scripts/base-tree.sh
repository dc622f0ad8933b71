#!/bin/bash
# Make the base tree: Debian's linux-source-6.12 imported into git as
# "Linux 6.12.N", plus one commit that removes the in-tree Kyber and the
# block-core and sbitmap pieces that exist only for it.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Creates $KSRC from $TARBALL (installing linux-source-6.12
when missing): commit "Linux 6.12.N" tagged v6.12.N, then the base commit
tagged '$BASE_TAG'.  A second run reuses what exists.  Commit ids are the
same on every machine with the same tarball.
EOT
}

case "${1-}" in
-h|--help) usage; exit 0 ;;
"") ;;
*) usage >&2; die "unknown argument: $1" ;;
esac

need_group base

if git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1; then
	info "base tree exists: $(git -C "$KSRC" log -1 --format='%h %s' "$BASE_TAG")"
	exit 0
fi

# --- the tarball import ---------------------------------------------------
import_tarball() {
	local tmp
	[ -e "$KSRC" ] && die "$KSRC exists but is not a base tree; remove it"
	mkdir -p "$BUILD"
	tmp=$(mktemp -d "$BUILD/import.XXXXXX")
	info "extracting $TARBALL"
	tar -xf "$TARBALL" -C "$tmp"
	mv "$tmp"/linux-source-6.12 "$KSRC"
	rmdir "$tmp"
	git -C "$KSRC" init -q -b master
	git -C "$KSRC" config gc.auto 0
	git -C "$KSRC" config core.abbrev 12
	info "importing into git"
	git -C "$KSRC" add -A -f
}

kernel_version() {
	awk '/^VERSION =/ {v=$3} /^PATCHLEVEL =/ {p=$3} /^SUBLEVEL =/ {s=$3}
	     END {print v "." p "." s}' "$KSRC/Makefile"
}

# Both commits carry the date of the tarball's Makefile, so that ids do
# not depend on when or where the script ran.
commit() {
	local date
	date="@$(stat -c %Y "$KSRC/Makefile") +0000"
	GIT_AUTHOR_NAME="$GIT_COMMITTER_NAME" GIT_AUTHOR_EMAIL="$GIT_COMMITTER_EMAIL" \
	GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date" \
		git -C "$KSRC" commit -q --no-verify "$@"
}

if ! git -C "$KSRC" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	[ -d "$KSRC/.git" ] && rm -rf "$KSRC"	# an import that died half-way
	import_tarball
	ver=$(kernel_version)
	deb=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	commit -m "Linux $ver" -m "Imported from Debian's linux-source-6.12 $deb."
	git -C "$KSRC" tag "v$ver"
fi
ver=$(kernel_version)
# Start the removal from the tarball import, whatever an earlier run left.
git -C "$KSRC" reset -q --hard "v$ver"

# --- the removal ------------------------------------------------------------
# cut FILE PERL-REGEX: delete the one text the regex matches, or fail.
cut() {
	RE=$2 perl -0777 -i -pe 's/$ENV{RE}//s or die "text to remove not found\n"' \
		"$KSRC/$1" || die "$1 does not look like 6.12; cannot make the base"
}

info "removing the in-tree Kyber from Linux $ver"
git -C "$KSRC" rm -q block/kyber-iosched.c include/trace/events/kyber.h \
	Documentation/block/kyber-iosched.rst
cut block/Makefile 'obj-\$\(CONFIG_MQ_IOSCHED_KYBER\)\s+\+= kyber-iosched\.o\n'
cut block/Kconfig.iosched 'config MQ_IOSCHED_KYBER\n.*?\n\n'
cut Documentation/block/index.rst '   kyber-iosched\n'
# The completion hook: only Kyber implements it.
cut block/elevator.h '\tvoid \(\*completed_request\)\(struct request \*, u64\);\n'
cut block/blk-mq-sched.h 'static inline void blk_mq_sched_completed_request\(.*?\n}\n\n'
cut block/blk-mq.c '\tblk_mq_sched_completed_request\(rq, now\);\n'
# sbitmap's add/del wait-queue helpers: nothing but Kyber calls them.
cut lib/sbitmap.c 'void sbitmap_add_wait_queue\(.*?EXPORT_SYMBOL_GPL\(sbitmap_del_wait_queue\);\n\n'
cut include/linux/sbitmap.h '/\*\n \* Wrapper around add_wait_queue\(\).*?void sbitmap_del_wait_queue\(struct sbq_wait \*sbq_wait\);\n\n'
# Built-in callers need no export; it exists for a modular Kyber.
cut block/blk-merge.c 'EXPORT_SYMBOL_GPL\(blk_bio_list_merge\);\n'

left=$(git -C "$KSRC" grep -n -E 'kyber-iosched|CONFIG_MQ_IOSCHED_KYBER|[^_]completed_request\)|sbitmap_(add|del)_wait_queue' \
	-- block include lib Documentation/block || true)
[ -z "$left" ] || die "Kyber pieces left behind:
$left"

git -C "$KSRC" add -A
commit -F - <<EOT
block: remove Kyber to form the base of the Kyber series

The Kyber series adds the Kyber I/O scheduler from scratch.  Linux $ver
already carries one, so take it out first, together with everything in
the tree that exists only for it:

- block/kyber-iosched.c, its trace events, Kconfig and Makefile entries
  and its documentation;
- the elevator completed_request() hook and its one call site;
- sbitmap_add_wait_queue() and sbitmap_del_wait_queue(), which nothing
  else calls;
- the export of blk_bio_list_merge(), whose other callers are built in.

Defconfigs that mention CONFIG_MQ_IOSCHED_KYBER are left alone: the
series brings the symbol back.
EOT
git -C "$KSRC" tag "$BASE_TAG"
git -C "$KSRC" checkout -q -B "$BRANCH"
info "base: $(git -C "$KSRC" log -1 --format='%h %s' "$BASE_TAG") on Linux $ver"
