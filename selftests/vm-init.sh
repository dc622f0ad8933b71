#!/bin/bash
# PID 1 of the test VM (see vm-run.sh).  The root file system is the
# host's, read-only over 9p; this mounts what a test needs, runs the job
# from the 'xfer' share and powers the VM off.  It mounts over /tmp and
# /run and reboots the machine it runs on: anywhere but as the VM's
# first process it refuses.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
[ $$ = 1 ] || { echo "${0##*/}: is the test VM's init (selftests/vm-run.sh boots it); not running it here" >&2; exit 2; }
export HOME=/tmp TERM=dumb

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev
# The first sign of life, which vm-run.sh waits for under KVM.
echo "vm-init: $(uname -r) up" > /dev/console
mkdir -p /dev/pts /dev/shm
# What udev would add to devtmpfs; kselftest's runner writes to /dev/stdout.
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
# The project may live under a directory that the tmpfs mounts below
# hide (a CI clone in /tmp, say): keep it reachable at the same path.
top=$(cd "$(dirname "$0")/.." && pwd)
mount -t tmpfs -o size=1m mnt /mnt
mkdir -p /mnt/project
mount --bind "$top" /mnt/project
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mount -t tmpfs shm /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t configfs configfs /sys/kernel/config
mkdir -p /mnt/xfer /mnt/modroot /mnt/bin
mount -t 9p -o trans=virtio,version=9p2000.L xfer /mnt/xfer
# The host has no /lib/modules for the kernel under test, and its root is
# read-only: modprobe, and the kernel's own module requests, go through a
# wrapper that points it at the modules share.
mount -t 9p -o trans=virtio,version=9p2000.L,ro modules /mnt/modroot
printf '#!/bin/sh\nexec /usr/sbin/modprobe -d /mnt/modroot "$@"\n' > /mnt/bin/modprobe
chmod +x /mnt/bin/modprobe
echo /mnt/bin/modprobe > /proc/sys/kernel/modprobe
PATH=/mnt/bin:$PATH
[ -d "$top/selftests" ] || { mkdir -p "$top" && mount --bind /mnt/project "$top"; }
hostname kyber-vm
export PATH

cd /tmp
set -o pipefail
bash /mnt/xfer/job < /dev/null 2>&1 | tee /mnt/xfer/output > /dev/console
echo $? > /mnt/xfer/status
dmesg > /mnt/xfer/dmesg
sync
# QEMU runs with -no-reboot, so a reboot ends it.
echo b > /proc/sysrq-trigger
sleep 10
