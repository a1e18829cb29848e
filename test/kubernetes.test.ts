// deploy/kubernetes/ (issue 22) checked against the facts it must keep, without a cluster: every
// manifest parses, the ConfigMap's configuration is accepted by the kernel, and ports, paths and
// timeouts agree with that configuration and with the image.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../kernel/host/config.js';
import { memoryBudgetBytes, sizeBytes } from './support/memory-budget.js';
import { tempFolder } from './support/temp-folder.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

interface Probe {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
}
interface Container {
  image: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  resources?: { limits?: { memory?: string } };
}
interface IngressPath {
  path: string;
  pathType: string;
  backend: { service: { name: string; port: { name?: string; number?: number } } };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: {
    replicas?: number;
    tls?: { hosts: string[]; secretName: string }[];
    rules?: { host?: string; http: { paths: IngressPath[] } }[];
    podSelector?: { matchLabels: Record<string, string> };
    policyTypes?: string[];
    ingress?: { from: { podSelector?: { matchLabels: Record<string, string> } }[]; ports: { protocol: string; port: number }[] }[];
    selector?: Record<string, unknown>;
    ports?: { port: number; targetPort: string | number }[];
    scaleTargetRef?: { kind: string; name: string };
    minReplicas?: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds?: number;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
        containers: Container[];
        volumes?: { name: string; configMap?: { name: string }; secret?: { secretName: string } }[];
      };
    };
  };
}

const files = fg.sync('deploy/kubernetes/*.yaml', { cwd: root });
const manifests = files.flatMap((file) =>
  parseAllDocuments(read(file)).map((document) => {
    assert.deepEqual(document.errors, [], file);
    return document.toJS() as Manifest;
  }),
);
const find = (kind: string, name: string): Manifest => {
  const found = manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
  assert.ok(found, `${kind} ${name}`);
  return found;
};
const deployment = find('Deployment', 'toolshed');
const pod = deployment.spec.template.spec;
const container = pod.containers[0]!;
const port = (container: Container, name: string): number => container.ports?.find((entry) => entry.name === name)?.containerPort ?? NaN;

/** The ConfigMap's configuration file at the path the container reads it, loaded by the kernel. */
async function podConfig(): ReturnType<typeof loadConfig> {
  const target = container.env?.find((entry) => entry.name === 'TOOLSHED_CONFIG')?.value ?? '';
  const mount = container.volumeMounts?.find((entry) => target.startsWith(`${entry.mountPath}/`));
  assert.ok(mount, `TOOLSHED_CONFIG ${target} is on a mounted volume`);
  // A Secret (it holds the Redis password), or a ConfigMap for a configuration without secrets.
  const volume = pod.volumes?.find((entry) => entry.name === mount.name);
  const source = volume?.secret ? find('Secret', volume.secret.secretName).stringData : find('ConfigMap', volume?.configMap?.name ?? '').data;
  const text = source?.[path.basename(target)];
  assert.ok(text, `the volume ${mount.name} holds ${path.basename(target)}`);
  const file = path.join(tempFolder('toolshed-k8s-'), 'toolshed.yaml');
  await writeFile(file, text);
  return loadConfig({ TOOLSHED_CONFIG: file }, path.join(root, 'config/default.yaml'));
}

