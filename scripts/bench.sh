#!/bin/bash
# make bench: the series' Kyber beside upstream Kyber and the other
# schedulers, measured in the VM; raw figures to build/bench, the page to
# Documentation/benchmarks.md.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [-p PARTS] [-r REPS] [-k KERNELS] [-B] [-a] [-o DIR] [-d DIR]

Measures the series kernel ($BUILD/obj-m, Kyber=m) and the base
release, Debian's 6.12.y with its own Kyber ($BUILD/obj-upstream, from the worktree $BUILD/upstream at
the tag the base tree starts from) in the same harness: each boots under
QEMU (selftests/vm-run.sh) and runs scripts/bench-vm.sh on null_blk,
with the helpers of the series' kselftests (kyber_lib.sh of block/kyber,
installed from $KSRC in $BUILD/kselftest-bench) for both kernels.
  cost     CPU per I/O: 4 KiB random reads, QD 1 and 32, fixed I/O count,
           1 vCPU under -icount; none, floor, mq-deadline, kyber, bfq
  latency  QD1 read latency beside a direct and a buffered write flood on
           a saturated null_blk, real time, 2 vCPUs; none, kyber,
           mq-deadline, bfq; the series' Kyber also with read_lat_nsec
           1, 2 and 5 ms
  scaling  as cost at QD32 with 1, 2 and 4 vCPUs each running a job, all
           on one hardware queue; none, floor, mq-deadline, kyber
  prio     the series kernel only: I/O priority classes.  As cost at QD32,
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
  devices  default settings (Kyber's targets, nr_requests) on three
           null_blk classes, real time, 2 vCPUs; none, mq-deadline, bfq,
           kyber: a QD1 reader beside an 8x QD8 O_DIRECT write flood on
           a slow device (2 tags, 5 ms per request) and on a saturated
           one (2 tags, 1 ms); beside a QD16 read flood on another
           hardware queue of a multiqueue device (2 queues of 1 tag,
           1 ms); reader p50/p99, total IOPS, Kyber's token pools
Builds both kernels first (incremental; -B: not), the floor elevator
(selftests/floor-iosched) against each for cost and scaling, and
kyber-noprio against the series kernel for prio ($BUILD/noprio-obj-m,
from block/kyber-iosched.c of the series commit that adds Kyber).  With
-B and no worktree $BUILD/upstream, the upstream kernel is the one built
in $BUILD/obj-upstream, from the source its Makefile names.  One row
per figure goes to DIR/results.tsv (default $BUILD/bench), then
scripts/bench-report.py writes benchmarks.md and benchmarks.png to
$TOP/Documentation (-d: to another directory).  A number never fails
the run; a build, a VM or a tool that fails does.  The full run takes about 58 minutes here (the
devices part about 18 of them, 9 per kernel).
  -p  parts, comma separated (default cost,latency,scaling,prio,devices)
  -r  repetitions (default 3)
  -k  kernels, comma separated (default series,upstream)
  -B  do not build the kernels, use them as they are
  -a  keep the earlier figures of the parts and kernels not run now
EOT
}

PRIO_NIOS=100000	# I/Os per run of the prio part's cost, 5x the cost part's
parts=cost,latency,scaling,prio,devices reps=3 kernels=series,upstream build=1 keep="" out=$BUILD/bench
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
	case $p in cost|latency|scaling|prio|devices) ;; *) die "unknown part '$p' (cost, latency, scaling, prio, devices)" ;; esac
done
for k in $kernels; do
	case $k in series|upstream) ;; *) die "unknown kernel '$k' (series, upstream)" ;; esac
done

need_base
need_group vm bench
# The bench only reads the kernel trees' git state: it must not take the
# index lock from under someone working in them.
export GIT_OPTIONAL_LOCKS=0
out=$(realpath -m "$out")
mkdir -p "$out/logs"
up_tag=$(git -C "$KSRC" describe --tags --abbrev=0 --match 'v6.*' "$BASE_TAG^") ||
	die "no v6.* tag below '$BASE_TAG' in $KSRC"
upstream=$BUILD/upstream upsrc=$BUILD/upstream

objdir() { case $1 in series) echo "$BUILD/obj-m" ;; upstream) echo "$BUILD/obj-upstream" ;; esac; }
has() {	# has WORD LIST...: whether WORD is one of LIST
	local w=$1

	shift
	case " $* " in *" $w "*) return 0 ;; esac
	return 1
}

# ---- kernels and the floor elevator ------------------------------------

if ! has upstream "$kernels"; then
	:
elif [ ! -d "$upstream" ] && [ -z "$build" ]; then
	# -B: the upstream kernel as it was built, from the source its
	# object directory names (a kernel Makefile's "include SRC/Makefile").
	upsrc=$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$(objdir upstream)/Makefile" 2>/dev/null | head -n 1)
	[ -f "${upsrc:-/nonexistent}/Makefile" ] ||
		die "no $upstream and no source named in $(objdir upstream)/Makefile; run without -B"
	info "upstream: no worktree $upstream; the kernel in $(objdir upstream) is from $upsrc"
else
	if [ ! -d "$upstream" ]; then
		info "making the worktree $upstream at $up_tag"
		git -C "$KSRC" worktree add --detach "$upstream" "$up_tag" >/dev/null 2>&1 ||
			die "cannot add the worktree $upstream"
	fi
	[ "$(git -C "$upstream" rev-parse HEAD)" = "$(git -C "$KSRC" rev-parse "$up_tag^{commit}")" ] ||
		die "$upstream is not at $up_tag; remove it (git -C $KSRC worktree remove $upstream)"
fi

