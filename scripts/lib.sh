# shellcheck shell=bash
# Settings and helpers shared by the project's scripts.  Sourced, not run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${KYBER_BUILD:-$TOP/build}
KSRC=$BUILD/linux			# the kernel git tree
TARBALL=/usr/src/linux-source-6.12.tar.xz
BASE_TAG=base				# 6.12.y with the in-tree Kyber removed
BRANCH=series				# working branch: base + patches/
APPLIED_TAG=applied			# what apply.sh last put on $BRANCH
PREREQ=patches/prerequisite		# the removal commit as a patch

# Reproducible commits: the base tree and the applied series get the same
# ids on every machine that has the same tarball.
export GIT_COMMITTER_NAME="Kyber series" GIT_COMMITTER_EMAIL="kyber@localhost"

# ccache keys on paths relative to this directory, so a fresh clone in
# another folder still hits the cache of an earlier one.
export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

die()  { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
info() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }

# Debian packages each kind of work needs.
PKGS_base="git xz-utils linux-source-6.12"
PKGS_build="gcc make flex bison bc libelf-dev libssl-dev ccache cpio kmod python3 perl"
PKGS_check="sparse coccinelle ocaml-nox codespell python3-ply python3-git"	# ocaml-nox: semantic patches scripted in OCaml
PKGS_vm="qemu-system-x86 fio rsync kmod e2fsprogs"	# rsync: kselftest install; kmod: modules; e2fsprogs: mkfs.ext4
PKGS_bench="gnuplot-nox python3"	# scripts/bench.sh: the plot, the report
PKGS_post="git-email libmailtools-perl libio-socket-ssl-perl"	# scripts/send.sh

# need PKG... : install the packages that are missing (as root, via apt).
need() {
	local missing="" p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root or install them)"
	info "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# A fresh machine may be running apt already (unattended upgrades
	# after its first boot): wait for the package lock, not fail.
	set -- -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends
	# shellcheck disable=SC2086
	apt-get install "$@" $missing >/dev/null ||
		{ apt-get update -q -o DPkg::Lock::Timeout=600 >/dev/null &&
		  apt-get install "$@" $missing >/dev/null; } ||
		die "could not install:$missing"
}

# need_group NAME... : install the packages of the named groups.
need_group() {
	local g list=""
	for g in "$@"; do
		eval "list=\"\$list \$PKGS_$g\""
	done
	# shellcheck disable=SC2086
	need $list
}

# The base tree must exist for everything but base-tree.sh itself.
need_base() {
	git -C "$KSRC" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null ||
		die "no base tree in $KSRC; run scripts/base-tree.sh first"
}

# Refuse to touch a kernel tree with uncommitted work in it.
need_clean_tree() {
	[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
		die "$KSRC has uncommitted changes; commit or stash them first"
}

# may_clear DIR: DIR is ours to delete: missing or empty, under $BUILD,
# or marked as made by one of these scripts (fresh_dir) and never ".",
# the home directory, / or this project.  Dies otherwise, saying why.
OWN_MARK=.made-by-kyber-scripts
may_clear() {
	local dir

	dir=$(realpath -m "$1")
	case $dir in
	/|"$(realpath -m "$HOME")"|"$(pwd -P)"|"$TOP")
		die "$1: give a directory of its own, not this one: its files would be deleted" ;;
	"$BUILD"/*) return 0 ;;
	esac
	[ -d "$dir" ] || [ ! -e "$dir" ] || die "$1 is not a directory"
	[ ! -d "$dir" ] || [ -z "$(ls -A "$dir")" ] || [ -f "$dir/$OWN_MARK" ] ||
		die "$1 has files that ${0##*/} did not write; not deleting them: give a new or empty directory"
}

# fresh_dir DIR: an empty DIR (may_clear must allow it), marked as ours.
fresh_dir() {
	may_clear "$1"
	rm -rf "$1"
	mkdir -p "$1"
	echo "made by ${0##*/}, which deletes it when run again with it" > "$1/$OWN_MARK"
}

# install_kselftests DIR: the kernel tree's block/kyber kselftests and
# the kselftest helpers they source, installed in DIR for the VM (which
# sees the host's / read-only, at the same paths), out of the tree: the
# objects in DIR-obj, make's output in DIR-install.log.  Fails, saying
# why in that log, when the tree has no such target or it does not
# install.
install_kselftests() {
	local dir=$1 log=$1-install.log

	rm -rf "$dir"
	if [ ! -d "$KSRC/tools/testing/selftests/block/kyber" ]; then
		echo "no tools/testing/selftests/block/kyber in $KSRC" > "$log"
		return 1
	fi
	make -s -C "$KSRC/tools/testing/selftests" TARGETS=block/kyber \
		O="$dir-obj" KSFT_INSTALL_PATH="$dir" install > "$log" 2>&1
}

