#!/bin/bash
# Runs inside the VM (vm-run.sh): bring up the test devices and show each
# block device with the schedulers it offers.
set -eu

echo "kernel: $(uname -r)"
modprobe null_blk nr_devices=1 queue_mode=2 2>/dev/null || echo "null_blk: not available"
modprobe scsi_debug dev_size_mb=64 2>/dev/null || echo "scsi_debug: not available"
modprobe kyber-iosched 2>/dev/null || true
udevadm settle 2>/dev/null || sleep 1

printf '%-10s %-24s %s\n' DEVICE MODEL SCHEDULERS
for q in /sys/block/*/queue/scheduler; do
	dev=${q#/sys/block/}; dev=${dev%%/*}
	case $dev in loop*|ram*) continue ;; esac
	model=$(cat "/sys/block/$dev/device/model" 2>/dev/null ||
		cat "/sys/block/$dev/device/serial" 2>/dev/null || echo "$dev")
	printf '%-10s %-24s %s\n' "$dev" "$(echo $model | cut -c1-24)" "$(cat "$q")"
done
