# dmesg without the KCSAN data-race reports that do not involve Kyber.
# Used by make stress on the KCSAN kernel (scripts/stress.sh -K,
# selftests/stress-vm.sh): KCSAN reports races all over the kernel, and
# those in code Kyber has no part in are not what the stress is about.
# A report is the lines from one "=====" rule to the next; it involves
# Kyber when one of its stacks has a kyber_ function.  The first line of
# each report left out goes to the file named by -v other=FILE.
#
#   awk -v other=FILE -f kcsan-filter.awk DMESG

function flush() {
	if (buf != "" && buf ~ /BUG: KCSAN:/ && buf !~ /kyber_/) {
		if (other != "")
			print head >> other
	} else if (buf != "") {
		printf "%s", buf
	}
	buf = ""; head = ""; inside = 0
}

/\] =+$|^=+$/ {
	if (inside) {
		buf = buf $0 "\n"
		flush()
		next
	}
	inside = 1
	buf = $0 "\n"
	next
}

inside {
	buf = buf $0 "\n"
	if (head == "" && /BUG: /)
		head = $0
	next
}

{ print }

END { if (inside) flush() }
