# Mailpit for machines without a registry (scripts/compose/images.ts): the binary infra-up builds
# from its Go module, at /mailpit as in the official image (the compose health check runs
# `/mailpit readyz`).
ARG DEBIAN_IMAGE=crm/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY mailpit /mailpit
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
EXPOSE 1025 8025
ENTRYPOINT ["/mailpit"]
