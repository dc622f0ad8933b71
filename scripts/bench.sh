#!/bin/bash
# make bench: the series' Kyber beside upstream Kyber and the other
# schedulers, measured in the VM; raw figures to build/bench, the page to
# Documentation/benchmarks.md.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-p PARTS] [-r REPS] [-k KERNELS] [-B] [-a] [-o DIR] [-d DIR]

Measures the series kernel (Kyber=m) and the base release, Debian's
6.12.y with its own Kyber (from the worktree $BUILD/upstream at the tag
the base tree starts from), in the same harness: each boots under QEMU
(selftests/vm-run.sh) and runs scripts/bench-vm.sh on null_blk, with
the helpers of the series' kselftests (kyber_lib.sh of block/kyber,
installed from $KSRC in $BUILD/kselftest-bench) for both kernels.  Each
kernel is built in three configurations, each part runs on one:
  lean        the VM kernel of the tests (scripts/build.sh): $BUILD/obj-m,
              $BUILD/obj-upstream
  production  the options of a distribution kernel that change the I/O
              path on top (-O2, jump labels, ftrace, mitigations,
              hardening, block cgroups; build.sh -D): $BUILD/obj-distro,
              $BUILD/obj-distro-upstream
  lockstat    lean with lock statistics (build.sh -L):
              $BUILD/obj-lockstat, $BUILD/obj-lockstat-upstream
Parts:
  cost     lean: CPU per I/O: 4 KiB random reads, QD 1 and 32, fixed I/O
           count, 1 vCPU under -icount; none, floor, mq-deadline, kyber,
           bfq
  prodcost production: as cost; on the series kernel also kyber-noprio
  latency  QD1 read latency beside a direct and a buffered write flood on
           a saturated null_blk, real time, 2 vCPUs; none, kyber,
           mq-deadline, bfq; the series' Kyber also with read_lat_nsec
           1, 2 and 5 ms
  scaling  production: QD32 readers on one hardware queue, one job pinned
           to vCPU 0, then one to each of 2 vCPUs, real time (QEMU runs
           each vCPU in a host thread of its own, so a contended lock
           costs wall time), $SCALE_REPS repetitions;
           none, floor, mq-deadline, kyber
  contention
           lockstat: as scaling with 2 vCPUs, contentions and wait time
           of every lock class (/proc/lock_stat) per run; none, floor,
           mq-deadline, kyber, bfq
  prio     lean, the series kernel only: I/O priority classes.  As cost at QD32,
           but $PRIO_NIOS I/Os each, for a finer figure, for none, kyber
           and kyber-noprio (the series' Kyber before its priority
           support); then, as latency, a QD1 reader alone, beside
           a best-effort and an idle write flood and read flood, and as
           best-effort and real-time beside a QD8 reader; on two
           hardware queues sharing the device's tags (prio_queues.sh's
           device, default nr_requests), a QD1 reader on queue 0 of each
           class beside a QD32 read flood on queue 1, against none; the
           scheduler tags' wake batch at nr_requests 64 and 256, before
           and after idle-class I/O, Kyber and mq-deadline
  devices  lean: default settings (Kyber's targets, nr_requests) on three
           null_blk classes, real time, 2 vCPUs; none, mq-deadline, bfq,
           kyber: a QD1 reader beside an 8x QD8 O_DIRECT write flood on
           a slow device (2 tags, 5 ms per request) and on a saturated
           one (2 tags, 1 ms); beside a QD16 read flood on another
           hardware queue of a multiqueue device (2 queues of 1 tag,
           1 ms); reader p50/p99, total IOPS, Kyber's token pools
  slowdev  lean: a matrix of slow devices (one hardware queue, slower per
           request than the read target), real time, 2 vCPUs: tag count
           2-32, request time 2.5-20 ms, write size 4-128 KiB, writer
           psync, libaio or io_uring and its queue depth, one factor at a
           time around a centre; the QD1 reader of devices beside the
           write flood; reader p99, total IOPS, Kyber's token pools.
           none, bfq, kyber on the series kernel; none, kyber on upstream
  fs       lean: fs_commit.sh's file system load, real time, 2 vCPUs;
           none, mq-deadline, bfq, kyber: ext4 on a null_blk of 32 tags
           (5 ms, 4 KiB a request), fsync'd commits and a cold read of
           small files beside a buffered writer, writeback throttling as
           the kernel sets it and off; commits/s and p99, the cold
           read's time, the device's write MB/s
Builds the kernels the parts need first (incremental; -B: not), the
floor elevator (selftests/floor-iosched) against each for cost, prodcost,
scaling and contention, and kyber-noprio against the series kernel for prio and
prodcost ($BUILD/noprio-obj-*, from block/kyber-iosched.c of the series
commit that adds Kyber).  With
-B and no worktree $BUILD/upstream, the upstream kernel is the one built
in $BUILD/obj-upstream, from the source its Makefile names.  One row
per figure goes to DIR/results.tsv (default $BUILD/bench), then
scripts/bench-report.py writes benchmarks.md and benchmarks.png to
$TOP/Documentation (-d: to another directory).  A number never fails
the run; a build, a VM or a tool that fails does.  The full run takes
about 100 minutes here with the kernels built (slowdev about 30 of
them, devices 18, fs 15, latency 11, scaling 10); building the six
kernels from nothing takes about 45 more.
  -p  parts, comma separated (default $ALL_PARTS)
  -r  repetitions (default 3)
  -k  kernels, comma separated (default series,upstream)
  -B  do not build the kernels, use them as they are
  -a  keep the earlier figures of the parts and kernels not run now
EOT
}

