# fsgauge — one plain GNU Makefile.
#
#   make                      build ./fsgauge
#   make check                unit tests + CLI tests
#   make DEVELOPER=1          strict warnings, -Werror
#   make check SANITIZE=address,undefined   (or SANITIZE=thread)
#   make install [PREFIX=/usr/local] [DESTDIR=]   (and make uninstall)
#
# Optional features are found by a compile-and-link probe and reported by
# `fsgauge --version`.

CC      ?= cc
CFLAGS  ?= -O2 -g
PKG_CONFIG ?= pkg-config
BUILD   ?= build

WARN := -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare
ifeq ($(DEVELOPER),1)
WARN += -Werror -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wvla -Wno-format-nonliteral
endif

SAN :=
ifneq ($(SANITIZE),)
SAN := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
ifneq ($(findstring undefined,$(SANITIZE)),)
SAN += -fno-sanitize-recover=undefined
endif
endif

# --- feature probes ---------------------------------------------------------
# `printf %b` turns the \n into newlines; $(HASH) is a '#' that survives
# $(call) (a \# inside a call argument stays a backslash and a hash).
HASH := \#
probe = $(shell printf '%b\n' '$(2)' | $(CC) -x c - -o /dev/null $(3) >/dev/null 2>&1 && echo 1)
HAVE_LIBURING  := $(call probe,uring,$(HASH)include <liburing.h>\nint main(void){struct io_uring r;return io_uring_queue_init(1,&r,0);},-luring)
HAVE_LIBAIO    := $(call probe,aio,$(HASH)include <libaio.h>\nint main(void){io_context_t c=0;return io_setup(1,&c);},-laio)
HAVE_LIBARCHIVE := $(call probe,archive,$(HASH)include <archive.h>\nint main(void){return archive_read_new()==0;},-larchive)
HAVE_LIBBLKID  := $(call probe,blkid,$(HASH)include <blkid/blkid.h>\nint main(void){return blkid_new_probe()==0;},-lblkid)
# MPI (Open MPI): mpicc's own flags, used only when a program compiles and
# links with them; its include directories as system headers (their
# prototypes do not pass -Wstrict-prototypes).  NO_MPI=1 builds without.
MPICC ?= mpicc
ifneq ($(NO_MPI),1)
MPI_COMPILE := $(shell $(MPICC) --showme:compile 2>/dev/null)
MPI_LINK    := $(shell $(MPICC) --showme:link 2>/dev/null)
endif
MPI_CFLAGS  := $(patsubst -I%,-isystem %,$(MPI_COMPILE))
HAVE_MPI    := $(if $(MPI_LINK),$(call probe,mpi,$(HASH)include <mpi.h>\nint main(int c,char **v){MPI_Init(&c,&v);return MPI_Finalize();},$(MPI_CFLAGS) $(MPI_LINK)))

FEATURE_CFLAGS :=
FEATURE_LIBS   :=
ifeq ($(HAVE_LIBURING),1)
FEATURE_CFLAGS += -DHAVE_LIBURING=1
FEATURE_LIBS   += -luring
endif
ifeq ($(HAVE_LIBAIO),1)
FEATURE_CFLAGS += -DHAVE_LIBAIO=1
FEATURE_LIBS   += -laio
endif
ifeq ($(HAVE_LIBARCHIVE),1)
FEATURE_CFLAGS += -DHAVE_LIBARCHIVE=1
FEATURE_LIBS   += -larchive
endif
ifeq ($(HAVE_LIBBLKID),1)
FEATURE_CFLAGS += -DHAVE_LIBBLKID=1
FEATURE_LIBS   += -lblkid
endif
ifeq ($(HAVE_MPI),1)
FEATURE_CFLAGS += -DHAVE_MPI=1 $(MPI_CFLAGS)
FEATURE_LIBS   += $(MPI_LINK)
endif

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
# The commit built from ("-dirty" with uncommitted changes), in a
# generated header rewritten only when it changes: the few files that
# print it are recompiled after a commit, and a result never names a
# commit it was not built from.
GITREV  := $(shell git describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)
GITREV_H := $(BUILD)/gen/gitrev.h
GITREV_TEXT := \#ifndef FSGAUGE_GITREV\n\#define FSGAUGE_GITREV "$(GITREV)"\n\#endif\n
$(shell mkdir -p $(BUILD)/gen; printf '$(GITREV_TEXT)' | cmp -s - $(GITREV_H) || \
	printf '$(GITREV_TEXT)' > $(GITREV_H))

ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -Isrc -I$(BUILD)/gen $(WARN) $(CFLAGS) $(SAN) \
	-pthread -MMD -MP -DFSGAUGE_VERSION='"$(VERSION)"' \
	$(FEATURE_CFLAGS)
