import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { brokerPasswordVariable, BUS_PARTICIPANTS } from '@crm/contracts';
import { ensureDevSecrets } from '../k8s/dev-secrets';
import { REPO_ROOT } from '../lib/paths';
import { deploymentDefinitions, printableDefinitions } from './definitions';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/@@([A-Z_]+)@@/g)].map((m) => m[1]!))].sort();
/** The deployable's name as Kubernetes' base names its file. */
const k8sFile = (participant: string) => (participant === 'config' ? 'config-service' : participant);

describe('the broker definitions of compose and Kubernetes', () => {
  it('are up to date with the event contracts (else run npm run bus:definitions)', () => {
    const tsx = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
    const result = spawnSync(tsx, [path.join(__dirname, 'definitions.ts'), '--check'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(`${result.stderr}${result.stdout}`).toContain('up to date');
    expect(result.status).toBe(0);
  });

  it('give every deployable a user with a password placeholder, and nobody but the operator every permission', () => {
    const definitions = deploymentDefinitions();
    expect(definitions.users.map((user) => user.name).sort()).toEqual(
      ['@@RABBITMQ_USER@@', ...BUS_PARTICIPANTS].sort(),
    );
    expect(placeholders(JSON.stringify(definitions))).toEqual(
      ['RABBITMQ_PASSWORD', 'RABBITMQ_USER', ...BUS_PARTICIPANTS.map(brokerPasswordVariable)].sort(),
    );
    const everything = definitions.permissions.filter((p) => p.write === '.*');
    expect(everything.map((p) => p.user)).toEqual(['@@RABBITMQ_USER@@']);
    expect(definitions.topic_permissions).toHaveLength(BUS_PARTICIPANTS.length);
  });

  it('compose: the broker and each deployable read their passwords from the secrets volume', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string>; entrypoint?: string[] }>;
    };
    const broker = compose.services.rabbitmq!;
    expect(broker.entrypoint).toEqual(['/bin/sh', '/etc/rabbitmq/crm/boot.sh']);
    // The passwords themselves: docker/secrets/make-secrets.sh, and boot.sh reading them, in
    // scripts/compose/make-secrets.test.ts.
    expect(broker.environment).toEqual({
      RABBITMQ_USER: '${RABBITMQ_USER:-crm}',
      CRM_SECRETS_DIR: '/run/crm-secrets',
    });
    for (const participant of BUS_PARTICIPANTS) {
      const env = compose.services[participant]?.environment;
      expect(env?.AMQP_URL).toBeUndefined();
      expect(env?.AMQP_URL_FILE).toBe(`/run/crm-secrets/${participant}/AMQP_URL`);
    }
  });

  it('Kubernetes: each Deployment takes AMQP_URL from its own Secret; the development overlay makes them and the broker’s', () => {
    for (const participant of BUS_PARTICIPANTS) {
      const documents = parseAllDocuments(read(`deploy/k8s/base/${k8sFile(participant)}.yaml`)).map((d) =>
        d.toJS(),
      );
      const deployment = documents.find((d) => d.kind === 'Deployment');
      const refs = deployment.spec.template.spec.containers[0].envFrom.map(
        (source: { secretRef?: { name: string } }) => source.secretRef?.name,
      );
      expect(refs).toContain(`crm-${participant}-bus`);
    }
    const overlay = parse(read('deploy/k8s/overlays/dev/kustomization.yaml')) as {
      secretGenerator: { name: string; literals?: string[]; envs?: string[] }[];
    };
    const generator = (name: string) => overlay.secretGenerator.find((s) => s.name === name);
    expect(generator('crm-shared')?.literals?.some((literal) => literal.startsWith('AMQP_URL='))).toBe(false);
    for (const participant of BUS_PARTICIPANTS)
      expect(generator(`crm-${participant}-bus`)).toEqual({
        name: `crm-${participant}-bus`,
        envs: [`secrets/${participant}-bus.env`],
      });
    // The users' passwords: this checkout's (scripts/k8s/dev-secrets.ts), made into a scratch directory here.
    const users = generator('crm-rabbitmq-users')!;
    expect(users.envs).toEqual(['secrets/rabbitmq-users.env']);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-dev-secrets-'));
    try {
      ensureDevSecrets(scratch);
      const passwords = Object.keys(
        parseEnv(fs.readFileSync(path.join(scratch, 'rabbitmq-users.env'), 'utf8')),
      );
      const names = [...users.literals!.map((literal) => literal.split('=')[0]!), ...passwords];
      expect(names.sort()).toEqual(placeholders(read('deploy/k8s/overlays/dev/rabbitmq/definitions.json')));
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('prints definitions for another broker only with every deployable’s password', () => {
    expect(() => printableDefinitions({})).toThrow(/RABBITMQ_AUTH_PASSWORD/);
    const env = Object.fromEntries(BUS_PARTICIPANTS.map((p) => [brokerPasswordVariable(p), `pw-${p}`]));
    const definitions = printableDefinitions({
      ...env,
      EVENTS_EXCHANGE: 'prod.events',
      QUEUE_PREFIX: 'prod',
    });
    expect(definitions.users.find((user) => user.name === 'records')?.password).toBe('pw-records');
    expect(definitions.topic_permissions.every((p) => p.exchange === 'prod.events')).toBe(true);
    expect(definitions.queues.map((q) => q.name)).toEqual(['prod.audit.entries']);
    expect(definitions.permissions.find((p) => p.user === 'records')?.configure).toBe(
      '^prod\\.records\\..+$',
    );
  });
});
