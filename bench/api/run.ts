// Non-hashing calls against a bare Fastify hello-world, measured in the same run.
//
// 1. Ratio: an authenticated GET anonymous/current-user (session lookup, idle-time touch, the
//    contract's response validation; on PGlite the session and the identity come from the read
//    cache, src/server/db/read-cache.ts) against GET / of a bare Fastify hello-world in a process of
//    its own, both as fast as they go with the same connections, in alternating slices so drifting
//    load on the machine moves both alike. Budget: at least 0.5.
//    Then, for the reader and without a budget, the ratio of three lighter layers of the same server
//    (no database; no session; a session lookup), to show where the gap to the hello-world lies.
// 2. Latency at half capacity: a mix of the portal's non-hashing calls for a signed-in user
//    (current user, accessible apps, handoff targets, enrolled factors, trusted devices, context,
//    environment) at half the
//    current-user rate measured in 1, steadily (autocannon's overallRate). Budget: p99 under 20 ms,
//    no errors.
//
//   npm run bench:api                  10 s per side, 10 s at half capacity
//   npm run bench:api -- --smoke       3 s per side, 4 s at half capacity (CI)
//   options: --duration=<s> --connections=<n> --database-url=<postgres url> (or BENCH_DATABASE_URL)
//            --report-only: budgets are printed with their verdicts; only failed requests fail
import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { DEMO_PASSWORD } from '../../src/server/demo/data';
import { median, ROOT, residentMb, signedInCookie, startBenchServer, verdict } from '../support/server';

const RATIO_BUDGET = 0.5;
const P99_BUDGET_MS = 20;

const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const duration = Number(value('duration') ?? (smoke ? 3 : 10));
const connections = Number(value('connections') ?? 10);
const databaseUrl = value('database-url') ?? process.env.BENCH_DATABASE_URL ?? null;
/** Print the budgets' verdicts without failing on them (failed requests still fail). */
const reportOnly = argv.includes('--report-only');

const MIX = [
  'anonymous/current-user',
  'current-user/accessible-apps',
  'current-user/handoff-targets',
  'profile/enrolled-factors',
  'profile/trusted-devices/active',
  'anonymous/context',
  'anonymous/environment',
];

async function startHelloWorld(...args: string[]): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/api/hello-world.ts'), ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`hello-world exited with code ${code}`)));
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<boolean> {
  const server = await startBenchServer({ databaseUrl });
  const hello = await startHelloWorld();
  const helloWithHeaders = await startHelloWorld('--portal-headers');
  try {
    const cookie = await signedInCookie(server.base, 'C10001', DEMO_PASSWORD);
    const headers = { cookie, 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' };
    for (const call of MIX) {
      const res = await fetch(`${server.base}/rest/ui/${call}`, { headers });
      if (res.status !== 200) throw new Error(`${call} answered ${res.status}: ${await res.text()}`);
    }
    console.log(
      `bench:api ${smoke ? '(smoke) ' : ''}on ${server.engine}: ${connections} connections, ` +
        `${duration} s per side, then ${duration} s at half capacity`,
    );

    // 1. Ratio, in alternating slices (warm-up first: JIT and prepared statements on every side).
    await autocannon({ url: hello.url, connections, duration: 1 });
    await autocannon({ url: helloWithHeaders.url, connections, duration: 1 });
    await autocannon({
      url: `${server.base}/rest/ui/anonymous/current-user`,
      headers,
      connections,
      duration: 1,
    });
    const rounds = 3;
    const bare = { ok: 0, seconds: 0 };
    const current = { ok: 0, seconds: 0, failures: 0, p99: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const a = await autocannon({ url: hello.url, connections, duration: duration / rounds });
      bare.ok += a['2xx'];
      bare.seconds += a.duration;
      const b = await autocannon({
        url: `${server.base}/rest/ui/anonymous/current-user`,
        headers,
        connections,
        duration: duration / rounds,
      });
      current.ok += b['2xx'];
      current.seconds += b.duration;
      current.failures += b.non2xx + b.errors + b.timeouts;
      current.p99.push(b.latency.p99);
    }
    const bareRate = bare.ok / bare.seconds;
    const currentRate = current.ok / current.seconds;
    const ratio = currentRate / bareRate;
    console.log(`  Fastify hello-world      ${bareRate.toFixed(0)} /s`);
    console.log(
      `  GET current-user (auth) ${currentRate.toFixed(0)} /s   (p99 ${median(current.p99)} ms flat out)`,
    );
    console.log(`  ratio                   ${ratio.toFixed(3)}   (budget >= ${RATIO_BUDGET})`);

    // Where the gap is, for the reader (no budget): the hello-world sending the headers every
    // portal response carries, then the same server answering without the database (GET
    // /health), a call with no session (the route helper, security headers with a CSP nonce,
    // request log and metrics, response validation), and that call with the session looked up,
    // each against the hello-world rate above.
    const layers: Array<[string, string, Record<string, string>]> = [
      ["hello-world + the portal's headers", helloWithHeaders.url, {}],
      ['GET /health', `${server.base}/health`, {}],
      [
        'anonymous/environment',
        `${server.base}/rest/ui/anonymous/environment`,
        { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      ],
      ['... with the session', `${server.base}/rest/ui/anonymous/environment`, headers],
    ];
    // Each layer against a hello-world slice run just before it, so that the machine's drift during
    // the run (its speed moves by half on a shared 2-core machine) does not reorder the layers.
    const breakdown: string[] = [];
    for (const [name, url, layerHeaders] of layers) {
      const a = await autocannon({ url: hello.url, connections, duration: duration / rounds });
      const r = await autocannon({ url, headers: layerHeaders, connections, duration: duration / rounds });
      breakdown.push(`${name} ${(r['2xx'] / r.duration / (a['2xx'] / a.duration)).toFixed(3)}`);
    }
    console.log(`  layers (ratio each)     ${breakdown.join('; ')}`);

    // 2. The mix at half the capacity just measured.
    const rate = Math.max(1, Math.floor(currentRate / 2));
    let next = 0;
    const mixed = await autocannon({
      url: `${server.base}/rest/ui/anonymous/current-user`,
      headers,
      connections,
      duration,
      overallRate: rate,
      requests: [
        { setupRequest: (request) => ({ ...request, path: `/rest/ui/${MIX[next++ % MIX.length]}` }) },
      ],
    });
    const mixFailures = mixed.non2xx + mixed.errors + mixed.timeouts;
    console.log(
      `  mix at ${rate} /s          ${mixed['2xx']} answered; latency p50 ${mixed.latency.p50} ms, ` +
        `p99 ${mixed.latency.p99} ms (budget < ${P99_BUDGET_MS} ms); ${mixFailures} failed`,
    );
    const rss = residentMb(server.child.pid);
    if (rss !== null) console.log(`  server resident memory  ${rss.toFixed(0)} MB`);

    const problems: string[] = [];
    const below: string[] = [];
    if (current.failures > 0) problems.push(`${current.failures} current-user requests failed`);
    if (mixFailures > 0) problems.push(`${mixFailures} requests of the mix failed`);
    if (ratio < RATIO_BUDGET) below.push(`ratio ${ratio.toFixed(3)} is below ${RATIO_BUDGET}`);
    if (mixed.latency.p99 >= P99_BUDGET_MS)
      below.push(`p99 ${mixed.latency.p99} ms is not under ${P99_BUDGET_MS} ms`);
    return verdict(problems, below, reportOnly);
  } finally {
    hello.stop();
    helloWithHeaders.stop();
    await server.stop();
  }
}

main().then(
  (passed) => {
    process.exitCode = passed ? 0 : 1;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
