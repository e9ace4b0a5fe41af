// Sign-in throughput against the raw argon2id verify rate, measured in the same run.
//
// A sign-in is one argon2id verification plus everything around it (HTTP, validation, the failed
// count, the attempt log, the new session). The verification is the floor of its cost, so the
// ratio of sign-ins per second to bare verifications per second (same parameters, same
// concurrency, same machine, same minutes) says how much the rest costs. Budget: at least 0.85.
//
//   npm run bench:login                 10 s of warm-up load, then 10 s of load in 5 slices,
//                                       alternating with raw slices
//   npm run bench:login -- --smoke      3 s of warm-up, 3 s of load in 3 slices, for CI; same budget
//   npm run bench:login -- --smoke --report-only   as CI runs it while the budget is not yet met
//            on 2 cores: every sign-in must succeed, the ratio is printed against the budget
//            with a BELOW BUDGET verdict, and the exit code ignores the ratio
//   options: --duration=<s> --raw-duration=<s> --warm-up=<s> --connections=<n> --budget=<ratio>
//            --database-url=<postgres url> (or BENCH_DATABASE_URL): a fresh database on that
//            server instead of PGlite, dropped afterwards
import type { ChildProcess } from 'node:child_process';
import { hash, verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { DEMO_PASSWORD } from '../../src/server/demo/data';
import { ARGON2ID_OPTIONS } from '../../src/server/domain/passwords';
import { median, startBenchServer, threadCpu } from '../support/server';

/**
 * Demo accounts whose password sign-in completes at once. Requests rotate over them: one account
 * signed in from several connections at the same moment would count its own in-flight attempts
 * (see domain/sign-in.ts), which is not what real traffic looks like.
 */
const ACCOUNTS = ['C10001', 'C10008', 'admin1', 'auditor1'];

interface Options {
  smoke: boolean;
  duration: number;
  rawDuration: number;
  /** Seconds of sign-ins before anything is measured. */
  warmUp: number;
  connections: number;
  budget: number;
  /** Print the ratio against the budget without failing on it (sign-in failures still fail). */
  reportOnly: boolean;
  databaseUrl: string | null;
}

function parseOptions(argv: string[]): Options {
  const smoke = argv.includes('--smoke');
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  return {
    smoke,
    duration: number('duration', smoke ? 3 : 10),
    rawDuration: number('raw-duration', smoke ? 1.5 : 5),
    warmUp: number('warm-up', smoke ? 3 : 10),
    // libuv's default thread pool has 4 threads: 4 in flight keeps every one busy.
    connections: Math.round(number('connections', 4)),
    budget: number('budget', 0.85),
    reportOnly: argv.includes('--report-only'),
    databaseUrl: value('database-url') ?? process.env.BENCH_DATABASE_URL ?? null,
  };
}

/** Verifications done with `concurrency` in flight for `seconds`, and the CPU they took. */
async function rawVerify(passwordHash: string, concurrency: number, seconds: number) {
  let count = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        if (!(await verify(passwordHash, DEMO_PASSWORD))) throw new Error('verify failed');
        count++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { count, seconds: (performance.now() - started) / 1000, cpuMs: (used.user + used.system) / 1000 };
}

async function measure(base: string, child: ChildProcess, options: Options): Promise<boolean> {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const bodies = ACCOUNTS.map((username) => JSON.stringify({ username, password: DEMO_PASSWORD }));
  // Every demo account signs in once (the dummy hash, prepared statements)...
  for (const body of bodies) {
    const res = await fetch(`${base}/rest/ui/anonymous/login`, { method: 'POST', headers, body });
    if (res.status !== 200) throw new Error(`warm-up sign-in answered ${res.status}: ${await res.text()}`);
  }
  // ...then both sides run as measured until the JIT has settled: a server that has just started
  // still compiles PGlite's WebAssembly and its own hot code on V8's background threads (about
  // 1 ms of CPU per sign-in in the first seconds, a sixth of that after half a minute).
  let warming = 0;
  const warmUp = await autocannon({
    url: `${base}/rest/ui/anonymous/login`,
    method: 'POST',
    headers,
    connections: options.connections,
    duration: options.warmUp,
    timeout: 30,
    requests: [{ setupRequest: (request) => ({ ...request, body: bodies[warming++ % bodies.length] }) }],
  });
  if (warmUp.non2xx + warmUp.errors + warmUp.timeouts > 0)
    throw new Error(`${warmUp.non2xx + warmUp.errors + warmUp.timeouts} warm-up sign-ins did not succeed`);
  const passwordHash = await hash(DEMO_PASSWORD, ARGON2ID_OPTIONS);
  await rawVerify(passwordHash, options.connections, 0.5);

  // Raw and load slices alternate, so other load on the machine that drifts during the run (CI
  // neighbours, a laptop's turbo) moves both figures alike instead of skewing the ratio.
  const rounds = options.smoke ? 3 : 5;
  const raw = { count: 0, seconds: 0, cpuMs: 0 };
  const load = { ok: 0, failures: 0, seconds: 0, p50: [] as number[], p99: [] as number[] };
  const serverCpu = { main: 0, others: 0, known: true };
  let next = 0;
  for (let round = 0; round < rounds; round++) {
    const slice = await rawVerify(passwordHash, options.connections, options.rawDuration / rounds);
    raw.count += slice.count;
    raw.seconds += slice.seconds;
    raw.cpuMs += slice.cpuMs;

    const before = threadCpu(child.pid);
    const result = await autocannon({
      url: `${base}/rest/ui/anonymous/login`,
      method: 'POST',
      headers,
      connections: options.connections,
      duration: options.duration / rounds,
      timeout: 30,
      // Each request signs in the next demo account in turn.
      requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
    });
    const after = threadCpu(child.pid);
    load.ok += result['2xx'];
    load.failures += result.non2xx + result.errors + result.timeouts;
    load.seconds += result.duration;
    load.p50.push(result.latency.p50);
    load.p99.push(result.latency.p99);
    if (before && after) {
      serverCpu.main += after.main - before.main;
      serverCpu.others += after.others - before.others;
    } else {
      serverCpu.known = false;
    }
  }

  const rawRate = raw.count / raw.seconds;
  const loginRate = load.ok / load.seconds;
  const ratio = loginRate / rawRate;

  console.log(
    `  argon2id verify (raw)   ${rawRate.toFixed(1)} /s   (${raw.count} in ${raw.seconds.toFixed(2)} s; ` +
      `${(raw.cpuMs / Math.max(raw.count, 1)).toFixed(2)} ms CPU each)`,
  );
  console.log(
    `  sign-in (HTTP)          ${loginRate.toFixed(1)} /s   (${load.ok} in ${load.seconds.toFixed(2)} s; ` +
      `latency p50 ${median(load.p50)} ms, p99 ${median(load.p99)} ms)`,
  );
  if (serverCpu.known && load.ok > 0) {
    const total = (serverCpu.main + serverCpu.others) / load.ok;
    console.log(
      `  server CPU per sign-in  ${total.toFixed(2)} ms ` +
        `(${(serverCpu.main / load.ok).toFixed(2)} event loop, ${(serverCpu.others / load.ok).toFixed(2)} other threads)`,
    );
  }
  console.log(`  ratio                   ${ratio.toFixed(3)}   (budget >= ${options.budget})`);
  if (load.failures > 0) {
    console.error(`  FAIL: ${load.failures} sign-ins did not succeed`);
    return false;
  }
  if (ratio < options.budget) {
    if (options.reportOnly) {
      console.log(`  BELOW BUDGET: ratio ${ratio.toFixed(3)} < ${options.budget} (reported, not enforced)`);
      return true;
    }
    console.error(`  FAIL: ratio ${ratio.toFixed(3)} is below the budget ${options.budget}`);
    return false;
  }
  console.log('  PASS');
  return true;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const server = await startBenchServer({ databaseUrl: options.databaseUrl });
  let passed: boolean | undefined;
  try {
    console.log(
      `bench:login ${options.smoke ? '(smoke) ' : ''}on ${server.engine}: ${options.connections} connections, ` +
        `${options.duration} s of sign-ins, ${options.rawDuration} s of raw verifications, ` +
        `argon2id m=${ARGON2ID_OPTIONS.memoryCost} t=${ARGON2ID_OPTIONS.timeCost} p=${ARGON2ID_OPTIONS.parallelism}`,
    );
    passed = await measure(server.base, server.child, options);
  } finally {
    await server.stop();
  }
  process.exitCode = passed ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
