# bareperf build. `make` builds the UEFI image and the host twin; `make test`
# runs every test; `make run` boots the image in QEMU. Sources are found by
# folder, so adding a file needs no change here.

BUILD   := build
# V=1 shows the full commands.
Q := $(if $(V),,@)
HOSTDIR := $(BUILD)/host
EFIDIR  := $(BUILD)/efi

# Portable logic: compiled for the image and for the host (tests included).
CORE_DIRS := lib arch events sched pebs pmu sampling perfdata sim cmd workload
CORE_SRC  := $(sort $(foreach d,$(CORE_DIRS),$(wildcard $(d)/*.c)))
# Portable assembly (the workloads' exact loops): built for both too.
CORE_ASM  := $(sort $(wildcard workload/*.asm))
# Image-only: UEFI entry, console, files, IDT, the real hardware backend.
BOOT_SRC  := $(sort $(wildcard boot/*.c))
BOOT_ASM  := $(sort $(wildcard boot/*.asm))
HOST_SRC  := $(filter-out host/main.c,$(sort $(wildcard host/*.c)))
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
TEST_SUPPORT_SRC := $(filter-out $(TEST_SRC),$(sort $(wildcard tests/unit/*.c)))

WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wvla -Wstrict-prototypes
COMMON_CFLAGS := -std=gnu11 -O2 -g $(WARN) -fno-omit-frame-pointer -I.

# ---- host twin and tests ----------------------------------------------
HOST_CC     ?= gcc
HOST_CFLAGS := $(COMMON_CFLAGS) -DBP_HOST=1 $(EXTRA_CFLAGS)
HOST_LDFLAGS := $(EXTRA_LDFLAGS)
CORE_HOST_OBJ := $(CORE_SRC:%.c=$(HOSTDIR)/obj/%.o) $(CORE_ASM:%.asm=$(HOSTDIR)/obj/%.o)
HOST_OBJ      := $(HOST_SRC:%.c=$(HOSTDIR)/obj/%.o)
TEST_BIN      := $(TEST_SRC:tests/unit/%.c=$(HOSTDIR)/tests/%)
TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(HOSTDIR)/obj/%.o)

# ---- UEFI image ----------------------------------------------------------
EFI_CC      := gcc
EFI_INC     := /usr/include/efi
EFI_LIB     := /usr/lib
EFI_CFLAGS  := $(COMMON_CFLAGS) -isystem $(EFI_INC) -isystem $(EFI_INC)/x86_64 -DBP_EFI=1 -ffreestanding -fno-stack-protector \
	-fno-stack-check -fpic -fshort-wchar -mno-red-zone -maccumulate-outgoing-args \
	-DGNU_EFI_USE_MS_ABI
EFI_LDFLAGS := -nostdlib -znocombreloc -T linker.ld -shared -Bsymbolic \
	--no-undefined --build-id=sha1 -L$(EFI_LIB)
EFI_OBJ := $(CORE_SRC:%.c=$(EFIDIR)/obj/%.o) $(BOOT_SRC:%.c=$(EFIDIR)/obj/%.o) \
	$(BOOT_ASM:%.asm=$(EFIDIR)/obj/%.o) $(CORE_ASM:%.asm=$(EFIDIR)/obj/%.o)
LIBGCC  := $(shell $(EFI_CC) -print-libgcc-file-name)

.PHONY: all efi host qemu guest test unit e2e run bench clean deps asan fuzz fuzz-build fuzzers
all: efi host qemu guest

deps:
	@tools/install-deps

# QEMU 7.2 (Debian's source) with the TCG PMU: build/qemu/qemu-system-x86_64.
# tools/build-qemu rebuilds only what our QEMU changes touch (qemu/README.md).
qemu:
	@tools/build-qemu --quiet

efi: $(BUILD)/bareperf.efi $(BUILD)/tests/hello.efi $(BUILD)/tests/hello.elf $(BUILD)/tests/pmudiff.efi \
	$(BUILD)/tests/pmuspeed.efi $(BUILD)/tests/ebs.efi $(BUILD)/tests/ebs.elf
host: $(HOSTDIR)/bareperf $(HOSTDIR)/tests/pmu_diff_host

$(HOSTDIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(HOSTDIR)/obj/%.o: %.asm
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)nasm $(NASM_FLAGS) -MD $(@:.o=.d) -o $@ $(abspath $<) && objcopy $(NASM_LOCALS) $@

$(HOSTDIR)/libcore.a: $(CORE_HOST_OBJ) $(HOST_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

# The programs that name functions (the image and the host twin: record,
# report and bench; and the tests of those commands) embed their own
# function symbols (perfdata/symtab.h): a two-pass link where @SYMTAB@ is
# the generated table and @OUT@ the output. Every other program links once,
# with an empty table for the code that looks names up.
SYMTAB_LINK := tools/symtab-link
SYMTAB_DEPS := tools/symtab-link tools/gen-symtab perfdata/symtab.h
HOST_LINK    = $(SYMTAB_LINK) $@ "$(HOST_CC) $(HOST_CFLAGS)" $(HOST_CC) $(HOST_CFLAGS) -o @OUT@
EMPTY_SYMTAB := $(HOSTDIR)/obj/symtab-empty.o
SYMTAB_TESTS := test_cli test_cmd_bench test_files test_report test_restore test_symtab test_target
$(EMPTY_SYMTAB): tools/gen-symtab perfdata/symtab.h
	@mkdir -p $(dir $@)
	$(Q)tools/gen-symtab >$(@:.o=.c)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -c $(@:.o=.c) -o $@

$(HOSTDIR)/bareperf: $(HOSTDIR)/obj/host/main.o $(HOSTDIR)/libcore.a $(SYMTAB_DEPS)
	@echo "  LD      $@"
	$(Q)$(HOST_LINK) $< @SYMTAB@ $(HOSTDIR)/libcore.a $(HOST_LDFLAGS) -lm

# The Linux guest's workload program (guest/, tools/linux-guest): the
# built-in workloads as a static Linux program that Linux's perf measures.
guest: $(BUILD)/guest/bp-workload
$(BUILD)/guest/bp-workload: $(HOSTDIR)/obj/guest/workload_main.o $(HOSTDIR)/libcore.a $(EMPTY_SYMTAB)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(EMPTY_SYMTAB) $(HOSTDIR)/libcore.a $(HOST_LDFLAGS) -lm -static

SYMTAB_TEST_BIN := $(SYMTAB_TESTS:%=$(HOSTDIR)/tests/%)
PLAIN_TEST_BIN  := $(filter-out $(SYMTAB_TEST_BIN),$(TEST_BIN))
$(SYMTAB_TEST_BIN): $(HOSTDIR)/tests/%: $(HOSTDIR)/obj/tests/unit/%.o $(TEST_SUPPORT_OBJ) $(HOSTDIR)/libcore.a $(SYMTAB_DEPS)
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	$(Q)$(HOST_LINK) $< $(TEST_SUPPORT_OBJ) @SYMTAB@ $(HOSTDIR)/libcore.a $(HOST_LDFLAGS) -lcmocka -lm
$(PLAIN_TEST_BIN): $(HOSTDIR)/tests/%: $(HOSTDIR)/obj/tests/unit/%.o $(TEST_SUPPORT_OBJ) $(HOSTDIR)/libcore.a $(EMPTY_SYMTAB)
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(TEST_SUPPORT_OBJ) $(EMPTY_SYMTAB) $(HOSTDIR)/libcore.a $(HOST_LDFLAGS) -lcmocka -lm

$(EFIDIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC [efi] $<"
	$(Q)$(EFI_CC) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

$(EFIDIR)/obj/%.o: %.asm
	@mkdir -p $(dir $@)
	@echo "  NASM    $<"
	$(Q)nasm $(NASM_FLAGS) -MD $(@:.o=.d) -o $@ $(abspath $<) && objcopy $(NASM_LOCALS) $@

# bareperf.elf: the linked image with all symbols and debug info at its link
# addresses (perf and gdb read this); bareperf.efi: the PE32+ made from it.
# NASM's local labels (soak_hot.loop) go, so that samples name the function;
# the DWARF line table stays, so that perf's srcline finds the .asm line.
NASM_LOCALS := -w --strip-symbol='[A-Za-z_]*.*'
# Sources and includes are given by absolute path: NASM writes
# DW_AT_comp_dir as the source's folder but file names as given from the
# current one, so relative names (workload/loop8.inc) named files that do
# not exist (workload//workload/loop8.inc) and perf annotate showed no
# source (tests/e2e/annotate_asm_source.sh).
NASM_FLAGS := -f elf64 -g -I$(CURDIR)/workload/

# GNU-EFI's ImageBase symbol sits at address 0, where perf's addr2line
# sentinel (a query for address 0 that must answer "??") expects nothing:
# with it, `perf report --sort srcline` waits forever. The link has used it
# already; the ELF perf reads does without.
STRIP_IMAGEBASE := objcopy --strip-symbol=ImageBase

$(BUILD)/bareperf.elf: $(EFI_OBJ) linker.ld $(SYMTAB_DEPS)
	@echo "  LD      $@"
	$(Q)$(SYMTAB_LINK) $@ "$(EFI_CC) $(EFI_CFLAGS)" ld $(EFI_LDFLAGS) \
		$(EFI_LIB)/crt0-efi-x86_64.o $(EFI_OBJ) @SYMTAB@ -o @OUT@ \
		-lefi -lgnuefi $(LIBGCC)
	$(Q)$(STRIP_IMAGEBASE) $@

$(BUILD)/bareperf.efi: $(BUILD)/bareperf.elf
	$(Q)objcopy -j .text -j .sdata -j .data -j .note.gnu.build-id -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .reloc --target=efi-app-x86_64 --subsystem=10 $< $@
	@echo "bareperf.efi: $$(stat -c %s $@) bytes (text $$(size -A $< | awk '$$1==".text"{print $$2}') bytes)"

# The UEFI programs the tests boot (tests/efi/NAME.c): the image's flags,
# each its own ELF with symbols laid out so file offsets are RVAs
# (tests/efi/hello.lds; .bss is inside .data there). hello.efi is profiled;
# pmudiff.efi runs the differential sequence (tests/diff/pmu_diff.c) on
# the machine's PMU, pmu_diff_host the same on the model; pmuspeed.efi
# measures what the TCG PMU costs QEMU (tools/bench-qemu-pmu).
$(BUILD)/tests/%.elf: $(EFIDIR)/obj/tests/efi/%.o tests/efi/hello.lds
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)ld $(filter-out -T linker.ld,$(EFI_LDFLAGS)) -T tests/efi/hello.lds \
		$(EFI_LIB)/crt0-efi-x86_64.o $(filter %.o,$^) -o $@ -lefi -lgnuefi $(LIBGCC)
	$(Q)$(STRIP_IMAGEBASE) $@
$(BUILD)/tests/pmudiff.elf: $(EFIDIR)/obj/tests/diff/pmu_diff.o
# The ELFs are kept: perf reads hello.elf's symbols.
.PRECIOUS: $(BUILD)/tests/%.elf

$(BUILD)/tests/%.efi: $(BUILD)/tests/%.elf
	$(Q)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .reloc --target=efi-app-x86_64 --subsystem=10 $< $@

$(HOSTDIR)/tests/pmu_diff_host: tests/diff/pmu_diff_host.c tests/diff/pmu_diff.c $(HOSTDIR)/libcore.a
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -o $@ $(filter %.c,$^) $(HOSTDIR)/libcore.a $(HOST_LDFLAGS)

# `make test` and `make run` install missing Debian packages first.
# Host benchmarks (bench/*.c): figures, no assertions. Linked with the
# test support code as an archive, so each takes only what it uses.
BENCH_BIN := $(patsubst bench/%.c,$(HOSTDIR)/bench/%,$(sort $(wildcard bench/*.c)))
$(HOSTDIR)/libtestsupport.a: $(TEST_SUPPORT_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^
$(HOSTDIR)/bench/%: bench/%.c $(HOSTDIR)/libtestsupport.a $(HOSTDIR)/libcore.a
	@mkdir -p $(dir $@)
	@echo "  BENCH   $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -o $@ $< $(HOSTDIR)/libtestsupport.a $(HOSTDIR)/libcore.a $(HOST_LDFLAGS) -lm
bench: $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done

unit: $(TEST_BIN)
test: deps
	@$(MAKE) --no-print-directory all unit asan fuzz-build
	@BAREPERF_SANITIZE=1 tools/run-tests

# ---- sanitizers and fuzzing ---------------------------------------------
# `make asan`: the unit tests again under ASan+UBSan, in build/asan/.
# `make fuzz`: the libFuzzer targets fuzz/fuzz_*.c (clang; the host code
# built again with fuzzer instrumentation in build/fuzz/), each run for
# FUZZ_SECONDS over its seed corpus fuzz/corpus/NAME/.
SAN_FLAGS    := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS ?= 60
FUZZ_BIN     := $(patsubst fuzz/%.c,$(HOSTDIR)/%,$(sort $(wildcard fuzz/fuzz_*.c)))
asan:
	@$(MAKE) --no-print-directory HOSTDIR=$(BUILD)/asan EXTRA_CFLAGS="$(SAN_FLAGS)" \
		EXTRA_LDFLAGS="$(SAN_FLAGS)" unit
fuzz-build:
	@$(MAKE) --no-print-directory HOSTDIR=$(BUILD)/fuzz HOST_CC=clang \
		EXTRA_CFLAGS="$(SAN_FLAGS) -fsanitize=fuzzer-no-link \
		-fsanitize-coverage-ignorelist=fuzz/coverage-ignore.txt" fuzzers
fuzzers: $(FUZZ_BIN)
.SECONDARY: $(FUZZ_BIN:$(HOSTDIR)/%=$(HOSTDIR)/obj/fuzz/%.o)
$(HOSTDIR)/fuzz_%: $(HOSTDIR)/obj/fuzz/fuzz_%.o $(HOSTDIR)/libcore.a $(EMPTY_SYMTAB)
	@echo "  FUZZ    $@"
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(EMPTY_SYMTAB) $(HOSTDIR)/libcore.a -fsanitize=fuzzer -lm
fuzz: fuzz-build
	@tools/run-fuzz $(FUZZ_SECONDS)

# `make run`: record the soak workload in QEMU and show perf report;
# `make run RUN_ARGS="..."` boots the image with another command line.
run: deps
	@$(MAKE) --no-print-directory all
	@if [ -n "$(RUN_ARGS)" ]; then tools/qemu-run -- $(RUN_ARGS); else tools/run-demo; fi

clean:
	rm -rf $(BUILD) out

-include $(shell find $(BUILD) -path $(BUILD)/qemu -prune -o -path $(BUILD)/kut -prune -o -name '*.d' -type f -print 2>/dev/null)

# Keep test objects: they are intermediate files of the test binaries.
.SECONDARY: $(TEST_SRC:tests/unit/%.c=$(HOSTDIR)/obj/tests/unit/%.o)
