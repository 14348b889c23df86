import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as vocabulary from './vocabulary.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every module `file` loads at run time (type-only imports and exports are erased, so they do not count). */
function runtimeModules(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, clause, specifier] of source.matchAll(/^(?:import|export)\s+([^'";]*?)\s*from\s+'([^']+)'/gms)) {
    if (/^type\s/.test(clause ?? '') || !specifier) continue;
    if (specifier.startsWith('.'))
      runtimeModules(path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts')), seen);
    else seen.add(specifier);
  }
  return seen;
}

describe('the vocabulary door', () => {
  it('loads neither zod nor the event schemas, so the browser can import it', () => {
    const modules = [...runtimeModules(path.join(here, 'vocabulary.ts'))].map((m) => path.relative(here, m) || m);
    expect(modules.filter((m) => m === 'zod' || m.endsWith('.schemas.ts') || m.endsWith('index.ts'))).toEqual([]);
  });

  it('names statuses per role: Pending/Resolved for admins and developers, the stored words for testers', () => {
    expect(vocabulary.statusDisplayNamesFor('admin')).toEqual(['Pending', 'In Progress', 'Resolved']);
    expect(vocabulary.statusDisplayNamesFor('developer')).toEqual(['Pending', 'In Progress', 'Resolved']);
    expect(vocabulary.statusDisplayNamesFor('tester')).toEqual(['Open', 'In Progress', 'Closed']);
    expect(vocabulary.statusDisplayName('Closed')).toBe('Resolved');
  });

  it('reads back every word a screen shows as the stored status', () => {
    for (const role of vocabulary.roles) {
      for (const status of vocabulary.bugStatuses) {
        expect(vocabulary.statusFromInput(vocabulary.statusDisplayName(status, role))).toBe(status);
      }
    }
  });

  it('labels the developer priority chart High Critical, Medium Major, Low Minor', () => {
    expect(vocabulary.developerPriorityChartLabels).toEqual({ High: 'Critical', Medium: 'Major', Low: 'Minor' });
  });
});
