#!/bin/bash
# Boot the freshly built kernel under QEMU and run one command inside.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-k y|m] [-o OBJDIR] [-c CPUS] [-w DIR] [-i] [-a auto|kvm|tcg] [-t SECONDS] [-p SECONDS] [-q] [--] COMMAND [ARG...]

Boots $BUILD/obj-KYBER/arch/x86/boot/bzImage (-k, default m; or the
kernel built in OBJDIR, -o) under QEMU (KVM where it works, else TCG; -a)
with the host's root file system read-only over 9p, the kernel's
modules, a virtio-blk and an NVMe disk, and runs COMMAND inside as root.
The console streams to stdout (-q: only to $BUILD/vm-last/console.log);
one line on stderr says which accelerator the VM runs on, and why.
Exits with COMMAND's status; fails when the VM does not finish within
SECONDS (-t, default 600; exit 124), when it makes no progress, neither
on the console nor in COMMAND's output, for SECONDS (-p, default: no
such limit; exit 123), or when dmesg shows a warning, BUG, lockdep or
hung-task report.
  -c   vCPUs (default 2)
  -w   keep the VM's files (console.log, xfer/, disks, modules) in DIR
       (default $BUILD/vm-last), so that VMs can run side by side; DIR
       is emptied first, so it must be new, empty, under build/ or one
       that vm-run.sh made: any other is refused
  -i   run with -icount shift=3,sleep=off: guest time advances with the
       instructions executed, so the guest's own timings count CPU work
       and not the host's load (all vCPUs then share one host thread);
       always TCG, whatever -a says
  -a   accelerator: auto (default) boots a two-instruction guest under
       KVM first and uses KVM if that ran, TCG otherwise, and when the
       kernel under KVM then shows nothing on its console within
       KYBER_VM_KVM_FIRST seconds (default 60), boots it once more under
       TCG, saying so (KYBER_VM_SIMULATE_KVM_HANG=1 plays such a host);
       kvm fails when the test guest does not run; tcg never tries KVM.  The default comes
       from the environment, KYBER_VM_ACCEL=auto|kvm|tcg, so that
       make check, stress and bench can be kept to TCG (KYBER_VM_ACCEL=tcg)
EOT
}

kyber=m obj="" cpus=2 limit=600 stall=0 quiet="" out=$BUILD/vm-last icount=""
accel=${KYBER_VM_ACCEL:-auto} accel_src=KYBER_VM_ACCEL=
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts k:o:c:w:ia:t:p:qh opt; do
	case $opt in
	k) kyber=$OPTARG ;;
	o) obj=$OPTARG ;;
	c) cpus=$OPTARG ;;
	w) out=$OPTARG ;;
	i) icount="-icount shift=3,sleep=off" ;;
	a) accel=$OPTARG accel_src="-a " ;;
	t) limit=$OPTARG ;;
	p) stall=$OPTARG ;;
	q) quiet=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { usage >&2; die "no command to run"; }
case $kyber in y|m) ;; *) die "-k takes y or m, not '$kyber'" ;; esac
case $cpus$limit$stall in *[!0-9]*) die "-c, -t and -p take numbers" ;; esac
case $cpus in 0*) die "-c takes at least 1 vCPU" ;; esac
[ -n "$out" ] || die "-w needs a directory"
may_clear "$out"
# KYBER_VM_ACCEL=kvm is a default, which -i overrides; "-a kvm -i" is
# a contradiction.
case $accel in
auto|kvm|tcg) ;;
*) die "$accel_src$accel: the accelerator is auto, kvm or tcg" ;;
esac
[ "$accel_src$accel" != "-a kvm" ] || [ -z "$icount" ] ||
	die "-a kvm -i: -i counts instructions, which only TCG does"

need_group vm
obj=${obj:-$BUILD/obj-$kyber}
kernel=$obj/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel at $kernel; run scripts/build.sh -k $kyber"

# The guest sees the host's /, so it finds this project at the same path;
# what it writes back goes through the 'xfer' share.
out=$(realpath -m "$out")
fresh_dir "$out"
mkdir -p "$out/xfer" "$out/disks"
printf '%q ' "$@" > "$out/xfer/job"
echo >> "$out/xfer/job"

