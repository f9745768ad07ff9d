// Tables of the configuration kinds (pkg/printers/internalversion printers.go at v1.32):
// printConfigMap, printSecret, printServiceAccount, printResourceQuota, and the default
// convertors for the kinds with no printer of their own.

import type { ConfigMap, KubeObject, ResourceQuota, Secret, ServiceAccount } from '../../api/types.js';
import { age, ageCol, col, nameCol, type Printer } from './common.js';

export const quotaPrinter: Printer<ResourceQuota> = {
  columns: [
    nameCol,
    ageCol,
    col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    col('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells(q, now) {
    const hard = q.status?.hard ?? {};
    const used = q.status?.used ?? {};
    const requests: string[] = [];
    const limits: string[] = [];
    for (const k of Object.keys(hard).sort()) {
      const cell = `${k}: ${used[k] ?? '0'}/${hard[k]}`;
      (k.startsWith('limits.') ? limits : requests).push(cell);
    }
    return [q.metadata?.name ?? '', age(q.metadata?.creationTimestamp, now), requests.join(', '), limits.join(', ')];
  },
};

// rest.DefaultTableConvertor (NAME, CREATED AT): the kinds with no printer of their own, LimitRange
// and the RBAC roles among them.
export const createdAtPrinter: Printer<KubeObject> = {
  columns: [nameCol, col('Created At', 'date', ageCol.description)],
  cells: (lr) => [lr.metadata?.name ?? '', lr.metadata?.creationTimestamp ?? ''],
};

const count = (m: Record<string, unknown> | undefined) => (m && typeof m === 'object' ? Object.keys(m).length : 0);

// printConfigMap, printSecret, printServiceAccount: the counts are integers in the cells.
export const configMapPrinter: Printer<ConfigMap> = {
  columns: [nameCol, col('Data', 'string', "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'."), ageCol],
  cells: (c, now) => [c.metadata?.name ?? '', count(c.data) + count(c.binaryData), age(c.metadata?.creationTimestamp, now)],
};

export const secretPrinter: Printer<Secret> = {
  columns: [
    nameCol,
    col('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    col('Data', 'string', "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'."),
    ageCol,
  ],
  cells: (s, now) => [s.metadata?.name ?? '', s.type ?? '', count(s.data), age(s.metadata?.creationTimestamp, now)],
};

export const serviceAccountPrinter: Printer<ServiceAccount> = {
  columns: [nameCol, col('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), ageCol],
  cells: (sa, now) => [sa.metadata?.name ?? '', Array.isArray(sa.secrets) ? sa.secrets.length : 0, age(sa.metadata?.creationTimestamp, now)],
};

export const defaultPrinter: Printer<KubeObject> = {
  columns: [nameCol, ageCol],
  cells: (o, now) => [o.metadata?.name ?? '', age(o.metadata?.creationTimestamp, now)],
};
