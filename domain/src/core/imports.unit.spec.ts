import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('the core', () => {
  // Features build on the envelope; an envelope that imported a feature's types would tie every
  // feature to that one (issue 34). A feature's metadata is JSON here and typed where it is read.
  it('imports nothing from a feature, not even types', () => {
    const sources = readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    const outward = sources.flatMap((file) =>
      [...readFileSync(path.join(here, file), 'utf8').matchAll(/from\s+'(\.\.\/[^']*)'/g)].map(
        ([, specifier]) => `${file}: ${specifier}`,
      ),
    );
    expect(outward).toEqual([]);
  });
});
