// core/v1 configuration kinds: ConfigMap, Secret and ServiceAccount, and their lists
// (k8s.io/api core/v1 types.go). Secret `data` and ConfigMap `binaryData` hold base64 in JSON;
// Secret `stringData` is write-only (apiserver/configstrategies.ts merges it into `data`).

import { PKG, gvk, struct, typeMeta, type SchemaDef } from './dsl.js';

const c = (short: string, description: string, fields: Record<string, string>, opts?: Parameters<typeof struct>[4]) =>
  struct(PKG.core, short, description, fields, opts);

const kindOf = (kind: string) => ({ gvk: [gvk('', 'v1', kind)] });

const list = (item: string, what: string) =>
  c(`${item}List`, `A list of ${what}.`, { ...typeMeta, metadata: 'ListMeta | Standard list metadata.', items: `[]${item}! | The ${what}.` }, kindOf(`${item}List`));

export const configSchemas: readonly SchemaDef[] = [
  c(
    'ConfigMap',
    'Non-confidential configuration data for pods: environment variables, command-line arguments or files in a volume.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      immutable: 'b | When true, data and binaryData cannot be changed (only metadata can); the object can only be deleted and recreated.',
      data: '{}s | UTF-8 configuration data. Keys consist of alphanumerics, \'-\', \'_\' or \'.\' and must not also appear in binaryData.',
      binaryData: '{}bytes | Binary configuration data, base64 in JSON. Keys as in data, and not also in data.',
    },
    kindOf('ConfigMap'),
  ),
  list('ConfigMap', 'config maps'),
  c(
    'Secret',
    'Confidential data such as passwords, tokens or keys; data and stringData together must not exceed 1 MiB.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      immutable: 'b | When true, data cannot be changed (only metadata can); the object can only be deleted and recreated.',
      data: '{}bytes | The secret data, base64 in JSON. Keys consist of alphanumerics, \'-\', \'_\' or \'.\'.',
      stringData:
        '{}s | Write-only convenience: plain-text values merged into data on write, overriding data\'s entries with the same keys. Never returned.',
      type: 's | How the data is to be used, e.g. Opaque (the default), kubernetes.io/tls or kubernetes.io/dockerconfigjson. Cannot be changed.',
    },
    kindOf('Secret'),
  ),
  list('Secret', 'secrets'),
  c(
    'ServiceAccount',
    'An identity for the processes of a pod.',
    {
      ...typeMeta,
      metadata: 'ObjectMeta | Standard object metadata.',
      secrets:
        '[]ObjectReference ps=merge mk=name | Secrets in the same namespace that pods running as this account may use (with the kubernetes.io/enforce-mountable-secrets annotation).',
      imagePullSecrets: '[]LocalObjectReference lt=atomic | Secrets copied into the imagePullSecrets of pods that run as this account and list none.',
      automountServiceAccountToken: 'b | Whether pods running as this account get an API token mounted; a pod\'s own setting wins.',
    },
    kindOf('ServiceAccount'),
  ),
  list('ServiceAccount', 'service accounts'),
];
