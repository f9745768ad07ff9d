// The etcd store over TLS with client certificates, as kube-apiserver talks to etcd
// (--etcd-cafile, --etcd-certfile, --etcd-keyfile): an etcd that requires client certificates
// signed by a test CA; the store with the CA and a client certificate works, without the client
// certificate it is refused, and `bulkhead server` given the three files serves from it.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensurePKI, issueCert } from '../../src/apiserver/pki.js';
import { EtcdStore } from '../../src/storage/etcd.js';
import { startChildServer } from '../apiserver/childserver.js';
import { etcdMissing, startEtcd, type TestEtcd } from './etcdserver.js';

describe('etcd store over TLS with client certificates', { skip: etcdMissing() }, () => {
  let dir: string;
  let etcd: TestEtcd;
  let files: { ca: string; cert: string; key: string };
  let pem: { ca: Buffer; cert: Buffer; key: Buffer };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulkhead-etcd-tls-'));
    const pkiDir = join(dir, 'etcd-pki');
    const caCert = (await ensurePKI(pkiDir)).caCert;
    const ca = { cert: caCert, key: readFileSync(join(pkiDir, 'ca.key'), 'utf8') };
    const server = await issueCert(ca, { commonName: 'etcd', hosts: ['127.0.0.1', 'localhost'], usage: 'server' });
    const client = await issueCert(ca, { commonName: 'bulkhead-apiserver-etcd-client', usage: 'client' });
    const write = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text, { mode: 0o600 });
      return p;
    };
    files = { ca: write('ca.crt', ca.cert), cert: write('client.crt', client.cert), key: write('client.key', client.key) };
    pem = { ca: Buffer.from(ca.cert), cert: Buffer.from(client.cert), key: Buffer.from(client.key) };
    etcd = await startEtcd({ certFile: write('server.crt', server.cert), keyFile: write('server.key', server.key), trustedCaFile: files.ca, client: pem });
  });
  after(async () => {
    await etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('with the CA and a client certificate the store reads, writes and watches', async () => {
    const store = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix: '/tls', tls: pem });
    try {
      const seen: string[] = [];
      await store.watch('/a', await store.currentRevision(), { event: (e) => seen.push(`${e.type} ${e.kv.key}`) });
      const kv = await store.create('/a', 'v');
      assert.deepEqual(await store.get('/a'), kv);
      assert.deepEqual(seen, ['PUT /a']);
    } finally {
      await store.close();
    }
  });

  const refused: { name: string; tls: () => { ca?: Buffer; cert?: Buffer; key?: Buffer } | undefined; message: RegExp }[] = [
    { name: 'without a client certificate the member refuses the store', tls: () => ({ ca: pem.ca }), message: /cannot reach etcd at 127\.0\.0\.1:\d+/ },
    { name: 'without TLS at all the store cannot connect', tls: () => undefined, message: /cannot reach etcd at 127\.0\.0\.1:\d+/ },
    { name: 'a certificate without its key is refused before connecting', tls: () => ({ ca: pem.ca, cert: pem.cert }), message: /needs its key/ },
  ];
  for (const r of refused) {
    it(r.name, async () => {
      await assert.rejects(EtcdStore.open({ endpoints: [etcd.endpoint], prefix: '/tls', tls: r.tls(), dialTimeoutMs: 2000 }), r.message);
    });
  }

  it('bulkhead server --store etcd://… --etcd-cafile --etcd-certfile --etcd-keyfile serves from it', async () => {
    const server = await startChildServer(join(dir, 'data'), ['--store', etcd.spec, '--etcd-cafile', files.ca, '--etcd-certfile', files.cert, '--etcd-keyfile', files.key, '--etcd-prefix', '/tls-server']);
    try {
      const r = await server.client.request('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'over-tls' } });
      assert.equal(r.status, 201, r.text);
      const store = await EtcdStore.open({ endpoints: [etcd.endpoint], prefix: '/tls-server', tls: pem });
      try {
        const kv = await store.get('/registry/configmaps/default/over-tls');
        assert.equal(kv?.modRevision, Number(r.json().metadata.resourceVersion), 'resourceVersion is etcd\'s revision of the key');
      } finally {
        await store.close();
      }
    } finally {
      await server.stop();
    }
  });
});
