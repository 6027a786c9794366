// The benchmark's targets (listed in bench/README.md), checked against one run's figures: codec ratios and the HTTP ratios.
import type { CaseResult } from './codecs.ts';
import type { HttpResults } from './http/bench.ts';
import { AUTH_ENDPOINT } from './http/data.ts';
import { roundRatio } from './http/ratio.ts';
import type { BunResults } from './runtimes/bench.ts';
import type { ClusterResults } from './cluster/bench.ts';
import { KIND_PAYLOADS, PAYLOADS } from './payloads.ts';

export interface TargetCheck {
  /** What is measured: `json.encode`, `HTTP req/s`, ... */
  readonly group: string;
  /** Against what, on which payload or endpoint. */
  readonly label: string;
  /** A ratio (unit `x`, higher is better) or a size (unit `MB`, lower is better). */
  readonly value: number;
  readonly target: number;
  readonly unit: 'x' | 'MB';
  readonly met: boolean;
}

/** "Small and medium payloads" of the json.encode target. */
const SMALL_AND_MEDIUM = new Set(['User', 'BookSearchResponse×10']);

/** The four records of scalars (bench/codecs.ts). */
const RECORDS: ReadonlySet<string> = new Set(PAYLOADS.map((p) => p.name));
/** The t.variant and t.timestamp payloads (bench/kinds.ts). */
const VARIANT_PAYLOADS: ReadonlySet<string> = new Set([KIND_PAYLOADS.shape.name, KIND_PAYLOADS.shapes.name]);
const TIMESTAMP_PAYLOADS: ReadonlySet<string> = new Set([KIND_PAYLOADS.event.name, KIND_PAYLOADS.events.name]);

const CODEC_TARGETS: readonly { operation: string; peer: string; target: number; payloads: ReadonlySet<string> }[] = [
  { operation: 'json encode', peer: 'fast-json-stringify', target: 1.0, payloads: SMALL_AND_MEDIUM },
  { operation: 'json encode', peer: 'JSON.stringify', target: 1.5, payloads: SMALL_AND_MEDIUM },
  { operation: 'json decode', peer: 'JSON.parse + TypeBox', target: 1.0, payloads: RECORDS },
  { operation: 'json decode', peer: 'JSON.parse (no checks)', target: 0.9, payloads: RECORDS },
  { operation: 'msgpack encode', peer: 'msgpackr', target: 1.0, payloads: RECORDS },
  { operation: 'msgpack decode', peer: '@msgpack/msgpack', target: 1.0, payloads: RECORDS },
  { operation: 'cbor encode', peer: 'cbor-x', target: 1.0, payloads: RECORDS },
  { operation: 'cbor decode', peer: 'cbor-x', target: 1.0, payloads: RECORDS },
  // t.variant, decoded strictly, against a parser followed by a strict discriminated-union check.
  { operation: 'json decode', peer: 'JSON.parse + TypeBox', target: 1.0, payloads: VARIANT_PAYLOADS },
  { operation: 'msgpack decode', peer: 'msgpackr + TypeBox', target: 2.0, payloads: VARIANT_PAYLOADS },
  { operation: 'msgpack decode', peer: 'msgpackr + Zod 4', target: 2.0, payloads: VARIANT_PAYLOADS },
  { operation: 'cbor decode', peer: 'cbor-x + TypeBox', target: 2.0, payloads: VARIANT_PAYLOADS },
  { operation: 'cbor decode', peer: 'cbor-x + Zod 4', target: 2.0, payloads: VARIANT_PAYLOADS },
  // t.timestamp in MessagePack against msgpackr's timestamp extension.
  { operation: 'msgpack encode', peer: 'msgpackr', target: 1.0, payloads: TIMESTAMP_PAYLOADS },
  { operation: 'msgpack decode', peer: 'msgpackr', target: 1.0, payloads: TIMESTAMP_PAYLOADS },
];

const ratio = (value: number, target: number, group: string, label: string): TargetCheck => ({
  group,
  label,
  value,
  target,
  unit: 'x',
  met: value >= target,
});

