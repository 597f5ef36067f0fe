#!/bin/sh
# make e2e-otel: deploy/otel/collector.yaml against a real OpenTelemetry
# Collector. Builds one with OpenTelemetry's builder from the Go module
# proxy (the filelog receiver and the file exporter of deploy/otel/builder.yaml;
# once, into .e2e/otel/, rebuilt when builder.yaml changes), builds
# hookshim, and runs e2e/otel's test: hookshim calls in, log records with
# semantic-convention attributes out of the collector's file exporter. The
# collector opens no socket; the run is bounded in time.
#
#   OTELCOL_BIN=PATH   use this collector instead of building one
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
out=$root/.e2e/otel
mkdir -p "$out"
builder=go.opentelemetry.io/collector/cmd/builder@v0.165.0

if [ -z "${OTELCOL_BIN:-}" ]; then
	OTELCOL_BIN=$out/build/otelcol-hookshim
	if [ ! -x "$OTELCOL_BIN" ] || ! cmp -s deploy/otel/builder.yaml "$out/builder.yaml"; then
		echo "e2e-otel: building the collector (a few minutes the first time)"
		rm -rf "$out/build"
		# GOFLAGS=-e: the builder's "go mod tidy" also resolves the test-only
		# dependencies of the components, which the proxy does not all
		# serve; the collector does not import them.
		(cd "$out" && GOFLAGS=-e CGO_ENABLED=0 go run "$builder" --config "$root/deploy/otel/builder.yaml" \
			--ldflags '-s -w' >"$out/builder.log" 2>&1) || { tail -20 "$out/builder.log"; exit 1; }
		cp deploy/otel/builder.yaml "$out/builder.yaml"
	fi
fi
go build -o "$out/hookshim" ./cmd/hookshim
HOOKSHIM_E2E_OTEL=1 HOOKSHIM_BIN=$out/hookshim OTELCOL_BIN=$OTELCOL_BIN \
	go test -count=1 -timeout 5m ./e2e/otel "$@"
