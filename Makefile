# Gatehouse: `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/gatehouse-proxy/gatehouse/internal/app.Version=$(VERSION)
BIN := backend/bin/gatehouse
GO_TEST_FLAGS ?= -race -count=1 -shuffle=on -timeout 30m
# The Traefik versions the end-to-end suites run against (the cache key in
# .github/workflows/ci.yml names the same two).
TRAEFIK_VERSION ?= v3.6.12
TRAEFIK_VERSION_37 ?= v3.7.11
# The oauth2-proxy the OpenID provider's end-to-end tests put in front of an
# upstream as a real third-party relying party (the cache key in
# .github/workflows/ci.yml names it too).
OAUTH2_PROXY_VERSION ?= v7.15.6

.PHONY: help run dev build build-ui build-go test test-go test-go-pg test-ui e2e e2e-go e2e-ui bench lint fmt clean deps

help: ## List the targets
	@grep -hE '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  \033[36m%-10s\033[0m %s\n", $$1, $$2}'

deps: ## Install front-end dependencies (npm ci)
	@cd frontend && { [ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund; }

run: build ## Build everything and start the panel on http://127.0.0.1:8080 (data in ./data)
	@mkdir -p data
	@echo "Gatehouse: open http://$${PANEL_LISTEN:-127.0.0.1:8080}"
	PANEL_DATA_DIR=$${PANEL_DATA_DIR:-./data} ./$(BIN)

dev: ## Run the backend and the Vite dev server (UI on http://127.0.0.1:5173)
	@mkdir -p data
	@trap 'kill 0' EXIT; (cd backend && PANEL_DATA_DIR=../data go run ./cmd/gatehouse) & (cd frontend && npm run dev) & wait

build: build-ui build-go ## Build the SPA and the binary (backend/bin/gatehouse)

build-ui: deps
	cd frontend && npm run build

build-go:
	cd backend && CGO_ENABLED=1 go build -trimpath -ldflags "$(LDFLAGS)" -o bin/gatehouse ./cmd/gatehouse

test: test-go test-ui ## Run every test (Go with -race, front-end unit tests)

# The handler tests record every /api answer (GATEHOUSE_API_RECORD); then
# TestRecordedResponses checks each against /api/openapi.json. When
# PostgreSQL is installed, the packages whose tests open a database run again
# on a throwaway PostgreSQL server (test-go-pg).
test-go:
	cd backend && rec=$$(mktemp -d) && trap 'rm -rf "$$rec"' EXIT && \
		GATEHOUSE_TEST_DATABASE_URL= GATEHOUSE_API_RECORD=$$rec go test $(GO_TEST_FLAGS) ./... && \
		GATEHOUSE_API_RECORDED=$$rec go test -count=1 -run '^TestRecordedResponses$$' ./internal/app/
	@if backend/scripts/postgres.sh check; then $(MAKE) --no-print-directory test-go-pg; \
	else echo "PostgreSQL is not installed (apt-get install postgresql): the tests ran on SQLite only"; fi

# The server lives in a directory of its own, removed afterwards.
test-go-pg: ## Run the tests that open a database on PostgreSQL (scripts/postgres.sh)
	cd backend && export GATEHOUSE_PG_DIR=$$(./scripts/postgres.sh mktemp) && \
		trap './scripts/postgres.sh stop' EXIT && url=$$(./scripts/postgres.sh start) && \
		pkgs=$$(grep -rlE 'testutil\.(NewDB|NewDatabase)|newTestApp\(|store\.Open\(' --include='*_test.go' internal | \
			xargs -n1 dirname | sort -u | sed 's|^|./|') && \
		echo "on PostgreSQL: $$pkgs" | tr '\n' ' ' && echo && \
		GATEHOUSE_TEST_DATABASE_URL=$$url go test $(GO_TEST_FLAGS) $$pkgs

# PG_START, inside a recipe's shell: start a throwaway PostgreSQL server in a
# new directory, stopped and removed when the shell exits, and export its URL
# as GATEHOUSE_E2E_DATABASE_URL; without PostgreSQL, say what skips.
PG_START = if ./scripts/postgres.sh check; then \
		export GATEHOUSE_PG_DIR=$$(./scripts/postgres.sh mktemp) && trap './scripts/postgres.sh stop' EXIT && \
		pg_url=$$(./scripts/postgres.sh start) && export GATEHOUSE_E2E_DATABASE_URL=$$pg_url; \
	else echo "PostgreSQL is not installed (apt-get install postgresql): the PostgreSQL scenarios and figures skip"; fi

test-ui: deps
	cd frontend && npm test

e2e: e2e-go e2e-ui ## End-to-end tests: a real Traefik (built once and cached) and real Chromium

# The Traefik binaries and oauth2-proxy are resolved first and on their own:
# if building one fails, the target fails, instead of the tests skipping for
# want of a binary.
# The runtime and certificate scenarios run against both versions, the rest
# against TRAEFIK_VERSION. The replica scenarios (TestHA) run on a throwaway
# PostgreSQL server in a directory of its own, removed afterwards; without
# PostgreSQL they skip and say so.
e2e-go:
	cd backend && bin=$$(TRAEFIK_VERSION=$(TRAEFIK_VERSION) ./scripts/traefik.sh) && \
		bin37=$$(TRAEFIK_VERSION=$(TRAEFIK_VERSION_37) ./scripts/traefik.sh) && \
		o2p=$$(OAUTH2_PROXY_VERSION=$(OAUTH2_PROXY_VERSION) ./scripts/oauth2-proxy.sh) && \
		$(PG_START) && \
		TRAEFIK_BIN=$$bin TRAEFIK_BIN_37=$$bin37 OAUTH2_PROXY_BIN=$$o2p go test -count=1 -tags e2e -timeout 40m ./e2e/...

e2e-ui: build
	bin=$$(TRAEFIK_VERSION=$(TRAEFIK_VERSION) backend/scripts/traefik.sh) && \
		o2p=$$(OAUTH2_PROXY_VERSION=$(OAUTH2_PROXY_VERSION) backend/scripts/oauth2-proxy.sh) && \
		cd frontend && TRAEFIK_BIN=$$bin OAUTH2_PROXY_BIN=$$o2p npm run e2e

# Traefik is resolved first, as for e2e-go: the forward-auth figures through a
# real Traefik need it. The PostgreSQL figures run on a throwaway server, as
# the replica scenarios of e2e-go do.
bench: ## Print the performance figures the issues ask for (needs wrk)
	cd backend && bin=$$(TRAEFIK_VERSION=$(TRAEFIK_VERSION) ./scripts/traefik.sh) && set -o pipefail && \
		$(PG_START) && \
		TRAEFIK_BIN=$$bin go test -tags bench -count=1 -timeout 30m -run '^TestBench' -v ./bench/... | grep -v '^=== RUN'
	cd backend && go test -count=1 -run '^$$' -bench . -benchmem ./internal/audit/ ./internal/transfer/... ./internal/backup/ \
		./internal/access/rules/ ./internal/forwardauth/ ./internal/people/

# golangci-lint is pinned and installed once into a cache outside the repository.
GOLANGCI_VERSION := v2.15.0
TOOLS_BIN := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/gatehouse/bin
GOLANGCI := $(TOOLS_BIN)/golangci-lint

# The Go checks build with the e2e and bench tags, so the end-to-end tests
# and the benchmarks are vetted and linted too; no file is built only
# without a tag, so one pass with both covers everything. gofmt reads every
# file whatever its tags. golangci-lint prints every issue, not the first
# three of a kind.
GO_LINT_TAGS := e2e,bench

lint: deps ## go vet, gofmt, golangci-lint (backend/.golangci.yml; e2e and bench tags too), the TypeScript checks and the docs' links
	@$(GOLANGCI) version 2>/dev/null | grep -q 'version $(GOLANGCI_VERSION:v%=%) ' || \
		{ echo "installing golangci-lint $(GOLANGCI_VERSION) into $(TOOLS_BIN)"; \
		  GOBIN=$(TOOLS_BIN) go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION); }
	cd backend && go vet -tags $(GO_LINT_TAGS) ./... && test -z "$$(gofmt -l .)" && \
		$(GOLANGCI) run --config .golangci.yml --build-tags $(GO_LINT_TAGS) --max-issues-per-linter 0 --max-same-issues 0 ./...
	cd frontend && npm run lint
	cd backend && go run ./scripts/doclinks ../README.md ../docs

fmt: ## Format the Go code
	cd backend && gofmt -w .

clean: ## Remove build output
	rm -rf backend/bin backend/internal/web/dist/assets backend/internal/web/dist/index.html frontend/dist