export function checkTargets(codecs: readonly CaseResult[], http: HttpResults | undefined): TargetCheck[] {
  const out: TargetCheck[] = [];
  for (const t of CODEC_TARGETS) {
    for (const c of codecs) {
      if (c.operation !== t.operation || !t.payloads.has(c.payload)) continue;
      const [ours, ...peers] = c.results;
      const peer = peers.find((p) => p.name === t.peer || p.name.startsWith(`${t.peer} `));
      if (ours === undefined || peer === undefined) continue;
      const group = t.operation.replace(' ', '.') + (t.operation.endsWith('decode') ? ' (strict)' : '');
      const peerName = peer.name.endsWith(' (no checks)')
        ? `bare ${peer.name.slice(0, -' (no checks)'.length)}`
        : peer.name;
      out.push(ratio(ours.opsPerSec / peer.opsPerSec, t.target, group, `vs ${peerName}, ${c.payload}`));
    }
  }
  if (http === undefined) return out;
  const cases = http.cases.map((c) => {
    const by = (name: string) => c.results.find((m) => m.name === name);
    return { endpoint: c.endpoint, json: by('lacquer json')!, msgpack: by('lacquer msgpack'), fastify: by('Fastify')! };
  });
  // req/s: every case, the auth one included; p99 and MessagePack: the three plain endpoints.
  const endpoints = cases.filter((e) => e.endpoint !== AUTH_ENDPOINT.name);
  for (const e of cases)
    out.push(ratio(roundRatio(e.json, e.fastify), 1.0, 'HTTP req/s', `lacquer/Fastify, ${e.endpoint}`));
  for (const e of endpoints)
    out.push(ratio(roundRatio(e.fastify, e.json, 'p99Ms'), 1.0, 'HTTP p99', `Fastify p99/lacquer p99, ${e.endpoint}`));
  for (const e of endpoints)
    out.push(ratio(roundRatio(e.msgpack!, e.json), 0.9, 'HTTP MessagePack', `msgpack/json req/s, ${e.endpoint}`));
  const m = http.memory;
  out.push({
    group: 'HTTP memory',
    label: `RSS growth of lacquer after ${m.requests.toLocaleString('en')} requests`,
    value: m.growthMB,
    target: 20,
    unit: 'MB',
    met: m.growthMB <= 20,
  });
  return out;
}

/** One line per target for the console: `✓ json.encode vs fast-json-stringify, User   1.05x (≥ 1.0x)`. */
export function targetLines(checks: readonly TargetCheck[]): string {
  const lines = ['\ntargets (✓ met, ✗ missed)'];
  for (const c of checks) {
    const value = c.unit === 'x' ? `${c.value.toFixed(2)}x` : `${c.value >= 0 ? '+' : ''}${c.value.toFixed(1)} MB`;
    const target = c.unit === 'x' ? `≥ ${c.target.toFixed(1)}x` : `≤ ${c.target} MB`;
    lines.push(`  ${c.met ? '✓' : '✗'} ${`${c.group} ${c.label}`.padEnd(72)} ${value.padStart(9)}  (${target})`);
  }
  const met = checks.filter((c) => c.met).length;
  lines.push(`  ${met} of ${checks.length} met`);
  return lines.join('\n');
}

/**
 * The targets of the parts after the HTTP bench: lacquer's fetch handler ≥ 1.0x Hono's req/s on Bun,
 * each endpoint; each cluster worker's RSS growth over the memory check within 20 MB. The cluster's
 * 2-against-1 ratio and the compression figures have no target (the load generator shares the cores).
 */
export function checkPartTargets(bun: BunResults | undefined, cluster: ClusterResults | undefined): TargetCheck[] {
  const out: TargetCheck[] = [];
  for (const c of bun?.cases ?? []) {
    const [ours, hono] = c.results;
    if (ours !== undefined && hono !== undefined)
      out.push(ratio(roundRatio(ours, hono), 1.0, 'Bun req/s', `lacquer fetch handler/Hono, ${c.endpoint}`));
  }
  for (const w of cluster?.memory ?? []) {
    out.push({
      group: 'cluster memory',
      label: `RSS growth of worker ${w.worker} of ${w.workers} after ${cluster!.memoryRequests.toLocaleString('en')} requests`,
      value: w.growthMB,
      target: 20,
      unit: 'MB',
      met: w.growthMB <= 20,
    });
  }
  return out;
}
