// deploy/kubernetes/ against the Kubernetes API's schemas, offline (kubernetes-models, which carries them): every
// manifest valid, the kustomization naming them all, and the quoter's Deployment as docs/deploy.md promises it.
// Running it (podman kube play) is in image.test.ts, beside the image it needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { SETTINGS } from "../../src/settings.ts";

const DIR = new URL("../../deploy/kubernetes/", import.meta.url).pathname;

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: unknown };

/** The models by apiVersion and kind: each validates its object against the API's schema. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1 Deployment": Deployment,
  "autoscaling/v2 HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1 PodDisruptionBudget": PodDisruptionBudget,
  "v1 ConfigMap": ConfigMap,
  "v1 Secret": Secret,
  "v1 Service": Service,
};

function manifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(join(DIR, file), "utf8")).map((document) => {
    assert.deepEqual(document.errors, [], file);
    return document.toJS() as Manifest;
  });
}

const files = readdirSync(DIR).filter((file) => file.endsWith(".yaml") && file !== "kustomization.yaml");
const all = files.flatMap((file) => manifests(file).map((manifest) => ({ file, manifest })));
const find = (kind: string, name: string) => all.find(({ manifest }) => manifest.kind === kind && manifest.metadata.name === name)?.manifest as any;

test("every manifest of deploy/kubernetes is valid against the Kubernetes API's schema, and the kustomization names them all", () => {
  for (const { file, manifest } of all) {
    const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}`];
    assert.ok(Model, `${file}: ${manifest.apiVersion} ${manifest.kind} is not a kind this project deploys`);
    assert.doesNotThrow(() => new Model(manifest as never).validate(), `${file}: ${manifest.kind} ${manifest.metadata.name}`);
  }
  // The validator validates: a port that is not a number fails.
  const broken = structuredClone(find("Deployment", "quoter"));
  broken.spec.template.spec.containers[0].ports[0].containerPort = "http";
  assert.throws(() => new Deployment(broken).validate(), /containerPort/);
  const [kustomization] = manifests("kustomization.yaml") as unknown as { resources: string[] }[];
  assert.deepEqual([...kustomization!.resources].sort(), [...files].sort());
  assert.deepEqual(
    all.map(({ manifest }) => `${manifest.kind}/${manifest.metadata.name}`).sort(),
    ["ConfigMap/quoter-settings", "Deployment/quoter", "Deployment/quoter-redis", "HorizontalPodAutoscaler/quoter", "PodDisruptionBudget/quoter", "Secret/quoter-rpc", "Service/quoter", "Service/quoter-redis"],
  );
});

test("the quoter's Deployment: three replicas, probes on /ready and /health, non-root on a read-only root with /tmp writable, a grace period longer than the drain; the Secret holds no URL", () => {
  const deployment = find("Deployment", "quoter");
  const pod = deployment.spec.template.spec;
  const [container] = pod.containers;
  assert.equal(deployment.spec.replicas, 3);
  assert.equal(container.readinessProbe.httpGet.path, "/ready");
  assert.equal(container.livenessProbe.httpGet.path, "/health");
  assert.equal(pod.securityContext.runAsNonRoot, true);
  assert.notEqual(pod.securityContext.runAsUser, 0);
  assert.equal(container.securityContext.readOnlyRootFilesystem, true);
  const tmp = container.volumeMounts.find((mount: { mountPath: string }) => mount.mountPath === "/tmp");
  assert.ok(pod.volumes.find((volume: { name: string; emptyDir?: unknown }) => volume.name === tmp?.name && volume.emptyDir), "/tmp an emptyDir");
  // In-flight quotes finish within QUOTE_DEADLINE_MS before the process exits.
  assert.ok(pod.terminationGracePeriodSeconds * 1000 > SETTINGS.QUOTE_DEADLINE_MS.default, `${pod.terminationGracePeriodSeconds} s`);
  assert.ok(container.resources.requests.cpu && container.resources.requests.memory && container.resources.limits.memory);
  assert.deepEqual(
    container.envFrom.map((source: { configMapRef?: { name: string }; secretRef?: { name: string } }) => source.configMapRef?.name ?? source.secretRef?.name),
    ["quoter-settings", "quoter-rpc"],
  );
  assert.equal(find("ConfigMap", "quoter-settings").data.HOST, "0.0.0.0");
  const secret = find("Secret", "quoter-rpc");
  assert.deepEqual({ ...secret.data, ...secret.stringData }, {}, "the example Secret holds no URL");
  assert.equal(find("HorizontalPodAutoscaler", "quoter").spec.metrics[0].resource.name, "cpu");
  assert.ok(find("PodDisruptionBudget", "quoter").spec.minAvailable >= 1);
});
