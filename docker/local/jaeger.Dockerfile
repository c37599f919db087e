# Jaeger for machines without a registry (scripts/compose/images.ts): the binary infra-up builds
# from its Go module. Without --config it runs its built-in all-in-one configuration (OTLP on 4317
# and 4318, traces in memory, UI and API on 16686), as the official image does.
ARG DEBIAN_IMAGE=crm/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY jaeger /jaeger
ENV JAEGER_LISTEN_HOST=0.0.0.0
USER 1000:1000
EXPOSE 4317 4318 16686
ENTRYPOINT ["/jaeger"]