for k in $kernels; do
	obj=$(objdir "$k")
	if [ -n "$build" ]; then
		info "$k: building the kernel in $obj (log: $out/logs/build-$k.log)"
		if [ "$k" = series ]; then
			set -- -k m
		else
			set -- -s "$upstream" -o "$obj"
		fi
		"$TOP/scripts/build.sh" "$@" > "$out/logs/build-$k.log" 2>&1 || {
			tail -n 20 "$out/logs/build-$k.log" >&2; die "$k: kernel build failed"; }
	fi
	[ -f "$obj/arch/x86/boot/bzImage" ] || die "$k: no kernel in $obj; run without -B"
	has cost "$parts" || has scaling "$parts" || continue
	floor=$BUILD/floor-${obj##*/}
	mkdir -p "$floor"
	for f in Kbuild floor-iosched.c; do
		cmp -s "$TOP/selftests/floor-iosched/$f" "$floor/$f" ||
			cp "$TOP/selftests/floor-iosched/$f" "$floor/$f"
	done
	make -s -C "$obj" M="$floor" ARCH=x86_64 CC="ccache gcc" modules \
		> "$out/logs/floor-$k.log" 2>&1 || {
		cat "$out/logs/floor-$k.log" >&2; die "$k: the floor elevator does not build"; }
done

# kyber-noprio: block/kyber-iosched.c as the series adds it, before the
# patch that serves priority classes, built out of tree against the
# series kernel under the elevator name kyber-noprio.  It defines the
# same tracepoints as the in-tree module, which the kernel tolerates.
noprio=$BUILD/noprio-obj-m noprio_commit=""
if has prio "$parts" && has series "$kernels"; then
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
	make -s -C "$(objdir series)" M="$noprio" ARCH=x86_64 CC="ccache gcc" modules \
		> "$out/logs/noprio-series.log" 2>&1 || {
		cat "$out/logs/noprio-series.log" >&2; die "series: kyber-noprio does not build"; }
fi

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
for k in $kernels; do
	obj=$(objdir "$k")
	src=$KSRC
	[ "$k" = series ] || src=$upsrc
	row "$k" all release "$(cat "$obj/include/config/kernel.release")"
	if [ -e "$src/.git" ]; then
		row "$k" all source "$(git -C "$src" describe --tags --always --dirty 2>/dev/null) ($(git -C "$src" log -1 --format=%s))"
	else
		row "$k" all source "$(sed -n -e 's/^VERSION = /v/p' -e 's/^PATCHLEVEL = /./p' \
			-e 's/^SUBLEVEL = /./p' "$src/Makefile" | head -n 3 | tr -d '\n') (source tree ${src#"$TOP"/}, not a git tree)"
	fi
	row "$k" all config "tinyconfig + kvm_guest.config + scripts/kconfig/vm.config, $(grep '^CONFIG_MQ_IOSCHED_KYBER=' "$obj/.config")"
done
[ -z "$noprio_commit" ] || row series prio noprio-source \
	"block/kyber-iosched.c at $(git -C "$KSRC" log -1 --format='%h (%s)' "$noprio_commit")"

# vm KERNEL PART TAG VCPUS ICOUNT SECONDS ARGS...: boot KERNEL and run
# bench-vm.sh ARGS PART in it; its figures are appended to the results.
vm() {
	local k=$1 part=$2 tag=$3 cpus=$4 icount=$5 limit=$6 obj w rc=0

	shift 6
	obj=$(objdir "$k")
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
		floor=$BUILD/floor-$(basename "$(objdir "$k")")/floor-iosched.ko
		case $p in
		cost)
			vm "$k" cost cost 1 -i $((300 + reps * 400)) -r "$reps" -f "$floor" \
				-s "none floor mq-deadline kyber bfq" ;;
		latency)
			knob=""
			[ "$k" != series ] || knob=-K
			vm "$k" latency latency 2 "" $((300 + reps * 600)) -r "$reps" $knob \
				-s "none kyber mq-deadline bfq" ;;
		scaling)
			for n in 1 2 4; do
				vm "$k" scaling "scaling-cpus$n" "$n" -i $((300 + reps * n * 200)) \
					-r "$reps" -f "$floor" -n "$n" -s "none floor mq-deadline kyber"
			done ;;
		prio)
			vm "$k" prio prio-cost 1 -i $((300 + reps * 150)) -r "$reps" -C \
				-I $PRIO_NIOS -N "$noprio/kyber-noprio.ko" -s "none kyber-noprio kyber"
			vm "$k" prio prio 2 "" $((300 + reps * 320)) -r "$reps" -s kyber ;;
		devices)
			vm "$k" devices devices 2 "" $((300 + reps * 330)) -r "$reps" \
				-s "none mq-deadline bfq kyber" ;;
		esac
		elapsed[$p]=$((${elapsed[$p]:-0} + SECONDS - t0))
		row "$k" "$p" elapsed_s $((SECONDS - t0))
	done
	info "$p: $((${elapsed[$p]:-0} / 60)) min $((${elapsed[$p]:-0} % 60)) s"
done

# -a: the earlier figures of the (kernel, part) pairs not measured now.
if [ -n "$keep" ] && [ -f "$tsv" ]; then
	awk -F'\t' -v parts=" $parts all " -v kernels=" $kernels host " \
		'NR > 1 && !(index(parts, " " $2 " ") && index(kernels, " " $1 " "))' \
		"$tsv" >> "$new"
fi
mv "$new" "$tsv"
info "figures: $tsv"
python3 "$TOP/scripts/bench-report.py" -o "$doc" "$tsv" ||
	die "the report generator failed"
info "page: $doc/benchmarks.md, plot: $doc/benchmarks.png; total $((SECONDS / 60)) min $((SECONDS % 60)) s"
