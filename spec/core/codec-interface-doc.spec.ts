// docs/custom-codecs.md shows the `Codec` interface a codec of your own implements: its members
// must be those of core/codec.ts, signature for signature (comments aside).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The member signatures of the first `interface Codec { … }` in `text`, comments and spacing aside. */
function codecMembers(text: string): string[] {
  const body = /interface Codec \{\n([\s\S]*?)\n\}/.exec(text)?.[1];
  if (body === undefined) return expect.fail('no interface Codec { … } found');
  return body
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) =>
      line
        .replace(/\/\/.*$/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((line) => line !== '');
}

describe('docs/custom-codecs.md', () => {
  it('shows the Codec interface of core/codec.ts', () => {
    const source = codecMembers(readFileSync(`${root}/core/codec.ts`, 'utf8'));
    const docs = codecMembers(readFileSync(`${root}/docs/custom-codecs.md`, 'utf8'));
    expect(source).to.have.length.greaterThan(3);
    expect(docs).to.deep.equal(source);
  });
});
