// Where a V8 CPU profile (.cpuprofile: `--cpu-prof`, or bench/datasources-server.ts `/__bench/profile`) spends its
// time: self time per function and per package (node_modules/<package>, the server's own code, garbage collection;
// native frames and Node's own JavaScript count for the nearest package or product frame above them, the one that
// asked for the work), as shares of the busy (not idle) time. Used by scripts/bench-datasources.mjs; also
//   node bench/datasources-profile.mjs <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** Which part of the process a frame's script belongs to. */
function packageOf(url, functionName) {
  if (!url) {
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(program)') return '(program)';
    return '(native)';
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  // PGlite's Postgres compiled to WebAssembly (its module has no file name).
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  if (/\/server\//.test(url)) return 'server (the product)';
  if (/\/bench\//.test(url)) return 'bench';
  return url.replace(/^file:\/\//, '').slice(-60);
}

/** Self time per function and per package; `busy` excludes idle. */
export function summariseProfile(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas ?? [];
  for (let k = 0; k < profile.samples.length; k++) {
    const id = profile.samples[k];
    self.set(id, (self.get(id) ?? 0) + Math.max(0, deltas[k] ?? 0));
  }
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  // Native frames (a socket write, a connect) and Node's own JavaScript are charged to the nearest frame above them
  // of a package or of the product: the one that asked for the work.
  const origin = (id) => {
    for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
      const frame = nodes.get(at).callFrame;
      if (frame.url && !frame.url.startsWith('node:')) return frame;
    }
    return undefined;
  };
  const shortUrl = (frame) =>
    `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(server|bench)\//, '$1/')}:${frame.lineNumber + 1}`;
  const byFunction = new Map();
  const byPackage = new Map();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const { callFrame } = nodes.get(id);
    const name = callFrame.functionName || '(anonymous)';
    let pkg = packageOf(callFrame.url, name);
    total += us;
    if (pkg === '(idle)') {
      idle += us;
      continue;
    }
    let where = callFrame.url ? shortUrl(callFrame) : '';
    if (pkg === '(native)' || pkg === 'node internals') {
      const from = origin(id);
      if (from) {
        pkg = packageOf(from.url, from.functionName);
        where = `${where || 'native'}, for ${from.functionName || '(anonymous)'} ${shortUrl(from)}`;
      }
    }
    const key = `${name} ${where}`;
    byFunction.set(key, { name, where, pkg, us: (byFunction.get(key)?.us ?? 0) + us });
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  const busy = total - idle;
  const share = (us) => (busy > 0 ? us / busy : 0);

  return {
    seconds: total / 1e6,
    busySeconds: busy / 1e6,
    functions: [...byFunction.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ ...f, ms: f.us / 1000, share: share(f.us) })),
    packages: [...byPackage.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([pkg, us]) => ({ pkg, ms: us / 1000, share: share(us) })),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node bench/datasources-profile.mjs <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const s = summariseProfile(file, Number(process.argv[3] ?? 20));
  process.stdout.write(
    `${s.seconds.toFixed(1)} s sampled, ${s.busySeconds.toFixed(1)} s busy\n\nby package (self time, native and Node-internal frames counted for the package above them; share of busy):\n`,
  );
  for (const p of s.packages)
    process.stdout.write(`  ${(p.share * 100).toFixed(1).padStart(5)} %  ${p.ms.toFixed(0).padStart(7)} ms  ${p.pkg}\n`);
  process.stdout.write('\nby function:\n');
  for (const f of s.functions)
    process.stdout.write(`  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}  ${f.where}\n`);
}