describe('deploy/kubernetes', () => {
  it('holds the configuration, the Deployment, its Service, disruption budget and autoscaler, and Redis with its Service', () => {
    assert.ok(files.length >= 2);
    const kinds = manifests.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`).sort();
    for (const expected of ['Deployment/toolshed', 'Service/toolshed', 'HorizontalPodAutoscaler/toolshed', 'PodDisruptionBudget/toolshed', 'Deployment/toolshed-redis', 'Service/toolshed-redis']) {
      assert.ok(kinds.includes(expected), expected);
    }
    assert.deepEqual(find('PodDisruptionBudget', 'toolshed').spec.selector, { matchLabels: deployment.spec.template.metadata.labels });
    const hpa = find('HorizontalPodAutoscaler', 'toolshed');
    assert.deepEqual([hpa.spec.scaleTargetRef?.kind, hpa.spec.scaleTargetRef?.name], ['Deployment', 'toolshed']);
    assert.ok((hpa.spec.minReplicas ?? 1) >= 2, 'never a single pod: one stopping leaves another');
  });

  it('listens where the image does and the Service sends, and the kernel accepts its configuration', async () => {
    const env = read('Dockerfile').match(/^ENV .*$/gm)?.join(' ') ?? '';
    assert.equal(port(container, 'http'), Number(/\bPORT=(\d+)/.exec(env)?.[1]));
    assert.match(env, /\bHOST=0\.0\.0\.0\b/);
    const service = find('Service', 'toolshed');
    assert.deepEqual(service.spec.selector, deployment.spec.template.metadata.labels);
    assert.equal(service.spec.ports?.[0]?.targetPort, 'http');
    const config = await podConfig();
    assert.equal(config.server.trustProxy, 1);
  });

  it('asks /healthz for readiness and liveness on the container port', () => {
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      assert.deepEqual(probe?.httpGet, { path: '/healthz', port: 'http' });
    }
  });

  it('gives a stopping pod time for preStop, the drain and both shutdown phases, and liveness cannot cut it short', async () => {
    const { drainDelayMs, shutdownTimeoutMs } = (await podConfig()).server;
    const [sleep, seconds] = container.lifecycle?.preStop?.exec?.command ?? [];
    assert.equal(sleep, 'sleep');
    const grace = pod.terminationGracePeriodSeconds ?? 30;
    assert.ok(grace * 1000 > Number(seconds) * 1000 + drainDelayMs + 2 * shutdownTimeoutMs, `terminationGracePeriodSeconds ${grace}`);
    // /healthz answers 503 while draining: liveness must not restart a pod that is stopping.
    const liveness = container.livenessProbe!;
    assert.ok((liveness.periodSeconds ?? 10) * (liveness.failureThreshold ?? 3) > grace, 'liveness gives up later than the grace period');
    // Readiness fails at the first 503.
    assert.equal(container.readinessProbe?.failureThreshold, 1);
  });

  it('shares rate limits through the Redis Service, on the port Redis listens on', async () => {
    const url = new URL((await podConfig()).rateLimit.redis.url ?? '');
    const redis = find('Deployment', 'toolshed-redis');
    const service = find('Service', url.hostname);
    assert.deepEqual(service.spec.selector, redis.spec.template.metadata.labels);
    assert.equal(service.spec.ports?.[0]?.port, Number(url.port));
    assert.equal(port(redis.spec.template.spec.containers[0]!, String(service.spec.ports?.[0]?.targetPort)), Number(url.port));
  });

  it('runs both as users that are not root, read-only, without capabilities', () => {
    for (const manifest of [deployment, find('Deployment', 'toolshed-redis')]) {
      const spec = manifest.spec.template.spec;
      assert.equal(spec.securityContext?.runAsNonRoot, true);
      assert.ok((spec.securityContext?.runAsUser ?? 0) > 0);
      for (const each of spec.containers) {
        assert.deepEqual(each.securityContext, { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      }
    }
  });

  it('leaves the number of pods to the autoscaler: no fixed replicas on a Deployment it scales', () => {
    const scaled = manifests.filter((manifest) => manifest.kind === 'HorizontalPodAutoscaler').map((hpa) => hpa.spec.scaleTargetRef?.name);
    assert.ok(scaled.includes('toolshed'));
    for (const name of scaled) assert.equal(find('Deployment', name!).spec.replicas, undefined, `Deployment ${name} fights its autoscaler`);
  });

  it('limits the pod\'s memory to at least what its configuration may use', async () => {
    const limit = sizeBytes(container.resources?.limits?.memory ?? '0');
    assert.ok(limit >= memoryBudgetBytes(await podConfig()), `limit ${container.resources?.limits?.memory}`);
  });

  it('serves HTTPS through an Ingress routing the API, MCP and pages, never /metrics or /healthz', async () => {
    const ingress = find('Ingress', 'toolshed');
    const hosts = ingress.spec.rules?.map((rule) => rule.host) ?? [];
    assert.ok(hosts.length > 0 && hosts.every((host) => ingress.spec.tls?.some((tls) => tls.hosts.includes(host!) && tls.secretName !== '')), 'every host has TLS');
    const paths = ingress.spec.rules!.flatMap((rule) => rule.http.paths);
    for (const entry of paths) {
      assert.equal(entry.backend.service.name, 'toolshed');
      assert.equal(entry.backend.service.port.name, 'http');
    }
    // Kubernetes's matching: Exact is the whole path; Prefix matches whole path elements.
    const routed = (url: string): boolean =>
      paths.some(({ path: route, pathType }) => (pathType === 'Exact' ? url === route : url === route || url.startsWith(`${route.replace(/\/$/, '')}/`)));
    for (const url of ['/', '/tools/base64/encode', '/tools/tool-pages.js', '/docs', '/docs/init.js', '/v1/base64/encode', '/v1/openapi.json', '/mcp']) {
      assert.ok(routed(url), `the Ingress routes ${url}`);
    }
    for (const url of ['/metrics', '/healthz', '/metrics/', '/metricsx']) assert.ok(!routed(url), `the Ingress does not route ${url}`);
    assert.equal((await podConfig()).metrics.enabled, true, 'metrics are on, so the Ingress must keep them in');
  });

  it('protects Redis with a password from a Secret and a NetworkPolicy admitting Toolshed\'s pods only', async () => {
    const url = new URL((await podConfig()).rateLimit.redis.url ?? '');
    const redis = find('Deployment', 'toolshed-redis');
    const redisContainer = redis.spec.template.spec.containers[0]!;
    const variable = redisContainer.env?.find((entry) => entry.name === 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef;
    assert.ok(variable, 'the password comes from a Secret');
    const password = find('Secret', variable.name).stringData?.[variable.key];
    assert.ok(password !== undefined && password.length >= 16);
    assert.equal(decodeURIComponent(url.password), password, 'Toolshed\'s URL holds the same password');
    const args = redisContainer.args ?? [];
    assert.equal(args[args.indexOf('--requirepass') + 1], '$(REDIS_PASSWORD)');
    // The readiness probe's redis-cli needs it too.
    assert.deepEqual(redisContainer.env?.find((entry) => entry.name === 'REDISCLI_AUTH')?.valueFrom?.secretKeyRef, variable);
    const policy = manifests.find((manifest) => manifest.kind === 'NetworkPolicy' && manifest.spec.podSelector?.matchLabels['app.kubernetes.io/name'] === 'toolshed-redis');
    assert.ok(policy, 'a NetworkPolicy selects the Redis pod');
    assert.deepEqual(policy.spec.podSelector?.matchLabels, redis.spec.template.metadata.labels);
    assert.deepEqual(policy.spec.policyTypes, ['Ingress']);
    assert.deepEqual(policy.spec.ingress, [{ from: [{ podSelector: { matchLabels: deployment.spec.template.metadata.labels } }], ports: [{ protocol: 'TCP', port: Number(url.port) }] }]);
  });
});
