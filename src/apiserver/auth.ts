// Who is calling and what they may do. Bearer tokens from the data directory identify an
// admin (group system:masters) and one identity per node (system:node:<name>, group
// system:nodes). A node may read nodes, write only its own Node and Lease, read and update
// the status of the pods bound to it, and create events; anonymous callers reach only
// version and health, which the handler serves before asking here.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { KubeObject, Pod } from '../api/types.js';
import type { Authorizer, Verb } from './handler.js';
import type { UserInfo } from './rest.js';
import type { ResourcePath } from './request.js';
import type { ResourceDef } from './resources.js';
import { statusErrors } from './status.js';

export interface TokenEntry {
  token: string;
  user: string;
  groups: string[];
}

export const adminUser = 'bulkhead-admin';
export const mastersGroup = 'system:masters';
export const nodesGroup = 'system:nodes';
export const nodeUserPrefix = 'system:node:';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export class TokenFile {
  private entries: TokenEntry[] = [];
  private byDigest = new Map<string, TokenEntry>();

  constructor(private readonly path: string) {
    if (existsSync(path)) this.entries = JSON.parse(readFileSync(path, 'utf8')) as TokenEntry[];
    this.index();
  }

  private index(): void {
    this.byDigest = new Map(this.entries.map((e) => [digest(e.token).toString('hex'), e]));
  }

  private save(): void {
    writeFileSync(this.path, JSON.stringify(this.entries, null, 2) + '\n', { mode: 0o600 });
  }

  /** The token of `user`, created (and saved) on first use. */
  ensure(user: string, groups: string[]): string {
    const found = this.entries.find((e) => e.user === user);
    if (found) return found.token;
    const entry = { token: newToken(), user, groups };
    this.entries.push(entry);
    this.index();
    this.save();
    return entry.token;
  }

  lookup(token: string): TokenEntry | undefined {
    const d = digest(token);
    const e = this.byDigest.get(d.toString('hex'));
    return e && timingSafeEqual(digest(e.token), d) ? e : undefined;
  }
}

export function bearerAuthenticator(tokens: TokenFile): (req: IncomingMessage) => UserInfo | undefined {
  return (req) => {
    const h = req.headers.authorization;
    if (!h) return undefined;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    const entry = m ? tokens.lookup(m[1]!) : undefined;
    if (!entry) throw statusErrors.unauthorized();
    return { name: entry.user, groups: [...entry.groups, 'system:authenticated'] };
  };
}

function resourceText(def: ResourceDef, path: ResourcePath): string {
  return path.subresource ? `${def.resource}/${path.subresource}` : def.resource;
}

export function forbiddenText(user: UserInfo, verb: Verb, def: ResourceDef, path: ResourcePath, why = ''): string {
  const scope = path.namespace !== undefined ? `in the namespace "${path.namespace}"` : 'at the cluster scope';
  return `User "${user.name}" cannot ${verb} resource "${resourceText(def, path)}" in API group "${def.group}" ${scope}${why ? `: ${why}` : ''}`;
}

const readVerbs = new Set<Verb>(['get', 'list', 'watch']);
const writeVerbs = new Set<Verb>(['create', 'update', 'patch']);

/** The node authorizer's view, plus admin for everything. */
export class NodeAwareAuthorizer implements Authorizer {
  authorize(user: UserInfo, verb: Verb, def: ResourceDef, path: ResourcePath, query: URLSearchParams): string | undefined {
    if (user.groups.includes(mastersGroup)) return undefined;
    if (!user.groups.includes(nodesGroup) || !user.name.startsWith(nodeUserPrefix)) return forbiddenText(user, verb, def, path);
    const node = user.name.slice(nodeUserPrefix.length);
    const deny = (why = '') => forbiddenText(user, verb, def, path, why);
    switch (def.resource) {
      case 'nodes':
        if (readVerbs.has(verb)) return undefined;
        if ((writeVerbs.has(verb) || verb === 'delete') && (path.name === node || (verb === 'create' && path.name === undefined))) return undefined;
        return deny(`node '${node}' cannot modify node '${path.name ?? ''}'`);
      case 'pods': {
        if (verb === 'list' || verb === 'watch') {
          const fs = query.get('fieldSelector') ?? '';
          return fs.split(',').some((t) => t.replace(/\s/g, '') === `spec.nodeName=${node}` || t.replace(/\s/g, '') === `spec.nodeName==${node}`)
            ? undefined
            : deny(`can only list/watch pods with spec.nodeName field selector`);
        }
        if (verb === 'get' || verb === 'delete' || ((verb === 'update' || verb === 'patch') && path.subresource === 'status')) return undefined;
        return deny();
      }
      case 'events':
        return writeVerbs.has(verb) || readVerbs.has(verb) ? undefined : deny();
      case 'leases':
        if (path.namespace === 'kube-node-lease' && (path.name === node || (verb === 'create' && path.name === undefined)) && verb !== 'deletecollection') return undefined;
        return deny();
      default:
        return deny();
    }
  }

  /** A node caller may touch only the pods bound to it. */
  checkObject(user: UserInfo, verb: Verb, def: ResourceDef, obj: KubeObject | undefined): string | undefined {
    if (def.resource !== 'pods' || !user.groups.includes(nodesGroup) || user.groups.includes(mastersGroup) || !obj) return undefined;
    const node = user.name.slice(nodeUserPrefix.length);
    if ((obj as Pod).spec?.nodeName === node) return undefined;
    return forbiddenText(user, verb, def, { group: def.group, version: def.version, resource: def.resource, namespace: obj.metadata?.namespace, name: obj.metadata?.name }, `no relationship found between node '${node}' and this object`);
  }
}
