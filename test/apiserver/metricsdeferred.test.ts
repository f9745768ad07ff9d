// The request metrics loaded after the server listens: what is recorded before prom-client has
// loaded is counted once it has, and /metrics waits for it rather than answering without them.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiMetrics } from '../../src/apiserver/metrics.js';
import { deferredMetrics } from '../../src/apiserver/metricsdeferred.js';

describe('deferredMetrics', () => {
  it('requests observed before the load are counted after it, and render waits for the load', async () => {
    let release!: () => void;
    const m = deferredMetrics(() => new Promise<void>((r) => (release = r)).then(() => new ApiMetrics()));
    m.observe('get', 'pods', 200, 0.01);
    m.observe('get', 'pods', 200, 0.02);
    m.watcherTerminated('', 'pods');
    let rendered: string | undefined;
    const render = m.render().then((t) => (rendered = t));
    await new Promise((r) => setImmediate(r));
    assert.equal(rendered, undefined, 'render answered before the metrics loaded');
    release();
    await render;
    assert.match(rendered!, /^apiserver_request_total\{verb="GET",resource="pods",code="200"\} 2$/m);
    assert.match(rendered!, /^apiserver_request_duration_seconds_count\{verb="GET",resource="pods"\} 2$/m);
    assert.match(rendered!, /^apiserver_terminated_watchers_total\{group="",resource="pods"\} 1$/m);
  });

  it('after the load, observations go straight through', async () => {
    const m = deferredMetrics(async () => new ApiMetrics());
    await m.loaded;
    m.observe('create', 'pods', 201, 0.01);
    assert.match(await m.render(), /^apiserver_request_total\{verb="CREATE",resource="pods",code="201"\} 1$/m);
  });

  it("the process's memory is exposed as Node's gauges (resident set, V8 heap and its spaces, buffers)", async () => {
    const m = deferredMetrics(async () => new ApiMetrics());
    const text = await m.render();
    for (const [name, re] of [
      ['resident set', /^process_resident_memory_bytes [1-9]\d*$/m],
      ['V8 heap committed', /^nodejs_heap_size_total_bytes [1-9]\d*$/m],
      ['V8 heap used', /^nodejs_heap_size_used_bytes [1-9]\d*$/m],
      ['external memory', /^nodejs_external_memory_bytes \d+$/m],
      ['ArrayBuffers', /^nodejs_array_buffers_bytes \d+$/m],
      ["V8's own malloc", /^nodejs_malloced_memory_bytes \d+$/m],
      ['old space committed', /^nodejs_heap_space_size_total_bytes\{space="old"\} [1-9]\d*$/m],
      ['new space used', /^nodejs_heap_space_size_used_bytes\{space="new"\} \d+$/m],
      ['code space available', /^nodejs_heap_space_size_available_bytes\{space="code"\} \d+$/m],
    ] as const) {
      assert.match(text, re, name);
    }
  });
});
