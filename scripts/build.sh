#!/bin/bash
# Build the lean VM kernel from the kernel tree as it is checked out.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-k y|m] [-d [-K] | -D | -L] [-o OBJDIR] [-s SRCDIR] [-C] [--] [make targets or variables...]

Configures tinyconfig + kvm_guest.config + scripts/kconfig/vm.config with
CONFIG_MQ_IOSCHED_KYBER=y or =m (-k, default m) and builds it with W=1
and ccache in OBJDIR (default $BUILD/obj-KYBER).  The .config is only
rewritten when it changes, so rebuilds are incremental.  stderr of the
build is kept in OBJDIR/build.log.
  -d   the debug kernel of make stress: scripts/kconfig/debug.config
       (KASAN, lockdep, hung-task and soft-lockup detection, null_blk
       fault injection, ...) on top; OBJDIR defaults to $BUILD/obj-debug
       (Kyber =m) or $BUILD/obj-debug-y (-k y)
  -K   with -d: KCSAN instead of KASAN (scripts/kconfig/kcsan.config
       last); OBJDIR defaults to $BUILD/obj-kcsan (or obj-kcsan-y)
  -D   the production-config kernel of make bench: the options of a
       distribution kernel that change the I/O path (-O2, jump labels,
       ftrace, mitigations, hardening, block cgroups;
       scripts/kconfig/distro.config) on top; OBJDIR defaults to
       $BUILD/obj-distro (or obj-distro-y)
  -L   the lock-statistics kernel of make bench:
       scripts/kconfig/lockstat.config on top; OBJDIR defaults to
       $BUILD/obj-lockstat (or obj-lockstat-y)
  -s   build the kernel tree in SRCDIR instead of $KSRC (say, a
       worktree of the base release, Debian's 6.12.y, to compare with)
  -C   also run sparse on the files rebuilt (C=1)
EOT
}

kyber=m obj="" sparse="" debug="" kcsan="" distro="" lockstat=""
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts k:dKDLo:s:Ch opt; do
	case $opt in
	k) kyber=$OPTARG ;;
	d) debug=1 ;;
	K) kcsan=1 ;;
	D) distro=1 ;;
	L) lockstat=1 ;;
	o) obj=$OPTARG ;;
	s) KSRC=$OPTARG ;;
	C) sparse=C=1 ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $kyber in y|m) ;; *) die "-k takes y or m, not '$kyber'" ;; esac
[ -z "$kcsan" ] || [ -n "$debug" ] || die "-K goes with -d"
[ -z "$distro$lockstat" ] || [ -z "$debug" ] || die "-D and -L are not for the debug kernel (-d)"
[ -z "$distro" ] || [ -z "$lockstat" ] || die "-D and -L are different kernels; give one"
if [ -n "$lockstat" ]; then
	defobj=$BUILD/obj-lockstat
	[ "$kyber" = m ] || defobj=$defobj-$kyber
elif [ -n "$distro" ]; then
	defobj=$BUILD/obj-distro
	[ "$kyber" = m ] || defobj=$defobj-$kyber
elif [ -n "$kcsan" ]; then
	defobj=$BUILD/obj-kcsan
	[ "$kyber" = m ] || defobj=$defobj-$kyber
elif [ -n "$debug" ]; then
	defobj=$BUILD/obj-debug
	[ "$kyber" = m ] || defobj=$defobj-$kyber
else
	defobj=$BUILD/obj-$kyber
fi
obj=$(realpath -m "${obj:-$defobj}")
KSRC=$(realpath -m "$KSRC")

need_group build
[ -z "$sparse" ] || need_group check
[ -f "$KSRC/Makefile" ] || die "no kernel tree in $KSRC; run scripts/base-tree.sh"
mkdir -p "$obj"

kmake() {
	make -s -C "$KSRC" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_USER=kyber KBUILD_BUILD_HOST=vm \
		KBUILD_BUILD_TIMESTAMP="@0" -j"$(nproc)" "$@"
}

