#!/bin/bash
# The main job: base tree, series applied, lean kernel built, booted in
# QEMU, devices and their schedulers shown, and none and kyber compared.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help]

Makes the base tree (first run: a few minutes), applies the series to a
fresh '$BRANCH' branch unless it already carries unexported work, builds
the VM kernel with Kyber as a module (first run: about 9 minutes, then
seconds) and boots it under QEMU (KVM where it works, else TCG; see
selftests/vm-run.sh --help) to list the block devices and the
schedulers each offers.  Then, in about a minute under TCG, what Kyber
is for: a QD1 random reader beside an O_DIRECT write flood on a
saturated null_blk, 10 s under none and 10 s under kyber with default
settings; a table of the reader's p99 latency and IOPS, the flood's IOPS
and the total, and one sentence computed from it.  Without fio in the
VM that part is skipped, with the reason.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; "") ;; *) usage >&2; die "unknown argument: $1" ;; esac

# Everything this machine must have, before the first minutes of work.
need_group base build vm
"$TOP/scripts/base-tree.sh"
if [ "$(git -C "$KSRC" rev-parse "$BRANCH")" = "$(git -C "$KSRC" rev-parse -q --verify "refs/tags/$APPLIED_TAG" || true)" ] ||
   [ "$(git -C "$KSRC" rev-parse "$BRANCH")" = "$(git -C "$KSRC" rev-parse "$BASE_TAG")" ]; then
	"$TOP/scripts/apply.sh"
else
	info "branch '$BRANCH' has unexported commits; building it as it is"
fi
git -C "$KSRC" checkout -q "$BRANCH"
info "building the kernel (log: $BUILD/obj-m/build.log)"
"$TOP/scripts/build.sh" -k m >/dev/null 2>&1 || {
	tail -n 30 "$BUILD/obj-m/build.log"; die "kernel build failed"; }
# The VM's part makes its device and runs fio with the series' kselftest
# helpers, installed here from the tree just built.
ksft=$BUILD/kselftest-demo
install_kselftests "$ksft" || {
	cat "$ksft-install.log" >&2; die "the block/kyber kselftests do not install"; }
info "booting $(cat "$BUILD/obj-m/include/config/kernel.release") under QEMU"
"$TOP/selftests/vm-run.sh" -q -k m -t 300 -- bash "$TOP/selftests/demo.sh" -k "$ksft" || rc=$?
cat "$BUILD/vm-last/xfer/output" 2>/dev/null
exit "${rc:-0}"
