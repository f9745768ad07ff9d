// A kubeconfig file as Bulkhead writes one (clientcmd's v1 Config): one cluster, one user, one
// context named alike, current. The user is a bearer token (the admin's, a node's on `up`) or a
// client certificate (a node that joined with a bootstrap token). Certificates are PEM text,
// written base64-encoded as the *-data fields take them.

export type KubeconfigUser = { token: string } | { clientCertificate: string; clientKey: string };

export interface KubeconfigOptions {
  server: string;
  /** The cluster CA's certificate, PEM. */
  ca: string;
  user: string;
  credentials: KubeconfigUser;
  /** The context's default namespace, when it has one. */
  namespace?: string;
  context?: string;
}

const base64 = (pem: string) => Buffer.from(pem).toString('base64');

export function renderKubeconfig(o: KubeconfigOptions): string {
  const context = o.context ?? 'bulkhead';
  const user = 'token' in o.credentials ? [`    token: ${o.credentials.token}`] : [`    client-certificate-data: ${base64(o.credentials.clientCertificate)}`, `    client-key-data: ${base64(o.credentials.clientKey)}`];
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${context}`,
    '  cluster:',
    `    server: ${o.server}`,
    `    certificate-authority-data: ${base64(o.ca)}`,
    'users:',
    `- name: ${o.user}`,
    '  user:',
    ...user,
    'contexts:',
    `- name: ${context}`,
    '  context:',
    `    cluster: ${context}`,
    `    user: ${o.user}`,
    ...(o.namespace ? [`    namespace: ${o.namespace}`] : []),
    `current-context: ${context}`,
    '',
  ].join('\n');
}