PRIO_NIOS=100000	# I/Os per run of the prio part's cost, 5x the cost part's
ALL_PARTS=cost,prodcost,latency,scaling,contention,prio,devices,slowdev,fs
SCALE_REPS=6		# real time on a shared host: twice the others' default
parts=$ALL_PARTS reps=3 kernels=series,upstream build=1 keep="" out=$BUILD/bench
doc=$TOP/Documentation
[ "${1-}" = --help ] && { usage; exit 0; }
while getopts p:r:k:Bao:d:h opt; do
	case $opt in
	p) parts=$OPTARG ;;
	r) reps=$OPTARG ;;
	k) kernels=$OPTARG ;;
	B) build="" ;;
	a) keep=1 ;;
	o) out=$OPTARG ;;
	d) doc=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || { usage >&2; die "unexpected argument: $1"; }
case $reps in ""|0|*[!0-9]*) die "-r takes a number of repetitions" ;; esac
parts=${parts//,/ } kernels=${kernels//,/ }
for p in $parts; do
	case ,$ALL_PARTS, in *,"$p",*) ;; *) die "unknown part '$p' (${ALL_PARTS//,/, })" ;; esac
done
for k in $kernels; do
	case $k in series|upstream) ;; *) die "unknown kernel '$k' (series, upstream)" ;; esac
done

need_base
need_group build vm bench
# The bench only reads the kernel trees' git state: it must not take the
# index lock from under someone working in them.
export GIT_OPTIONAL_LOCKS=0
out=$(realpath -m "$out")
mkdir -p "$out/logs"
up_tag=$(git -C "$KSRC" describe --tags --abbrev=0 --match 'v6.*' "$BASE_TAG^") ||
	die "no v6.* tag below '$BASE_TAG' in $KSRC"
upstream=$BUILD/upstream upsrc=$BUILD/upstream

# config PART: the kernel configuration PART runs on.
config() {
	case $1 in
	prodcost|scaling) echo production ;;
	contention) echo lockstat ;;
	*) echo lean ;;
	esac
}

# objdir KERNEL CONFIG: where that kernel is built.
objdir() {
	case $1/$2 in
	series/lean) echo "$BUILD/obj-m" ;;
	upstream/lean) echo "$BUILD/obj-upstream" ;;
	series/production) echo "$BUILD/obj-distro" ;;
	upstream/production) echo "$BUILD/obj-distro-upstream" ;;
	series/lockstat) echo "$BUILD/obj-lockstat" ;;
	upstream/lockstat) echo "$BUILD/obj-lockstat-upstream" ;;
	esac
}

