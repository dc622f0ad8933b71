# The project's commands; each target calls one script.  See README.md.
.PHONY: help demo check stress mutate bench base apply export mails send build clean

help:
	@echo "make demo    build the series kernel and boot it in QEMU (the main job)"
	@echo "make check   every check and test; ends with 'N passed, N failed'"
	@echo "make stress  debug kernel (KASAN, lockdep, ...): Kyber lifecycle stress"
	@echo "             scenarios in the VM (about 30 min); 'N passed, N failed'"
	@echo "make mutate  break Kyber in each recorded way (scripts/mutations) and check"
	@echo "             that the test meant to notice fails (about 10 min)"
	@echo "make bench   measure the series' Kyber beside upstream 6.12 and the other"
	@echo "             schedulers (about 55 min); writes Documentation/benchmarks.md"
	@echo "make base    make the base tree in build/linux"
	@echo "make apply   apply patches/ onto the base (branch 'series')"
	@echo "make export  write branch 'series' back to patches/ and series, as you"
	@echo "make mails   the series as mails in build/mail/vN (a dry run of send)"
	@echo "make send    mail the series with git send-email (asks before each)"
	@echo "make build   build the VM kernel (Kyber=m) from build/linux as it is"
	@echo "make clean   remove build/ (the kernel tree, objects, VM files)"

demo:
	scripts/demo.sh

check:
	scripts/check.sh

stress:
	scripts/stress.sh

mutate:
	scripts/mutate.sh

bench:
	scripts/bench.sh

base:
	scripts/base-tree.sh

apply: base
	scripts/apply.sh

export:
	scripts/export.sh

mails:
	scripts/send.sh -n

send:
	scripts/send.sh

build:
	scripts/build.sh -k m

clean:
	rm -rf build
