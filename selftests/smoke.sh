#!/bin/bash
# Runs inside the VM: the kernel under test boots and every device the
# tests drive comes up with a scheduler file.  TAP output.
set -u

usage() {
	cat <<EOT
usage: ${0##*/} RELEASE | --help

Inside the test VM (selftests/check-vm.sh runs it there): checks that
the kernel running is RELEASE, that null_blk and scsi_debug load and
unload, and that each disk the tests drive (null_blk, scsi_debug,
virtio-blk, NVMe) has a scheduler file and completes direct reads.
TAP output.
EOT
}
case "${1-}" in
-h|--help) usage; exit 0 ;;
""|-*) usage >&2; exit 2 ;;
esac
[ $# = 1 ] || { usage >&2; exit 2; }
# shellcheck source=vm-only.sh
. "$(dirname "$0")/vm-only.sh"
n=0 failed=0
check() {	# check DESCRIPTION COMMAND...
	n=$((n + 1))
	if "${@:2}" >/dev/null 2>&1; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}
has_sched() { grep -q . "/sys/block/$1/queue/scheduler"; }
first() { for d in "$@"; do [ -e "/sys/block/${d##*/}" ] && { echo "${d##*/}"; return; }; done; }

check "kernel is the one under test ($(uname -r))" test "$(uname -r)" = "$1"
check "null_blk loads" modprobe null_blk nr_devices=1 queue_mode=2
check "null_blk device has a scheduler" has_sched nullb0
check "scsi_debug loads" modprobe scsi_debug dev_size_mb=16
udevadm settle 2>/dev/null || sleep 1
sd=$(first /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*)
check "scsi_debug disk has a scheduler" has_sched "${sd:-none}"
check "virtio-blk disk has a scheduler" has_sched vda
check "NVMe disk has a scheduler" has_sched nvme0n1
read_all() {
	for d in "$@"; do
		dd if="/dev/$d" of=/dev/null bs=4k count=256 iflag=direct || return 1
	done
}
check "direct reads complete on every disk" read_all nullb0 "${sd:-none}" vda nvme0n1
check "null_blk and scsi_debug unload" modprobe -r null_blk scsi_debug
echo "1..$n"
exit $failed
