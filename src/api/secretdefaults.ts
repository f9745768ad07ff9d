// A Secret as the API server takes it on create and update: the v1→internal conversion
// (Convert_v1_Secret_To_core_Secret) merges stringData into data, and SetDefaults_Secret gives
// an empty type `Opaque`. Pure; shared by the server's strategy and `bulkhead plan`.

import type { Secret } from './types.js';
import { secretTypes } from './validation/config.js';

/** Each stringData entry replaces data's, base64-encoded; stringData is dropped. */
export function mergeStringData(secret: Secret): Secret {
  const sd = secret.stringData;
  delete secret.stringData;
  if (sd && typeof sd === 'object') {
    const data = { ...(secret.data ?? {}) };
    for (const [k, v] of Object.entries(sd)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    secret.data = data;
  }
  return secret;
}

/** The Secret decoded from a request body: stringData merged, the type defaulted. */
export function defaultSecret(secret: Secret): Secret {
  mergeStringData(secret);
  if (!secret.type) secret.type = secretTypes.opaque;
  return secret;
}