# All fragments at once: allnoconfig honours KCONFIG_ALLCONFIG, which is
# what tinyconfig itself does with its fragments.
want=$obj/.config.fragments
cat "$KSRC/kernel/configs/tiny-base.config" "$KSRC/kernel/configs/tiny.config" \
    "$KSRC/arch/x86/configs/tiny.config" "$KSRC/kernel/configs/kvm_guest.config" \
    "$TOP/scripts/kconfig/vm.config" > "$want"
[ -z "$debug" ] || cat "$TOP/scripts/kconfig/debug.config" >> "$want"
[ -z "$kcsan" ] || cat "$TOP/scripts/kconfig/kcsan.config" >> "$want"
[ -z "$distro" ] || cat "$TOP/scripts/kconfig/distro.config" >> "$want"
[ -z "$lockstat" ] || cat "$TOP/scripts/kconfig/lockstat.config" >> "$want"
echo "CONFIG_MQ_IOSCHED_KYBER=$kyber" >> "$want"
KCONFIG_ALLCONFIG=$want KCONFIG_CONFIG=.config.new kmake allnoconfig >/dev/null

# Every symbol we ask for must be there; Kyber's only once a patch adds it.
# debug.config also sets values and turns symbols off: those must stick
# too, but for what kcsan.config (read last) says otherwise.
missing=$({
	if [ -n "$distro" ]; then
		# distro.config may override vm.config: the symbols it names.
		grep -E '^CONFIG_[A-Z0-9_]+=[ym]' "$TOP/scripts/kconfig/vm.config" |
			grep -v -E -f <(grep -oE 'CONFIG_[A-Z0-9_]+' "$TOP/scripts/kconfig/distro.config")
	else
		grep -E '^CONFIG_[A-Z0-9_]+=[ym]' "$TOP/scripts/kconfig/vm.config"
	fi
	dbg='^CONFIG_[A-Z0-9_]+=|^# CONFIG_[A-Z0-9_]+ is not set$'
	if [ -n "$kcsan" ]; then
		grep -E "$dbg" "$TOP/scripts/kconfig/kcsan.config"
		# (CONFIG_KASAN also drops CONFIG_KASAN_GENERIC.)
		grep -E "$dbg" "$TOP/scripts/kconfig/debug.config" |
			grep -v -E -f <(grep -oE 'CONFIG_[A-Z0-9_]+' "$TOP/scripts/kconfig/kcsan.config")
	elif [ -n "$debug" ]; then
		grep -E "$dbg" "$TOP/scripts/kconfig/debug.config"
	fi
	[ -z "$distro" ] || grep -E "$dbg" "$TOP/scripts/kconfig/distro.config"
	[ -z "$lockstat" ] || grep -E "$dbg" "$TOP/scripts/kconfig/lockstat.config"
	} | while read -r line; do
		case $line in
		"# "*) sym=${line#"# "}; sym=${sym%% *}
			! grep -q "^$sym=" "$obj/.config.new" || echo "$line" ;;
		*) grep -qx "$line" "$obj/.config.new" || echo "$line" ;;
		esac
	done)
[ -z "$missing" ] || die "symbols lost by kconfig (missing dependency?): $missing"
if grep -q '^config MQ_IOSCHED_KYBER$' "$KSRC/block/Kconfig.iosched"; then
	grep -qx "CONFIG_MQ_IOSCHED_KYBER=$kyber" "$obj/.config.new" ||
		die "CONFIG_MQ_IOSCHED_KYBER=$kyber did not stick"
fi
cmp -s "$obj/.config.new" "$obj/.config" || cp "$obj/.config.new" "$obj/.config"

# W=1 lists every tracked file that a .gitignore matches; Debian's
# packaging .gitignore ("/*") matches them all.  That is about the tarball,
# not the code, so drop those lines.
set -o pipefail
{ kmake W=1 $sparse "$@" 2>&1 >&3 |
	sed '/: warning: ignored by one of the .gitignore files$/d' |
	tee "$obj/build.log" >&2; } 3>&1
