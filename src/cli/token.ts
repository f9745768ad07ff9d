// `bulkhead token create|list|delete`: bootstrap tokens for nodes that join, as `kubeadm token`
// manages them (cmd/kubeadm/app/cmd/token.go): each a Secret bootstrap-token-<id> in kube-system
// written through the API with the admin kubeconfig, so the server's bootstrap token
// authenticator sees it at once. Defaults as kubeadm's: --ttl 24h, usages signing and
// authentication, the group kubeadm binds node bootstrap and auto-approval to.

import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { Command } from 'commander';
import {
  bootstrapGroupProblem,
  bootstrapTokenNamespace,
  bootstrapTokenSecret,
  bootstrapTokenSecretPrefix,
  bootstrapTokenSecretType,
  defaultNodeTokenGroup,
  parseToken,
  tokenFromSecret,
  tokenUsages,
} from '../api/bootstraptoken.js';
import type { Secret } from '../api/types.js';
import { formatTable } from '../plan/table.js';
import { UsageError } from './errors.js';
import { durationFlag } from './flags.js';
import { metaTime } from '../api/metatime.js';

interface TokenFlags {
  dataDir: string;
  kubeconfig?: string;
}

interface CreateFlags extends TokenFlags {
  ttl: string;
  description?: string;
  groups: string;
  usages: string;
  printJoinCommand?: boolean;
}

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomString = (n: number) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');

/** bootstraputil.GenerateBootstrapToken. */
export function generateToken(): string {
  return `${randomString(6)}.${randomString(16)}`;
}

async function adminClient(f: TokenFlags) {
  const { readKubeconfig, KubeconfigError } = await import('../agent/kubeconfig.js');
  const { HttpClient } = await import('../client/http.js');
  const file = f.kubeconfig ?? join(f.dataDir, 'kubeconfig');
  try {
    const conn = readKubeconfig(file);
    return { client: new HttpClient({ ...conn, userAgent: 'bulkhead-token' }), conn };
  } catch (e) {
    if (e instanceof KubeconfigError) throw new UsageError(`${e.message} (the admin kubeconfig bulkhead server writes into its --data-dir)`);
    throw e;
  }
}

/** What a failed call says, in one line. */
function apiFailure(what: string, e: unknown): UsageError {
  return new UsageError(`${what}: ${(e as Error).message}`);
}

