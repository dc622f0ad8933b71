#!/bin/bash
# Boot the series kernel in the VM and run the in-VM tests; TAP output.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-k y|m] [--help]

Boots the kernel built by scripts/build.sh (-k, default m) with
selftests/vm-run.sh and runs selftests/smoke.sh, kyber-smoke.sh and
kyber-latency.sh inside.  Every TAP line the guest prints is renumbered
into this script's output, with the latency figures; a VM that hangs,
fails or logs a kernel warning is a failed test.
EOT
}
kyber=m
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts k:h opt; do
	case $opt in
	k) kyber=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; die "unexpected argument: $1"; }

release=$(cat "$BUILD/obj-$kyber/include/config/kernel.release" 2>/dev/null) ||
	die "no kernel built in $BUILD/obj-$kyber; run scripts/build.sh -k $kyber"
rc=0
"$TOP/selftests/vm-run.sh" -q -k "$kyber" -t 300 -- \
	bash -c "bash '$TOP/selftests/smoke.sh' '$release'; a=\$?
		 bash '$TOP/selftests/kyber-smoke.sh'; a=\$((a | \$?))
		 bash '$TOP/selftests/kyber-latency.sh'; exit \$((a | \$?))" \
	> "$BUILD/vm-run.log" 2>&1 || rc=$?
out=$BUILD/vm-last/xfer/output
if [ -f "$out" ]; then
	while IFS= read -r line; do
		case $line in
		"ok "*"# SKIP "*) line=${line#ok * - }
			tap_skip "vm: ${line%% # SKIP *}" "${line#* # SKIP }" ;;
		"ok "*) tap_ok "vm: ${line#ok * - }" ;;
		"not ok "*) tap_fail "vm: ${line#not ok * - }" ;;
		"# lat "*|"# write flood "*) echo "$line" ;;
		esac
	done < "$out"
fi
if [ "$rc" = 0 ]; then
	tap_ok "vm: boots, runs the tests and logs no kernel warning"
else
	tap_fail "vm: boots, runs the tests and logs no kernel warning (exit $rc)"
	tap_diag < "$BUILD/vm-run.log"
	tail -n 20 "$BUILD/vm-last/console.log" 2>/dev/null | tap_diag
fi
tap_end