ALL_LDFLAGS := $(LDFLAGS) $(SAN) -pthread
LIBS := -ljansson -lxxhash $(FEATURE_LIBS) -lm

# --- sources ----------------------------------------------------------------
LIB_SRC  := $(sort $(wildcard src/*/*.c src/*/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/builtin_workloads.o
MAIN_OBJ := $(BUILD)/src/main.o
WORKLOADS := $(sort $(wildcard workloads/*.f))

UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all check unit cli clean fuzz fuzz-bins format lint install uninstall
MAN_PAGE := $(BUILD)/fsgauge.1
ZSH_COMP := $(BUILD)/_fsgauge
all: fsgauge $(MAN_PAGE) $(ZSH_COMP)

LINK_STAMP := .fsgauge.link
fsgauge: $(LIB_OBJ) $(MAIN_OBJ) $(LINK_STAMP)
	$(CC) $(ALL_LDFLAGS) -o $@ $(LIB_OBJ) $(MAIN_OBJ) $(LIBS)

# Objects depend on the compiler flags (features found, sanitizers), so a
# change of either rebuilds everything.
FLAGS_STAMP := $(BUILD)/.cflags
STAMP_FLAGS := $(CC) $(ALL_CFLAGS)
$(shell mkdir -p $(BUILD); printf '%s\n' "$(STAMP_FLAGS)" | cmp -s - $(FLAGS_STAMP) || \
	printf '%s\n' "$(STAMP_FLAGS)" > $(FLAGS_STAMP))
# ./fsgauge is shared by every BUILD directory: it is linked again when the
# last one linked came from another build (`make` after `make SANITIZE=...
# BUILD=build-asan` must not leave the sanitizer binary in place).  The
# fuzzer builds (fuzz-bins) do not link it and leave the stamp alone.
ifeq ($(filter fuzz-bins,$(MAKECMDGOALS)),)
$(shell printf '%s\n' "$(BUILD) $(ALL_LDFLAGS)" | cmp -s - $(LINK_STAMP) || \
	printf '%s\n' "$(BUILD) $(ALL_LDFLAGS)" > $(LINK_STAMP))
endif

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Built-in personalities are embedded as C strings.
$(BUILD)/gen/builtin_workloads.c: $(WORKLOADS) tools/embed-workloads.sh
	@mkdir -p $(dir $@)
	sh tools/embed-workloads.sh $(WORKLOADS) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/builtin_workloads.o: $(BUILD)/gen/builtin_workloads.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# fsgauge(1) from the binary's own --help texts (tools/gen-man.sh), so it
# says what the option tables say.
$(MAN_PAGE): fsgauge tools/gen-man.sh
	@mkdir -p $(dir $@)
	sh tools/gen-man.sh ./fsgauge $(VERSION) > $@.tmp && mv $@.tmp $@

# The zsh completion, from the same help texts and 'fsgauge list'
# (tools/gen-zsh-completion.sh).
$(ZSH_COMP): fsgauge tools/gen-zsh-completion.sh
	@mkdir -p $(dir $@)
	sh tools/gen-zsh-completion.sh ./fsgauge $(VERSION) > $@.tmp && mv $@.tmp $@

# --- install ------------------------------------------------------------------
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
INSTALL ?= install

install: fsgauge $(MAN_PAGE) $(ZSH_COMP)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 755 fsgauge $(DESTDIR)$(BINDIR)/fsgauge
	$(INSTALL) -m 644 $(MAN_PAGE) $(DESTDIR)$(MANDIR)/man1/fsgauge.1
	$(INSTALL) -m 644 tools/fsgauge-completion.bash $(DESTDIR)$(BASHCOMPDIR)/fsgauge
	$(INSTALL) -m 644 $(ZSH_COMP) $(DESTDIR)$(ZSHCOMPDIR)/_fsgauge

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fsgauge $(DESTDIR)$(MANDIR)/man1/fsgauge.1 \
		$(DESTDIR)$(BASHCOMPDIR)/fsgauge $(DESTDIR)$(ZSHCOMPDIR)/_fsgauge

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(LIB_OBJ) $(ALL_LDFLAGS) $(LIBS)

unit: $(UNIT_BIN)

# --- fuzzing (libFuzzer, clang) -----------------------------------------------
# `make fuzz` builds the harnesses in fuzz/ with clang, ASan and UBSan and runs
# each for FUZZ_SECONDS; `make check` runs them for FUZZ_SMOKE_SECONDS each
# (tests/cli/fuzz.sh) when clang's fuzzer runtime is installed.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_BUILD ?= build-fuzz
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BIN = $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)
HAVE_FUZZER := $(shell printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}\n' | clang -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1 && echo 1)
FUZZ_MAKE = $(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang SANITIZE=address,undefined \
	CFLAGS='-O1 -g -fsanitize=fuzzer-no-link' DEVELOPER= fuzz-bins

$(BUILD)/fuzz/%: fuzz/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJ) $(ALL_LDFLAGS) $(LIBS)

fuzz-bins: $(FUZZ_BIN)

fuzz:
ifeq ($(HAVE_FUZZER),1)
	$(FUZZ_MAKE)
	FUZZ_BIN_DIR=$(FUZZ_BUILD)/fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_WORK=$(FUZZ_BUILD) sh fuzz/run.sh
else
	@echo "make fuzz needs clang with libFuzzer (Debian: clang, libclang-rt-dev)"; exit 1
endif

check: fsgauge $(UNIT_BIN)
ifeq ($(HAVE_FUZZER),1)
	$(FUZZ_MAKE)
endif
	FSGAUGE=$(CURDIR)/fsgauge BUILD=$(BUILD) SANITIZE='$(SANITIZE)' \
	FUZZ_BIN_DIR=$(if $(HAVE_FUZZER),$(CURDIR)/$(FUZZ_BUILD)/fuzz) FUZZ_WORK=$(CURDIR)/$(FUZZ_BUILD) \
	FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) \
		sh tests/run-tests.sh $(UNIT_BIN) $(filter-out tests/cli/lib.sh,$(sort $(wildcard tests/cli/*.sh)))

# Static analysis: no function over 120 lines in cmd/ and suite/
# (tools/function-lengths.sh), and cppcheck, clean, with the committed suppressions (each
# justified in .cppcheck-suppressions).
CPPCHECK ?= cppcheck
lint:
	sh tools/function-lengths.sh 120 $(wildcard src/cmd/*.c src/suite/*.c src/suite/*/*.c)
	$(CPPCHECK) --quiet --error-exitcode=1 --enable=warning,style,portability,performance \
		--std=c11 --inline-suppr --suppressions-list=.cppcheck-suppressions \
		-D_GNU_SOURCE -DHAVE_LIBURING=1 -DHAVE_LIBAIO=1 -DHAVE_LIBBLKID=1 -DHAVE_LIBARCHIVE=1 \
		-DFSGAUGE_VERSION='"lint"' -DFSGAUGE_GITREV='"lint"' -Isrc -I$(BUILD)/gen \
		src fuzz tests/unit

format:
	clang-format -i $(LIB_SRC) src/main.c $(wildcard src/*/*.h src/*/*/*.h) $(UNIT_SRC)

clean:
	rm -rf $(BUILD) $(FUZZ_BUILD) fsgauge $(LINK_STAMP)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