has() {	# has WORD LIST...: whether WORD is one of LIST
	local w=$1

	shift
	case " $* " in *" $w "*) return 0 ;; esac
	return 1
}
configs=""
for p in $parts; do
	has "$(config "$p")" "$configs" || configs="$configs $(config "$p")"
done

# ---- kernels and the floor elevator ------------------------------------

if ! has upstream "$kernels"; then
	:
elif [ ! -d "$upstream" ] && [ -z "$build" ]; then
	# -B: the upstream kernel as it was built, from the source its
	# object directory names (a kernel Makefile's "include SRC/Makefile").
	# shellcheck disable=SC2086 # the first word of the list
	set -- $configs
	upobj=$(objdir upstream "$1")
	upsrc=$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$upobj/Makefile" 2>/dev/null | head -n 1)
	[ -f "${upsrc:-/nonexistent}/Makefile" ] ||
		die "no $upstream and no source named in $upobj/Makefile; run without -B"
	info "upstream: no worktree $upstream; the kernel in $upobj is from $upsrc"
else
	if [ ! -d "$upstream" ]; then
		info "making the worktree $upstream at $up_tag"
		git -C "$KSRC" worktree add --detach "$upstream" "$up_tag" >/dev/null 2>&1 ||
			die "cannot add the worktree $upstream"
	fi
	[ "$(git -C "$upstream" rev-parse HEAD)" = "$(git -C "$KSRC" rev-parse "$up_tag^{commit}")" ] ||
		die "$upstream is not at $up_tag; remove it (git -C $KSRC worktree remove $upstream)"
fi

# needs_floor CONFIG: whether a part on CONFIG measures the floor elevator.
needs_floor() {
	case $1 in
	lean) has cost "$parts" ;;
	production) has prodcost "$parts" || has scaling "$parts" ;;
	lockstat) has contention "$parts" ;;
	*) return 1 ;;
	esac
}

for k in $kernels; do
	for c in $configs; do
		obj=$(objdir "$k" "$c") log=$out/logs/build-$k-$c.log
		if [ -n "$build" ]; then
			info "$k: building the $c kernel in $obj (log: $log)"
			set -- -k m -o "$obj"
			case $c in
			production) set -- "$@" -D ;;
			lockstat) set -- "$@" -L ;;
			esac
			[ "$k" = series ] || set -- "$@" -s "$upstream"
			"$TOP/scripts/build.sh" "$@" > "$log" 2>&1 || {
				tail -n 20 "$log" >&2; die "$k: the $c kernel does not build"; }
		fi
		[ -f "$obj/arch/x86/boot/bzImage" ] || die "$k: no $c kernel in $obj; run without -B"
		needs_floor "$c" || continue
		floor=$BUILD/floor-${obj##*/}
		mkdir -p "$floor"
		for f in Kbuild floor-iosched.c; do
			cmp -s "$TOP/selftests/floor-iosched/$f" "$floor/$f" ||
				cp "$TOP/selftests/floor-iosched/$f" "$floor/$f"
		done
		make -s -C "$obj" M="$floor" ARCH=x86_64 CC="ccache gcc" modules \
			> "$out/logs/floor-$k-$c.log" 2>&1 || {
			cat "$out/logs/floor-$k-$c.log" >&2; die "$k: the floor elevator does not build ($c)"; }
	done
done

# kyber-noprio: block/kyber-iosched.c as the series adds it, before the
# patch that serves priority classes, built out of tree against the
# series kernel (lean for prio, production for prodcost) under the
# elevator name kyber-noprio.  It defines the same tracepoints as the
# in-tree module, which the kernel tolerates.
noprio_configs="" noprio_commit=""
! has prio "$parts" || noprio_configs=lean
! has prodcost "$parts" || noprio_configs="$noprio_configs production"
has series "$kernels" || noprio_configs=""
noprio_dir() { local o; o=$(objdir series "$1"); echo "$BUILD/noprio-${o##*/}"; }
for c in $noprio_configs; do
	noprio=$(noprio_dir "$c")
	noprio_commit=$(git -C "$KSRC" log --format=%H \
		--grep='^block: add the Kyber I/O scheduler$' "$BASE_TAG..$BRANCH")
	case $noprio_commit in
	""|*[!0-9a-f]*) die "no single commit 'block: add the Kyber I/O scheduler' in $BASE_TAG..$BRANCH" ;;
	esac
	mkdir -p "$noprio"
	cat > "$noprio/Kbuild.new" <<'EOT'
