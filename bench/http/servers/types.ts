/** A benchmark server, listening on 127.0.0.1. */
export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}
