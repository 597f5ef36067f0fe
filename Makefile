# hookshim — make help lists the targets.
GO      ?= go
BIN     := bin/hookshim
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
# Read once: a commit made while make release or make npm runs must not
# give the files of one run two versions.
VERSION := $(VERSION)
LDFLAGS := -s -w -X github.com/hookshim/hookshim/internal/buildinfo.Version=$(VERSION)
export CGO_ENABLED ?= 0

FUZZTIME ?= 60s

.PHONY: help build test lint update-goldens simulate clean fuzz fuzz-smoke e2e e2e-bump e2e-opa e2e-otel bench bench-smoke dist release npm

# Every target line with a "## " comment is listed; a target name may hold
# digits (e2e), dots and dashes.
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_.-]+:.*## / {printf "  %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build bin/hookshim and bin/hookshim-remote (which sends http and prompt handlers)
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/hookshim
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/hookshim-remote ./cmd/hookshim-remote

test: ## run every test: unit, golden payloads, end-to-end scripts
	$(GO) test -count=1 -timeout 30m ./...

lint: ## gofmt and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

update-goldens: ## rewrite testdata/payloads/*/*.golden and docs/providers.md after an intended change
	$(GO) test . -run TestPayloadGoldens -update
	$(GO) test ./internal/docs -run TestProvidersDoc -update-docs
	$(GO) test ./internal/install -run TestInstallGoldens -update
	$(GO) test ./internal/importer -run TestImportGoldens -update
	$(GO) test ./internal/completion -run "TestBash|TestZsh|TestFish" -update

# Every fuzz target, as PACKAGE:NAME.
FUZZ_TARGETS := .:FuzzDetectNormalize .:FuzzConfig .:FuzzRespond \
	./internal/provider:FuzzPayload ./internal/install:FuzzJSONCEdit ./internal/wire:FuzzQuote \
	./internal/remote:FuzzAnswer ./internal/rule:FuzzRule ./internal/rule:FuzzLiterals ./internal/shellcmd:FuzzCommands ./internal/shellcmd:FuzzPowerShell ./internal/policy:FuzzPolicies \
	./internal/patch:FuzzParse ./internal/dedupe:FuzzDecodeIsGjsonsValue

# Go's fuzzing engine sometimes ends a run whose time is up with "context
# deadline exceeded" and no failing input: that run is tried once more. A
# failure with an input (written to testdata/fuzz) is never retried.
fuzz: ## run each fuzz target for FUZZTIME (default 60s)
	@set -e; log=$$(mktemp); trap 'rm -f $$log' EXIT; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t#*:}; echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		for try in 1 2; do \
			if $(GO) test $$pkg -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) >$$log 2>&1; then cat $$log; break; fi; \
			cat $$log; \
			if [ $$try = 2 ] || grep -q 'Failing input written' $$log || ! grep -q 'context deadline exceeded' $$log; then exit 1; fi; \
			echo "fuzz $$name: the engine's deadline flake, no failing input: once more"; \
		done; \
	done

fuzz-smoke: ## run each fuzz target for 5s, as CI does
	$(MAKE) fuzz FUZZTIME=5s

simulate: build ## run the embedded demo
	./$(BIN) simulate

e2e: ## run hookshim inside the real clients of e2e/versions.json (npm installs into .e2e/; HOOKSHIM_E2E_CLIENTS=a,b to choose)
	sh e2e/run.sh

# The Open Policy Agent release e2e-opa builds from the Go module proxy.
OPA_VERSION := v1.22.2
OPA_BIN     := .e2e/opa/$(OPA_VERSION)/opa

e2e-opa: ## http handlers against a real Open Policy Agent server (built once into .e2e/opa/; loopback only)
	@[ -x $(OPA_BIN) ] || { echo "building opa $(OPA_VERSION) (once; a few minutes)"; \
		GOBIN=$(CURDIR)/.e2e/opa/$(OPA_VERSION) CGO_ENABLED=0 $(GO) install github.com/open-policy-agent/opa@$(OPA_VERSION); }
	HOOKSHIM_E2E_OPA=$(CURDIR)/$(OPA_BIN) $(GO) test -count=1 -run TestOPA -v ./e2e/opa

e2e-otel: ## ship the decision log through a real OpenTelemetry Collector built from the Go module proxy (deploy/otel/, docs/otel.md)
	sh e2e/otel/run.sh

e2e-bump: ## move e2e/versions.json to the newest clients, re-record their payloads and goldens, report the drift
	sh e2e/bump.sh

BENCH_PKGS := ./internal/detect ./internal/normalize ./internal/config ./internal/respond ./internal/pipeline ./internal/dedupe ./internal/cli ./internal/policy

bench: ## time one hook call against a minimal Go program and jq/Node hooks (hyperfine; bench/out/results.md)
	bash bench/run.sh full

bench-smoke: ## short benchmark for CI: fails only on an order-of-magnitude regression
	$(GO) test -run '^$$' -bench . -benchtime 1x -short $(BENCH_PKGS)
	bash bench/run.sh smoke

# The platforms of a release: what people drop into their dotfiles.
DIST_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

# One way builds release files: make release. dist is its old name.
dist: release ## the same as make release

# make release stamps the commit and its date (not the time of the build:
# two builds of one commit give the same archives).
COMMIT      ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
COMMIT_DATE ?= $(shell git log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
COMMIT      := $(COMMIT)
COMMIT_DATE := $(COMMIT_DATE)

# The SBOM generator: CycloneDX's own tool for Go modules, pinned, built
# once from the Go module proxy into .tools/ (about a minute on 2 cores).
CYCLONEDX_VERSION := v1.10.0
CYCLONEDX         := .tools/cyclonedx-gomod/$(CYCLONEDX_VERSION)/cyclonedx-gomod

$(CYCLONEDX):
	GOBIN=$(CURDIR)/$(dir $(CYCLONEDX)) CGO_ENABLED=0 $(GO) install github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@$(CYCLONEDX_VERSION)

release: $(CYCLONEDX) ## release archives (both programs, LICENSE, README, completions) for DIST_PLATFORMS, checksums.txt, a CycloneDX SBOM, install.sh and a Homebrew formula into dist/release/, checked; an untagged tree is a snapshot (VERSION from git describe)
	GO=$(GO) sh packaging/release.sh $(VERSION) $(COMMIT) $(COMMIT_DATE) $(CURDIR)/$(CYCLONEDX) $(DIST_PLATFORMS)
	sh packaging/check-release.sh $(VERSION) $(COMMIT)
	sh packaging/install-test.sh

npm: release ## npm packages into dist/npm/ from the release archives (hookshim, and one per platform as its optionalDependencies), then installed offline into an empty prefix and run through npx
	sh packaging/npm.sh $(VERSION)
	sh packaging/npm-test.sh

clean: ## remove build output
	rm -rf bin dist .tools
