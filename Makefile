# The two commands of the README:
#   make run   - install what is missing, build, run the default workload
#   make test  - install what is missing, build, run every test (ctest)
# Hardening (docs/hardening.md): make test-sanitize, make fuzz.
# Golden statistics (docs/golden-stats.md): tools/update-golden.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
WORKLOAD ?= bfs
SIZE ?= small

.PHONY: all bootstrap build simtlab run test test-long bench clean test-sanitize fuzz-bootstrap fuzz

all: build

bootstrap:
	@tools/bootstrap.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: bootstrap $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Running needs only the command line, not the test binaries.
simtlab: bootstrap $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS) --target simtlab

run: simtlab
	$(BUILD)/simtlab run --workload $(WORKLOAD) --size $(SIZE)

# Everything except the long-running label.
test: build
	ctest --test-dir $(BUILD) -j $(JOBS) -LE long --output-on-failure

test-long: build
	ctest --test-dir $(BUILD) -j $(JOBS) -L long --output-on-failure

# The same tests built with AddressSanitizer + UBSan; any finding fails its
# test (docs/hardening.md). The sanitizer options are set by CMake for ctest.
SANITIZE_BUILD ?= build-sanitize
$(SANITIZE_BUILD)/CMakeCache.txt:
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSIMT_SANITIZE=ON

test-sanitize: bootstrap $(SANITIZE_BUILD)/CMakeCache.txt
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	ctest --test-dir $(SANITIZE_BUILD) -j $(JOBS) -LE 'long|golden|slurm|install' --output-on-failure

# libFuzzer targets (clang), each run for FUZZ_SECONDS; findings and the
# grown corpus stay in $(FUZZ_BUILD)/fuzz/.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= ptx manifest config
fuzz-bootstrap:
	@tools/bootstrap.sh --fuzz

$(FUZZ_BUILD)/CMakeCache.txt:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSIMT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++

fuzz: bootstrap fuzz-bootstrap $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	tests/fuzz/run_fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Speed benchmark (functional and timing), see docs/benchmark.md.
bench: build
	tools/bench --build $(BUILD)

clean:
	rm -rf $(BUILD)
