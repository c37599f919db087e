# Redis from Debian's package, for machines without a registry (scripts/compose/images.ts). Like the
# official image: data in /data, `redis-server` and `redis-cli` on the PATH, the server run as the
# `redis` user while other commands run as given (compose's `secrets` service runs a shell script
# in this image as root), listening on every interface of the container (the compose command turns
# protected mode off for both images).
ARG DEBIAN_IMAGE=crm/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
COPY redis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["redis-server", "--protected-mode", "no"]