# Out of tree: make -C <kernel objects> M=$PWD modules
ccflags-y := -I$(srctree)/block
obj-m := kyber-noprio.o
EOT
	git -C "$KSRC" show "$noprio_commit:block/kyber-iosched.c" |
		sed -e "1a /* scripts/bench.sh: block/kyber-iosched.c at ${noprio_commit:0:12}, as kyber-noprio */" \
		    -e 's/^\(\t\.elevator_name = \)"kyber",$/\1"kyber-noprio",/' \
		    -e 's/^MODULE_DESCRIPTION("Kyber I\/O scheduler");$/MODULE_DESCRIPTION("Kyber I\/O scheduler without I\/O priorities");/' \
		> "$noprio/kyber-noprio.c.new"
	[ "$(grep -c '"kyber-noprio"' "$noprio/kyber-noprio.c.new")" = 1 ] ||
		die "kyber-noprio: the elevator name was not changed (block/kyber-iosched.c at $noprio_commit)"
	! grep -q -E 'MODULE_ALIAS|elevator_alias|"kyber"' "$noprio/kyber-noprio.c.new" ||
		die "kyber-noprio: still claims \"kyber\" (block/kyber-iosched.c at $noprio_commit)"
	for f in Kbuild kyber-noprio.c; do
		if cmp -s "$noprio/$f.new" "$noprio/$f"; then
			rm "$noprio/$f.new"
		else
			mv "$noprio/$f.new" "$noprio/$f"
		fi
	done
	make -s -C "$(objdir series "$c")" M="$noprio" ARCH=x86_64 CC="ccache gcc" modules \
		> "$out/logs/noprio-series-$c.log" 2>&1 || {
		cat "$out/logs/noprio-series-$c.log" >&2; die "series: kyber-noprio does not build ($c)"; }
done

# ---- measuring ---------------------------------------------------------

# bench-vm.sh makes its devices and switches schedulers with the series'
# kselftest library, on both kernels.
ksft=$BUILD/kselftest-bench
install_kselftests "$ksft" || {
	cat "$ksft-install.log" >&2; die "the block/kyber kselftests do not install"; }

# The wall-clock parts run on TCG unless told otherwise, as the figures
# on the page and what it says of their noise are TCG's;
# KYBER_VM_ACCEL=auto lets them use KVM where it works (icount parts stay
# on TCG whatever it says).  The page names the setting.
export KYBER_VM_ACCEL=${KYBER_VM_ACCEL:-tcg}

tsv=$out/results.tsv new=$out/results.tsv.new
printf 'kernel\tpart\tscheduler\tparameter\trep\tmetric\tvalue\n' > "$new"
row() {	# row KERNEL PART METRIC VALUE: a fact about the run, not a figure
	printf '%s\t%s\t-\t-\t0\t%s\t%s\n' "$@" >> "$new"
}
row host all date "$(date -u '+%Y-%m-%d %H:%M UTC')"
row host all nproc "$(nproc)"
row host all cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
row host all qemu "$(qemu-system-x86_64 --version | head -n 1)"
row host all accel "$KYBER_VM_ACCEL"
row host all reps "$reps"
# cfgtext CONFIG OBJDIR: what the kernel of CONFIG was configured with.
cfgtext() {
	local t="tinyconfig + kvm_guest.config + scripts/kconfig/vm.config"

	case $1 in
	production) t="$t + scripts/kconfig/distro.config" ;;
	lockstat) t="$t + scripts/kconfig/lockstat.config" ;;
	esac
	echo "$t, $(grep '^CONFIG_MQ_IOSCHED_KYBER=' "$2/.config")"
}