mods=$out/modules
rm -rf "$mods" && mkdir -p "$mods/lib/modules"
if [ -s "$obj/modules.order" ]; then
	make -s -C "$obj" INSTALL_MOD_PATH="$mods" INSTALL_MOD_STRIP=1 \
		modules_install >/dev/null
fi

disk() {
	rm -f "$out/disks/$1.img"
	truncate -s 256M "$out/disks/$1.img"
	echo "$out/disks/$1.img"
}

share() {	# share ID PATH TAG [,MORE-FSDEV-OPTIONS]
	echo "-fsdev local,id=$1,path=$2,security_model=none${4-}"
	echo "-device virtio-9p-pci,fsdev=$1,mount_tag=$3"
}

# kvm_fails: why KVM cannot run a guest here, or nothing when it can.
# /dev/kvm may open, and KVM_CREATE_VM succeed, and still the first vCPU
# fail (in a nested VM, say, whose hypervisor refuses an MSR: QEMU then
# aborts), which QEMU's own "-accel kvm -accel tcg" fallback does not
# catch: it falls back only when KVM does not initialise.  So boot, with
# the real run's machine and CPU model, a 64 KiB firmware whose reset
# vector writes 42 to isa-debug-exit: QEMU then exits at once with
# 42 * 2 + 1 = 85, which no failure of QEMU's own gives (those are 1).
kvm_fails() {
	local rom=$out/kvm-probe.rom rc=0

	[ -e /dev/kvm ] || { echo "no /dev/kvm"; return; }
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		echo "/dev/kvm is not read-write for $(id -un)"
		return
	fi
	# mov al, 42; out 0xf4, al; hlt, at 0xfffffff0.
	{ head -c 65520 /dev/zero; printf '\xb0\x2a\xe6\xf4\xf4'; head -c 11 /dev/zero; } > "$rom"
	# In a subshell that exits normally: no core file, and the shell that
	# says "Aborted" is that one, into the log.
	(ulimit -c 0; timeout -k 2 10 qemu-system-x86_64 -machine q35 -accel kvm -cpu max \
		-m 16 -nodefaults -display none -monitor none -serial none -no-reboot \
		-bios "$rom" -device isa-debug-exit,iobase=0xf4,iosize=4; exit) \
		< /dev/null > "$out/kvm-probe.log" 2>&1 || rc=$?
	[ "$rc" != 85 ] || return 0
	[ "$rc" != 124 ] || { echo "a test guest under KVM did not finish in 10 s"; return; }
	# QEMU's first complaint, without its name, is the reason.
	sed -n '/^qemu-system-x86_64: /{s///;s/^error: //;p;q;}' "$out/kvm-probe.log" | grep . ||
		echo "a test guest under KVM ends with exit status $rc, not 85"
}

# The probe proves only that KVM runs two instructions: on some hosts it
# passes and the kernel then never prints a line under KVM.  So a guest
# under KVM (chosen, not demanded with -a kvm) that shows nothing on its
# console within $KVM_FIRST s is stopped, and the VM boots again, once,
# under TCG.  vm-init.sh writes a line to the console as soon as it runs;
# under KVM that takes a few seconds.  KYBER_VM_SIMULATE_KVM_HANG=1
# stands for such a host: the probe is taken as passed and the guest's
# CPUs never start (QEMU -S), so the fallback can be shown anywhere.
KVM_FIRST=${KYBER_VM_KVM_FIRST:-60}
case $KVM_FIRST in ""|*[!0-9]*) die "KYBER_VM_KVM_FIRST takes seconds" ;; esac
hang=""
[ "${KYBER_VM_SIMULATE_KVM_HANG-}" != 1 ] || hang=1
if [ -n "$icount" ]; then
	accel=tcg why="-i counts instructions, which only TCG does"
elif [ "$accel" = tcg ]; then
	why="$accel_src$accel"
elif [ -n "$hang" ]; then
	accel=kvm why="KYBER_VM_SIMULATE_KVM_HANG=1: a probe that passes, a guest that hangs"
elif why=$(kvm_fails) && [ -z "$why" ]; then
	accel=kvm why="KVM runs a test guest"
elif [ "$accel" = kvm ]; then
	die "$accel_src$accel, but KVM does not work here: $why (see $out/kvm-probe.log)"
else
	accel=tcg why="KVM does not work here: $why"
