# syntax=docker/dockerfile:1
#
# difffuzz in one image: the driver and all four implementations' workers.
#
#   docker build -t difffuzz:local .
#   docker run --rm -v difffuzz-data:/data difffuzz:local -duration 1h
#
# Build: one stage with the four toolchains runs `make build`, exactly as a
# developer or CI does (the Makefile stays the only build recipe). Runtime: a
# slim Debian with python3 and node, and only what the workers need at run
# time, laid out as in the repository under /opt/difffuzz so that
# difffuzz.toml's relative worker commands work unchanged.
#
# Both stages are Debian 12 (bookworm): its python3 is 3.11, the version the
# project targets, and the virtualenv made in the build stage points at
# /usr/bin/python3, which the runtime stage has at the same version.
# docs/nightly.md explains the image; scripts/check-infra.sh lints this file.

# Toolchain sources, copied into the build stage below.
FROM node:20-bookworm-slim AS node
FROM rust:1-bookworm AS rust

FROM golang:1.26-bookworm AS build
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# Debian packages are not pinned to exact versions (DL3008): the release
# (bookworm) fixes their versions up to security updates, which should land.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*
COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
COPY --from=rust /usr/local/rustup /usr/local/rustup
COPY --from=rust /usr/local/cargo /usr/local/cargo
ENV RUSTUP_HOME=/usr/local/rustup \
    CARGO_HOME=/usr/local/cargo \
    PATH=/usr/local/cargo/bin:$PATH
WORKDIR /opt/difffuzz
COPY . .
# Package caches only: the build outputs must land in the image layer.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    --mount=type=cache,target=/root/.cache/pip \
    --mount=type=cache,target=/root/.npm \
    --mount=type=cache,target=/usr/local/cargo/registry \
    make build \
 && npm --prefix adapters/ts prune --omit=dev --no-audit --no-fund \
 && npm --prefix kits/ts prune --omit=dev --no-audit --no-fund \
 && adapters/python/.venv/bin/python -m compileall -q adapters/python/canonjson kits/python/src/difffuzz_kit

FROM debian:bookworm-slim AS runtime
LABEL org.opencontainers.image.title="difffuzz" \
      org.opencontainers.image.description="Cross-language differential fuzzer for canonical JSON (Python, Go, TypeScript, Rust)"
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home fuzz \
 && mkdir -p /data \
 && chown fuzz:fuzz /data
COPY --from=node /usr/local/bin/node /usr/local/bin/node
WORKDIR /opt/difffuzz
COPY --from=build /opt/difffuzz/difffuzz.toml /opt/difffuzz/known-divergences.txt ./
COPY --from=build /opt/difffuzz/bin/difffuzz /opt/difffuzz/bin/canonjson-worker ./bin/
COPY --from=build /opt/difffuzz/adapters/python/.venv ./adapters/python/.venv
COPY --from=build /opt/difffuzz/adapters/python/pyproject.toml ./adapters/python/
COPY --from=build /opt/difffuzz/adapters/python/canonjson ./adapters/python/canonjson
COPY --from=build /opt/difffuzz/adapters/python/canonjson_worker.py ./adapters/python/
# The workers' kits: the venv and adapters/ts/node_modules link to them.
COPY --from=build /opt/difffuzz/kits/python/pyproject.toml ./kits/python/
COPY --from=build /opt/difffuzz/kits/python/src ./kits/python/src
COPY --from=build /opt/difffuzz/kits/ts/package.json ./kits/ts/
COPY --from=build /opt/difffuzz/kits/ts/dist ./kits/ts/dist
COPY --from=build /opt/difffuzz/kits/ts/node_modules ./kits/ts/node_modules
COPY --from=build /opt/difffuzz/adapters/ts/package.json ./adapters/ts/
COPY --from=build /opt/difffuzz/adapters/ts/dist ./adapters/ts/dist
COPY --from=build /opt/difffuzz/adapters/ts/node_modules ./adapters/ts/node_modules
COPY --from=build /opt/difffuzz/adapters/rust/target/release/worker ./adapters/rust/target/release/
COPY --from=build /opt/difffuzz/corpus ./corpus
COPY --from=build /opt/difffuzz/docs ./docs
ENV PATH=/opt/difffuzz/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1
USER 10001:10001
VOLUME ["/data"]
# Fixed output locations on the /data volume; CMD holds the flags meant to be
# replaced (`docker run IMAGE -duration 1h`, `docker compose run difffuzz
# -duration 1h`). A flag given again later wins, so -corpus and the report
# paths can still be moved. Other subcommands: --entrypoint difffuzz, e.g.
#   docker run --rm --entrypoint difffuzz IMAGE replay corpus/
ENTRYPOINT ["difffuzz", "run", "-corpus", "/data/corpus", "-report", "/data/report.json", "-junit", "/data/junit.xml", "-summary", "/data/summary.md", "-known", "/opt/difffuzz/known-divergences.txt"]
CMD ["-duration", "10m"]
