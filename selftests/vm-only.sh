# shellcheck shell=bash
# Sourced by every script that runs inside the test VM, before it does
# anything: they load modules, make and remove disks, write sysctls and
# power the machine off, which on the host they must never do.
# vm-run.sh boots its kernel with init=.../selftests/vm-init.sh; no
# host's kernel command line says that.
case " $(cat /proc/cmdline 2>/dev/null) " in
*" init="*/selftests/vm-init.sh" "*) ;;
*)	echo "${0##*/}: runs only inside the test VM of selftests/vm-run.sh" >&2
	exit 2 ;;
esac
