/**
 * Offline checks of rendered Kubernetes manifests (the output of `kustomize build`):
 *
 * 1. schema: every object against the Kubernetes OpenAPI schema of its apiVersion/kind (the
 *    validators compiled into the `kubernetes-models` npm package; no cluster, no download), and
 *    unknown kinds are refused (this product uses no custom resources);
 * 2. policy for the product's own Deployments (label app.kubernetes.io/part-of=crm): readiness on
 *    /readyz and liveness on /healthz through a declared port, CPU and memory requests and limits,
 *    non-root, no privilege escalation, every capability dropped, read-only root filesystem, a
 *    pinned image tag;
 * 3. references: Services, PodDisruptionBudgets and autoscalers point at something that exists,
 *    Ingress backends at an existing Service port, ConfigMaps used by pods are rendered, and no two
 *    objects share kind/namespace/name.
 *
 * Returns the problems as readable lines; an empty list means valid.
 */
import * as admissionV1 from 'kubernetes-models/admissionregistration.k8s.io/v1';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as networkingV1 from 'kubernetes-models/networking.k8s.io/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as rbacV1 from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as coreV1 from 'kubernetes-models/v1';

/** A rendered object, as parsed from YAML. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Manifest = Record<string, any>;

interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: Manifest): { validate(): void };
}

const MODULES: Array<Record<string, unknown>> = [
  coreV1,
  appsV1,
  autoscalingV2,
  batchV1,
  networkingV1,
  policyV1,
  rbacV1,
  admissionV1,
];

const MODELS = new Map<string, ModelClass>();
for (const module of MODULES) {
  for (const candidate of Object.values(module)) {
    if (typeof candidate !== 'function') continue;
    const model = candidate as unknown as Partial<ModelClass>;
    if (model.apiVersion && model.kind) MODELS.set(`${model.apiVersion}/${model.kind}`, model as ModelClass);
  }
}

/** The label that marks the product's own deployables (dev infrastructure has another value). */
export const PRODUCT_LABEL = { key: 'app.kubernetes.io/part-of', value: 'crm' };

const nameOf = (m: Manifest) =>
  `${m.kind ?? '?'} ${m.metadata?.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata?.name ?? '?'}`;

export function validateManifests(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const manifest of manifests) {
    const id = nameOf(manifest);
    if (seen.has(id)) problems.push(`${id}: defined twice`);
    seen.add(id);
    problems.push(...schemaProblems(manifest).map((p) => `${id}: ${p}`));
  }
  for (const deployment of manifests.filter(isProductDeployment)) {
    problems.push(...deploymentPolicyProblems(deployment).map((p) => `${nameOf(deployment)}: ${p}`));
  }
  problems.push(...referenceProblems(manifests));
  return problems;
}

function schemaProblems(manifest: Manifest): string[] {
  if (typeof manifest !== 'object' || manifest === null) return ['not an object'];
  if (!manifest.apiVersion || !manifest.kind) return ['apiVersion and kind are required'];
  if (!manifest.metadata?.name) return ['metadata.name is required'];
  const model = MODELS.get(`${manifest.apiVersion}/${manifest.kind}`);
  if (!model) return [`unknown apiVersion/kind ${manifest.apiVersion}/${manifest.kind}`];
  try {
    new model(asApiServerReadsIt(manifest)).validate();
    return [];
  } catch (error) {
    return [`schema: ${(error as Error).message}`];
  }
}

/**
 * kustomize wraps long base64 Secret values over several lines; the API server's base64 decoding
 * ignores line breaks, the schema's "byte" format does not.
 */
function asApiServerReadsIt(manifest: Manifest): Manifest {
  if (manifest.kind !== 'Secret' || typeof manifest.data !== 'object' || manifest.data === null)
    return manifest;
  const data = Object.fromEntries(
    Object.entries(manifest.data as Record<string, unknown>).map(([key, value]) => [
      key,
      typeof value === 'string' ? value.replace(/[\r\n]/g, '') : value,
    ]),
  );
  return { ...manifest, data };
}

function isProductDeployment(m: Manifest): boolean {
  return m.kind === 'Deployment' && m.metadata?.labels?.[PRODUCT_LABEL.key] === PRODUCT_LABEL.value;
}