/** kubeadm's humanized TTL: 23h, 59m, 5d; <forever> for a token without expiration. */
export function humanTTL(expiration: string | undefined, now: Date): string {
  if (!expiration) return '<forever>';
  const s = Math.max(0, Math.round((Date.parse(expiration) - now.getTime()) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  if (s < 2 * 86400) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
}

function listFlags(c: Command): Command {
  return c
    .option('--data-dir <dir>', 'the server\'s data directory, whose admin kubeconfig is used', '.bulkhead')
    .option('--kubeconfig <file>', 'admin kubeconfig (default: <data-dir>/kubeconfig)');
}

export function tokenCommand(io: { stdout(s: string): void }): Command {
  const token = new Command('token').description('Manage bootstrap tokens, with which nodes join the cluster (bulkhead agent --server URL --token T).');
  token.addCommand(
    listFlags(new Command('create'))
      .argument('[token]', 'the token to create ([a-z0-9]{6}.[a-z0-9]{16}); a random one when absent')
      .description('Create a bootstrap token and print it.')
      .option('--ttl <duration>', 'how long the token is valid (0: forever)', '24h0m0s')
      .option('--description <text>', 'what the token is for')
      .option('--groups <groups>', 'extra groups the token authenticates as, comma-separated (each system:bootstrappers:…)', defaultNodeTokenGroup)
      .option('--usages <usages>', `what the token may be used for, comma-separated (${tokenUsages.join(', ')})`, tokenUsages.slice().reverse().join(','))
      .option('--print-join-command', 'print the whole `bulkhead agent` command that joins a node, with the CA public key hash')
      .addHelpText('after', `
Examples:
  bulkhead token create --data-dir /var/lib/bulkhead
  bulkhead token create --ttl 1h --print-join-command`)
      .action(async (given: string | undefined, f: CreateFlags) => {
        const value = given ?? generateToken();
        const parsed = parseToken(value);
        if (!parsed) throw new UsageError(`invalid token "${value}": a bootstrap token has the form [a-z0-9]{6}.[a-z0-9]{16}`);
        const ttl = durationFlag('--ttl', f.ttl);
        const groups = f.groups ? f.groups.split(',').map((g) => g.trim()).filter(Boolean) : [];
        for (const g of groups) {
          const problem = bootstrapGroupProblem(g);
          if (problem) throw new UsageError(`invalid value for --groups: ${problem}`);
        }
        const usages = f.usages.split(',').map((u) => u.trim()).filter(Boolean);
        for (const u of usages) if (!(tokenUsages as readonly string[]).includes(u)) throw new UsageError(`invalid value "${u}" for --usages: one of ${tokenUsages.join(', ')}`);
        const { client, conn } = await adminClient(f);
        const { secretsRef } = await import('../client/resources.js');
        const expiration = ttl > 0 ? metaTime(Date.now() + ttl * 1000) : undefined;
        try {
          await client.create(secretsRef, bootstrapTokenNamespace, bootstrapTokenSecret({ ...parsed, ...(f.description ? { description: f.description } : {}), ...(expiration ? { expiration } : {}), usages, extraGroups: groups }));
        } catch (e) {
          throw apiFailure(`cannot create bootstrap token ${parsed.id}`, e);
        } finally {
          client.close();
        }
        if (!f.printJoinCommand) return io.stdout(`${value}\n`);
        const { caCertHash } = await import('../agent/bootstrap/discovery.js');
        io.stdout(`bulkhead agent --server ${conn.server} --token ${value} --discovery-token-ca-cert-hash ${caCertHash(conn.ca)}\n`);
      }),
  );
  token.addCommand(
    listFlags(new Command('list'))
      .description('List the bootstrap tokens.')
      .action(async (f: TokenFlags) => {
        const { client } = await adminClient(f);
        const { secretsRef } = await import('../client/resources.js');
        let items: Secret[];
        try {
          items = (await client.list<Secret>(secretsRef, bootstrapTokenNamespace, { fieldSelector: `type=${bootstrapTokenSecretType}` })).items;
        } catch (e) {
          throw apiFailure('cannot list bootstrap tokens', e);
        } finally {
          client.close();
        }
        const now = new Date();
        const rows = [['TOKEN', 'TTL', 'EXPIRES', 'USAGES', 'DESCRIPTION', 'EXTRA GROUPS']];
        for (const s of items) {
          const t = tokenFromSecret(s);
          if (!t || s.metadata?.name !== `${bootstrapTokenSecretPrefix}${t.id}`) continue;
          rows.push([`${t.id}.${t.secret}`, humanTTL(t.expiration, now), t.expiration ?? '<never>', t.usages.join(','), t.description ?? '<none>', t.extraGroups.join(',') || '<none>']);
        }
        io.stdout(formatTable(rows).join('\n') + '\n');
      }),
  );
  token.addCommand(
    listFlags(new Command('delete'))
      .argument('<token...>', 'tokens or token ids to delete')
      .description('Delete bootstrap tokens: nodes can no longer join with them.')
      .action(async (tokens: string[], f: TokenFlags) => {
        const { client } = await adminClient(f);
        const { secretsRef } = await import('../client/resources.js');
        try {
          for (const t of tokens) {
            const id = parseToken(t)?.id ?? (/^[a-z0-9]{6}$/.test(t) ? t : undefined);
            if (!id) throw new UsageError(`invalid token or token id "${t}"`);
            try {
              await client.delete(secretsRef, bootstrapTokenNamespace, `${bootstrapTokenSecretPrefix}${id}`);
            } catch (e) {
              throw apiFailure(`cannot delete bootstrap token "${id}"`, e);
            }
            io.stdout(`bootstrap token "${id}" deleted\n`);
          }
        } finally {
          client.close();
        }
      }),
  );
  return token;
}
