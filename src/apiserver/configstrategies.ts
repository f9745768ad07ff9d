// Strategies of the configuration kinds: ConfigMap, Secret and ServiceAccount
// (pkg/registry/core/configmap, secret and serviceaccount strategy.go, and the v1→internal
// conversion that merges a Secret's stringData into data), with the object-count quota charge
// of quota/v1/generic's ObjectCountEvaluator committed in the same transaction as the create.
// Secret values never reach a log, an event or a message: validation reports
// "<secret contents redacted>" where upstream does.

import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { FieldError } from '../api/fielderrors.js';
import { defaultSecret } from '../api/secretdefaults.js';
import type { ConfigMap, KubeObject, ResourceQuota, Secret, ServiceAccount } from '../api/types.js';
import {
  secretTypes,
  validateConfigMap,
  validateConfigMapUpdate,
  validateSecret,
  validateSecretUpdate,
  validateServiceAccount,
  validateServiceAccountUpdate,
} from '../api/validation/index.js';
import { decideObjectCount } from '../quota/objectcount.js';
import type { QuotaDecision } from '../quota/admission.js';
import type { LimitedResource } from '../quota/config.js';
import { decodeStored, encodeForStore } from './objects.js';
import type { Api, CreateBatch, GuardedWrite, Strategy } from './rest.js';
import { storageKey } from './resources.js';
import { statusErrors } from './status.js';

function invalid(kind: string, name: string, errs: FieldError[]): never {
  throw statusErrors.invalid(kind, '', name, errs);
}

/** The namespace's quotas with the revision each was read at (the watch cache when the server has one). */
async function quotasOf(api: Api, namespace: string): Promise<{ key: string; modRevision: number; quota: ResourceQuota }[]> {
  const cache = api.caches.get('resourcequotas');
  if (cache) return cache.list(namespace).map((c) => ({ key: c.key, modRevision: c.modRevision, quota: c.obj as ResourceQuota }));
  const page = await api.store.list(storageKey(api.def('resourcequotas'), namespace));
  return page.items.map((kv) => ({ key: kv.key, modRevision: kv.modRevision, quota: decodeStored<ResourceQuota>(kv) }));
}

/**
 * The quota charge of creating one object of `resource`: refused with the quota admission's
 * 403, or the quota status writes to commit with the object (into `batch` when batching).
 */
export async function chargeObjectCount(api: Api, resource: string, obj: KubeObject, batch?: CreateBatch, group = ''): Promise<GuardedWrite[]> {
  return chargeQuotas(api, { group, resource }, obj, (quotas, limited) => decideObjectCount(group, resource, quotas, limited), batch);
}

/**
 * The quota charge `decide` makes of the namespace's quotas (and the plugin configuration's
 * limitedResources) for a write of `obj`: refused with the quota admission's 403 (or, for what
 * upstream returns as a plain error, its 500), or the quota status writes to commit with the
 * object (into `batch` when batching).
 */
export async function chargeQuotas(
  api: Api,
  gr: { group: string; resource: string },
  obj: KubeObject,
  decide: (quotas: ResourceQuota[], limited: readonly LimitedResource[]) => QuotaDecision,
  batch?: CreateBatch,
): Promise<GuardedWrite[]> {
  const namespace = obj.metadata?.namespace;
  if (!namespace) return [];
  const limited = api.resourceQuota.limitedResources;
  const read = await quotasOf(api, namespace);
  if (read.length === 0 && limited.length === 0) return [];
  // Within a batch, quotas already charged by earlier creates of the batch are read as charged.
  const current = read.map((q) => {
    const pending = batch?.pending.get(q.key);
    return pending ? { key: q.key, modRevision: pending.modRevision, quota: pending.obj as ResourceQuota } : q;
  });
  const decision = decide(current.map((q) => q.quota), limited);
  if (!decision.allowed) {
    throw decision.plainError ? statusErrors.unknown(decision.message) : statusErrors.forbidden(gr, obj.metadata?.name ?? '', decision.message);
  }
  const writes: GuardedWrite[] = [];
  for (const charge of decision.charges) {
    const q = current.find((x) => x.quota.metadata.name === charge.name)!;
    const next = { ...q.quota, status: { ...(q.quota.status ?? {}), used: charge.used } };
    if (batch) batch.pending.set(q.key, { modRevision: q.modRevision, obj: next });
    else writes.push({ key: q.key, modRevision: q.modRevision, value: encodeForStore(next) });
  }
  return writes;
}

/**
 * `strategy` with the object-count quota charge of its kind on create, after the strategy's own
 * checks (the quota plugin is validating admission, run after the strategy's Validate), committed
 * in the same transaction; creates of a namespace are serialized, as the charge reads and writes
 * the namespace's quotas. installStrategies wraps every kind quota counts (countsObjects).
 */
