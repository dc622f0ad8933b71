#!/bin/bash
# Bisectability: build base and every commit of the series, with Kyber
# =y and =m at W=1, and run sparse on the C files each commit touches.
# A commit passes when its build succeeds and adds no warning.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-k y|m] [--help]

Checks out $BASE_TAG and then each commit of $BASE_TAG..$BRANCH in
$KSRC, builds it with scripts/build.sh (both Kyber =y and =m unless -k
says one), and compares warnings with those of $BASE_TAG, ignoring line
numbers.  sparse (C=2) runs on the C files each commit touches in the =y
build.  The checkout is restored afterwards.  TAP output.
EOT
}

kinds="y m"
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts k:h opt; do
	case $opt in
	k) kinds=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; die "unexpected argument: $1"; }
case $kinds in y|m|"y m") ;; *) die "-k takes y or m, not '$kinds'" ;; esac

need_base
need_clean_tree
need_group build check
cd "$KSRC"
orig=$(git symbolic-ref -q --short HEAD || git rev-parse HEAD)
trap 'git -C "$KSRC" checkout -q "$orig"' EXIT
base=$(git rev-parse "$BASE_TAG")
commits=$(git rev-list --reverse "$BASE_TAG..$BRANCH")

# "file: warning text" without line and column, and without the path to
# the tree, so that a warning moved by a patch is still the same one.
# A log that cannot be read (grep's 2) fails, not "no warning".
warnings() {
	local found rc=0

	found=$(grep -E ': (warning|error):' "$@") || rc=$?
	[ "$rc" -le 1 ] || return "$rc"
	[ -n "$found" ] || return 0
	printf '%s\n' "$found" |
		sed -E -e "s#^(\.\./linux/|$KSRC/)##" -e 's#^([^:]*):[0-9]+(:[0-9]+)?(-[0-9]+)?:#\1:#' |
		sort -u
}

build() {	# build KIND: the checked-out tree; stderr in obj-KIND/build.log
	"$TOP/scripts/build.sh" -k "$1" >/dev/null 2>&1
}

# sparse on the given C files (those this config builds), into a file.
sparse() {
	local obj=$BUILD/obj-y f
	: > "$2"
	for f in $1; do
		[ -f "$obj/${f%.c}.o" ] || continue
		"$TOP/scripts/build.sh" -k y -- C=2 "${f%.c}.o" >/dev/null 2>&1 || true
		cat "$obj/build.log" >> "$2"
	done
}

touched=$(git diff --name-only "$base" "$BRANCH" -- '*.c' | tr '\n' ' ')
for k in $kinds; do
	obj=$BUILD/obj-$k
	git checkout -q "$base"
	# The baseline must list every warning of the base, so it comes from a
	# full build (cheap with ccache); it is kept for later runs.
	basewarn=$BUILD/warnings-base-$k-$base
	if [ ! -f "$basewarn" ]; then
		[ -d "$obj" ] && "$TOP/scripts/build.sh" -k "$k" -- clean >/dev/null 2>&1
		if ! build "$k"; then
			tap_fail "build $BASE_TAG (Kyber=$k)"
			tail -n 20 "$obj/build.log" | tap_diag
			continue
		fi
		if ! warnings "$obj/build.log" > "$basewarn.tmp"; then
			tap_fail "build $BASE_TAG (Kyber=$k): its log cannot be read"
			continue
		fi
		mv "$basewarn.tmp" "$basewarn"
	elif ! build "$k"; then
		tap_fail "build $BASE_TAG (Kyber=$k)"
		tail -n 20 "$obj/build.log" | tap_diag
		continue
	fi
	tap_ok "build $BASE_TAG (Kyber=$k, W=1)"
	if [ "$k" = y ]; then
		sparse "$touched" "$BUILD/sparse-base.log"
		warnings "$BUILD/sparse-base.log" > "$BUILD/sparse-base.txt"
	fi

	for c in $commits; do
		git checkout -q "$c"
		name="$(git log -1 --format=%s "$c") (Kyber=$k, W=1)"
		if ! build "$k"; then
			tap_fail "build $name"
			grep -E -B2 -A8 'error|Error' "$obj/build.log" | head -n 40 | tap_diag
			continue
		fi
		if ! warnings "$obj/build.log" > "$BUILD/warnings.txt"; then
			tap_fail "build $name: its log cannot be read"
			continue
		fi
		new=$(comm -23 "$BUILD/warnings.txt" "$basewarn")
		if [ "$k" = y ]; then
			sparse "$(git diff --name-only "$c^" "$c" -- '*.c' | tr '\n' ' ')" "$BUILD/sparse.log"
			warnings "$BUILD/sparse.log" > "$BUILD/warnings.txt"
			new="$new$(comm -23 "$BUILD/warnings.txt" "$BUILD/sparse-base.txt")"
			name="$name + sparse"
		fi
		if [ -z "$new" ]; then
			tap_ok "build $name"
		else
			tap_fail "build $name: new warnings"
			echo "$new" | tap_diag
		fi
	done
done
tap_end
