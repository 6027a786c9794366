// A service for specs of calls in flight: its methods begin (counted in `started`) and then wait
// until `release()`, as a downstream that hangs would; once `open`, they answer at once.
import { meta, method, service, t } from '../../index.ts';

export class Gate {
  readonly waiting: (() => void)[] = [];
  started = 0;
  open = false;
  getWait(): Promise<string> {
    this.started++;
    return this.open ? Promise.resolve('done') : new Promise((resolve) => this.waiting.push(() => resolve('done')));
  }
  hold(text: string): Promise<number> {
    this.started++;
    return this.open
      ? Promise.resolve(text.length)
      : new Promise((resolve) => this.waiting.push(() => resolve(text.length)));
  }
  release(): void {
    for (const go of this.waiting.splice(0)) go();
  }
}
meta(Gate, service({ getWait: method([], t.string()), hold: method([t.string()], t.u32()) }));
