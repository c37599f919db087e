# RabbitMQ from Debian's package with the management plugin, for machines without a registry
# (scripts/compose/images.ts). What docker/rabbitmq/boot.sh expects of the official image: the
# `rabbitmq` user, /etc/rabbitmq/conf.d, and a `docker-entrypoint.sh` that starts the server as
# that user; the guest user may not connect from outside, as there.
ARG DEBIAN_IMAGE=crm/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends rabbitmq-server \
 && rm -rf /var/lib/apt/lists/* \
 && rabbitmq-plugins enable --offline rabbitmq_management \
 && mkdir -p /etc/rabbitmq/conf.d \
 && printf 'listeners.tcp.default = 5672\nmanagement.tcp.port = 15672\nloopback_users.guest = true\n' \
      >/etc/rabbitmq/conf.d/10-defaults.conf \
 && chown -R rabbitmq:rabbitmq /etc/rabbitmq /var/lib/rabbitmq
COPY rabbitmq/docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
EXPOSE 5672 15672
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["rabbitmq-server"]
