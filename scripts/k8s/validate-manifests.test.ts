import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brokerPasswordVariable, BUS_PARTICIPANTS } from '@crm/contracts';
import { PUBLISHED_PASSWORDS } from '../../services/auth/src/domain/password-policy';
import { CONFIG_LOADERS } from '../../test-support/config-loaders';
import { ensureDevSecrets } from './dev-secrets';
import { ensureKustomize, K8S_DIR, OVERLAYS, parseYamlDocuments, render } from './kustomize';
import { validateManifests, type Manifest } from './validate-manifests';

// The first run builds kustomize from the Go module proxy (about a minute); later runs use the cache.
jest.setTimeout(10 * 60_000);

let kustomize: string;
const rendered = new Map<string, Manifest[]>();

beforeAll(async () => {
  kustomize = await ensureKustomize();
  ensureDevSecrets(); // the development overlay reads them (ignored by git: absent on a clean clone)
  for (const overlay of OVERLAYS) {
    rendered.set(overlay, await render(kustomize, path.join(K8S_DIR, 'overlays', overlay)));
  }
});

const production = (): Manifest[] => structuredClone(rendered.get('production')!);
const find = (manifests: Manifest[], kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`${kind} ${name} not rendered`);
  return found;
};
const appContainer = (manifests: Manifest[], name: string): Manifest =>
  find(manifests, 'Deployment', name).spec.template.spec.containers[0];