fi
# Only a KVM that auto chose may be left for TCG.
fallback=""
[ "$accel" != kvm ] || [ "$accel_src$accel" = "-a kvm" ] || fallback=1
info "accelerator: $accel ($why)"

# progress: bytes written so far to the console and to COMMAND's output.
progress() {
	cat "$out/console.log" "$out/xfer/output" 2>/dev/null | wc -c
}

# boot ACCEL: runs the VM on ACCEL until it ends; sets rc, and stalled
# (no progress for $stall s) or silent (KVM and nothing within
# $KVM_FIRST s, when it may fall back).
boot() {
	local qemu last=-1 idle=0 waited=0 extra=""

	[ "$1" != kvm ] || [ -z "$hang" ] || extra=-S
	rm -f "$out/xfer/output" "$out/xfer/status" "$out/xfer/dmesg"
	rc=0 stalled="" silent=""
	: > "$out/console.log"
	# shellcheck disable=SC2046,SC2086
	timeout -k 10 "$limit" qemu-system-x86_64 -machine q35 -accel "$1" $icount $extra \
		-cpu max -smp "$cpus" -m 2G \
		-display none -monitor none -serial stdio -no-reboot \
		-kernel "$kernel" \
		-append "console=ttyS0 root=rootfs rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro init=$TOP/selftests/vm-init.sh panic=-1 quiet" \
		$(share rootfs / rootfs ,readonly=on,multidevs=remap) $(share xfer "$out/xfer" xfer) \
		$(share mods "$mods" modules ,readonly=on) \
		-drive "file=$(disk virtio),if=none,format=raw,id=vd,cache=unsafe" \
		-device virtio-blk-pci,drive=vd,serial=kyber-virtio \
		-drive "file=$(disk nvme),if=none,format=raw,id=nv,cache=unsafe" \
		-device nvme,drive=nv,serial=kyber-nvme \
		< /dev/null > "$out/console.log" 2>&1 &
	qemu=$!
	[ -n "$quiet" ] || tail -n +1 -f --pid=$qemu "$out/console.log" &
	# A VM that writes nothing for $stall seconds is hung, however long
	# it may run in all: a slow machine is still told apart from a stuck
	# test.
	while kill -0 $qemu 2>/dev/null; do
		sleep 5
		waited=$((waited + 5))
		now=$(progress)
		if [ "$now" != "$last" ]; then
			last=$now idle=0
		else
			idle=$((idle + 5))
		fi
		if [ -n "$fallback" ] && [ "$1" = kvm ] && [ "$now" = 0 ] &&
		   [ "$waited" -ge "$KVM_FIRST" ]; then
			silent=1
		elif [ "$stall" -gt 0 ] && [ "$idle" -ge "$stall" ]; then
			stalled=1
		else
			continue
		fi
		kill $qemu 2>/dev/null || true
		break
	done
	wait $qemu || rc=$?
	wait 2>/dev/null || true
	# QEMU that fails to start under KVM at all is no better.
	[ -z "$fallback" ] || [ "$1" != kvm ] || [ "$rc" = 0 ] || [ -s "$out/xfer/output" ] ||
		grep -q '^vm-init: ' "$out/console.log" || silent=1
}

boot "$accel"
if [ -n "$silent" ]; then
	cp "$out/console.log" "$out/console-kvm.log"
	info "accelerator: tcg (the kernel showed nothing in ${KVM_FIRST} s under KVM; once more under TCG; see $out/console-kvm.log)"
	boot tcg
fi
if [ -n "$stalled" ]; then
	echo "vm-run: VM made no progress for ${stall}s; last console lines:"
	tail -n 25 "$out/console.log"
	exit 123
fi
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "vm-run: VM did not finish in ${limit}s; last console lines:"
	tail -n 25 "$out/console.log"
	exit 124
fi
[ "$rc" = 0 ] || die "QEMU failed (exit $rc); see $out/console.log"
[ -f "$out/xfer/status" ] || { tail -n 25 "$out/console.log"; die "the VM ended without running the command"; }

# What a kernel problem looks like is selftests/splat.sh's, which make
# stress uses too.
if ! bash "$TOP/selftests/splat.sh" "$out/xfer/dmesg" > "$out/splat"; then
	echo "vm-run: the kernel reported a problem:"
	cat "$out/splat"
	exit 1
fi
exit "$(cat "$out/xfer/status")"
