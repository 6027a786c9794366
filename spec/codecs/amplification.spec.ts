// Decode amplification: inputs that are small on the wire and huge once read (a megabyte of CBOR
// empty byte strings is a million Uint8Arrays, 200 MB of heap). Each case decodes one in a child
// process with a small heap (spec/support/amplification-child.ts): the child must survive, give
// the expected outcome, and stay within loose time and memory bounds. The bounds are crash guards
// for slow CI machines, not benchmarks; the real figures are in the comments.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('../support/amplification-child.ts', import.meta.url));
const MiB = 1024 * 1024;

interface Case {
  readonly input: string;
  readonly descriptor: string;
  /** The ReadError code, or `value` for a decode that succeeds. */
  readonly outcome: string;
  /** `--max-old-space-size` of the child, in MiB. */
  readonly heapLimit: number;
  /** Largest heap growth while decoding, in MiB. */
  readonly maxPeakMiB: number;
  readonly maxMs: number;
}

interface Result {
  readonly outcome: string;
  readonly ms: number;
  readonly peakMiB: number;
}

/** Runs one decode in a child; rejects when the child dies (heap exhausted, any crash). */
function runChild(input: string, size: number, descriptor: string, heapLimit: number): Promise<Result> {
  const args = [
    '--expose-gc',
    '--trace-gc',
    `--max-old-space-size=${heapLimit}`,
    '--import',
    'tsx',
    child,
    input,
    String(size),
    descriptor,
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 64 * MiB, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the child died (${error.message.split('\n')[0]}): ${stderr.slice(-2000)}`));
      const lines = stdout.split('\n');
      const start = lines.indexOf('decode-start');
      const end = lines.findIndex((l) => l.startsWith('decode-end '));
      if (start < 0 || end < 0) return reject(new Error(`no result from the child: ${stdout.slice(-2000)}`));
      const r = JSON.parse(lines[end]!.slice('decode-end '.length)) as {
        outcome: string;
        ms: number;
        heapBefore: number;
        heapAfter: number;
      };
      // The heap in use before each collection during the decode (--trace-gc: "Scavenge 29.9 (50.0) -> 7.1 (41.5) MB").
      let peak = r.heapAfter;
      for (const line of lines.slice(start + 1, end)) {
        const m =
          /: (?:Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact|Mark-Compact \(reduce\))[^:]*?\s([\d.]+) \([\d.]+\) ->/.exec(
            line,
          );
        if (m) peak = Math.max(peak, Number(m[1]) * MiB);
      }
      resolve({
        outcome: r.outcome.startsWith('value') ? 'value' : r.outcome,
        ms: r.ms,
        peakMiB: Math.max(0, peak - r.heapBefore) / MiB,
      });
    });
  });
}

// Figures measured on a 2-core machine shared with other work, warm (after three decodes of 256 KiB):
// CBOR 9f 40…ff for t.u64() fails in 10 ms with no growth, and for t.array(t.bytes()) with
// limit_exceeded in 20-70 ms and ~13 MB, where a decoder that builds every item first takes
// 0.8-2.2 s and 200 MB, and gives a value for t.array(t.bytes()) after 0.8 s and 215 MB.
const ONE_MIB: Case[] = [
  {
    input: 'cbor-empty-bytes',
    descriptor: 'u64',
    outcome: 'type_mismatch',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'cbor-empty-bytes',
    descriptor: 'object',
    outcome: 'type_mismatch',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'cbor-empty-bytes',
    descriptor: 'array-of-bytes',
    outcome: 'limit_exceeded',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'cbor-empty-bytes',
    descriptor: 'array-of-objects',
    outcome: 'type_mismatch',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'cbor-empty-maps',
    descriptor: 'array-of-objects',
    outcome: 'limit_exceeded',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  { input: 'cbor-empty-chunks', descriptor: 'bytes', outcome: 'value', heapLimit: 128, maxPeakMiB: 64, maxMs: 200 },
  {
    input: 'cbor-empty-chunks',
    descriptor: 'u64',
    outcome: 'type_mismatch',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'msgpack-empty-maps',
    descriptor: 'u64',
    outcome: 'type_mismatch',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'msgpack-empty-maps',
    descriptor: 'object',
    outcome: 'type_mismatch',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'msgpack-empty-maps',
    descriptor: 'array-of-objects',
    outcome: 'limit_exceeded',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  { input: 'msgpack-array16', descriptor: 'u64', outcome: 'type_mismatch', heapLimit: 128, maxPeakMiB: 64, maxMs: 200 },
  {
    input: 'json-empty-objects',
    descriptor: 'u64',
    outcome: 'limit_exceeded',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'json-empty-objects',
    descriptor: 'object',
    outcome: 'limit_exceeded',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'json-empty-objects',
    descriptor: 'array-of-objects',
    outcome: 'limit_exceeded',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'json-empty-strings',
    descriptor: 'array-of-bytes',
    outcome: 'limit_exceeded',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
  {
    input: 'json-empty-strings',
    descriptor: 'u64',
    outcome: 'type_mismatch',
    heapLimit: 128,
    maxPeakMiB: 64,
    maxMs: 200,
  },
];

// 32 MiB (half the default maxBytes). Refused by kind: nothing is built, a 96 MiB heap is plenty.
// Accepted by the descriptor: built up to the maxItems default for 32 MiB (2 million items), some
// 100-160 MB, so 256 MiB of heap; the target is never more than 10 times the input.
const THIRTY_TWO_MIB: Case[] = [
  {
    input: 'cbor-empty-bytes',
    descriptor: 'u64',
    outcome: 'type_mismatch',
    heapLimit: 96,
    maxPeakMiB: 32,
    maxMs: 5000,
  },
  {
    input: 'cbor-empty-bytes',
    descriptor: 'array-of-objects',
    outcome: 'type_mismatch',
    heapLimit: 96,
    maxPeakMiB: 32,
    maxMs: 5000,
  },
  {
    input: 'cbor-empty-bytes',
    descriptor: 'array-of-bytes',
    outcome: 'limit_exceeded',
    heapLimit: 256,
    maxPeakMiB: 320,
    maxMs: 5000,
  },
  {
    input: 'cbor-empty-maps',
    descriptor: 'array-of-objects',
    outcome: 'limit_exceeded',
    heapLimit: 256,
    maxPeakMiB: 320,
    maxMs: 5000,
  },
  {
    input: 'msgpack-empty-maps',
    descriptor: 'u64',
    outcome: 'type_mismatch',
    heapLimit: 96,
    maxPeakMiB: 32,
    maxMs: 5000,
  },
  {
    input: 'msgpack-empty-maps',
    descriptor: 'object',
    outcome: 'type_mismatch',
    heapLimit: 96,
    maxPeakMiB: 32,
    maxMs: 5000,
  },
  {
    input: 'msgpack-empty-maps',
    descriptor: 'array-of-objects',
    outcome: 'limit_exceeded',
    heapLimit: 256,
    maxPeakMiB: 320,
    maxMs: 5000,
  },
  // The text itself is 32 MB of heap (and as much again while the child builds it): 256 MiB.
  {
    input: 'json-empty-objects',
    descriptor: 'u64',
    outcome: 'limit_exceeded',
    heapLimit: 256,
    maxPeakMiB: 320,
    maxMs: 5000,
  },
  {
    input: 'json-empty-objects',
    descriptor: 'array-of-objects',
    outcome: 'limit_exceeded',
    heapLimit: 256,
    maxPeakMiB: 320,
    maxMs: 5000,
  },
  {
    input: 'json-empty-strings',
    descriptor: 'array-of-bytes',
    outcome: 'limit_exceeded',
    heapLimit: 256,
    maxPeakMiB: 320,
    maxMs: 5000,
  },
];

describe('codecs: decode amplification (child processes with a small heap)', function () {
  this.timeout(90_000);
  for (const [size, cases] of [
    [MiB, ONE_MIB],
    [32 * MiB, THIRTY_TWO_MIB],
  ] as const) {
    for (const c of cases) {
      const name = `${size / MiB} MiB of ${c.input} for ${c.descriptor}: ${c.outcome}, < ${c.maxMs} ms, < ${c.maxPeakMiB} MiB of heap, under --max-old-space-size=${c.heapLimit}`;
      it(name, async () => {
        const r = await runChild(c.input, size, c.descriptor, c.heapLimit);
        expect(r.outcome).to.equal(c.outcome);
        expect(r.ms, 'milliseconds').to.be.below(c.maxMs);
        expect(r.peakMiB, 'MiB of heap at the peak').to.be.below(c.maxPeakMiB);
      });
    }
  }
});