function deploymentPolicyProblems(deployment: Manifest): string[] {
  const problems: string[] = [];
  const pod = deployment.spec?.template?.spec ?? {};
  const podContext = pod.securityContext ?? {};
  if (pod.automountServiceAccountToken !== false) {
    problems.push('automountServiceAccountToken must be false (the services never call the API server)');
  }
  for (const container of (pod.containers ?? []) as Manifest[]) {
    const where = `container ${container.name}`;
    const ports = (container.ports ?? []) as Manifest[];
    const probe = (kind: string, path: string) => {
      const httpGet = container[kind]?.httpGet;
      if (!httpGet) return problems.push(`${where}: ${kind} with httpGet ${path} is required`);
      if (httpGet.path !== path) problems.push(`${where}: ${kind} must GET ${path}, not ${httpGet.path}`);
      const known = ports.some((p) => p.name === httpGet.port || p.containerPort === httpGet.port);
      if (!known) problems.push(`${where}: ${kind} port ${httpGet.port} is not a declared container port`);
      return undefined;
    };
    probe('readinessProbe', '/readyz');
    probe('livenessProbe', '/healthz');
    for (const bound of ['requests', 'limits']) {
      for (const resource of ['cpu', 'memory']) {
        if (container.resources?.[bound]?.[resource] === undefined) {
          problems.push(`${where}: resources.${bound}.${resource} is required`);
        }
      }
    }
    const context = container.securityContext ?? {};
    if ((context.runAsNonRoot ?? podContext.runAsNonRoot) !== true) {
      problems.push(`${where}: runAsNonRoot must be true`);
    }
    if (context.allowPrivilegeEscalation !== false) {
      problems.push(`${where}: allowPrivilegeEscalation must be false`);
    }
    if (!((context.capabilities?.drop ?? []) as string[]).includes('ALL')) {
      problems.push(`${where}: capabilities.drop must include ALL`);
    }
    if (context.readOnlyRootFilesystem !== true) {
      problems.push(`${where}: readOnlyRootFilesystem must be true`);
    }
    const image = String(container.image ?? '');
    const tag = /:([^/:@]+)$/.exec(image)?.[1];
    if (!image.includes('@') && (!tag || tag === 'latest')) {
      problems.push(`${where}: image ${image} needs a pinned tag (or digest), not latest`);
    }
  }
  return problems;
}

function labelsMatch(selector: Record<string, string> | undefined, labels: Record<string, string> = {}) {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

function referenceProblems(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const ns = (m: Manifest) => m.metadata?.namespace ?? '';
  const workloads = manifests.filter((m) => ['Deployment', 'StatefulSet'].includes(m.kind));
  const podsOf = (m: Manifest) => workloads.filter((w) => ns(w) === ns(m));
  const find = (kind: string, namespace: string, name: string) =>
    manifests.find((m) => m.kind === kind && ns(m) === namespace && m.metadata?.name === name);

  for (const service of manifests.filter((m) => m.kind === 'Service')) {
    const selector = service.spec?.selector as Record<string, string> | undefined;
    const targets = podsOf(service).filter((w) => labelsMatch(selector, w.spec?.template?.metadata?.labels));
    if (targets.length === 0) {
      problems.push(`${nameOf(service)}: selector matches no Deployment or StatefulSet`);
      continue;
    }
    for (const port of (service.spec?.ports ?? []) as Manifest[]) {
      const target = port.targetPort ?? port.port;
      const exposed = targets.some((w) =>
        ((w.spec?.template?.spec?.containers ?? []) as Manifest[]).some((c) =>
          ((c.ports ?? []) as Manifest[]).some((p) => p.name === target || p.containerPort === target),
        ),
      );
      if (!exposed)
        problems.push(`${nameOf(service)}: targetPort ${target} is not a port of the selected pods`);
    }
  }

  for (const budget of manifests.filter((m) => m.kind === 'PodDisruptionBudget')) {
    const selector = budget.spec?.selector?.matchLabels as Record<string, string> | undefined;
    if (!podsOf(budget).some((w) => labelsMatch(selector, w.spec?.template?.metadata?.labels))) {
      problems.push(`${nameOf(budget)}: selector matches no Deployment or StatefulSet`);
    }
  }

  for (const scaler of manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler')) {
    const ref = scaler.spec?.scaleTargetRef ?? {};
    if (!find(ref.kind, ns(scaler), ref.name)) {
      problems.push(`${nameOf(scaler)}: scaleTargetRef ${ref.kind}/${ref.name} does not exist`);
    }
    if ((scaler.spec?.minReplicas ?? 1) > scaler.spec?.maxReplicas) {
      problems.push(`${nameOf(scaler)}: minReplicas is above maxReplicas`);
    }
  }

  for (const ingress of manifests.filter((m) => m.kind === 'Ingress')) {
    for (const rule of (ingress.spec?.rules ?? []) as Manifest[]) {
      for (const path of (rule.http?.paths ?? []) as Manifest[]) {
        const backend = path.backend?.service ?? {};
        const service = find('Service', ns(ingress), backend.name);
        if (!service) {
          problems.push(`${nameOf(ingress)}: backend Service ${backend.name} does not exist`);
          continue;
        }
        const ports = (service.spec?.ports ?? []) as Manifest[];
        if (!ports.some((p) => p.name === backend.port?.name || p.port === backend.port?.number)) {
          problems.push(
            `${nameOf(ingress)}: Service ${backend.name} has no port ${JSON.stringify(backend.port)}`,
          );
        }
      }
    }
  }

  // ConfigMaps must be rendered with the pods; Secrets may be created outside git (production).
  for (const workload of workloads) {
    for (const container of (workload.spec?.template?.spec?.containers ?? []) as Manifest[]) {
      for (const source of (container.envFrom ?? []) as Manifest[]) {
        const name = source.configMapRef?.name;
        if (name && !source.configMapRef.optional && !find('ConfigMap', ns(workload), name)) {
          problems.push(`${nameOf(workload)}: ConfigMap ${name} is not part of the manifests`);
        }
      }
    }
  }
  return problems;
}
