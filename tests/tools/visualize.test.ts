// The committed statecharts in visualizations/ are what `npm run visualize` generates today.
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { catalogue } from '../../machines';
import { findStale, renderVisualizations, VISUALIZATIONS_DIR } from '../../scripts/visualize';

const statePaths = (machine: AnyStateMachine): string[] => {
  const walk = (node: AnyStateNode): string[] =>
    Object.values(node.states).flatMap((child) => [`${child.path.join('.')}:${child.type}`, ...walk(child)]);
  return walk(machine.root);
};

const transitionKeys = (machine: AnyStateMachine): string[] => {
  const walk = (node: AnyStateNode): string[] => [
    ...[...node.transitions.values()]
      .flat()
      .concat(node.always ?? [])
      .map((t) => `${node.id} ${t.eventType} -> ${(t.target ?? []).map((s) => s.id).join(',')}`),
    ...Object.values(node.states).flatMap(walk),
  ];
  return walk(machine.root).sort();
};

describe('visualizations/', () => {
  it('is up to date with the catalogue (run npm run visualize)', async () => {
    expect(await findStale()).toEqual([]);
  });

  it('labels delayed transitions by their named delay, not the internal event name', () => {
    const diagram =
      renderVisualizations().find((f) => f.path === 'session/reenter-password.mmd')?.content ?? '';
    expect(diagram).toContain(': after CHECK_INTERVAL');
    expect(diagram).not.toContain('xstate.after');
  });

  it('is deterministic', () => {
    expect(renderVisualizations()).toEqual(renderVisualizations());
  });

  it('has a JSON, a createMachine module and a Mermaid diagram per catalogue machine, and an index', () => {
    const paths = renderVisualizations().map((f) => f.path);
    for (const { name } of catalogue) {
      expect(paths).toEqual(expect.arrayContaining([`${name}.json`, `${name}.machine.js`, `${name}.mmd`]));
    }
    const index = renderVisualizations().find((f) => f.path === 'README.md')?.content ?? '';
    for (const { name, title } of catalogue) {
      expect(index).toContain(`## ${title}`);
      expect(index).toContain(`(${name}.mmd)`);
    }
    expect(index.match(/```mermaid/g)).toHaveLength(catalogue.length);
  });

  it.each(catalogue.map((entry) => [entry.name, entry] as const))(
    '%s: the committed createMachine module has the same states and transitions as the machine',
    async (name, entry) => {
      const module = (await import(pathToFileURL(join(VISUALIZATIONS_DIR, `${name}.machine.js`)).href)) as {
        machine: AnyStateMachine;
      };
      expect(module.machine.id).toBe(entry.machine.id);
      expect(statePaths(module.machine)).toEqual(statePaths(entry.machine));
      expect(transitionKeys(module.machine)).toEqual(transitionKeys(entry.machine));
      const json = JSON.parse(await readFile(join(VISUALIZATIONS_DIR, `${name}.json`), 'utf8')) as {
        id: string;
      };
      expect(json.id).toBe(entry.machine.id);
    },
  );

  it('shows routes from meta and labels transitions with event and guard names', () => {
    const mermaid = renderVisualizations().find((f) => f.path === 'sign-in.mmd')?.content ?? '';
    expect(mermaid).toMatch(/^%%.*\nstateDiagram-v2\n/);
    // Mermaid draws `id : text` without the name: a state with a route is declared by name first.
    expect(mermaid).toContain('state "form" as form\n  form : route /');
    expect(mermaid).toContain('sessionExpired : route /session-expired-error');
    expect(mermaid).toContain('submitting --> unavailable : login done [isUnavailable]');
    expect(mermaid).toContain('directLogin --> signedIn : (choosingLanding) always [hasTargetPath]');
    expect(mermaid).toContain('form --> form : user.refreshCaptcha [asksSecurityCode]');
  });

  it("resolves routes against the flow's base path and names composite states in their title", () => {
    const reset = renderVisualizations().find((f) => f.path === 'password-reset.mmd')?.content ?? '';
    // The start step's meta route is '' under /password-reset.
    expect(reset).toContain('state "start · route /password-reset · progress 25%" as start {');
    expect(reset).toContain(
      'state "emailVerification · route /password-reset/email-verification · progress 50%" as emailVerification {',
    );
    expect(reset).not.toMatch(/route {2}/);
    const index = renderVisualizations().find((f) => f.path === 'README.md')?.content ?? '';
    expect(index).toContain('| emailVerification | `/password-reset/email-verification` | 50 |');
  });

  it("draws the machine's own transitions from a box standing for any state", () => {
    const find = (path: string) => renderVisualizations().find((f) => f.path === path)?.content ?? '';
    const guide = find('guide-search.mmd');
    expect(guide).toContain('state "(any state)" as any_state');
    expect(guide).toContain('any_state --> searching : query.changed [queryHasTerms]');
    expect(guide).toContain('any_state --> none : query.changed');
    expect(find('registration.mmd')).toContain('any_state --> cancelled : user.cancel');
    // No edge without a state at either end.
    for (const file of renderVisualizations().filter((f) => f.path.endsWith('.mmd')))
      expect(file.content, file.path).not.toMatch(/^\s*-->|-->\s+:/m);
    // A machine without such transitions has no such box.
    expect(find('sign-in.mmd')).not.toContain('any_state');
  });

  it('reports changed, missing and orphaned files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'visualize-'));
    try {
      const files = renderVisualizations();
      for (const file of files) {
        await mkdir(dirname(join(dir, file.path)), { recursive: true });
        await writeFile(join(dir, file.path), file.content);
      }
      expect(await findStale(files, dir)).toEqual([]);
      await writeFile(join(dir, 'sign-in.mmd'), 'stateDiagram-v2\n');
      await rm(join(dir, 'README.md'));
      await writeFile(join(dir, 'retired.json'), '{}');
      expect(await findStale(files, dir)).toEqual(['README.md', 'retired.json', 'sign-in.mmd']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
