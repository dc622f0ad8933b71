#!/bin/bash
# Every host script installs a package before it runs a command from it,
# so that a fresh Debian machine gets through the README's commands.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<EOT
usage: ${0##*/} [--help] [SCRIPT...]

Reads each host script of scripts/ and selftests/ (or the SCRIPTs given)
line by line and fails when a line runs a command whose package is not a
Debian default and no earlier line of that script installed it
(need PKG... or need_group GROUP..., with the groups of scripts/lib.sh).
The commands and their packages are the table below; a script that
calls another of ours leaves the installing to that one.  Comments,
here-documents (usage texts) and message lines are not read.  TAP
output, one line per script.
EOT
}
case "${1-}" in -h|--help) usage; exit 0 ;; -*) usage >&2; die "unknown option: $1" ;; esac

# ERE matched against a line of code, and the packages it needs.  Only
# what a fresh Debian 12 lacks: git, make, gcc, perl, python3, bc and
# xz-utils are there (the clone itself needs git).
table=$(cat <<'EOT'
install_kselftests|(^|[^-])\<rsync\>	rsync
qemu-system-x86_64	qemu-system-x86
(^|[ ;|&(])fio\>	fio
coccicheck MODE	coccinelle ocaml-nox
(-- |make .*)C=[12]\>	sparse
checkpatch\.pl	codespell python3-ply python3-git
kunit\.py	flex bison
ARCH=x86_64	flex bison libelf-dev libssl-dev ccache cpio
modules_install	kmod
(^|[ ;|&(])gnuplot\>	gnuplot-nox
git send-email	git-email
EOT
)

# The packages of need and need_group arguments on one line.
installed_by() {
	local w list=""
	for w in $1; do
		case $w in need|need_group|"||"|"&&") continue ;; esac
		if [[ $1 == *need_group* ]]; then
			eval "list=\"\$list \${PKGS_$w-}\""
		else
			list="$list $w"
		fi
	done
	echo "$list"
}

# check SCRIPT: "LINE: PKG for CMD" for each use before its install.
check() {
	local n=0 line code have=" " pat pkgs p heredoc=""
	while IFS= read -r line; do
		n=$((n + 1))
		if [ -n "$heredoc" ]; then
			[ "$line" != "$heredoc" ] || heredoc=""
			continue
		fi
		case $line in *"<<"[A-Z]*|*"<<'"[A-Z]*|*"<<-"[A-Z]*)
			heredoc=${line##*<<}; heredoc=${heredoc#-}; heredoc=${heredoc//\'/}
			heredoc=${heredoc%% *} ;;
		esac
		code=${line%%[[:space:]]#*}
		code=${code#"${code%%[![:space:]]*}"}
		case $code in
		""|"#"*|info\ *|die\ *|tap_ok\ *|tap_fail\ *|tap_skip\ *|echo\ *|printf\ *) continue ;;
		esac
		if [[ $code =~ (^|[^a-z_])need(_group)?\ ([a-z0-9 .+-]+) ]]; then
			have="$have$(installed_by "need${BASH_REMATCH[2]} ${BASH_REMATCH[3]}") "
		fi
		while IFS=$'\t' read -r pat pkgs; do
			[ -n "$pat" ] || continue
			[[ $code =~ $pat ]] || continue
			for p in $pkgs; do
				case $have in *" $p "*) continue ;; esac
				echo "$n: $p, for '$pat', is not installed first"
			done
		done <<<"$table"
	done < "$1"
}

all=""
if [ $# = 0 ]; then
	all=1
	for s in "$TOP"/scripts/*.sh "$TOP"/selftests/*.sh; do
		case ${s##*/} in
		# lib.sh's functions are checked where they are called; the
		# others run in the VM, on the host's packages, which
		# vm-run.sh installs before it boots; this one only reads.
		check-deps.sh|lib.sh|vm-init.sh|smoke.sh|demo.sh|noscratch.sh|stress-vm.sh|bench-vm.sh|kselftest-lib.sh)
			[ "$s" != "$TOP/scripts/demo.sh" ] || set -- "$@" "$s"
			continue ;;
		esac
		set -- "$@" "$s"
	done
fi
# The check itself must catch what a fresh machine met: demo.sh ran the
# kselftest install (rsync) before vm-run.sh installed the VM's group.
if [ "$all" ]; then
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	printf 'need_group base build\ninstall_kselftests "$d"\nneed_group vm\n' > "$tmp"
	if [ "$(check "$tmp")" = "2: rsync, for 'install_kselftests|(^|[^-])\<rsync\>', is not installed first" ]; then
		tap_ok "a kselftest install before the VM group's is caught"
	else
		tap_fail "a kselftest install before the VM group's is caught"
	fi
fi
for s in "$@"; do
	[ -f "$s" ] || die "no such script: $s"
	name=${s#"$TOP"/}
	bad=$(check "$s")
	if [ -z "$bad" ]; then
		tap_ok "$name installs what it runs before it runs it"
	else
		tap_fail "$name runs commands whose package it has not installed"
		echo "$bad" | tap_diag
	fi
done
tap_end
