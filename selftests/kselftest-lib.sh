# shellcheck shell=bash
# Sourced, at the top level, by the scripts that run in the VM but are
# not kselftests (selftests/demo.sh, scripts/bench-vm.sh): loads the
# series' kselftest library, block/kyber/kyber_lib.sh of the kselftests
# installed in $KSFT (install_kselftests in scripts/lib.sh), so that
# their null_blk, scheduler, fio and queue helpers are the kselftests'
# own and exist once.  Works on any kernel with null_blk: the helpers
# they use read only what every scheduler, upstream Kyber's included,
# offers.
#
# The caller sets KSFT, KYBER_DESC and KYBER_REQUIRES (kyber_lib.sh's
# words); a missing requirement ends it with exit code 4 and the reason
# on stderr.  kyber_init's other output goes to stderr too, without its
# KTAP header, so that the caller's stdout is its own.  On exit the
# library removes the null_blk disks made with kyber_make_nullb and
# unloads the modules it loaded.

if [ ! -f "${KSFT:?}/block/kyber/kyber_lib.sh" ]; then
	echo "${0##*/}: error: no block/kyber/kyber_lib.sh in $KSFT;" \
	     "install the kselftests there first (install_kselftests in scripts/lib.sh)" >&2
	exit 2
fi
# kyber_lib.sh finds the kselftest helpers it sources from $0, the
# kselftest that sources it: while it loads, $0 names a file beside it.
KSFT_CALLER=$0
BASH_ARGV0=$KSFT/block/kyber/${0##*/}
# shellcheck source=/dev/null
. "$KSFT/block/kyber/kyber_lib.sh"
BASH_ARGV0=$KSFT_CALLER
kyber_init > >(grep -v "^TAP version " >&2)
