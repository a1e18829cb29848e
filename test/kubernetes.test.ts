// deploy/kubernetes/ (issue 22) checked against the facts it must keep, without a cluster: every
// manifest parses, the ConfigMap's configuration is accepted by the kernel, and ports, paths and
// timeouts agree with that configuration and with the image.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../kernel/config.js';

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
  env?: { name: string; value: string }[];
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec: {
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
        volumes?: { name: string; configMap?: { name: string } }[];
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
  const configMap = pod.volumes?.find((volume) => volume.name === mount.name)?.configMap?.name ?? '';
  const text = find('ConfigMap', configMap).data?.[path.basename(target)];
  assert.ok(text, `ConfigMap ${configMap} holds ${path.basename(target)}`);
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'toolshed-k8s-')), 'toolshed.yaml');
  await writeFile(file, text);
  return loadConfig({ TOOLSHED_CONFIG: file }, path.join(root, 'config/default.yaml'));
}

describe('deploy/kubernetes', () => {
  it('holds a ConfigMap, the Deployment, its Service, disruption budget and autoscaler, and Redis with its Service', () => {
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
});
