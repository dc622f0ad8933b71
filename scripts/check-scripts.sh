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
non-zero with a message.  TAP output.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

ksft=$KSRC/tools/testing/selftests/block/kyber
for s in "$TOP"/scripts/*.sh "$TOP"/selftests/*.sh "$ksft"/*.sh; do
	[ -e "$s" ] || continue
	name=${s#"$KSRC"/tools/testing/selftests/}
	name=${name#"$TOP"/}
	case $name in
	scripts/lib.sh|selftests/kselftest-lib.sh|block/kyber/kyber_lib.sh)
		bash -n "$s" && tap_ok "$name parses" || tap_fail "$name parses"; continue ;;
	# These run inside the VM, not on the host.
	selftests/vm-init.sh|selftests/smoke.sh|selftests/demo.sh)
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
tap_end