# author_ident: "Name <email>" of whoever exports or sends the series:
# GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL when set, else git config
# user.name and user.email.  No identity is made up.
author_ident() {
	local name email
	name=${GIT_AUTHOR_NAME:-$(git -C "$TOP" config user.name || true)}
	email=${GIT_AUTHOR_EMAIL:-$(git -C "$TOP" config user.email || true)}
	[ -n "$name" ] && [ -n "$email" ] ||
		die "no author identity: set git config user.name and user.email" \
		    "(or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL); they become From:" \
		    "and Signed-off-by: of every patch"
	printf '%s <%s>\n' "$name" "$email"
}

# placeholder IDENT: "Name <email>" is on a reserved domain (RFC 2606,
# 6761), an address no list would accept and nobody reads: the kind of
# identity a workshop's own commits carry, not a person's.
placeholder() {
	case ${1##*@} in
	*.example\>|example.com\>|example.net\>|example.org\>|*.invalid\>|*.test\>|localhost\>|*.localhost\>)
		return 0 ;;
	esac
	return 1
}

# signed_by IDENT: the commit message on stdin, signed off by IDENT (once,
# last if new), keeping every other trailer and every person's
# Signed-off-by; only placeholder sign-offs other than IDENT go.
signed_by() {
	local line

	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"Signed-off-by: "*)
			[ "${line#Signed-off-by: }" != "$1" ] &&
				placeholder "${line#Signed-off-by: }" && continue ;;
		esac
		printf '%s\n' "$line"
	done | git stripspace |
		git interpret-trailers --if-exists addIfDifferent --trailer "Signed-off-by: $1"
}

# The base tree's kernel release tag (v6.12.N): the commit the prerequisite
# patch applies to and the cover letter's base-commit.
release_tag() {
	git -C "$KSRC" describe --tags --exact-match "$BASE_TAG^" 2>/dev/null ||
		die "$BASE_TAG^ is not a tagged release; remake the base tree"
}

# series_stamp: what the benchmark figures were measured on, as a name
# that changes when the kernel the series builds changes and only then:
# a hash of the series' diff, without its documentation, kselftests and
# KUnit suites (built only with KUnit, which no benchmark kernel has).
# The results files and the check of figures name the series by it.
series_stamp() {
	git -C "$KSRC" diff "$BASE_TAG" "$BRANCH" -- . ':!Documentation' ':!tools/testing' \
		':!block/kyber-iosched-test.c' ':!lib/sbitmap_kunit.c' |
		git hash-object --stdin | cut -c1-12
}

# The patch files named by the series file, in order.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/series"
}

# TAP output for the checks: one "ok"/"not ok" line per result, counted
# by scripts/check.sh.
TAP_N=0 TAP_FAILED=0
tap_ok()   { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $*"; }
tap_fail() { TAP_N=$((TAP_N + 1)); TAP_FAILED=$((TAP_FAILED + 1)); echo "not ok $TAP_N - $*"; }
tap_skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"; }
# tap_end: the plan line and an exit status that says whether all passed.
tap_end()  { echo "1..$TAP_N"; [ "$TAP_FAILED" = 0 ]; }
# Indent details under a result line so that they read as TAP diagnostics.
tap_diag() { sed 's/^/# /'; }

# gate_run NAME COMMAND...: one check of make check.  Passes its output
# through and counts its results in GATE_PASSED, GATE_FAILED and
# GATE_SKIPPED ("1..0 # SKIP why" counts as one skip).  The check also
# fails as a whole, once, when it exits non-zero with no failing result
# (it crashed: a die, a missing tool) or when its plan line is missing
# or disagrees with its number of results (it stopped early).
GATE_PASSED=0 GATE_FAILED=0 GATE_SKIPPED=0
gate_run() {
	local name=$1 line rc="" plan="" n=0 bad=0

	shift
	while IFS= read -r line; do
		case $line in
		"") continue ;;
		"# gate: exit "*) rc=${line#"# gate: exit "}; continue ;;
		"ok "*"# SKIP"*) GATE_SKIPPED=$((GATE_SKIPPED + 1)); n=$((n + 1)) ;;
		"ok "*) GATE_PASSED=$((GATE_PASSED + 1)); n=$((n + 1)) ;;
		"not ok "*) GATE_FAILED=$((GATE_FAILED + 1)); n=$((n + 1)) bad=$((bad + 1)) ;;
		"1..0 # SKIP"*) GATE_SKIPPED=$((GATE_SKIPPED + 1)); plan=0 ;;
		"1.."*) plan=${line#1..}; plan=${plan%% *} ;;
		esac
		printf '%s\n' "$line"
	done < <("$@" 2>&1; printf '\n# gate: exit %s\n' "$?")

	if [ "$rc" != 0 ] && [ "$bad" = 0 ]; then
		gate_fail $((n + 1)) "$name: exits with $rc but reports no failure: it crashed"
	elif [ -z "$plan" ]; then
		gate_fail $((n + 1)) "$name: has no plan line: it stopped before its end"
	elif [ "$plan" != "$n" ]; then
		gate_fail $((n + 1)) "$name: plans $plan results but reports $n"
	fi
}
gate_fail() { GATE_FAILED=$((GATE_FAILED + 1)); echo "not ok $1 - $2"; }