for k in $kernels; do
	src=$KSRC
	[ "$k" = series ] || src=$upsrc
	# The "all" facts are the lean kernel's, the others' are per part.
	for p in all $parts; do
		c=$(config "$p")
		[ "$p" = all ] || [ "$c" != lean ] || continue
		obj=$(objdir "$k" "$c")
		[ -f "$obj/.config" ] || continue
		row "$k" "$p" release "$(cat "$obj/include/config/kernel.release")"
		row "$k" "$p" config "$(cfgtext "$c" "$obj")"
	done
	if [ -e "$src/.git" ]; then
		row "$k" all source "$(git -C "$src" describe --tags --long --always --dirty 2>/dev/null) ($(git -C "$src" log -1 --format=%s))"
	else
		row "$k" all source "$(sed -n -e 's/^VERSION = /v/p' -e 's/^PATCHLEVEL = /./p' \
			-e 's/^SUBLEVEL = /./p' "$src/Makefile" | head -n 3 | tr -d '\n') (source tree ${src#"$TOP"/}, not a git tree)"
	fi
done
# The series the figures are of (scripts/check-figures.sh compares it).
! has series "$kernels" || row series all stamp "$(series_stamp)"
[ -z "$noprio_commit" ] || row series prio noprio-source \
	"block/kyber-iosched.c at $(git -C "$KSRC" log -1 --format='%h (%s)' "$noprio_commit")"

# vm KERNEL PART TAG VCPUS ICOUNT SECONDS ARGS...: boot KERNEL in the
# configuration of PART and run bench-vm.sh ARGS PART in it; its figures
# are appended to the results.
vm() {
	local k=$1 part=$2 tag=$3 cpus=$4 icount=$5 limit=$6 obj w rc=0

	shift 6
	obj=$(objdir "$k" "$(config "$part")")
	w=$BUILD/vm-bench-$k-$tag
	info "$k: $tag ($cpus vCPU${icount:+, icount}; VM files in $w)"
	# shellcheck disable=SC2086
	"$TOP/selftests/vm-run.sh" -q $icount -c "$cpus" -o "$obj" -w "$w" -t "$limit" -- \
		bash "$TOP/scripts/bench-vm.sh" -k "$ksft" "$@" "$part" > "$out/logs/vm-$k-$tag.log" 2>&1 || rc=$?
	if [ "$rc" != 0 ]; then
		cat "$out/logs/vm-$k-$tag.log" >&2
		tail -n 15 "$w/xfer/output" 2>/dev/null >&2
		die "$k: $tag: the VM failed (exit $rc); see $w/console.log and $w/xfer/output"
	fi
	grep -q "^BENCH	$part	" "$w/xfer/output" || die "$k: $tag: no figures; see $w/xfer/output"
	grep "^BENCH	" "$w/xfer/output" | sed "s/^BENCH/$k/" >> "$new"
}