describe('the Kubernetes manifests in deploy/k8s', () => {
  it.each(OVERLAYS)('render (%s) into valid objects', (overlay) => {
    const manifests = rendered.get(overlay)!;
    expect(validateManifests(manifests)).toEqual([]);
    const deployments = manifests.filter((m) => m.kind === 'Deployment').map((m) => m.metadata.name);
    for (const name of ['gateway', 'auth', 'appointments', 'records', 'rooms', 'config', 'notifications']) {
      expect(deployments).toContain(name);
      expect(find(manifests, 'HorizontalPodAutoscaler', name).apiVersion).toBe('autoscaling/v2');
      expect(find(manifests, 'PodDisruptionBudget', name).spec.maxUnavailable).toBe(1);
    }
    expect(find(manifests, 'Ingress', 'crm').spec.rules[0].http.paths[0].backend.service.name).toBe(
      'gateway',
    );
  });

  it('dev: make its Secrets from this checkout’s random values, never from published ones', () => {
    const manifests = rendered.get('dev')!;
    const secret = (name: string): Record<string, string> =>
      Object.fromEntries(
        Object.entries(find(manifests, 'Secret', name).data as Record<string, string>).map(([key, value]) => [
          key,
          Buffer.from(value, 'base64').toString('utf8'),
        ]),
      );
    const values = manifests
      .filter((m) => m.kind === 'Secret')
      .flatMap((m) => Object.values(secret(m.metadata.name)));
    expect(values.filter((value) => value.includes('dev-only-'))).toEqual([]);
    const published = PUBLISHED_PASSWORDS.map((password) => password.toLowerCase());
    expect(values.filter((value) => published.includes(value.toLowerCase()))).toEqual([]);
    const users = secret('crm-rabbitmq-users');
    for (const participant of BUS_PARTICIPANTS) {
      const url = new URL(secret(`crm-${participant}-bus`).AMQP_URL!);
      expect([url.username, url.password]).toEqual([participant, users[brokerPasswordVariable(participant)]]);
    }
    expect(secret('crm-auth-bootstrap').BOOTSTRAP_ADMIN_PASSWORD).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('dev: give every deployable what its own configuration loader needs to start on 0.0.0.0', () => {
    const manifests = rendered.get('dev')!;
    const dataOf = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> | undefined => {
      const object = manifests.find((m) => m.kind === kind && m.metadata.name === name);
      if (!object || kind === 'ConfigMap') return object?.data;
      return Object.fromEntries(
        Object.entries(object.data as Record<string, string>).map(([key, value]) => [
          key,
          Buffer.from(value, 'base64').toString('utf8'),
        ]),
      );
    };
    for (const [name, load] of Object.entries(CONFIG_LOADERS)) {
      const container = appContainer(manifests, name);
      const env: Record<string, string> = {};
      for (const source of container.envFrom as Manifest[]) {
        const ref = source.configMapRef ?? source.secretRef;
        const data = dataOf(source.configMapRef ? 'ConfigMap' : 'Secret', ref.name);
        if (!data && !ref.optional) throw new Error(`${name}: ${ref.name} is not rendered`);
        Object.assign(env, data);
      }
      for (const variable of (container.env ?? []) as Manifest[]) env[variable.name] = variable.value;
      expect([name, env.HOST]).toEqual([name, '0.0.0.0']);
      expect(() => load(env)).not.toThrow();
    }
  });

  it('run two replicas at least in production, with every secret left out of git', () => {
    const manifests = production();
    for (const scaler of manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler')) {
      expect(scaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
    }
    expect(manifests.filter((m) => m.kind === 'Secret')).toEqual([]);
    expect(find(manifests, 'ConfigMap', 'crm-config').data.NODE_ENV).toBe('production');
  });

  it('give signing material to the auth service only: the others verify with its public keys', () => {
    const manifests = production();
    const secretsOf = (name: string): string[] =>
      (appContainer(manifests, name).envFrom as Manifest[])
        .filter((source) => source.secretRef)
        .map((source) => source.secretRef.name as string);
    expect(secretsOf('auth')).toEqual(expect.arrayContaining(['crm-auth-mfa', 'crm-auth-signing']));
    for (const name of BUS_PARTICIPANTS.filter((participant) => participant !== 'auth')) {
      expect(secretsOf(name)).toContain('crm-shared');
      expect(
        secretsOf(name).filter((secret) => secret.startsWith('crm-auth') || secret === 'crm-token'),
      ).toEqual([]);
    }
    expect(find(manifests, 'ConfigMap', 'crm-config').data.JWT_SECRET).toBeUndefined();
  });
});

/**
 * Whether the rendered NetworkPolicies let a pod labelled `from` open a connection to port `port`
 * of the pod labelled `to` (ingress rules only, evaluated as Kubernetes does: a pod selected by
 * some policy accepts only what one of its policies' rules allows).
 */
function mayReach(manifests: Manifest[], from: string, to: string, port: number): boolean {
  const labelsOf = (name: string) =>
    find(manifests, 'Deployment', name).spec.template.metadata.labels as Record<string, string>;
  const selects = (selector: Manifest, labels: Record<string, string>) =>
    Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) &&
    (selector.matchExpressions ?? []).every(
      (e: Manifest) => e.operator === 'In' && (e.values as string[]).includes(labels[e.key]),
    );
  const policies = manifests.filter(
    (m) => m.kind === 'NetworkPolicy' && selects(m.spec.podSelector, labelsOf(to)),
  );
  if (policies.length === 0) return true;
  return policies.some((policy) =>
    (policy.spec.ingress ?? []).some(
      (rule: Manifest) =>
        (!rule.from || rule.from.some((peer: Manifest) => selects(peer.podSelector, labelsOf(from)))) &&
        (!rule.ports || rule.ports.some((p: Manifest) => p.port === port)),
    ),
  );
}

describe('the NetworkPolicies', () => {
  const PORTS: Record<string, number> = {
    gateway: 8080,
    auth: 4001,
    appointments: 4002,
    records: 4003,
    rooms: 4004,
    config: 4005,
    audit: 4006,
    reporting: 4007,
    payments: 4008,
    notifications: 4010,
  };
  /**
   * Every call the services make (their *_SERVICE_URL settings), besides the gateway's; every
   * service that verifies session tokens reads the auth service's public keys.
   */
  const CALLS = [
    'appointments→auth',
    'appointments→config',
    'records→auth',
    'records→appointments',
    'records→config',
    'reporting→config',
    'notifications→config',
    'rooms→auth',
    'config→auth',
    'audit→auth',
    'reporting→auth',
    'payments→auth',
    'payments→config',
    'auth→appointments',
    'auth→config',
  ];
  const names = Object.keys(PORTS);

  it.each(OVERLAYS)('let only the gateway and each service’s callers in (%s)', (overlay) => {
    const manifests = rendered.get(overlay)!;
    const allowed: string[] = [];
    for (const from of names)
      for (const to of names)
        if (from !== to && mayReach(manifests, from, to, PORTS[to]!)) allowed.push(`${from}→${to}`);
    // The gateway is the way in from the Ingress controller: any source may reach it, on its port.
    const toGateway = names.filter((n) => n !== 'gateway').map((n) => `${n}→gateway`);
    const fromGateway = names
      .filter((n) => n !== 'gateway' && n !== 'notifications')
      .map((n) => `gateway→${n}`);
    expect(allowed.sort()).toEqual([...toGateway, ...fromGateway, ...CALLS].sort());
    expect(mayReach(manifests, 'records', 'auth', 4002)).toBe(false);
    const gatewayPolicy = find(manifests, 'NetworkPolicy', 'gateway-from-ingress');
    expect(gatewayPolicy.spec.ingress).toEqual([{ ports: [{ protocol: 'TCP', port: 8080 }] }]);
  });
});

describe('validateManifests refuses broken manifests', () => {
  const cases: Array<[string, (m: Manifest[]) => void, RegExp]> = [
    [
      'a Deployment without a selector (schema)',
      (m) => delete find(m, 'Deployment', 'auth').spec.selector,
      /Deployment crm\/auth: schema: .*selector/,
    ],
    [
      'a container port that is not a number (schema)',
      (m) => (appContainer(m, 'rooms').ports[0].containerPort = 'http'),
      /Deployment crm\/rooms: schema: .*containerPort must be integer/,
    ],
    [
      'an unknown kind',
      (m) => m.push({ apiVersion: 'v1', kind: 'Servce', metadata: { name: 'typo' } }),
      /unknown apiVersion\/kind v1\/Servce/,
    ],
    [
      'a misspelt probe field (readinesProbe)',
      (m) => {
        const container = appContainer(m, 'appointments');
        container.readinesProbe = container.readinessProbe;
        delete container.readinessProbe;
      },
      /appointments: container app: readinessProbe with httpGet \/readyz is required/,
    ],
    [
      'a liveness probe on the wrong path',
      (m) => (appContainer(m, 'gateway').livenessProbe.httpGet.path = '/readyz'),
      /gateway: container app: livenessProbe must GET \/healthz/,
    ],
    [
      'a probe on a port the container does not declare',
      (m) => (appContainer(m, 'config').readinessProbe.httpGet.port = 'metrics'),
      /config: container app: readinessProbe port metrics is not a declared container port/,
    ],
    [
      'no memory limit',
      (m) => delete appContainer(m, 'records').resources.limits.memory,
      /records: container app: resources.limits.memory is required/,
    ],
    [
      'a container that may run as root',
      (m) => {
        delete find(m, 'Deployment', 'notifications').spec.template.spec.securityContext.runAsNonRoot;
        delete appContainer(m, 'notifications').securityContext.runAsNonRoot;
      },
      /notifications: container app: runAsNonRoot must be true/,
    ],
    [
      'capabilities kept',
      (m) => (appContainer(m, 'auth').securityContext.capabilities.drop = []),
      /auth: container app: capabilities.drop must include ALL/,
    ],
    [
      'a writable root filesystem',
      (m) => (appContainer(m, 'auth').securityContext.readOnlyRootFilesystem = false),
      /auth: container app: readOnlyRootFilesystem must be true/,
    ],
    [
      'an image without a tag',
      (m) => (appContainer(m, 'gateway').image = 'registry.example.com/crm/gateway'),
      /gateway: container app: image .* needs a pinned tag/,
    ],
    [
      'a Service whose selector matches no pod',
      (m) => (find(m, 'Service', 'rooms').spec.selector['app.kubernetes.io/name'] = 'room'),
      /Service crm\/rooms: selector matches no Deployment/,
    ],
    [
      'a Service target port the pods do not have',
      (m) => (find(m, 'Service', 'auth').spec.ports[0].targetPort = 'web'),
      /Service crm\/auth: targetPort web is not a port of the selected pods/,
    ],
    [
      'an autoscaler for a Deployment that does not exist',
      (m) => (find(m, 'HorizontalPodAutoscaler', 'config').spec.scaleTargetRef.name = 'configuration'),
      /HorizontalPodAutoscaler crm\/config: scaleTargetRef Deployment\/configuration does not exist/,
    ],
    [
      'an Ingress to a missing Service port',
      (m) => (find(m, 'Ingress', 'crm').spec.rules[0].http.paths[0].backend.service.port = { number: 80 }),
      /Ingress crm\/crm: Service gateway has no port/,
    ],
    [
      'a pod reading a ConfigMap that is not rendered',
      (m) => m.splice(m.indexOf(find(m, 'ConfigMap', 'crm-config')), 1),
      /ConfigMap crm-config is not part of the manifests/,
    ],
    [
      'the same object twice',
      (m) => m.push(structuredClone(find(m, 'Service', 'gateway'))),
      /Service crm\/gateway: defined twice/,
    ],
  ];

  it.each(cases)('%s', (_label, breakIt, expected) => {
    const manifests = production();
    breakIt(manifests);
    const problems = validateManifests(manifests);
    expect(problems.some((problem) => expected.test(problem))).toBe(true);
  });

  it('and kustomize refuses an overlay that references a missing file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-broken-'));
    try {
      fs.writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
      await expect(render(kustomize, dir)).rejects.toThrow(/missing\.yaml/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads multi-document YAML and refuses malformed YAML', () => {
    expect(parseYamlDocuments('a: 1\n---\nb: 2\n')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(() => parseYamlDocuments('a: [1, 2\n')).toThrow(/invalid YAML/);
  });
});