export function withObjectCount(strategy: Strategy, group: string, resource: string): Strategy {
  return {
    ...strategy,
    serializeCreatesPerNamespace: true,
    async create(obj, req, api, batch, track) {
      const made = strategy.create ? await strategy.create(obj, req, api, batch, track) : { obj };
      const charge = await chargeObjectCount(api, resource, made.obj, batch, group);
      return { obj: made.obj, writes: [...(made.writes ?? []), ...charge] };
    },
  };
}

/** The strategy of a kind whose writes are validation (ConfigMap, ServiceAccount). */
function validatedStrategy<T extends KubeObject>(
  kind: string,
  validate: (o: T) => FieldError[],
  validateUpdate: (o: T, old: T) => FieldError[],
  prepare?: (o: T) => void,
  warnings?: (o: T) => string[],
): Strategy {
  return {
    async create(obj, req) {
      const o = obj as T;
      prepare?.(o);
      const errs = validate(o);
      if (errs.length) invalid(kind, o.metadata?.name ?? '', errs);
      if (warnings) req.warnings.push(...warnings(o));
      return { obj: o };
    },
    async update(obj, old, req) {
      const o = obj as T;
      prepare?.(o);
      const errs = validateUpdate(o, old as T);
      if (errs.length) invalid(kind, old.metadata?.name ?? '', errs);
      if (warnings) req.warnings.push(...warnings(o));
      return { obj: o };
    },
  };
}

export const configMapStrategy: Strategy = validatedStrategy<ConfigMap>('ConfigMap', validateConfigMap, validateConfigMapUpdate);

/**
 * warningsForSecret: a kubernetes.io/tls secret whose key does not match its certificate is
 * stored, with crypto/tls X509KeyPair's complaint as a warning.
 */
export function tlsSecretWarnings(secret: Secret): string[] {
  if (secret.type !== secretTypes.tls) return [];
  const pem = (k: string) => Buffer.from(secret.data?.[k] ?? '', 'base64').toString('utf8');
  const cert = pem('tls.crt');
  const key = pem('tls.key');
  if (!/-----BEGIN [^-]*CERTIFICATE-----/.test(cert)) return ['tls: failed to find any PEM data in certificate input'];
  if (!/-----BEGIN [^-]*PRIVATE KEY-----/.test(key)) return ['tls: failed to find any PEM data in key input'];
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch {
    return ['x509: malformed certificate'];
  }
  try {
    if (!x509.checkPrivateKey(createPrivateKey(key))) return ['tls: private key does not match public key'];
  } catch {
    return ['tls: failed to parse private key'];
  }
  return [];
}

export const secretStrategy: Strategy = {
  async create(obj, req) {
    const secret = defaultSecret(obj as Secret);
    const errs = validateSecret(secret);
    if (errs.length) invalid('Secret', secret.metadata?.name ?? '', errs);
    req.warnings.push(...tlsSecretWarnings(secret));
    return { obj: secret };
  },
  async update(obj, old, req) {
    // A decoded body is defaulted as on create; PrepareForUpdate keeps the old type only for an empty one.
    const secret = defaultSecret(obj as Secret);
    const errs = validateSecretUpdate(secret, old as Secret);
    if (errs.length) invalid('Secret', old.metadata?.name ?? '', errs);
    req.warnings.push(...tlsSecretWarnings(secret));
    return { obj: secret };
  },
};

/** cleanSecretReferences (PrepareForCreate and PrepareForUpdate): a ServiceAccount's secrets are kept by name only. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (Array.isArray(sa.secrets)) sa.secrets = sa.secrets.map((s) => (s?.name ? { name: s.name } : {}));
}

/** warningsForServiceAccount (1.32): the enforce-mountable-secrets annotation is deprecated. */
function serviceAccountWarnings(sa: ServiceAccount): string[] {
  const annotation = 'kubernetes.io/enforce-mountable-secrets';
  return sa.metadata?.annotations && Object.prototype.hasOwnProperty.call(sa.metadata.annotations, annotation)
    ? [`metadata.annotations[${annotation}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`]
    : [];
}

export const serviceAccountStrategy: Strategy = validatedStrategy<ServiceAccount>('ServiceAccount', validateServiceAccount, validateServiceAccountUpdate, cleanSecretReferences, serviceAccountWarnings);

export function installConfigStrategies(api: Api): void {
  api.strategies.set('configmaps', configMapStrategy);
  api.strategies.set('secrets', secretStrategy);
  api.strategies.set('serviceaccounts', serviceAccountStrategy);
}
