# The Node base for machines without a registry (scripts/compose/images.ts): the Debian root file
# system made by debootstrap, this machine's Node, its headers and npm, its CA bundle (npm reaches the registry
# through a CA the host trusts) and a user 1000 named `node`, as in the official image.
ARG DEBIAN_IMAGE=crm/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
# Node's headers where the official image has them: native modules compile without downloading them.
COPY include /usr/local/include/node
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/sh --create-home node \
 && node --version && npm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    NPM_CONFIG_CAFILE=/etc/ssl/certs/ca-certificates.crt \
    NPM_CONFIG_NODEDIR=/usr/local
CMD ["node"]
