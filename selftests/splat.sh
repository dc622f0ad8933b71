#!/bin/bash
# What counts as a kernel problem in a VM's kernel log, in one place:
# vm-run.sh runs it on the dmesg of every VM, stress-vm.sh on the dmesg
# of each kselftest of make stress, scripts/stress.sh on the KCSAN
# variant's whole dmesg (the races outside Kyber filtered out).
set -u

usage() {
	cat <<EOT
usage: ${0##*/} [FILE] [--help]

Prints the kernel reports in the kernel log FILE (default: stdin), each
with the 20 lines after its first, at most 60 lines in all, and exits 1
when there is one, 0 when there is none (2: bad usage, no such file).
A report is a warning, BUG, oops, general protection fault, call trace,
KASAN, UBSAN, lockdep, hung task, soft or hard lockup, RCU stall, list
corruption, object debugging (ODEBUG) or panic line; the boot banner of
a kernel with PROVE_RCU ("RCU lockdep checking is enabled") is none.
EOT
}

SPLAT='WARNING:|BUG:|Oops|general protection|Call Trace|INFO: task .* blocked|possible (recursive|circular) locking|lockdep|KASAN|UBSAN|rcu.*stall|soft lockup|hard LOCKUP|list_(add|del) corruption|ODEBUG|DEBUG_LOCKS_WARN_ON|INFO: trying to register non-static key|Kernel panic'
BENIGN='RCU lockdep checking is enabled'

case $# in
0) file=- ;;
1) case $1 in
   -h|--help) usage; exit 0 ;;
   -) file=- ;;
   -*) usage >&2; echo "${0##*/}: unknown option: $1" >&2; exit 2 ;;
   *) file=$1
      [ -r "$file" ] || { echo "${0##*/}: cannot read $file" >&2; exit 2; } ;;
   esac ;;
*) usage >&2; echo "${0##*/}: too many arguments" >&2; exit 2 ;;
esac

# A log that cannot be read is no clean log: grep's status 2 fails.
kept=$(mktemp) || exit 2
trap 'rm -f "$kept"' EXIT
rc=0
grep -v -e "$BENIGN" -- "$file" > "$kept" || rc=$?
[ "$rc" -le 1 ] || { echo "${0##*/}: cannot read $file" >&2; exit 2; }
out=$(grep -E -A 20 -e "$SPLAT" "$kept" | head -n 60)
[ -n "$out" ] || exit 0
printf '%s\n' "$out"
exit 1
