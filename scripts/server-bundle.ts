// The identity server as one ES module, dist/server/main.mjs: `npm run build` writes it and
// `npm start` runs it; the browser suite, the crash tests and the benchmarks rebuild it (half a
// second) and start that same file. One module instead of some 200 compiled at start by tsx: a
// start takes about 2 s of CPU instead of 5, and the process holds about 60 MB less.
//
// Packages stay external (Node resolves them from node_modules, as it does under tsx). The two
// source files that find a file next to themselves through `import.meta.url` (config.ts reads
// package.json, password-policy.ts the common-password list) get their own file's URL, computed
// relative to the bundle, so the bundle works wherever the repository is checked out.
// `npm run serve` and `npm run dev` still run the sources through tsx.
import { build, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the bundle is written, relative to the repository root. */
export const SERVER_BUNDLE = 'dist/server/main.mjs';

const ownFileUrl = (outDir: string): Plugin => ({
  name: 'own-file-url',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
      const relative = path.relative(outDir, args.path).split(path.sep).join('/');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(relative)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
});

/**
 * Bundles src/server/main.ts into dist/server/main.mjs (with its source map) and answers the
 * bundle's absolute path. Each file is written beside its final name and renamed into place, so a
 * server starting meanwhile reads the old bundle or the new one, never half of one.
 */
export async function bundleServer(root = ROOT): Promise<string> {
  const outfile = path.join(root, SERVER_BUNDLE);
  const outDir = path.dirname(outfile);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'src/server/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    plugins: [ownFileUrl(outDir)],
  });
  mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  return outfile;
}

let bundled: Promise<string[]> | undefined;

/**
 * Node's arguments that run a freshly built bundle (stack traces point into the sources). The
 * bundle is built at the first call of a process and reused after it, so a suite's servers all run
 * the sources as they were when it started.
 */
export function serverArgs(): Promise<string[]> {
  bundled ??= bundleServer().then((file) => ['--enable-source-maps', file]);
  return bundled;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const file = await bundleServer();
  console.log(`server bundle ${path.relative(ROOT, file)} in ${Math.round(performance.now() - started)} ms`);
}