declare -A elapsed
for p in $parts; do
	for k in $kernels; do
		if [ "$p" = prio ] && [ "$k" != series ]; then
			info "$k: prio is measured on the series kernel only"
			continue
		fi
		t0=$SECONDS
		row "$k" "$p" date "$(date -u '+%Y-%m-%d %H:%M UTC')"
		floor=$BUILD/floor-$(basename "$(objdir "$k" "$(config "$p")")")/floor-iosched.ko
		case $p in
		cost)
			vm "$k" cost cost 1 -i $((300 + reps * 400)) -r "$reps" -f "$floor" \
				-s "none floor mq-deadline kyber bfq" ;;
		prodcost)
			if [ "$k" = series ]; then
				vm "$k" prodcost prodcost 1 -i $((300 + reps * 500)) -r "$reps" -f "$floor" \
					-N "$(noprio_dir production)/kyber-noprio.ko" \
					-s "none floor mq-deadline kyber-noprio kyber bfq"
			else
				vm "$k" prodcost prodcost 1 -i $((300 + reps * 400)) -r "$reps" -f "$floor" \
					-s "none floor mq-deadline kyber bfq"
			fi ;;
		latency)
			knob=""
			[ "$k" != series ] || knob=-K
			vm "$k" latency latency 2 "" $((300 + reps * 600)) -r "$reps" $knob \
				-s "none kyber mq-deadline bfq" ;;
		scaling)
			row "$k" scaling reps $SCALE_REPS
			vm "$k" scaling scaling 2 "" $((300 + SCALE_REPS * 60)) -r $SCALE_REPS \
				-f "$floor" -T 4 -s "none floor mq-deadline kyber" ;;
		contention)
			vm "$k" contention contention 2 "" $((400 + reps * 100)) -r "$reps" \
				-f "$floor" -T 4 -s "none floor mq-deadline kyber bfq" ;;
		prio)
			vm "$k" prio prio-cost 1 -i $((300 + reps * 150)) -r "$reps" -C \
				-I $PRIO_NIOS -N "$(noprio_dir lean)/kyber-noprio.ko" -s "none kyber-noprio kyber"
			vm "$k" prio prio 2 "" $((300 + reps * 320)) -r "$reps" -s kyber ;;
		devices)
			vm "$k" devices devices 2 "" $((300 + reps * 330)) -r "$reps" \
				-s "none mq-deadline bfq kyber" ;;
		slowdev)
			# BFQ is the same code in both kernels: once is enough.
			if [ "$k" = series ]; then
				vm "$k" slowdev slowdev 2 "" $((300 + reps * 450)) -r "$reps" \
					-s "none bfq kyber"
			else
				vm "$k" slowdev slowdev 2 "" $((300 + reps * 300)) -r "$reps" \
					-s "none kyber"
			fi ;;
		fs)
			vm "$k" fs fs 2 "" $((300 + reps * 300)) -r "$reps" \
				-s "none mq-deadline bfq kyber" ;;
		esac
		elapsed[$p]=$((${elapsed[$p]:-0} + SECONDS - t0))
		row "$k" "$p" elapsed_s $((SECONDS - t0))
	done
	info "$p: $((${elapsed[$p]:-0} / 60)) min $((${elapsed[$p]:-0} % 60)) s"
done

# -a: the earlier figures of the (kernel, part) pairs not measured now.
if [ -n "$keep" ] && [ -f "$tsv" ]; then
	# A kept part without a date, source or stamp of its own (an older
	# results file) was measured on that run's date, of that run's series.
	awk -F'\t' -v OFS='\t' -v parts=" $parts all " -v kernels=" $kernels host " '
		NR == 1 { next }
		$1 == "host" && $2 == "all" && $6 == "date" { then = $7 }
		$2 == "all" && ($6 == "source" || $6 == "stamp") { run[$1 OFS $6] = $7 }
		index(parts, " " $2 " ") && index(kernels, " " $1 " ") { next }
		{ print }
		$2 != "all" && $1 != "host" { kept[$1 OFS $2] = 1 }
		$3 == "-" && ($6 == "date" || $6 == "source" || $6 == "stamp") { own[$1 OFS $2 OFS $6] = 1 }
		END {
			for (kp in kept) {
				if (!((kp OFS "date") in own) && then != "")
					print kp, "-", "-", 0, "date", then
				split(kp, k, OFS)
				for (f in run) {
					split(f, kf, OFS)
					if (kf[1] == k[1] && !((kp OFS kf[2]) in own))
						print kp, "-", "-", 0, kf[2], run[f]
				}
			}
		}' "$tsv" >> "$new"
fi
mv "$new" "$tsv"
info "figures: $tsv"
python3 "$TOP/scripts/bench-report.py" -o "$doc" "$tsv" ||
	die "the report generator failed"
info "page: $doc/benchmarks.md, plot: $doc/benchmarks.png; total $((SECONDS / 60)) min $((SECONDS % 60)) s"
