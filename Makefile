# hookshim — make help lists the targets.
GO      ?= go
BIN     := bin/hookshim
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X github.com/hookshim/hookshim/internal/cli.Version=$(VERSION)
export CGO_ENABLED ?= 0

FUZZTIME ?= 60s

.PHONY: help build test lint update-goldens simulate clean fuzz e2e e2e-bump bench bench-smoke

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build bin/hookshim
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/hookshim

test: ## run every test: unit, golden payloads, end-to-end scripts
	$(GO) test -count=1 ./...

lint: ## gofmt and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

update-goldens: ## rewrite testdata/payloads/*/*.golden and docs/providers.md after an intended change
	$(GO) test . -run TestPayloadGoldens -update
	$(GO) test ./internal/cli -run TestProvidersDoc -update-docs
	$(GO) test ./internal/install -run TestInstallGoldens -update

fuzz: ## run each fuzz target for FUZZTIME (default 60s)
	$(GO) test . -run '^$$' -fuzz '^FuzzDetectNormalize$$' -fuzztime $(FUZZTIME)
	$(GO) test . -run '^$$' -fuzz '^FuzzConfig$$' -fuzztime $(FUZZTIME)
	$(GO) test . -run '^$$' -fuzz '^FuzzRespond$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/provider -run '^$$' -fuzz '^FuzzPayload$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/toml -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)

simulate: build ## run the embedded demo
	./$(BIN) simulate

e2e: ## run hookshim inside the real clients of e2e/versions.json (npm installs into .e2e/; HOOKSHIM_E2E_CLIENTS=a,b to choose)
	sh e2e/run.sh

e2e-bump: ## move e2e/versions.json to the newest clients, re-record their payloads and goldens, report the drift
	sh e2e/bump.sh

BENCH_PKGS := ./internal/detect ./internal/normalize ./internal/config ./internal/respond ./internal/cli

bench: ## time one hook call against a minimal Go program and jq/Node hooks (hyperfine; bench/out/results.md)
	bash bench/run.sh full

bench-smoke: ## short benchmark for CI: fails only on an order-of-magnitude regression
	$(GO) test -run '^$$' -bench . -benchtime 1x -short $(BENCH_PKGS)
	bash bench/run.sh smoke

clean: ## remove build output
	rm -rf bin
