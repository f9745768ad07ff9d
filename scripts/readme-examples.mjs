// Keeps the README's example outputs real: every block
//   <!-- example: ARGS -->
//   ```console
//   $ ./bulkhead ARGS
//   …output…
//   ```
//   <!-- /example -->
// is re-run with the compiled CLI. `--write` rewrites README.md; without it the script exits 1
// when any block is stale (the test suite runs it that way).
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const readme = readFileSync('README.md', 'utf8');
const block = /<!-- example: (.+?) -->\n```console\n[\s\S]*?```\n<!-- \/example -->/g;
let stale = [];
const out = readme.replace(block, (whole, args) => {
  const argv = args.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g).map((a) => a.replace(/^['"]|['"]$/g, ''));
  const r = spawnSync(process.execPath, ['dist/bin/main.js', ...argv], { encoding: 'utf8' });
  const text = (r.stdout + r.stderr).replace(/\s+$/, '');
  const status = r.status === 0 ? '' : `\n$ echo $?\n${r.status}`;
  const fresh = `<!-- example: ${args} -->\n\`\`\`console\n$ ./bulkhead ${args}\n${text}${status}\n\`\`\`\n<!-- /example -->`;
  if (fresh !== whole) stale.push(args);
  return fresh;
});
if (process.argv.includes('--write')) {
  writeFileSync('README.md', out);
  console.log(`README.md: ${stale.length} example(s) updated`);
} else if (stale.length) {
  console.error(`README.md has stale example output for:\n  ${stale.join('\n  ')}\nrun: node scripts/readme-examples.mjs --write`);
  process.exit(1);
}
