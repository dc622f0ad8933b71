#!/bin/bash
# Every script of the project is valid bash, answers --help, and refuses
# an argument it does not know without doing anything.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

For each script in scripts/ and selftests/ that is meant to be run on the
host, and each kselftest of the kernel tree's block/kyber target: bash
-n, --help exits 0 with a usage line, and --no-such-option exits
non-zero with a message.  The scripts that run inside the test VM must
refuse, with exit 2 and a message and before doing anything, to run
here on the host with arguments that inside the VM would start them.
TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

ksft=$KSRC/tools/testing/selftests/block/kyber
for s in "$TOP"/scripts/*.sh "$TOP"/selftests/*.sh "$ksft"/*.sh; do
	[ -e "$s" ] || continue
	name=${s#"$KSRC"/tools/testing/selftests/}
	name=${name#"$TOP"/}
	case $name in
	scripts/lib.sh|selftests/kselftest-lib.sh|selftests/vm-only.sh|block/kyber/kyber_lib.sh)
		bash -n "$s" && tap_ok "$name parses" || tap_fail "$name parses"; continue ;;
	# The VM's init has no options: it must only refuse.
	selftests/vm-init.sh)
		bash -n "$s" && tap_ok "$name parses" || tap_fail "$name parses"; continue ;;
	esac
	if ! bash -n "$s"; then
		tap_fail "$name parses"
		continue
	fi
	help=$(bash "$s" --help 2>&1) && grep -q '^usage: ' <<<"$help" &&
		tap_ok "$name --help" || tap_fail "$name --help"
	if err=$(bash "$s" --no-such-option 2>&1 </dev/null); then
		tap_fail "$name refuses an unknown option"
	elif [ -n "$err" ]; then
		tap_ok "$name refuses an unknown option"
	else
		tap_fail "$name refuses an unknown option silently"
	fi
done

# refuses_here SCRIPT ARG...: a guest script, started as the VM would
# start it, exits 2 on the host with its message and writes nothing.
# Should its guard be gone, it must still not harm this machine (the
# VM's init mounts over /tmp and reboots it): a copy of it runs as user
# nobody, who can mount, reboot and set nothing.
refuses_here() {
	local s=$1 err rc=0

	shift
	err=$(cd "$tmp/cwd" && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		bash "$tmp/top/$s" "$@" 2>&1 </dev/null) || rc=$?
	if [ "$rc" = 2 ] && grep -q 'test VM' <<<"$err" && [ -z "$(ls -A "$tmp/cwd")" ]; then
		tap_ok "$s refuses to run on the host"
	else
		tap_fail "$s refuses to run on the host (exit $rc)"
		echo "$err" | tap_diag
	fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/top" "$tmp/cwd"
cp -r "$TOP/scripts" "$TOP/selftests" "$tmp/top/"
chmod -R a+rX "$tmp"
chmod a+w "$tmp/cwd"
refuses_here selftests/vm-init.sh
refuses_here selftests/smoke.sh "$(uname -r)"
refuses_here selftests/demo.sh -k "$tmp/cwd"
refuses_here selftests/noscratch.sh "$tmp/cwd" vda
refuses_here selftests/stress-vm.sh -k "$tmp/cwd" -o "$tmp/cwd/out"
refuses_here scripts/bench-vm.sh -k "$tmp/cwd" latency
rm -rf "$tmp/top" "$tmp/cwd"

# keeps_files DESC DIR SCRIPT ARG...: SCRIPT, given DIR to write to,
# fails saying it will not delete that directory, and leaves DIR's
# files alone.
keeps_files() {
	local desc=$1 dir=$2 rc=0 before

	shift 2
	before=$(ls -A "$dir" | md5sum)
	(cd "$dir" && bash "$@") > "$tmp.out" 2>&1 </dev/null || rc=$?
	if [ "$rc" != 0 ] && [ "$(ls -A "$dir" | md5sum)" = "$before" ] &&
	   grep -q -e 'not deleting them' -e 'its files would be deleted' "$tmp.out"; then
		tap_ok "$desc"
	else
		tap_fail "$desc (exit $rc)"
		tap_diag < "$tmp.out"
	fi
}
mkdir -p "$tmp/mine"
echo precious > "$tmp/mine/notes"
keeps_files "vm-run.sh -w refuses a directory with files it did not write" \
	"$tmp" "$TOP/selftests/vm-run.sh" -w "$tmp/mine" -- true
keeps_files "vm-run.sh -w . refuses the current directory" \
	"$tmp/mine" "$TOP/selftests/vm-run.sh" -w . -- true
keeps_files "send.sh -o refuses a directory with files it did not write" \
	"$tmp" "$TOP/scripts/send.sh" -n -o "$tmp/mine"
rm -f "$tmp.out"
tap_end
