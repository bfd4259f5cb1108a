# The two commands of the README:
#   make run   - install what is missing, build, run the default workload
#   make test  - install what is missing, build, run every test (ctest)
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
WORKLOAD ?= bfs
SIZE ?= small

.PHONY: all bootstrap build simtlab run test test-long bench clean

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

# Speed benchmark (functional and timing), see docs/benchmark.md.
bench: build
	tools/bench --build $(BUILD)

clean:
	rm -rf $(BUILD)
