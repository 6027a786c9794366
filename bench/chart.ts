// bench/results.svg: a plain SVG bar chart (no chart library) of lacquer's ratios against the
// benchmark's targets. One bar per target; green when met, red when missed; a tick marks the target.
import type { TargetCheck } from './targets.ts';

const ROW = 20;
const HEADER = 26;
const LABEL_X = 16;
const PLOT_X = 395;
const PLOT_W = 420;
const WIDTH = PLOT_X + PLOT_W + 130;
const MET = '#2e8b57';
const MISSED = '#d1495b';
const INK = '#222';
const GRID = '#ddd';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (x: number, y: number, s: string, attrs = '') => `<text x="${x}" y="${y}"${attrs}>${escape(s)}</text>`;

/** The chart; `subtitle` says which run (machine, Node, date, mode). */
export function renderChart(checks: readonly TargetCheck[], title: string, subtitle: string): string {
  const bars = checks.filter((c) => c.unit === 'x');
  const notes = checks.filter((c) => c.unit !== 'x');
  const peak = Math.max(2, ...bars.map((c) => Math.max(c.value, c.target)));
  const xmax = Math.min(4, Math.ceil(peak * 2) / 2);
  const x = (v: number) => PLOT_X + (Math.min(v, xmax) / xmax) * PLOT_W;

  const body: string[] = [];
  let y = 70;
  let group = '';
  const top = y;
  for (const c of bars) {
    if (c.group !== group) {
      group = c.group;
      y += HEADER - ROW;
      body.push(text(LABEL_X, y + 12, group, ' font-weight="bold"'));
      y += ROW;
    }
    const w = Math.max(1, x(c.value) - PLOT_X);
    const clipped = c.value > xmax;
    body.push(text(LABEL_X + 12, y + 12, c.label));
    body.push(`<rect x="${PLOT_X}" y="${y + 3}" width="${w.toFixed(1)}" height="12" fill="${c.met ? MET : MISSED}"/>`);
    if (clipped)
      body.push(`<path d="M${x(xmax) - 6},${y + 1} l8,8 l-8,8" fill="none" stroke="${INK}" stroke-width="1.5"/>`);
    body.push(
      `<line x1="${x(c.target)}" x2="${x(c.target)}" y1="${y}" y2="${y + 18}" stroke="${INK}" stroke-width="2"/>`,
    );
    body.push(
      text(
        PLOT_X + PLOT_W + 10,
        y + 13,
        `${c.value.toFixed(2)}x  (≥ ${c.target.toFixed(1)}x)`,
        c.met ? '' : ` fill="${MISSED}"`,
      ),
    );
    y += ROW;
  }
  const bottom = y + 4;

  const grid: string[] = [];
  for (let v = 0; v <= xmax + 1e-9; v += 0.5) {
    const one = v === 1;
    grid.push(
      `<line x1="${x(v)}" x2="${x(v)}" y1="${top}" y2="${bottom}" stroke="${one ? INK : GRID}" stroke-width="${one ? 1.5 : 1}"${one ? ' stroke-dasharray="4 3"' : ''}/>`,
    );
    grid.push(text(x(v), top - 6, `${v.toFixed(1)}x`, ` text-anchor="middle"${one ? ' font-weight="bold"' : ''}`));
    grid.push(text(x(v), bottom + 14, `${v.toFixed(1)}x`, ' text-anchor="middle"'));
  }

  let footY = bottom + 40;
  const foot: string[] = [];
  for (const n of notes) {
    const value = `${n.value >= 0 ? '+' : ''}${n.value.toFixed(1)} MB`;
    foot.push(
      text(
        LABEL_X,
        footY,
        `${n.met ? '✓' : '✗'} ${n.group}: ${n.label}: ${value} (limit ${n.target} MB)`,
        n.met ? '' : ` fill="${MISSED}"`,
      ),
    );
    footY += ROW;
  }
  const legend =
    `<rect x="${LABEL_X}" y="${footY - 10}" width="12" height="12" fill="${MET}"/>${text(LABEL_X + 18, footY, 'target met')}` +
    `<rect x="${LABEL_X + 110}" y="${footY - 10}" width="12" height="12" fill="${MISSED}"/>${text(LABEL_X + 128, footY, 'target missed')}` +
    `<line x1="${LABEL_X + 240}" x2="${LABEL_X + 240}" y1="${footY - 12}" y2="${footY + 4}" stroke="${INK}" stroke-width="2"/>${text(LABEL_X + 248, footY, 'the target')}` +
    text(LABEL_X + 340, footY, `ratios: lacquer ÷ peer, higher is better; bars beyond ${xmax}x are cut (›)`);
  const height = footY + 20;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12" fill="${INK}">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    text(LABEL_X, 24, title, ' font-size="16" font-weight="bold"'),
    text(LABEL_X, 42, subtitle, ' fill="#555"'),
    ...grid,
    ...body,
    ...foot,
    legend,
    '</svg>',
    '',
  ].join('\n');
}
