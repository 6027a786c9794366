// Decompression bombs against HttpServer, each in a child process whose peak RSS is its own
// (spec/transports/http/bomb-child.ts): 128 MiB of zeros in 130 KB of gzip or deflate, or in 200
// bytes of brotli, against the default 1 MiB limit, must be a 413 that never inflates past the
// limit. The peak RSS is a high-water mark, so the check does not depend on sampling or timing;
// the control case (a limit above the bomb) shows the same measure sees a body inflated whole.
// Measured on a 2-core machine: growth 0-3 MiB and 4-30 ms for the bombs, 225 MiB and 0.6 s for
// the control.
import { expect } from 'chai';
import { runBombChild } from './bomb-child.ts';

const MiB = 1024 * 1024;

describe('transports/http decompression bombs (child processes)', function () {
  this.timeout(60_000);
  for (const coding of ['gzip', 'deflate', 'br'] as const) {
    it(`a ${coding} bomb of 128 MiB is a 413, the peak RSS growing by under 32 MiB`, async () => {
      const r = await runBombChild('http', coding, 128, MiB);
      expect(r.status).to.equal(413);
      expect(r.wireBytes).to.be.below(MiB);
      expect(r.growthMiB, 'MiB of peak RSS growth').to.be.below(32);
      expect(r.ms, 'milliseconds (a crash guard, not a benchmark)').to.be.below(5000);
    });
  }
  it('control: with a limit above the bomb, the same measure sees it inflated whole (over 100 MiB)', async () => {
    const r = await runBombChild('http', 'gzip', 128, 1024 * MiB);
    expect(r.status).to.equal(400);
    expect(r.growthMiB).to.be.above(100);
  });
});
