// The metrics scraper's choice of nodes and its log, with a scripted agent connector: nodes
// that are not Ready or report no address are not asked (as a KWOK-style Node object with no
// agent behind it), and a failing node is logged when it starts failing and when it answers
// again, not at every resolution.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ClientRequest } from 'node:http';
import type { Node } from '../../src/api/types.js';
import { agentLocation, type AgentConnector } from '../../src/apiserver/nodeconnection.js';
import { MetricsScraper, skipScrape } from '../../src/apiserver/metricsscraper.js';

function node(name: string, ready: string | undefined, addresses: { type: string; address: string }[] = [{ type: 'InternalIP', address: '10.0.0.1' }]): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { addresses, ...(ready ? { conditions: [{ type: 'Ready', status: ready }] } : {}) },
  } as Node;
}

describe('skipScrape: which nodes metrics-server-style scraping leaves alone', () => {
  const rows: [string, Node, string | undefined][] = [
    ['a Ready node with an InternalIP is scraped', node('a', 'True'), undefined],
    ['a Ready node with only a Hostname address is scraped', node('a', 'True', [{ type: 'Hostname', address: 'a' }]), undefined],
    ['a NotReady node is skipped', node('a', 'False'), 'not Ready (False)'],
    ['a node whose Ready is Unknown (agent gone) is skipped', node('a', 'Unknown'), 'not Ready (Unknown)'],
    ['a node with no Ready condition yet is skipped', node('a', undefined), 'not Ready (no Ready condition)'],
    ['a Ready node with no addresses (KWOK-style; the hostname label is no address) is skipped', node('a', 'True', []), 'no address'],
    ['a Ready node whose only address is of a type the server does not dial is skipped', node('a', 'True', [{ type: 'SomethingElse', address: 'x' }]), 'no address'],
  ];
  for (const [name, n, want] of rows) it(name, () => assert.equal(skipScrape(n), want));
});

/** A connector whose agents answer as `answer(host)` says: the metrics text, or an error. */
function scriptedAgents(answer: (host: string) => string | Error): { agents: AgentConnector; asked: string[] } {
  const asked: string[] = [];
  const agents = {
    location: (n: Node) => agentLocation(n),
    tls: {} as AgentConnector['tls'],
    request(url: URL) {
      asked.push(url.hostname);
      const req = Object.assign(new EventEmitter(), {
        destroy: (e?: Error) => req.emit('error', e),
        end: () => {
          const a = answer(url.hostname);
          setImmediate(() => {
            if (a instanceof Error) return req.emit('error', a);
            const res = Object.assign(new PassThrough(), { statusCode: 200 });
            req.emit('response', res);
            res.end(a);
          });
        },
      });
      return req as unknown as ClientRequest;
    },
  };
  return { agents, asked };
}

const metricsText = 'node_cpu_usage_seconds_total 1 5\nnode_memory_working_set_bytes 1 5\n';

describe('MetricsScraper: whom it asks, and what it logs', () => {
  it('asks only the Ready nodes that have an address', async () => {
    const { agents, asked } = scriptedAgents(() => metricsText);
    const nodes = [node('real', 'True', [{ type: 'InternalIP', address: '10.0.0.1' }]), node('kwok-1', 'True', []), node('down', 'False', [{ type: 'InternalIP', address: '10.0.0.2' }])];
    const log: string[] = [];
    const s = new MetricsScraper({ agents, nodes: async () => nodes, log: (m) => log.push(m) });
    await s.scrape();
    assert.deepEqual(asked, ['10.0.0.1']);
    assert.deepEqual(log, []);
  });

  it('a failing node is logged when it starts failing and when it answers again, not at each scrape', async () => {
    // Scrape by scrape: the agent's answer, and the log lines that scrape adds.
    const steps: [string | Error, string[]][] = [
      [new Error('connect ECONNREFUSED'), ['metrics scrape of node n: connect ECONNREFUSED']],
      [new Error('connect ECONNREFUSED'), []],
      [new Error('no answer within 13500 ms'), []],
      [metricsText, ['metrics scrape of node n: answering again']],
      [metricsText, []],
      [new Error('no answer within 13500 ms'), ['metrics scrape of node n: no answer within 13500 ms']],
    ];
    let answer: string | Error = '';
    const { agents } = scriptedAgents(() => answer);
    const log: string[] = [];
    const s = new MetricsScraper({ agents, nodes: async () => [node('n', 'True')], log: (m) => log.push(m) });
    for (const [a, want] of steps) {
      answer = a;
      const before = log.length;
      await s.scrape();
      assert.deepEqual(log.slice(before), want, `after answer ${String(a)}`);
    }
  });

  it('a failing node that goes NotReady and comes back failing is logged again (a new state)', async () => {
    const { agents } = scriptedAgents(() => new Error('connect ECONNREFUSED'));
    const log: string[] = [];
    let ready = 'True';
    const s = new MetricsScraper({ agents, nodes: async () => [node('n', ready)], log: (m) => log.push(m) });
    await s.scrape();
    ready = 'False';
    await s.scrape();
    await s.scrape();
    ready = 'True';
    await s.scrape();
    assert.deepEqual(log, ['metrics scrape of node n: connect ECONNREFUSED', 'metrics scrape of node n: connect ECONNREFUSED']);
  });
});
